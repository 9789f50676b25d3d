"""Speed of the Hex plugin, and what its playout policy is worth to the MCTS bot.

Run from the checkout (the plugin need not be installed):

    python examples/hex-connection/benchmarks/bench_hex.py [GAMES] [SIMULATIONS]
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexkit.bots.mcts import MctsBot, PlayoutPolicy  # noqa: E402

from hexconnection.plugin import PLAYOUT_DEPTH, SPEC  # noqa: E402
from hexconnection.policy import save_bridge  # noqa: E402


def new_game(**options: object):
    return SPEC.make_game(options)


def random_games(size: int, seconds: float = 2.0) -> None:
    game = new_game(size=size)
    rng = random.Random(1)
    games = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state()
        while not state.is_over():
            legal = state.legal_moves()
            state.push(legal[rng.randrange(len(legal))])
            moves += 1
        while state.move_stack:
            state.pop()
        games += 1
    spent = time.perf_counter() - start
    print(f"size {size:2}: {games / spent:7.0f} random games/s to the end and back "
          f"({moves / spent:8.0f} legal_moves+push+pop per s, {moves / games:.0f} moves/game)")


def policy_match(games: int, simulations: int, size: int = 7) -> None:
    game = new_game(size=size)
    policy = PlayoutPolicy("hex", choose=save_bridge, depth=PLAYOUT_DEPTH)
    wins = 0
    start = time.perf_counter()
    for g in range(games):
        with_policy = MctsBot(simulations, seed=g, policy=policy)
        plain = MctsBot(simulations, seed=g + 1000, depth=PLAYOUT_DEPTH)
        seat_of_policy = g % 2  # alternate who moves first
        bots = [plain, plain]
        bots[seat_of_policy] = with_policy
        state = game.new_state(seed=g)
        while not state.is_over():
            state.push(bots[state.current_player].choose(state))
        wins += state.outcome().winners == (seat_of_policy,)
    spent = time.perf_counter() - start
    print(f"mcts:{simulations} with bridge-saving playouts vs without, size {size}: "
          f"{wins}/{games} wins ({spent:.0f} s)")


if __name__ == "__main__":
    n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    sims = int(sys.argv[2]) if len(sys.argv) > 2 else 300
    for board_size in (5, 11, 19):
        random_games(board_size)
    policy_match(n_games, sims)
