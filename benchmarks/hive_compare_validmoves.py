"""hexkit's Hive against MzingaCpp, position by position, with uhp-utils' validmoves
comparison (unchanged): the reference games of tests/hive/data are replayed move by move in
both engines (``--full-game``) and every position's move list must be the same.

    python benchmarks/hive_compare_validmoves.py [--every 25]

Needs uhp-utils (``pip install uhp-utils``, in the test extra); MzingaCpp is built with
CMake outside the repository if missing.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from hive_mzinga import mzinga_path  # noqa: E402
from hive_perft import hexkit_command  # noqa: E402

DATA = ROOT / "tests" / "hive" / "data" / "reference_positions.json"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--every", type=int, default=25, help="take every Nth reference position")
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build)")
    args = p.parse_args(argv)
    tool = Path(sys.executable).with_name("uhp-compare-validmoves")
    if not tool.exists():
        tool = Path(shutil.which("uhp-compare-validmoves") or tool)
    if not tool.exists():
        raise SystemExit("needs uhp-utils: pip install uhp-utils")
    mzinga = args.engine or str(mzinga_path(build=True))
    positions = json.loads(DATA.read_text(encoding="utf-8"))["positions"]
    games = [p["game_string"] for p in positions[::args.every]]
    hexkit, *hexkit_args = hexkit_command()
    with tempfile.TemporaryDirectory() as tmp:
        listing = Path(tmp) / "games.txt"
        listing.write_text("\n".join(games) + "\n", encoding="utf-8")
        command = [str(tool), hexkit, mzinga, str(listing), "--full-game", "-t", "300"]
        command += [x for a in hexkit_args for x in ("--engine-a-arg", a)]
        print(f"{len(games)} reference games, every position: {' '.join(command[1:])}",
              flush=True)
        return subprocess.run(command).returncode


if __name__ == "__main__":
    raise SystemExit(main())
