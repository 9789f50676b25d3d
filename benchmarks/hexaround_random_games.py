"""Random HexAround games: moves per second with every legal move enumerated at each step.

    python benchmarks/hexaround_random_games.py [--config level3] [--games 40] [--seed 1]

Two figures: the rules engine alone (legal actions as tuples, apply) and the generic API
(``state.legal_moves()`` as Move objects, then ``state.push``), which is what bots and
``check_game`` pay.
"""

from __future__ import annotations

import argparse
import random
import time

import hexkit


def engine_games(game: hexkit.Game, games: int, seed: int,
                 max_moves: int) -> tuple[int, int, float]:
    """Play through the engine: enumerate all legal actions, apply a random one."""
    rnd = random.Random(seed)
    moves = listed = 0
    start = time.perf_counter()
    for g in range(games):
        engine = game.new_state(seed=seed + g).engine
        for _ in range(max_moves):
            if engine.is_over():
                break
            legal = engine.legal_actions()
            listed += len(legal)
            engine.apply(legal[rnd.randrange(len(legal))])
            moves += 1
    return moves, listed, time.perf_counter() - start


def api_games(game: hexkit.Game, games: int, seed: int,
              max_moves: int) -> tuple[int, int, float]:
    """Play through the generic API: legal_moves() as Move objects, push a random one."""
    rnd = random.Random(seed)
    moves = listed = 0
    start = time.perf_counter()
    for g in range(games):
        state = game.new_state(seed=seed + g)
        for _ in range(max_moves):
            if state.is_over():
                break
            legal = state.legal_moves()
            listed += len(legal)
            state.push(legal[rnd.randrange(len(legal))])
            moves += 1
    return moves, listed, time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default="level3")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--max-moves", type=int, default=300)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    game = hexkit.load_game("hexaround", config=args.config)
    print(f"hexaround random games, config={args.config}, {args.games} games, "
          f"at most {args.max_moves} moves each")
    for label, fn in (("engine (tuples)", engine_games), ("generic API (Move objects)", api_games)):
        moves, listed, secs = fn(game, args.games, args.seed, args.max_moves)
        print(f"  {label:28s} {moves:7d} moves in {secs:6.2f} s = {moves / secs:8.0f} moves/s "
              f"({listed / max(moves, 1):.0f} legal moves listed per position)")


if __name__ == "__main__":
    main()
