"""MzingaCpp in a seat of ``hexkit match`` through the ``uhp:COMMAND`` bot: the ``hive`` bot
against MzingaCpp, seats rotating, every game refereed by hexkit's own rules.

    python benchmarks/hive_uhp_seat.py [--games 4] [--time 1] [-o expansions=MLP]

Prints ``hexkit match``'s summary (JSON): wins, draws, losses, and any game adjudicated
because a seat crashed, timed out or played an illegal move (there should be none).
MzingaCpp is built with CMake outside the repository if missing.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from hive_mzinga import mzinga_path  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--time", type=float, default=1.0, help="seconds a move, both sides")
    p.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build)")
    args = p.parse_args(argv)
    mzinga = args.engine or str(mzinga_path(build=True))
    command = [sys.executable, "-m", "hexkit", "match", "hive",
               *[x for o in args.option for x in ("-o", o)],
               "--p1", f"hive:time={args.time:g}", "--p2", f"uhp:time={args.time:g}:{mzinga}",
               "--games", str(args.games), "--seed", "1", "--max-moves", "200", "--json",
               "--quiet"]
    print(" ".join(command[2:]), flush=True)
    r = subprocess.run(command, capture_output=True, text=True)
    if r.returncode != 0:
        print(r.stderr, file=sys.stderr)
        return r.returncode
    summary = json.loads(r.stdout)
    print(json.dumps(summary, indent=1))
    return 0 if not summary["adjudicated"] and not summary["errors"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
