"""The longer check behind tests/hexaround/test_rules_crosscheck.py: on many random positions
of every shipped configuration, the fast generator (compiled, or its Python twin with
``--python``) lists exactly the plain rules' moves in the same order.

    python benchmarks/hexaround_rules_check.py [--games 20] [--moves 150] [--python]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from _generator_option import add_generator_option, apply_generator_option
from hexaround.config import load_config
from hexaround.crosscheck import mismatch, random_positions
from hexaround.engine import Engine

CONFIGS = Path(__file__).resolve().parents[1] / "configs" / "hexaround"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    add_generator_option(parser)
    args = parser.parse_args()
    apply_generator_option(args)
    bad = 0
    for path in sorted(CONFIGS.glob("*.yaml")):
        engine = Engine(load_config(path))
        started = time.perf_counter()
        checked = 0
        for position in random_positions(engine, args.games, args.moves, args.seed):
            problem = mismatch(position)
            checked += 1
            if problem:
                bad += 1
                print(f"{path.stem}: after {len(position.position.history)} actions: {problem}")
        print(f"{path.stem:20} {checked:6} positions agree"
              f" ({type(engine.generator).__name__},"
              f" {time.perf_counter() - started:.1f} s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
