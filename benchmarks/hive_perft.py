"""Hive perft speed: hexkit's Hive against MzingaCpp, Base perft(5) and perft(6), one run.

Bulk perft from the initial position is the standard speed measure of Hive engines. Both
engines are driven the same way, through the Universal Hive Protocol (``newgame Base``,
``perft N``): MzingaCpp (built with CMake outside the repository if missing) and
``hexkit uhp``. The counts must agree (and match spec §8); the figure is nodes per second
at each depth and hexkit's rate as a fraction of MzingaCpp's (target at least 1/20).

    python benchmarks/hive_perft.py [--depths 5 6] [--game-type Base]

Base perft(6) is 14,843,904 leaves: several minutes for a Python engine; ``--depths 5``
alone takes seconds to a minute.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import hive.uhp_client  # noqa: F401  (installed with hexkit)
except ImportError:  # run from a checkout without the install
    sys.path.insert(0, str(ROOT / "plugins"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from hive.uhp_client import UhpEngine  # noqa: E402
from hive_mzinga import mzinga_path  # noqa: E402

#: Spec §8 (Mzinga's tables), Base, and Base perft(6).
KNOWN = {"Base": {1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240, 6: 14843904}}


def hexkit_command() -> list[str]:
    """``hexkit uhp`` from this Python's environment."""
    exe = Path(sys.executable).with_name("hexkit")
    return [str(exe), "uhp"] if exe.exists() else [shutil.which("hexkit") or "hexkit", "uhp"]


def timed_perft(engine: UhpEngine, game_type: str, depth: int) -> tuple[int, float]:
    """Leaves at ``depth`` from the start of ``game_type`` and the seconds the engine took
    (wall clock around the one ``perft`` command, depths below ``depth`` included as
    every UHP engine counts them too)."""
    engine.ask_line(f"newgame {game_type}")
    began = time.perf_counter()
    lines = engine.ask(f"perft {depth}", timeout=None)
    took = time.perf_counter() - began
    counts = {}
    for line in lines:
        head, _, rest = line.partition("=")
        d = int(head.strip()[len("perft("):-1])
        counts[d] = int(rest.split()[0])
    return counts[depth], took


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depths", type=int, nargs="+", default=[5, 6])
    p.add_argument("--game-type", default="Base")
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build)")
    args = p.parse_args(argv)
    mzinga = args.engine or str(mzinga_path(build=True))
    engines = {"MzingaCpp": [mzinga], "hexkit": hexkit_command()}
    rates: dict[tuple[str, int], float] = {}
    ok = True
    for name, command in engines.items():
        with UhpEngine(command) as engine:
            for depth in args.depths:
                nodes, took = timed_perft(engine, args.game_type, depth)
                rate = nodes / took if took > 0 else float("inf")
                rates[name, depth] = rate
                known = KNOWN.get(args.game_type, {}).get(depth)
                check = "" if known is None else (" (as spec)" if nodes == known else
                                                  f" WRONG: expected {known:,}")
                ok &= known is None or nodes == known
                print(f"{name:9} {args.game_type} perft({depth}) = {nodes:,} in {took:.2f} s: "
                      f"{rate:,.0f} nodes/s{check}", flush=True)
    for depth in args.depths:
        ratio = rates["hexkit", depth] / rates["MzingaCpp", depth]
        print(f"perft({depth}): hexkit runs at 1/{1 / ratio:.1f} of MzingaCpp's rate "
              f"({ratio:.3f}; target >= 1/20 = 0.05)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
