"""Hive's two move generators side by side: HexAround's own engine given Hive's rule options
and the abilities hive registers (the generic pipeline through HexAround's hooks), and
``HiveEngine``'s generator for Hive's pieces. Bulk perft from the start, CPU time, both
counts checked against spec §8; then a longer version of
tests/hive/test_hexaround_extension.py (the same legal actions along random games).

    python benchmarks/hive_generators.py [--depth 5] [--games 10] [--moves 120]
"""

from __future__ import annotations

import argparse
import random
import time

from hexaround.engine import Engine
from hexaround.position import PASS as HEXAROUND_PASS
from hive.abilities import EXTENSIONS
from hive.engine import PASS, HiveEngine

TYPES = ("", "M", "L", "P", "ML", "MP", "LP", "MLP")
#: spec §8 (depth 5 where the table has it).
PERFT = {"": (4, 96, 1440, 21600, 516240), "M": (5, 150, 2610, 45414, 1252800),
         "L": (5, 150, 2610, 45414, 1252800), "P": (5, 150, 2610, 45414, 1255932),
         "ML": (6, 216, 4320, 86400), "MP": (6, 216, 4320, 86400), "LP": (6, 216, 4320, 86400),
         "MLP": (7, 294, 6678, 151686, 5427108)}


def perft(engine: Engine, depth: int) -> int:
    """Leaves ``depth`` plies deep, bulk-counted at the last level."""
    actions = engine.legal_actions()
    if depth == 1:
        return len(actions)
    total = 0
    for action in list(actions):
        engine.apply(action)
        total += perft(engine, depth - 1)
        engine.undo()
    return total


def crosscheck(expansions: str, games: int, moves: int, seed: int) -> int:
    """Positions checked; raises AssertionError at the first difference."""
    rng = random.Random(seed)
    checked = 0
    for _ in range(games):
        fast = HiveEngine(expansions)
        plain = Engine(fast.config, EXTENSIONS)
        for _ in range(moves):
            if fast.result or plain.result:
                break
            mine = fast.legal_actions()
            theirs = set()
            for kind, src, dst in plain.legal_actions():
                if kind < 0:
                    theirs.add(PASS)
                elif src is None:
                    theirs.add((kind * 2 + plain.to_move, None, dst))
                else:
                    theirs.add((plain.stacks[src][-1], src, dst))
            assert set(mine) == theirs, (expansions, [h[0] for h in fast.history])
            checked += 1
            action = rng.choice(sorted(mine, key=repr))
            fast.apply(action)
            plain.apply(HEXAROUND_PASS if action[0] < 0 else (action[0] >> 1,) + action[1:])
    return checked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--moves", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{'game type':10} {'depth':>5} {'leaves':>10} {'hexaround s':>12} "
          f"{'hive s':>8} {'speed-up':>8}")
    for exp in TYPES:
        depth = min(args.depth, len(PERFT[exp]))
        fast = HiveEngine(exp)
        plain = Engine(fast.config, EXTENSIONS)
        times = []
        for engine in (plain, fast):
            start = time.process_time()
            n = perft(engine, depth)
            times.append(time.process_time() - start)
            assert n == PERFT[exp][depth - 1], (exp, depth, n)
        print(f"{'Base' + ('+' + exp if exp else ''):10} {depth:5} {n:10,} {times[0]:12.2f} "
              f"{times[1]:8.2f} {times[0] / times[1]:7.1f}x", flush=True)
    total = sum(crosscheck(exp, args.games, args.moves, args.seed) for exp in TYPES)
    print(f"crosscheck: {total} positions of random games, the same legal actions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
