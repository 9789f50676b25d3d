"""Hive perft speed: hexkit's Hive against MzingaCpp, side by side in one run.

Bulk perft (the last ply's moves counted, not played) is the standard speed measure of Hive
engines. Both engines are driven the same way, through the Universal Hive Protocol
(``newgame GameTypeString`` or ``newgame GameString``, then ``perft N``): MzingaCpp (built
with CMake outside the repository if missing) and ``hexkit uhp``. The counts must agree
(and match spec §8 where it has them); the figure is leaves per CPU second of each engine's
process (read from /proc; wall time where there is none; /proc counts in 10 ms ticks, so
give each run at least a second or so), the runs of the two engines interleaved
(``--repeat`` rounds, the order alternating, the median kept), and hexkit's rate against
MzingaCpp's (issue 27's target: at least 1/4).

    python benchmarks/hive_perft.py [--depths 5 6] [--game-type Base [Base+M ...]]
        [--game-string 'Base+MLP;InProgress;...'] [--repeat 3] [--engine MZINGACPP]

From the start, the first plies are mostly placements; ``--game-string`` counts from a
position in the middle of a game, where the pieces' moves make most of the leaves. Every
game type to depth 4 (the counts checked against MzingaCpp's) takes a few seconds:
``--game-type Base Base+M Base+L Base+P Base+ML Base+MP Base+LP Base+MLP --depths 4``.
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

from hive.uhp_client import UhpEngine, UhpEngineError  # noqa: E402
from hive_mzinga import mzinga_path  # noqa: E402

#: Spec §8 (Mzinga's tables) from the start; other counts are checked by the two engines
#: agreeing.
KNOWN = {"Base": {1: 4, 2: 96, 3: 1440, 4: 21600, 5: 516240},
         "Base+M": {1: 5, 2: 150, 3: 2610, 4: 45414, 5: 1252800},
         "Base+L": {1: 5, 2: 150, 3: 2610, 4: 45414, 5: 1252800},
         "Base+P": {1: 5, 2: 150, 3: 2610, 4: 45414, 5: 1255932},
         "Base+ML": {1: 6, 2: 216, 3: 4320, 4: 86400},
         "Base+MP": {1: 6, 2: 216, 3: 4320, 4: 86400},
         "Base+LP": {1: 6, 2: 216, 3: 4320, 4: 86400},
         "Base+MLP": {1: 7, 2: 294, 3: 6678, 4: 151686, 5: 5427108}}


#: How long a perft may take (the client's default is for short answers).
NO_LIMIT = 7 * 24 * 3600.0


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


def timed_perft(engine: UhpEngine, start: str, depth: int) -> tuple[int, float]:
    """Leaves at ``depth`` from ``start`` (a GameTypeString or a GameString) and the seconds
    the engine took (its CPU time around the one ``perft`` command, or the wall clock
    without /proc; depths below ``depth`` included as every UHP engine counts them too)."""
    engine.ask_line(f"newgame {start}")
    cpu = process_seconds(engine)
    began = time.perf_counter()
    lines = engine.ask(f"perft {depth}", timeout=NO_LIMIT)
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


def ratio_text(ratio: float) -> str:
    """hexkit's rate against MzingaCpp's, in words."""
    if ratio >= 1:
        return f"{ratio:.1f} times MzingaCpp's rate"
    return f"1/{1 / ratio:.1f} of MzingaCpp's rate"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depths", type=int, nargs="+", default=[5, 6])
    p.add_argument("--game-type", nargs="+", default=["Base"], metavar="TYPE",
                   help="count from the start of each of these game types (default Base)")
    p.add_argument("--game-string", action="append", default=[], metavar="GAMESTRING",
                   help="count from this position instead (repeatable)")
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build)")
    p.add_argument("--repeat", type=int, default=3,
                   help="rounds per depth, the engines interleaved; the median is kept")
    args = p.parse_args(argv)
    try:
        return compare(args)
    except UhpEngineError as e:
        print(f"hive_perft: {e}", file=sys.stderr)
        return 2


def compare(args: argparse.Namespace) -> int:
    """Run the rounds and print the figures; 0 when every count agrees."""
    mzinga = args.engine or str(mzinga_path(build=True))
    commands = {"MzingaCpp": [mzinga], "hexkit": hexkit_command()}
    starts = args.game_string or args.game_type
    ok = True
    summary = []
    with UhpEngine(commands["MzingaCpp"]) as mz, UhpEngine(commands["hexkit"]) as hk:
        engines = {"MzingaCpp": mz, "hexkit": hk}
        for start in starts:
            label = start if len(start) < 40 else f"{start[:37]}..."
            known = {} if args.game_string else KNOWN.get(start, {})
            for depth in args.depths:
                took: dict[str, list[float]] = {"MzingaCpp": [], "hexkit": []}
                counts: dict[str, int] = {}
                for r in range(args.repeat):
                    order = list(engines) if r % 2 == 0 else list(reversed(engines))
                    for name in order:
                        counts[name], seconds = timed_perft(engines[name], start, depth)
                        took[name].append(seconds)
                rates = {}
                for name in engines:
                    nodes = counts[name]
                    seconds = statistics.median(took[name])
                    rates[name] = nodes / seconds if seconds > 0 else float("inf")
                    want = known.get(depth)
                    check = "" if want is None else (" (as spec)" if nodes == want else
                                                     f" WRONG: expected {want:,}")
                    ok &= want is None or nodes == want
                    print(f"{name:9} {label} perft({depth}) = {nodes:,} in {seconds:.2f} "
                          f"CPU s: {rates[name]:,.0f} nodes/s{check}", flush=True)
                if counts["hexkit"] != counts["MzingaCpp"]:
                    summary.append(f"{label} perft({depth}): the engines DISAGREE")
                    ok = False
                elif rates["MzingaCpp"] in (0, float("inf")) or rates["hexkit"] == float("inf"):
                    summary.append(f"{label} perft({depth}): the same count; too fast to time "
                                   "(give a deeper depth)")
                else:
                    ratio = rates["hexkit"] / rates["MzingaCpp"]
                    summary.append(f"{label} perft({depth}): the same count; hexkit runs at "
                                   f"{ratio_text(ratio)} ({ratio:.3f}; target >= 1/4 = 0.25)")
    print("\n".join(summary))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
