"""The FocusGame course class's calls, as a grader or a student's tests make them.

Run: python benchmarks/focus_course_api.py [GAMES]

A script of calls is made first (not timed): seeded random course games, each move of the
engine's legal moves made through ``move_piece`` or ``reserved_move``, with a refused call
(the wrong player, a bad square, a bad count, an empty reserve) before one move in four and
``show_pieces`` / ``show_reserve`` / ``show_captured`` after each move. Then the script is
replayed on new FocusGame objects, and its CPU time is reported (best of five): in all,
for making the games, and per move and per show call.
"""

from __future__ import annotations

import random
import sys
import time

from focus import FocusGame
from focus.notation import StackMove

import hexkit

NAMES = ("PlayerA", "PlayerB")
MAX_MOVES = 400


def script(games: int, seed: int = 7) -> list[list[tuple]]:
    """Per game, the calls in order: (method name, arguments)."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        engine = hexkit.load_game("focus").new_state(g)
        calls: list[tuple] = []
        while not engine.is_over() and len(engine.move_stack) < MAX_MOVES:
            name = NAMES[engine.current_player]
            other = NAMES[1 - engine.current_player]
            if rng.random() < 0.25:
                refused = [
                    ("move_piece", (other, (0, 0), (0, 1), 1)),
                    ("move_piece", (name, (9, 9), (0, 1), 1)),
                    ("move_piece", (name, (0, 0), (3, 3), 1)),
                    ("move_piece", (name, (2, 2), (2, 3), 7)),
                ]
                if not engine.reserve(engine.current_player):
                    refused.append(("reserved_move", (name, (1, 1))))
                calls.append(rng.choice(refused))
            legal = engine.legal_moves()
            move = legal[rng.randrange(len(legal))]
            if isinstance(move, StackMove):
                calls.append(("move_piece", (name, move.frm, move.to, move.count)))
            else:
                calls.append(("reserved_move", (name, move.to)))
            engine.push(move)
            to = move.to
            calls += [("show_pieces", (to,)), ("show_reserve", (name,)),
                      ("show_captured", (name,))]
        out.append(calls)
    return out


def timed(games: list[list[tuple]], kinds: tuple[str, ...] | None = None) -> float:
    """CPU seconds to make the games and run their calls (only those of ``kinds``, if
    given) back to back."""
    if kinds is not None:
        games = [[c for c in calls if c[0] in kinds] for calls in games]
    start = time.process_time()
    for calls in games:
        game = FocusGame((NAMES[0], "R"), (NAMES[1], "G"))
        for method, args in calls:
            getattr(game, method)(*args)
    return time.process_time() - start


def check(games: list[list[tuple]]) -> None:
    """The script's games are the engine's: every move it makes is accepted."""
    for calls in games:
        game = FocusGame((NAMES[0], "R"), (NAMES[1], "G"))
        for method, args in calls:
            result = getattr(game, method)(*args)
            if method in ("move_piece", "reserved_move") and args[0] and result in (
                    "not your turn", "invalid location", "invalid number of pieces",
                    "no pieces in reserve") and not _refused_on_purpose(method, args):
                raise SystemExit(f"the script's move {method}{args} was refused: {result}")


def _refused_on_purpose(method: str, args: tuple) -> bool:
    return args[1:] in (((0, 0), (0, 1), 1), ((9, 9), (0, 1), 1), ((0, 0), (3, 3), 1),
                        ((2, 2), (2, 3), 7), ((1, 1),))


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    games = script(count)
    check(games)
    calls = sum(len(c) for c in games)
    moves = sum(1 for g in games for c in g if c[0] in ("move_piece", "reserved_move"))
    shows = calls - moves
    every = min(timed(games) for _ in range(5))
    made = min(timed(games, ()) for _ in range(5))
    played = min(timed(games, ("move_piece", "reserved_move")) for _ in range(5))
    print(f"{count} course games, {calls:,} calls ({moves:,} moves, {shows:,} shows)")
    print(f"  everything:                 {every * 1000:7.1f} ms CPU")
    print(f"  FocusGame(...) only:        {made * 1000:7.1f} ms ({made / count * 1e6:.1f} us "
          "per game)")
    print(f"  moves (move_piece, reserved_move, refused ones included): "
          f"{(played - made) / moves * 1e6:.2f} us per call")
    print(f"  shows (show_pieces, show_reserve, show_captured): "
          f"{(every - played) / shows * 1e6:.2f} us per call")


if __name__ == "__main__":
    main()
