"""Hex Baron classic sessions: hexkit's classic console against the AQA skeleton program.

Run: python benchmarks/hexbaron_classic.py [GAMES]

One scripted session (default 322 games of the default set-up, played by seeded random
legal and junk commands until a baron falls, then Q) is fed to both programs in this
process: hexkit's classic console (``hexbaron.classic.run_classic``) and a transcription of
the skeleton (``tests/hexbaron/skeleton.py``, the test oracle). Their outputs must be equal;
the script prints each program's best CPU time over a few runs and the ratio.
"""

from __future__ import annotations

import io
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "hexbaron"))

from hexbaron.classic import ClassicConsole, run_classic  # noqa: E402
from hexbaron.game import HexBaronState  # noqa: E402
from skeleton import Skeleton  # noqa: E402

import hexkit  # noqa: E402

SEED = 2021
MAX_TURNS = 40  # a generated game not over by then is generated again


def session(games: int, seed: int = SEED) -> str:
    """Menu choice 1 and a whole game, ``games`` times, then Q: commands are legal ones
    (and a few junk lines) chosen at random, each game played until a baron falls."""
    rng = random.Random(seed)
    mirror = ClassicConsole(hexkit.load_game("hexbaron"), seed, None, None)  # type: ignore[arg-type]
    lines: list[str] = []
    made = 0
    while made < games:
        saved = mirror.rng.getstate()
        state = HexBaronState(mirror.game(), mirror.default_setup(), mirror.rng)
        game_lines = ["1"]
        for _ in range(MAX_TURNS):
            for _c in range(3):
                legal = [str(m) for m in state.legal_moves()]
                line = rng.choice(legal) if rng.random() < 0.9 else rng.choice(
                    ["move 0 99", "dig", "upgrade serf 8", "hello"])
                game_lines.append(line)
                mirror.execute(state, line.lower())
            game_lines.append("")
            if state.is_over():
                break
        if not state.is_over():
            mirror.rng.setstate(saved)  # this game is not in the session: undo its digs
            continue
        lines += game_lines
        made += 1
    lines.append("Q")
    return "\n".join(lines) + "\n"


def run_hexkit(stdin: str) -> str:
    out = io.StringIO()
    code = run_classic(hexkit.load_game("hexbaron"), seed=SEED, stdin=io.StringIO(stdin),
                       stdout=out, stderr=sys.stderr)
    assert code == 0
    return out.getvalue()


def run_skeleton(stdin: str) -> str:
    out = io.StringIO()
    assert Skeleton(io.StringIO(stdin), out, random.Random(SEED)).run() == 0
    return out.getvalue()


def best_of(runs: int, fn, arg: str) -> tuple[float, str]:
    """The least CPU time of this process over ``runs`` runs (CPU time, not wall time: the
    machine is shared, and other programs' load does not count against either side)."""
    best, result = float("inf"), ""
    for _ in range(runs):
        start = time.process_time()
        result = fn(arg)
        best = min(best, time.process_time() - start)
    return best, result


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 322
    stdin = session(games)
    commands = stdin.count("\n")
    hexkit_time, hexkit_out = best_of(5, run_hexkit, stdin)
    skeleton_time, skeleton_out = best_of(5, run_skeleton, stdin)
    if hexkit_out != skeleton_out:
        raise SystemExit("the two programs printed different output for the session")
    print(f"session: {games} games, {commands} input lines, {len(hexkit_out):,} characters out")
    print(f"hexkit classic console: {hexkit_time * 1000:8.1f} ms "
          f"({hexkit_time / games * 1e6:6.0f} us per game)")
    print(f"AQA skeleton:           {skeleton_time * 1000:8.1f} ms "
          f"({skeleton_time / games * 1e6:6.0f} us per game)")
    print(f"skeleton time / hexkit time: {skeleton_time / hexkit_time:.2f}x")


if __name__ == "__main__":
    main()
