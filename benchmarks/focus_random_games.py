"""Random Focus games: moves per second with every legal move enumerated at each step.

Run ``python benchmarks/focus_random_games.py [SECONDS_PER_CASE]``. Each case plays seeded
random games (``legal_moves()`` then ``push()`` of a random choice, every step) until the
time is up, then undoes each game with ``pop()``; it reports games and moves per second
for playing and moves per second for undoing. A last case plays random course games
through the FocusGame class (legal moves from the engine, calls through ``move_piece`` /
``reserved_move``). The target for the course game (6x6, 2 players) is 10,000 moves/s.
"""

from __future__ import annotations

import random
import sys
import time

from focus import FocusGame
from focus.notation import StackMove

import hexkit

CASES = (
    ("focus", "course 6x6, 2 players (course rules)"),
    ("focus(distance=exact)", "course 6x6, 2 players, exact distance"),
    ("focus(board=cross)", "cross, 2 players (Sackson)"),
    ("focus(board=cross,players=3)", "cross, 3 players"),
    ("focus(board=cross,players=4)", "cross, 4 players"),
)
MAX_MOVES = 1000  # a random game that has not ended by then is cut off


def run_case(name: str, seconds: float) -> tuple[int, int, int, float, float, float]:
    game = hexkit.load_game(name)
    chooser = random.Random(1)
    games = finished = moves = 0
    played_time = undo_time = 0.0
    while played_time < seconds:
        state = game.new_state(seed=games)
        start = time.perf_counter()
        for _ in range(MAX_MOVES):
            legal = state.legal_moves()
            if not legal:
                break
            state.push(legal[chooser.randrange(len(legal))])
        played_time += time.perf_counter() - start
        n = len(state.move_stack)
        finished += state.is_over()
        start = time.perf_counter()
        for _ in range(n):
            state.pop()
        undo_time += time.perf_counter() - start
        games += 1
        moves += n
    return games, finished, moves, games / played_time, moves / played_time, moves / undo_time


def run_facade(seconds: float) -> tuple[int, int, float]:
    """Random course games through FocusGame's calls (the engine proposes the moves)."""
    chooser = random.Random(2)
    names = ("PlayerA", "PlayerB")
    games = calls = 0
    spent = 0.0
    while spent < seconds:
        engine = hexkit.load_game("focus").new_state()
        start = time.perf_counter()
        course = FocusGame((names[0], "R"), (names[1], "G"))
        while not engine.is_over() and len(engine.move_stack) < MAX_MOVES:
            legal = engine.legal_moves()
            move = legal[chooser.randrange(len(legal))]
            name = names[engine.current_player]
            if isinstance(move, StackMove):
                course.move_piece(name, move.frm, move.to, move.count)
            else:
                course.reserved_move(name, move.to)
            engine.push(move)
            calls += 1
        spent += time.perf_counter() - start
        games += 1
    return games, calls, calls / spent


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"random games, {seconds:g} s per case, legal moves enumerated every step")
    print(f"{'game':<30} {'games':>6} {'ended':>6} {'moves':>8} {'games/s':>8} "
          f"{'play mv/s':>10} {'pop mv/s':>10}")
    for name, label in CASES:
        games, finished, moves, game_rate, play_rate, undo_rate = run_case(name, seconds)
        print(f"{name:<30} {games:>6} {finished:>6} {moves:>8} {game_rate:>8,.1f} "
              f"{play_rate:>10,.0f} {undo_rate:>10,.0f}   {label}")
    games, calls, rate = run_facade(seconds)
    print(f"{'FocusGame (course class)':<30} {games:>6} {'':>6} {calls:>8} {'':>8} "
          f"{rate:>10,.0f} {'':>10}   engine legal moves + FocusGame calls")
    print(f"(games cut off at {MAX_MOVES} moves; 'ended' counts games that finished)")


if __name__ == "__main__":
    main()
