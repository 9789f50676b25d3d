"""``hexkit check FILE...``: run instructors' scenario files (see :mod:`hexkit.scenarios`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from hexkit.errors import ConfigError
from hexkit.scenarios import ScenarioFailure, load_scenarios, run_scenario


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit check``."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="scenario files (.yaml), or folders of them")


def _expand(names: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for name in names:
        path = Path(name)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*") if p.suffix.lower() in (".yaml", ".yml"))
            if not found:
                raise ConfigError("no scenario files (.yaml) in this folder", path)
            out.extend(found)
        else:
            out.append(path)
    return out


def run(args: argparse.Namespace, stdout: IO[str] | None = None) -> int:
    """Run every scenario of every file; 1 if any failed."""
    out = stdout or sys.stdout
    passed = failed = 0
    for path in _expand(args.files):
        try:
            scenarios = load_scenarios(path)
        except ConfigError as exc:
            failed += 1
            for line in str(exc).splitlines():
                print(f"FAIL {line}", file=out)
            continue
        for scenario in scenarios:
            try:
                run_scenario(scenario)
            except ScenarioFailure as exc:
                failed += 1
                print(f"FAIL {scenario.file}:{exc.line} {scenario.name}: {exc}", file=out)
                continue
            except Exception as exc:  # a bug in the plugin under test fails the scenario only
                failed += 1
                print(f"FAIL {scenario.where} {scenario.name}: error: "
                      f"{type(exc).__name__}: {exc}", file=out)
                continue
            passed += 1
            print(f"ok   {scenario.where} {scenario.name}", file=out)
    print(f"{passed} passed, {failed} failed", file=out)
    return 1 if failed else 0
