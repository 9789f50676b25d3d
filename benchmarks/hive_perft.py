"""Hive perft speed: hexkit's Hive against MzingaCpp, Base perft(5) and perft(6), one run.

Bulk perft from the initial position is the standard speed measure of Hive engines. Both
engines are driven the same way, through the Universal Hive Protocol (``newgame Base``,
``perft N``): MzingaCpp (built with CMake outside the repository if missing) and
``hexkit uhp``. The counts must agree (and match spec §8); the figure is nodes per CPU
second of each engine's process (read from /proc; wall time where there is none), the runs
of the two engines interleaved (``--repeat`` rounds, the order alternating, the median
kept), and hexkit's rate as a fraction of MzingaCpp's (issue 27's target: at least 1/4).

    python benchmarks/hive_perft.py [--depths 5 6] [--game-type Base] [--repeat 3]

Base perft(6) is 12,219,480 leaves (both engines agree; spec §8 stops at 5): about half a
minute for hexkit here; ``--depths 5`` alone takes seconds.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
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

#: Spec §8 (Mzinga's tables); deeper counts are checked by the two engines agreeing.
KNOWN = {"Base": {1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240},
         "Base+M": {5: 1252800}, "Base+L": {5: 1252800}, "Base+P": {5: 1255932},
         "Base+MLP": {5: 5427108}}


def hexkit_command() -> list[str]:
    """``hexkit uhp`` from this Python's environment."""
    exe = Path(sys.executable).with_name("hexkit")
    return [str(exe), "uhp"] if exe.exists() else [shutil.which("hexkit") or "hexkit", "uhp"]


def process_seconds(engine: UhpEngine) -> float | None:
    """CPU seconds (user + system) the engine's process has used, or None without /proc."""
    try:
        fields = Path(f"/proc/{engine.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def timed_perft(engine: UhpEngine, game_type: str, depth: int) -> tuple[int, float]:
    """Leaves at ``depth`` from the start of ``game_type`` and the seconds the engine took
    (its CPU time around the one ``perft`` command, or the wall clock without /proc; depths
    below ``depth`` included as every UHP engine counts them too)."""
    engine.ask_line(f"newgame {game_type}")
    cpu = process_seconds(engine)
    began = time.perf_counter()
    lines = engine.ask(f"perft {depth}", timeout=None)
    took = time.perf_counter() - began
    if cpu is not None:
        after = process_seconds(engine)
        took = after - cpu if after is not None else took
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
    p.add_argument("--repeat", type=int, default=3,
                   help="rounds per depth, the engines interleaved; the median is kept")
    args = p.parse_args(argv)
    mzinga = args.engine or str(mzinga_path(build=True))
    commands = {"MzingaCpp": [mzinga], "hexkit": hexkit_command()}
    rates: dict[tuple[str, int], float] = {}
    counts: dict[tuple[str, int], int] = {}
    ok = True
    with UhpEngine(commands["MzingaCpp"]) as mz, UhpEngine(commands["hexkit"]) as hk:
        engines = {"MzingaCpp": mz, "hexkit": hk}
        for depth in args.depths:
            took: dict[str, list[float]] = {"MzingaCpp": [], "hexkit": []}
            for r in range(args.repeat):
                order = list(engines) if r % 2 == 0 else list(reversed(engines))
                for name in order:
                    nodes, seconds = timed_perft(engines[name], args.game_type, depth)
                    counts[name, depth] = nodes
                    took[name].append(seconds)
            for name in engines:
                nodes = counts[name, depth]
                seconds = statistics.median(took[name])
                rate = nodes / seconds if seconds > 0 else float("inf")
                rates[name, depth] = rate
                known = KNOWN.get(args.game_type, {}).get(depth)
                check = "" if known is None else (" (as spec)" if nodes == known else
                                                  f" WRONG: expected {known:,}")
                ok &= known is None or nodes == known
                print(f"{name:9} {args.game_type} perft({depth}) = {nodes:,} in {seconds:.2f} "
                      f"CPU s: {rate:,.0f} nodes/s{check}", flush=True)
    for depth in args.depths:
        if counts["hexkit", depth] != counts["MzingaCpp", depth]:
            print(f"perft({depth}): the engines DISAGREE")
            ok = False
        ratio = rates["hexkit", depth] / rates["MzingaCpp", depth]
        print(f"perft({depth}): hexkit runs at 1/{1 / ratio:.1f} of MzingaCpp's rate "
              f"({ratio:.3f}; target >= 1/4 = 0.25)")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
