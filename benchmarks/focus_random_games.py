"""Random Focus games: moves per second with every legal move enumerated at each step.

Run ``python benchmarks/focus_random_games.py [SECONDS_PER_CASE]``. Each case plays seeded
random games (legal_moves() then push() of a random choice, every step) until the time is
up, then undoes every game with pop() and reports moves/s for play and for undo. The
target for the course game (6x6, 2 players) is 10,000 moves/s.
"""

from __future__ import annotations

import random
import sys
import time

import hexkit

CASES = (
    ("focus", "course 6x6, 2 players (course rules)"),
    ("focus(distance=exact)", "course 6x6, 2 players, exact distance"),
    ("focus(board=cross)", "cross, 2 players (Sackson)"),
    ("focus(board=cross,players=3)", "cross, 3 players"),
    ("focus(board=cross,players=4)", "cross, 4 players"),
)
MAX_MOVES = 1000  # a random game that has not ended by then is cut off


def run_case(name: str, seconds: float) -> tuple[int, int, int, float, float]:
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
    return games, finished, moves, moves / played_time, moves / undo_time


def main() -> None:
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 3.0
    print(f"random games, {seconds:g} s per case, legal moves enumerated every step")
    print(f"{'game':<32} {'games':>6} {'ended':>6} {'moves':>8} {'play mv/s':>10} "
          f"{'pop mv/s':>10}")
    for name, label in CASES:
        games, finished, moves, play_rate, undo_rate = run_case(name, seconds)
        print(f"{name:<32} {games:>6} {finished:>6} {moves:>8} {play_rate:>10,.0f} "
              f"{undo_rate:>10,.0f}   {label}")


if __name__ == "__main__":
    main()
