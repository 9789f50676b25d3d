"""Random HexAround games: moves per second with every legal move enumerated at each step.

    python benchmarks/hexaround_random_games.py [--config level3] [--games 40] [--seed 1]
                                                [--python]

Two figures: the rules engine alone (every legal action listed as a tuple, then a random
one applied, with the stuck-player check after it) and the generic API
(``state.legal_moves()`` as Move objects, then ``state.push``), which is what bots and
``check_game`` pay. Rates are given by wall clock and by CPU time of this process (the
second is steadier on a shared machine). ``--python`` uses the pure-Python move generator
even when the compiled one (hexaround._movegen) is built. Random level3 games rarely end, so most
positions are late ones with the whole stock on the board.
"""

from __future__ import annotations

import argparse
import random
import time

from _generator_option import add_generator_option, apply_generator_option

import hexkit


def engine_games(game: hexkit.Game, games: int, seed: int,
                 max_moves: int) -> tuple[int, int, float, float]:
    """Play through the engine: enumerate all legal actions, apply a random one."""
    rnd = random.Random(seed)
    moves = listed = 0
    start = time.perf_counter(), time.process_time()
    for g in range(games):
        engine = game.new_state(seed=seed + g).engine
        for _ in range(max_moves):
            if engine.is_over():
                break
            legal = engine.legal_actions()
            listed += len(legal)
            engine.apply(legal[rnd.randrange(len(legal))])
            moves += 1
    return moves, listed, time.perf_counter() - start[0], time.process_time() - start[1]


def api_games(game: hexkit.Game, games: int, seed: int,
              max_moves: int) -> tuple[int, int, float, float]:
    """Play through the generic API: legal_moves() as Move objects, push a random one."""
    rnd = random.Random(seed)
    moves = listed = 0
    start = time.perf_counter(), time.process_time()
    for g in range(games):
        state = game.new_state(seed=seed + g)
        for _ in range(max_moves):
            if state.is_over():
                break
            legal = state.legal_moves()
            listed += len(legal)
            state.push(legal[rnd.randrange(len(legal))])
            moves += 1
    return moves, listed, time.perf_counter() - start[0], time.process_time() - start[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="level3")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--max-moves", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    add_generator_option(ap)
    args = ap.parse_args()
    which = apply_generator_option(args)
    game = hexkit.load_game("hexaround", config=args.config)
    print(f"hexaround random games, config={args.config}, {args.games} games, "
          f"at most {args.max_moves} moves each, {which} generator")
    for label, fn in (("engine (tuples)", engine_games), ("generic API (Move objects)", api_games)):
        moves, listed, wall, cpu = fn(game, args.games, args.seed, args.max_moves)
        print(f"  {label:27s} {moves:6d} moves: {moves / wall:6.0f} moves/s by the clock, "
              f"{moves / cpu:6.0f} by CPU time ({listed / max(moves, 1):.0f} legal moves "
              f"per position)")


if __name__ == "__main__":
    main()
