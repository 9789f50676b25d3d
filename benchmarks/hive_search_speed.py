"""Hive bot search speed: the Python search (hive.search.Search) against the compiled one
(hive._hivegen's search), side by side in one run, on the same middle-game positions.

Each round searches every position to a fixed depth with each search (fresh tables, the
order of the two alternating from round to round) and times it in CPU time of this
process; the figure is nodes per CPU second (a node: an interior node or a quiescence move,
counted alike by both), the median over ``--repeat`` rounds. Both find the same score at
every position (checked); node counts differ a little, as the two generate moves in
different orders. Then the compiled search alone, with a node budget (the bot's levels 4
and 5): CPU seconds a move and the depth reached.

    python benchmarks/hive_search_speed.py [--positions 8] [--depth 3] [--repeat 3]
        [--budgets 1100000 2400000]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import hive.search  # noqa: F401  (installed with hexkit)
except ImportError:  # run from a checkout without the install
    sys.path.insert(0, str(ROOT / "plugins"))

from hive.bot import HiveBot, _earlier_hashes, _earlier_keys  # noqa: E402
from hive.search import (  # noqa: E402
    Search,
    compiled_search,
    compiled_search_available,
    new_compiled_table,
)

import hexkit  # noqa: E402


def positions(count: int, seed: int) -> list:
    """Middle-game positions: games of a one-ply bot with some random moves, cut at 16 to
    40 plies."""
    game = hexkit.load_game("hive")
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        state = game.new_state(seed=g)
        bot = HiveBot(seconds=None, depth=1, seed=g)
        for _ in range(rng.randrange(16, 40)):
            if state.is_over():
                break
            moves = state.legal_moves()
            state.push(bot.choose(state) if rng.random() < 0.7 else rng.choice(moves))
        g += 1
        if not state.is_over() and len(state.legal_moves()) > 1:
            out.append(state)
    return out


def python_search(state, depth: int) -> tuple[int, int]:
    engine = state.engine
    search = Search(engine.clone(), table={}, history_keys=_earlier_hashes(engine))
    score, _, _ = search.root(list(engine.legal_actions()), depth)
    return score, search.nodes


def c_search(state, depth: int) -> tuple[int, int]:
    engine = state.engine
    got = compiled_search(engine.clone(), table=new_compiled_table(),
                          seen=_earlier_keys(engine), seed=1, depth=depth)
    assert got is not None
    return got[1], got[3]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--positions", type=int, default=8)
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--seed", type=int, default=27)
    p.add_argument("--budgets", type=int, nargs="*", default=[1_100_000, 2_400_000])
    args = p.parse_args()
    states = positions(args.positions, args.seed)
    if not compiled_search_available(states[0].engine):
        sys.exit("hive._hivegen is not built: no compiled search to compare")
    rates: dict[str, list[float]] = {"python": [], "compiled": []}
    for r in range(args.repeat):
        order = [("python", python_search), ("compiled", c_search)]
        if r % 2:
            order.reverse()
        scores: dict[str, list[int]] = {}
        for name, fn in order:
            nodes = 0
            t = time.process_time()
            got = [fn(s, args.depth) for s in states]
            cpu = time.process_time() - t
            nodes = sum(n for _, n in got)
            scores[name] = [sc for sc, _ in got]
            rates[name].append(nodes / cpu)
        assert scores["python"] == scores["compiled"], scores
    py, c = statistics.median(rates["python"]), statistics.median(rates["compiled"])
    print(f"{len(states)} positions, depth {args.depth}, {args.repeat} rounds, same scores: "
          f"Python {py:,.0f} nodes/CPU s, compiled {c:,.0f} nodes/CPU s ({c / py:.0f} times)")
    for budget in args.budgets:
        cpu, depths = 0.0, []
        for s in states:
            bot = HiveBot(seconds=None, nodes=budget, seed=1)
            t = time.process_time()
            bot.choose(s)
            cpu += time.process_time() - t
            depths.append(bot.last_depth)
        print(f"nodes={budget:,}: {cpu / len(states):.2f} CPU s a move on average, depth "
              f"{min(depths)}-{max(depths)} (median {statistics.median(depths)})")


if __name__ == "__main__":
    main()
