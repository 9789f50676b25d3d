"""The longer check behind tests/hexaround/test_native_generator.py's unusual creatures:
on every ply of seeded random games, both move generators (compiled and Python) list
exactly the moves of the slow, direct reading of the rules in tests/hexaround/reference.py.

    python benchmarks/hexaround_reference_check.py [--games 6] [--moves 70]

The test compares the two generators on every ply and the reference on every other one, in
three games of each rule option; this script asks the reference on every ply of as many
games as wanted, and prints the positions checked and the CPU seconds. It exits with status
1 at the first position where they differ.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import hexkit  # noqa: E402
from tests.hexaround.reference import legal_moves  # noqa: E402
from tests.hexaround.test_native_generator import ODD_CREATURES, python_list  # noqa: E402


def check(path: Path, games: int, moves: int) -> int:
    """Positions checked in ``games`` games of the configuration at ``path``; SystemExit
    naming the first position where a generator and the reference differ."""
    game = hexkit.load_game("hexaround", config=str(path))
    checked = 0
    for seed in range(games):
        rnd = random.Random(seed)
        state = game.new_state(seed=seed)
        for _ in range(moves):
            if state.is_over():
                break
            mine = state.engine.legal_actions()
            theirs = legal_moves(game.config, state.to_dict())
            if mine != python_list(state.engine) or \
                    {str(m) for m in state.legal_moves()} != theirs:
                raise SystemExit(f"{path.name}, game {seed}, after "
                                 f"{len(state.move_stack)} moves: the generators and the "
                                 f"reference differ\n{state.render()}")
            checked += 1
            state.push(state.legal_moves()[rnd.randrange(len(mine))])
    return checked


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="games per rule option")
    parser.add_argument("--moves", type=int, default=70, help="moves per game at most")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        for survives in (False, True):
            path = Path(folder) / f"oddities-{survives}.yaml"
            path.write_text(ODD_CREATURES +
                            f"rules: {{kamikaze_survives: {str(survives).lower()}}}\n")
            start = time.process_time()
            checked = check(path, args.games, args.moves)
            print(f"kamikaze_survives={survives}: {checked} positions agree "
                  f"({time.process_time() - start:.1f} s CPU)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
