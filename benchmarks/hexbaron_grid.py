"""Hex Baron speed figures: building grids (size 60 included) and random play.

Run: python benchmarks/hexbaron_grid.py

Times are CPU time of this process (the machine is shared: other programs' load does not
count).
"""

from __future__ import annotations

import random
import time

from hexbaron.layout import grid_tables

import hexkit


def best_of(runs: int, fn) -> float:
    best = float("inf")
    for _ in range(runs):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def quadratic_neighbours(size: int) -> list[list[int]]:
    """The skeleton's SetUpNeighbours: every tile against every tile (for comparison)."""
    _, cubes = grid_tables(size)
    return [[j for j, b in enumerate(cubes)
             if max(abs(a[0] - b[0]), abs(a[1] - b[1]), abs(a[2] - b[2])) == 1] for a in cubes]


def build_tables(size: int) -> None:
    grid_tables.cache_clear()
    grid_tables(size)


def build_game(size: int) -> None:
    grid_tables.cache_clear()
    hexkit.load_game("hexbaron", size=size, extensions="none").new_state(0)


def random_games(game, count: int, max_commands: int = 600) -> tuple[int, int, int]:
    commands = finished = 0
    for seed in range(count):
        state = game.new_state(seed)
        chooser = random.Random(seed)
        for _ in range(max_commands):
            if state.is_over():
                finished += 1
                break
            moves = state.legal_moves()
            state.push(moves[chooser.randrange(len(moves))])
            commands += 1
    return count, commands, finished


def main() -> None:
    for size in (8, 40, 60):
        t = best_of(5, lambda size=size: build_tables(size))
        print(f"grid tables, size {size:>2} ({size * size // 2:>4} tiles): {t * 1000:7.2f} ms")
    t = best_of(3, lambda: build_game(60))
    print(f"whole game + state, size 60:            {t * 1000:7.2f} ms")
    t = best_of(1, lambda: quadratic_neighbours(60))
    print(f"skeleton-style quadratic neighbours, 60: {t * 1000:7.2f} ms (for comparison)")
    for label, options in (("default game", {}), ("size 60", {"size": 60})):
        game = hexkit.load_game("hexbaron", extensions="none", **options)
        start = time.process_time()
        games, commands, finished = random_games(game, 20)
        elapsed = time.process_time() - start
        print(f"random play, {label:<12}: {games} games, {commands} commands "
              f"({finished} finished) in {elapsed:.2f} s = {commands / elapsed:,.0f} commands/s")
    state = hexkit.load_game("hexbaron", extensions="none").new_state(0)
    n = 2000
    t = best_of(3, lambda: [state.legal_moves() for _ in range(n)])
    print(f"legal_moves(), default opening: {t / n * 1e6:.1f} us")
    large = hexkit.load_game("hexbaron", extensions="none", size=60).new_state(0)
    t = best_of(3, lambda: [large.legal_moves() for _ in range(200)])
    print(f"legal_moves(), size 60 opening: {t / 200 * 1e6:.1f} us")
    def push_pop():
        for _ in range(n):
            state.push("move 0 4")
            state.pop()
    t = best_of(3, push_pop)
    print(f"push + pop of a text command: {t / n * 1e6:.1f} us")


if __name__ == "__main__":
    main()
