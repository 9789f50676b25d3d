"""Speed of the AI adapters, in CPU time with interleaved rounds.

    python benchmarks/ai_speed.py [--rounds 5] [--turns 3000]

1. PettingZoo's performance_benchmark loop (observe every agent with last(), a random
   masked action, reset at the end), counted in turns per CPU second, on hexkit's Focus
   and on PettingZoo's own connect_four_v3 and tictactoe_v3, round by round.
2. Observation building per game: State.observation(seat) in microseconds.
3. state.copy(), copy.deepcopy and a pickle round trip (dumps + loads) of a state 40
   plies in, and the pickle's size (median of the interleaved rounds).
Needs pip install 'hexkit-games[rl]' and pettingzoo[classic] (pygame) for the reference
games.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

GAMES = ["focus", "focus(board=cross,players=4)", "hexbaron", "hexaround", "hive"]


def turns_per_cpu_second(env: Any, turns: int, seed: int) -> float:
    """performance_benchmark's loop for ``turns`` turns, timed in CPU seconds."""
    rng = random.Random(seed)
    env.reset(seed=seed)
    done = 0
    start = time.process_time()
    while done < turns:
        for _agent in env.agent_iter(env.num_agents):
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            done += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset(seed=rng.randrange(2**31))
    return done / (time.process_time() - start)


def per_call(function: Callable[[], Any], repeat: int) -> float:
    """CPU microseconds per call."""
    start = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - start) / repeat * 1e6


def state_after(game: Any, plies: int) -> Any:
    state = game.new_state(seed=7)
    rng = random.Random(7)
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state.push(legal[rng.randrange(len(legal))])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--turns", type=int, default=3000)
    args = parser.parse_args()

    try:
        from pettingzoo.classic import connect_four_v3, tictactoe_v3
    except ImportError as error:  # pettingzoo.classic needs pygame
        raise SystemExit(f"ai_speed: PettingZoo's classic games cannot be loaded ({error}); "
                         "install them with: pip install 'pettingzoo[classic]'") from None

    import hexkit
    from hexkit.adapters import pettingzoo_env

    makers = {"hexkit focus": lambda: pettingzoo_env("focus"),
              "connect_four_v3": connect_four_v3.env, "tictactoe_v3": tictactoe_v3.env}
    results: dict[str, list[float]] = {k: [] for k in makers}
    for r in range(args.rounds):
        for name, make in makers.items():
            results[name].append(turns_per_cpu_second(make(), args.turns, r))
    print("PettingZoo performance_benchmark loop, turns per CPU second "
          f"(median of {args.rounds} interleaved rounds of {args.turns} turns):")
    for name, values in results.items():
        print(f"  {name:18} {statistics.median(values):8.0f}  "
              f"(min {min(values):.0f}, max {max(values):.0f})")

    print("\nPer game, CPU microseconds per call, state 40 plies in "
          f"(median of {args.rounds} interleaved rounds):")
    states = {name: state_after(hexkit.load_game(name), 40) for name in GAMES}
    columns = ("observation", "copy()", "deepcopy", "pickle")
    timings: dict[str, dict[str, list[float]]] = {n: {c: [] for c in columns} for n in GAMES}
    for _ in range(args.rounds):
        for name, state in states.items():
            row = timings[name]
            row["observation"].append(per_call(lambda s=state: s.observation(0), 200))
            row["copy()"].append(per_call(state.copy, 200))
            row["deepcopy"].append(per_call(lambda s=state: copy.deepcopy(s), 200))
            row["pickle"].append(per_call(
                lambda s=state: pickle.loads(pickle.dumps(s)), 100))
    print(f"  {'game':30} {'observation':>11} {'copy()':>7} {'deepcopy':>8} {'pickle':>7} "
          f"{'pickle/copy':>11} {'bytes':>7}")
    for name, state in states.items():
        m = {c: statistics.median(v) for c, v in timings[name].items()}
        size = len(pickle.dumps(state))
        print(f"  {name:30} {m['observation']:11.0f} {m['copy()']:7.0f} {m['deepcopy']:8.0f} "
              f"{m['pickle']:7.0f} {m['pickle'] / m['copy()']:11.1f} {size:7}")


if __name__ == "__main__":
    main()
