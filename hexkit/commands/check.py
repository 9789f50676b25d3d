"""``hexkit check FILE...``: run instructors' scenario files (see :mod:`hexkit.tools.scenarios`).

With plugin folders (``hexkit --plugins-dir student/ check course/``) the plugins found
there are the plugins under test: their games are the ones checked, in place of an
installed game of the same name, and a scenario whose game would come from anywhere else
stops the command before anything runs (a student's broken plugin must not let the
scenarios pass against the built-in game).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import IO

from hexkit import plugins
from hexkit.errors import ConfigError, HexkitError
from hexkit.tools.scenarios import Scenario, ScenarioFailure, load_scenarios, run_scenario

#: Default deadline of one call into the plugin's code (seconds).
DEFAULT_TIME_LIMIT = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit check``."""
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="scenario files (.yaml), or folders of them")
    parser.add_argument("--game", default=None, metavar="NAME",
                        help="check this game instead of the one each scenario names (its "
                             "options are kept): a plugin under test may use any name")
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help="deadline of each move or fact, in the plugin's code "
                             f"(default {DEFAULT_TIME_LIMIT:g}; 0: none)")


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


class NotUnderTest(HexkitError):
    """A scenario would check a game that the plugins under test do not provide."""


def _registry(files: list[tuple[Path, list[Scenario] | ConfigError]],
              game: str | None) -> plugins.Registry:
    """The registry to check with: the plugins under test first, when there are any."""
    if not plugins.configured_dirs():
        return plugins.registry()
    registry = plugins.build_registry(plugin_dirs=plugins.configured_dirs(), use_env=False,
                                      prefer_folders=True)
    tested = {name for name, spec in registry.games.items()
              if spec.plugin in registry.under_test}
    broken = [str(p) for p in registry.problems
              if p.plugin in registry.from_folders or p.plugin in plugins.configured_dirs()]
    why = f" ({'; '.join(broken)})" if broken else ""
    for path, scenarios in files:
        if isinstance(scenarios, ConfigError):
            continue
        for scenario in scenarios:
            name = game or plugins.parse_game_string(scenario.game)[0]
            source = registry.games.get(name)
            if name in tested or source is None:
                continue  # an unknown game fails its scenarios, one by one
            offered = ", ".join(sorted(tested)) or "no game"
            where = f"from the installed plugin '{source.plugin}'"
            hint = f"; check theirs with --game {sorted(tested)[0]}" if len(tested) == 1 \
                else ""
            raise NotUnderTest(
                f"{path}:{scenario.line}: game '{name}' would come {where}, not from the "
                f"plugins under test, which register {offered}{why}{hint}")
    return registry


def run(args: argparse.Namespace, stdout: IO[str] | None = None) -> int:
    """Run every scenario of every file; 1 if any failed."""
    out = stdout or sys.stdout
    passed = failed = 0
    files: list[tuple[Path, list[Scenario] | ConfigError]] = []
    for path in _expand(args.files):
        try:
            files.append((path, load_scenarios(path)))
        except ConfigError as exc:
            files.append((path, exc))
    game = getattr(args, "game", None)
    limit = getattr(args, "time_limit", DEFAULT_TIME_LIMIT) or None
    registry = _registry(files, game)
    for _path, scenarios in files:
        if isinstance(scenarios, ConfigError):
            failed += 1
            for line in str(scenarios).splitlines():
                print(f"FAIL {line}", file=out)
            continue
        for scenario in scenarios:
            if game:
                scenario.game = _renamed(scenario.game, game)
            try:
                run_scenario(scenario, registry, time_limit=limit)
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


def _renamed(game_string: str, name: str) -> str:
    """``focus(board=cross)`` as ``NAME(board=cross)``."""
    _base, sep, rest = game_string.partition("(")
    return f"{name}{sep}{rest}"
