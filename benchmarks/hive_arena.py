"""An arena of Hive games between ``hexkit uhp`` (the ``hive`` alpha-beta bot) and MzingaCpp,
through the Universal Hive Protocol, alternating colours, the same time per move.

The games are run by ``uhp-utils``' arena (``pip install uhp-utils``), unchanged; each game
is then replayed move by move in hexkit's Hive to check that it is real (every move legal,
the result the rules give). Prints each game and the score (target: at least 30% of the
points for hexkit).

    python benchmarks/hive_arena.py [--games 20] [--time 1] [--game-type Base+MLP]

MzingaCpp is built with CMake outside the repository if missing (benchmarks/hive_mzinga.py).
Note: MzingaCpp's ``bestmove`` plays the first of its valid moves (it has no search), so
this measures that hexkit's engine finishes games correctly under a real arena more than
its strength.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import hive.uhp_client  # noqa: F401  (installed with hexkit)
except ImportError:  # run from a checkout without the install
    sys.path.insert(0, str(ROOT / "plugins"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from hive_mzinga import mzinga_path  # noqa: E402
from hive_perft import hexkit_command  # noqa: E402


def replay_result(game_type: str, moves: list[str]) -> tuple[str, int]:
    """Replay a game's MoveStrings in hexkit's Hive: (GameStateString at the end, plies)."""
    from hive.notation import parse_game_type

    import hexkit

    letters = parse_game_type(game_type)
    state = hexkit.load_game("hive", expansions=letters or "none").new_state(seed=0)
    for number, text in enumerate(moves, 1):
        move = state.parse_move(text)
        if move not in state.legal_moves():
            raise SystemExit(f"game is not real: move {number} {text!r} is illegal")
        state.push(move)
    return state.game_string().split(";")[1], len(moves)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--time", default="1", help="seconds per move (uhp-arena's --time)")
    p.add_argument("--game-type", default="Base+MLP")
    p.add_argument("--max-moves", type=int, default=200, help="plies before a draw")
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build)")
    args = p.parse_args(argv)
    try:
        from uhp_utils.arena import Arena, parse_time
    except ImportError:
        raise SystemExit("the arena needs uhp-utils: pip install uhp-utils") from None
    mzinga = args.engine or str(mzinga_path(build=True))
    arena = Arena(hexkit_command(), [mzinga], results_file=None,
                  white_short_name="hexkit", black_short_name="MzingaCpp",
                  game_type=args.game_type, search_timeout=60.0, command_timeout=60.0)
    points = 0.0
    results = []
    games: list[tuple[str, ...]] = []
    for index in range(args.games):
        match = arena.play_match(f"time {parse_time(args.time)}", args.max_moves,
                                 swap_colors=index % 2 == 1, verbose=False)
        hexkit_white = match.white_engine_idx == 0
        if match.result is None:
            got = 0.0
        else:
            got = match.result if hexkit_white else 1.0 - match.result
        points += got
        games.append(tuple(match.moves_played))
        final, plies = replay_result(args.game_type, list(match.moves_played))
        agrees = final == match.result_desc or (match.result_desc in ("MaxMoves", "Draw")
                                                and final == "InProgress")
        results.append((index + 1, "White" if hexkit_white else "Black", match.result_desc,
                        plies, got, agrees))
        print(f"game {index + 1:2}: hexkit {'White' if hexkit_white else 'Black'}, "
              f"{match.result_desc} after {plies} plies, hexkit scores {got:g}"
              f"{'' if agrees else f' (hexkit replay says {final}!)'}", flush=True)
    print(f"hexkit {points:g} / {args.games} points ({100 * points / args.games:.0f}%) "
          f"against MzingaCpp at {args.time} s a move, {args.game_type}")
    print(f"{len(set(games))} different games of {len(games)}")
    return 0 if all(r[5] for r in results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
