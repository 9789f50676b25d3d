"""HexAround's action space covers every legal move: random games of every shipped
configuration (configs/hexaround/*), and at every ply every legal move has a number, the
numbers are distinct and in range, the mask is exactly the legal set, and move_of gives
each move back.

    python benchmarks/hexaround_actions.py [--games 20] [--plies 300] [--seed 0]

Prints, per configuration, the plies and legal moves checked, the largest legal list, the
moves farther than 6 from (0, 0) (which the former window numbering left out), and the
CPU seconds. Exits 1 on the first move without a number (or any disagreement).
Needs numpy (pip install 'hexkit-games[rl]').
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import hexkit
from hexkit.files.configs import variant_names

ROOT = Path(__file__).resolve().parent.parent


def far(move: object, radius: int = 6) -> bool:
    """A move with a hex farther than ``radius`` from (0, 0)."""
    values = tuple(move) if isinstance(move, tuple) else ()
    hexes = [values[i:i + 2] for i in range(1, len(values), 2)]
    return any(max(abs(x), abs(y), abs(x + y)) > radius for x, y in hexes)


def check(name: str, games: int, plies: int, seed: int) -> tuple[int, int, int, int]:
    """(plies, legal moves, largest legal list, moves outside the old window) of
    ``games`` random games of configuration ``name``; AssertionError on a disagreement."""
    game = hexkit.load_game(f"hexaround(config={name})")
    space = game.action_space()
    rng = random.Random(seed)
    counted = moves = widest = outside = 0
    for g in range(games):
        state = game.new_state(seed=seed + g)
        for _ in range(plies):
            if state.is_over():
                break
            legal = list(state.legal_moves())
            numbered = space.legal_map(state)
            assert len(numbered) == len(legal), (
                f"{name}: {len(legal) - len(numbered)} legal moves without a number")
            assert all(0 <= a < space.num_actions for a in numbered)
            mask = space.action_mask(state)
            assert sorted(mask.nonzero()[0].tolist()) == sorted(numbered)
            for action, move in numbered.items():
                assert space.action_in(state, move) == action
            action = rng.choice(sorted(numbered))
            assert space.move_of(action, state) == numbered[action]
            counted += 1
            moves += len(legal)
            widest = max(widest, len(legal))
            outside += sum(1 for m in legal if far(m))
            state.push(numbered[action])
    return counted, moves, widest, outside


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    names = variant_names("hexaround", (".yaml", ".yml", ".hgc"))
    print(f"{'configuration':22} {'actions':>8} {'plies':>7} {'legal moves':>12} "
          f"{'widest':>6} {'outside r6':>10} {'CPU s':>6}")
    for name in names:
        start = time.process_time()
        try:
            counted, moves, widest, outside = check(name, args.games, args.plies, args.seed)
        except AssertionError as exc:
            print(f"{name}: FAILED: {exc}")
            return 1
        size = hexkit.load_game(f"hexaround(config={name})").action_space().num_actions
        print(f"{name:22} {size:8} {counted:7} {moves:12} {widest:6} "
              f"{outside:10} {time.process_time() - start:6.1f}", flush=True)
    print("every legal move has a number; the masks are the legal sets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
