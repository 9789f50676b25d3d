"""What copying and pickling one state costs, for every kind of state a user pickles, in CPU
time: the issue's own measure (issue 26), ``timeit`` of ``state.copy()``,
``copy.deepcopy(state)`` and ``pickle.loads(pickle.dumps(state))`` on one state, best of
``--repeat`` runs, with the round trip's ratio to ``copy()``.

    python benchmarks/pickle_states.py [--plies 40] [--repeat 5] [--plugins] [--games ...]

Kinds of state, per game:

- **new**: ``game.new_state(seed)`` (no move yet: it is its own start);
- **played**: ``--plies`` random plies in (or the end of a shorter game);
- **loaded**: a position of ``--plies // 2`` plies saved with ``to_dict()``, read back with
  ``state_from_dict`` and played 6 plies on (its moves start from the loaded position);
- **first**: the first pickle of a state of a game never pickled before in this process
  (a random game of ``--plies`` plies, each round a new one): ``dumps`` once, ``loads``
  once, the worst case (the position its moves start from is found by popping them).

``--plugins`` adds the example plugin (``hex(size=5)``) and a ``hexkit new-plugin`` game
(``aitoy``), loaded from their folders as ``benchmarks/pickle_speed.py`` does.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
import timeit
from collections.abc import Callable
from typing import Any

from pickle_speed import GAMES, PLUGIN_GAMES, plugin_loader

KINDS = ("new", "played", "loaded", "first")


def best_us(function: Callable[[], Any], repeat: int) -> float:
    """CPU microseconds per call: ``timeit``'s automatic count, best of ``repeat`` runs."""
    timer = timeit.Timer(function, timer=time.process_time)
    number, _ = timer.autorange()
    return min(timer.repeat(repeat, number)) / number * 1e6


def random_plies(state: Any, plies: int, rng: random.Random) -> Any:
    """``state`` after up to ``plies`` random moves (fewer if the game ends)."""
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal or state.outcome() is not None:
            break
        state.push(legal[rng.randrange(len(legal))])
    return state


def state_of(game: Any, kind: str, plies: int, seed: int) -> Any:
    """A state of ``kind`` (see the module's docstring)."""
    rng = random.Random(seed)
    if kind == "new":
        return game.new_state(seed=seed)
    if kind == "loaded":
        saved = random_plies(game.new_state(seed=seed), plies // 2, rng).to_dict()
        return random_plies(game.state_from_dict(saved), 6, rng)
    return random_plies(game.new_state(seed=seed), plies, rng)


def first_pickle_us(game: Any, plies: int, seed: int) -> float:
    """CPU microseconds of the first dumps and loads of a state of a new game."""
    state = state_of(game, "played", plies, seed)
    start = time.process_time()
    blob = pickle.dumps(state)
    pickle.loads(blob)
    return (time.process_time() - start) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=5, help="timeit runs (best is kept)")
    parser.add_argument("--games", help="comma-separated game strings (default: the "
                                        "built-in games)")
    parser.add_argument("--plugins", action="store_true",
                        help="add the example plugin and a new-plugin game")
    args = parser.parse_args()
    names = args.games.split(",") if args.games else list(GAMES)
    load = plugin_loader() if args.plugins else None
    if args.plugins:
        names += PLUGIN_GAMES
    if load is None:
        import hexkit

        load = hexkit.load_game
    print(f"CPU microseconds per call (timeit, best of {args.repeat}); ratio: the round "
          f"trip over copy(); first: the median of 9 new games' first dumps + loads")
    print(f"  {'game':30} {'state':7} {'plies':>5} {'copy':>6} {'deepcopy':>8} "
          f"{'pickle':>7} {'ratio':>6} {'bytes':>7}")
    for name in names:
        game = load(name)
        for kind in KINDS[:3]:
            state = state_of(game, kind, args.plies, seed=7)
            c = best_us(state.copy, args.repeat)
            d = best_us(lambda s=state: copy.deepcopy(s), args.repeat)
            p = best_us(lambda s=state: pickle.loads(pickle.dumps(s)), args.repeat)
            size = len(pickle.dumps(state))
            print(f"  {name:30} {kind:7} {len(state.move_stack):5} {c:6.1f} {d:8.1f} "
                  f"{p:7.1f} {p / c:6.1f} {size:7,}")
        firsts = [first_pickle_us(game, args.plies, seed) for seed in range(100, 109)]
        state = state_of(game, "played", args.plies, seed=100)
        c = best_us(state.copy, args.repeat)
        f = statistics.median(firsts)
        print(f"  {name:30} {'first':7} {len(state.move_stack):5} {c:6.1f} {'':8} "
              f"{f:7.1f} {f / c:6.1f}")


if __name__ == "__main__":
    main()
