"""HexAround legal-move generation on mid-game positions of 10, 20, 40, 80 and 160 creatures.

    python benchmarks/hexaround_movegen.py [--positions 30] [--seed 1] [--python]

``--python`` times the pure-Python generator even when the compiled one is built.

Positions come from random play with level3's creature types (stock scaled so that 160
creatures fit on the board): placements are preferred until the wanted number of creatures
is down, then a few random moves mix the position. For each size the script prints the
time to list every legal move of one position from scratch (the engine's caches cleared),
per position and per creature; per-creature time staying flat means generation grows
linearly with the number of creatures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from _generator_option import add_generator_option, apply_generator_option
from hexaround.config import parse_config_text
from hexaround.engine import Engine

SIZES = (10, 20, 40, 80, 160)

CONFIG = """
creatures:
  BUTTERFLY:   {max_distance: 1, properties: [WALKING, QUEEN]}
  DUCK:        {max_distance: 5, properties: [FLYING, SWAPPING]}
  GRASSHOPPER: {max_distance: 4, properties: [JUMPING]}
  HORSE:       {max_distance: 5, properties: [RUNNING]}
  RABBIT:      {max_distance: 4, properties: [RUNNING, INTRUDING]}
  TURTLE:      {max_distance: 4, properties: [WALKING, INTRUDING]}
players:
  BLUE: {BUTTERFLY: 1, DUCK: 18, GRASSHOPPER: 16, HORSE: 16, RABBIT: 16, TURTLE: 16}
rules:
  butterfly_deadline_blocks_moves: false
"""


def make_position(engine: Engine, creatures: int, rnd: random.Random) -> bool:
    """Random play up to ``creatures`` on the board, then ten random moves."""
    engine.reset()
    mixing = 10
    while True:
        if engine.is_over():
            return False
        legal = engine.legal_actions()
        placements = [a for a in legal if a[1] is None]
        moves = [a for a in legal if a[1] is not None]
        on_board = sum(len(s) for s in engine.stacks.values())
        if on_board < creatures and placements:
            engine.apply(rnd.choice(placements))
        elif on_board >= creatures and moves and mixing:
            engine.apply(rnd.choice(moves))
            mixing -= 1
        else:
            return on_board == creatures and not mixing


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    add_generator_option(ap)
    args = ap.parse_args()
    which = apply_generator_option(args)
    config = parse_config_text(CONFIG, "<benchmark>")
    rnd = random.Random(args.seed)
    print("hexaround legal-move generation, level3 creature types, positions from random play, "
          f"{which} generator")
    print(f"{'creatures':>9} {'positions':>9} {'legal moves':>11} {'us/position':>12} "
          f"{'us/creature':>12} {'us/legal move':>14}")
    for size in SIZES:
        times, counts = [], []
        engine = Engine(config)
        while len(times) < args.positions:
            if not make_position(engine, size, rnd):
                continue
            best = float("inf")
            for _ in range(3):
                engine.clear_caches()
                start = time.perf_counter()
                legal = engine.legal_actions()
                best = min(best, time.perf_counter() - start)
            times.append(best)
            counts.append(len(legal))
        per_pos = statistics.mean(times) * 1e6
        moves = statistics.mean(counts)
        print(f"{size:>9} {len(times):>9} {moves:>11.0f} {per_pos:>12.0f} "
              f"{per_pos / size:>12.1f} {per_pos / moves:>14.2f}")


if __name__ == "__main__":
    main()
