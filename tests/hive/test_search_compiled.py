"""The ``hive`` bot's compiled search (``hive._hivegen``'s ``search``): the same scores as
the Python search at equal depth, a node budget it keeps, Ctrl-C heard, and levels 4 and 5
by nodes. (The compiled evaluation it uses is :func:`hive.evaluation.evaluate`'s, checked
against the Python one in test_bot.py.)"""

from __future__ import annotations

import signal

import pytest
from hive.bot import (
    LEVEL4_NODES,
    LEVEL5_NODES,
    LEVELS,
    HiveBot,
    _earlier_hashes,
    _earlier_keys,
)
from hive.search import (
    Search,
    compiled_search,
    compiled_search_available,
    new_compiled_table,
)

import hexkit
from hexkit.bots import make_bot
from hexkit.errors import OptionError

from .test_bot import random_state


def needs_compiled(state):
    if not compiled_search_available(state.engine):
        pytest.skip("hive._hivegen is not built (no C compiler at install)")


@pytest.mark.parametrize("expansions,seed,plies", [
    ("MLP", 1, 14), ("MLP", 2, 24), ("MLP", 4, 33), ("none", 3, 18), ("P", 5, 21)])
def test_the_compiled_search_scores_a_position_as_the_python_search_does(
        expansions, seed, plies):
    state = random_state(seed, plies, expansions)
    needs_compiled(state)
    engine = state.engine
    assert not state.is_over()
    # Iterative deepening, as the bot searches: depth 1, then depth 2 with the table kept
    # and the root's moves reordered by depth 1's scores.
    python = Search(engine.clone(), table={}, history_keys=_earlier_hashes(engine))
    order = list(engine.legal_actions())
    for depth in (1, 2):
        score, best, scores = python.root(order, depth)
        order = [best] + [a for _, a in sorted(scores, key=lambda x: -x[0]) if a != best]
        got = compiled_search(engine.clone(), table=new_compiled_table(),
                              seen=_earlier_keys(engine), seed=seed, depth=depth)
        assert got is not None
        action, c_score, done, nodes = got
        assert (c_score, done) == (score, depth) and nodes > 0
        # Its move is one of the best by the Python search's own reckoning.
        check = Search(engine.clone(), table={}, history_keys=_earlier_hashes(engine))
        check.push(action)
        assert -check.pvs(depth - 1, -10**7, 10**7, 1) == score


def test_a_node_budget_bounds_the_search_and_still_gives_a_legal_move():
    state = random_state(6, 26)
    needs_compiled(state)
    bot = make_bot(state.game, "hive:nodes=2000", 3)
    assert isinstance(bot, HiveBot) and bot.node_budget == 2000
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert 0 < bot.nodes <= 2001
    # The same budget and seed play the same move, whatever the machine's load.
    assert make_bot(state.game, "hive:nodes=2000", 3).choose(state) == move


def test_node_budgets_are_checked():
    game = hexkit.load_game("hive")
    assert make_bot(game, "hive:nodes=300k", 1).node_budget == 300_000
    assert make_bot(game, "hive:nodes=2M,time=5", 1).node_budget == 2_000_000
    for bad in ("nodes=0", "nodes=-5", "nodes=lots", "nodes=1.5M", "nodes=99999999999",
                "level=4,nodes=10"):
        with pytest.raises(OptionError, match="hive bot"):
            make_bot(game, f"hive:{bad}", 1)


def test_levels_four_and_five_search_node_budgets_not_wall_clock_seconds():
    assert (LEVELS[3].nodes, LEVELS[4].nodes) == (LEVEL4_NODES, LEVEL5_NODES)
    assert LEVEL4_NODES < LEVEL5_NODES
    bot = make_bot(hexkit.load_game("hive"), "hive:level=5", 1)
    assert isinstance(bot, HiveBot) and bot.node_budget == LEVEL5_NODES


def test_ctrl_c_stops_a_compiled_search():
    state = random_state(8, 30)
    needs_compiled(state)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt):
            compiled_search(state.engine, table=new_compiled_table(), seen=[], seed=1,
                            nodes=10**10)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
