"""The ``hive`` bot: legal moves within its budget, the state left alone, a win in one
taken, an opponent's win in one stopped, pressure on the enemy Queen preferred."""

from __future__ import annotations

import pytest
from hive.bot import HiveBot, parse_bot_arg
from hive.evaluation import evaluate

import hexkit
from hexkit.bots import make_bot
from hexkit.errors import OptionError

from .positions import WIN_IN_ONE


def load(game_string: str):
    from hive.notation import split_game_string

    parts = split_game_string(game_string)
    state = hexkit.load_game("hive", expansions=parts.expansions or "none").new_state(seed=0)
    for text in parts.moves:
        state.push(text)
    return state


def test_the_bot_plays_only_legal_moves_and_leaves_the_state_alone():
    game = hexkit.load_game("hive")
    bot = make_bot(game, "hive:depth=2", 7)
    state = game.new_state(seed=0)
    for _ in range(12):
        if state.is_over():
            break
        before = state.to_dict()
        move = bot.choose(state)
        assert state.to_dict() == before
        assert move in state.legal_moves()
        state.push(move)


def test_the_bot_takes_a_win_in_one():
    state = load(WIN_IN_ONE)
    for bot in (HiveBot(depth=1, seed=0), HiveBot(depth=2, seed=1), HiveBot(seconds=0.3)):
        move = bot.choose(state)
        assert str(move) == "wA3 bM\\"
        state.push(move)
        assert state.outcome().winners == (0,)
        state.pop()


def test_the_bot_stops_the_opponents_win_in_one():
    # Undo White's winning chance: it is Black's turn one move earlier, and White threatens
    # wA3 bM\\; a bot that looks two plies ahead must leave White no winning move.
    state = load(WIN_IN_ONE)
    state.pop()
    move = HiveBot(depth=2, seed=0).choose(state)
    state.push(move)
    for reply in state.legal_moves():
        state.push(reply)
        assert state.outcome() is None or state.outcome().winners != (0,), (str(move), str(reply))
        state.pop()


def test_the_bot_answers_within_its_time_budget_with_a_search_of_some_depth():
    state = load("Base+MLP;InProgress;White[4];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 /wQ;"
                 "bA1 bQ\\")
    bot = HiveBot(seconds=0.5, seed=1)
    assert bot.choose(state) in state.legal_moves()
    assert bot.last_depth >= 1 and bot.nodes > 0


def test_the_evaluation_prefers_pressure_on_the_enemy_queen():
    # The same position but for White's Ant, White to move in both: beside Black's Queen
    # (a third neighbour for it) rather than beside White's own Queen.
    opening = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;"
    away = load(opening + "wA1 \\wQ;bA2 bA1-")
    pressing = load(opening + "wA1 bQ/;bA2 bA1-")
    assert evaluate(pressing.engine) > evaluate(away.engine)


def test_bot_settings_are_checked():
    assert parse_bot_arg(None) == (1.0, None)
    assert parse_bot_arg("time=2,depth=3") == (2.0, 3)
    for bad in ("depth=0", "time=-1", "speed=3", "depth=x"):
        with pytest.raises(OptionError):
            parse_bot_arg(bad)
    with pytest.raises(OptionError, match="Hive only"):
        make_bot(hexkit.load_game("focus"), "hive", 0)


def test_mcts_scores_unfinished_hive_playouts_with_the_evaluation():
    from hive.policy import playout_evaluate

    from hexkit import plugins

    policy = plugins.registry().policies["hive"].resolved()
    assert policy.evaluate is playout_evaluate
    opening = "Base;InProgress;White[5];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;wA1 -wQ;bA1 bQ-;"
    white, black = playout_evaluate(load(opening + "wA1 bQ/;bA2 bA1-"))
    assert abs(white + black - 1.0) < 1e-9
    away_white, _ = playout_evaluate(load(opening + "wA1 \\wQ;bA2 bA1-"))
    assert white > away_white
    bot = make_bot(hexkit.load_game("hive"), "mcts:30", 1)
    state = load(opening + "wA1 bQ/;bA2 bA1-")
    assert bot.choose(state) in state.legal_moves()


def random_state(seed: int, plies: int, expansions: str = "MLP"):
    import random

    state = hexkit.load_game("hive", expansions=expansions).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_moves()))
    return state


def test_the_search_keeps_its_zobrist_hash_equal_to_one_made_from_scratch():
    import random

    from hive.search import Search, position_hash

    rng = random.Random(5)
    for seed in (1, 2, 3):
        state = random_state(seed, 20)
        search = Search(state.engine.clone(), table={})
        pushed = 0
        for _ in range(40):
            engine = search.engine
            actions = engine.legal_actions()
            if actions and rng.random() < 0.7 or pushed == 0:
                if not actions:
                    break
                search.push(rng.choice(actions))
                pushed += 1
            else:
                search.pop()
                pushed -= 1
            assert search.hash == position_hash(search.engine)


def test_a_position_keeps_its_table_score_whatever_the_order_it_was_reached_in():
    # Two move orders to one position: the transposition table gives the same key, and
    # a fresh search and one reusing the table score it the same at a fixed depth.
    from hive.search import Search

    head = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-;"
    a = load(head + "wA1 \\wQ;bA1 bQ\\;wG1 /wQ;bG1 bQ/")
    b = load(head + "wG1 /wQ;bG1 bQ/;wA1 \\wQ;bA1 bQ\\")
    assert a.engine.stacks == b.engine.stacks
    sa = Search(a.engine.clone(), table={})
    sb = Search(b.engine.clone(), table={})
    assert sa.key() == sb.key()
    table: dict = {}
    fresh = Search(a.engine.clone(), table={}).pvs(2, -10**7, 10**7, 0)
    warm = Search(a.engine.clone(), table=table)
    warm.pvs(1, -10**7, 10**7, 0)
    assert warm.pvs(2, -10**7, 10**7, 0) == fresh
    assert table


def test_the_search_stops_at_its_deadline_within_one_node():
    # A fake clock that moves a millisecond at every reading: the search must stop as soon
    # as it reads a time past its deadline, and still answer a legal move.
    ticks = [0.0]

    def clock() -> float:
        ticks[0] += 0.001
        return ticks[0]

    state = random_state(4, 20)
    bot = HiveBot(seconds=0.2, seed=0, clock=clock)
    move = bot.choose(state)
    assert move in state.legal_moves()
    assert ticks[0] <= 0.2 + 0.002
    assert bot.nodes <= 200


def test_quiescence_sees_a_win_in_one_beyond_the_horizon():
    # Black to move one ply before WIN_IN_ONE: at depth 1 every Black move ends in a
    # position where White wins at once; quiescence finds White's win for those.
    from hive.search import WON, Search

    state = load(WIN_IN_ONE)
    search = Search(state.engine.clone(), table={})
    assert search.pvs(0, -10**7, 10**7, 0) >= WON  # White to move: the win is seen


def test_levels_build_and_level_one_blurs_its_choice():
    game = hexkit.load_game("hive")
    state = random_state(6, 16)
    for number in range(1, 6):
        bot = make_bot(game, f"hive:level={number}", 1)
        assert isinstance(bot, HiveBot)
    first = {str(HiveBot(seconds=None, depth=1, seed=s, noise=90).choose(state))
             for s in range(8)}
    best = {str(HiveBot(seconds=None, depth=1, seed=s).choose(state)) for s in range(3)}
    assert len(first) > 1 and len(best) <= len(first)
    for bad in ("level=0", "level=6", "level=x", "level=2,time=1"):
        with pytest.raises(OptionError):
            make_bot(game, f"hive:{bad}", 0)
    state = load(WIN_IN_ONE)
    assert str(make_bot(game, "hive:level=1", 3).choose(state)) == "wA3 bM\\"
    # When every move loses, the blurred choice still answers: the loss furthest away.
    from hive.evaluation import WIN

    lost = [(-WIN + 3, "a"), (-WIN + 7, "b"), (-WIN + 5, "c")]
    assert HiveBot(noise=90, seed=0)._blurred(lost) == "b"


def test_the_compiled_evaluation_equals_the_python_one_on_every_game_type():
    from hive.evaluation import compiled_evaluation_available, evaluate, evaluate_python

    if not compiled_evaluation_available():
        pytest.skip("hive._hiveeval is not built (no C compiler at install)")
    import random

    checked = 0
    for expansions in ("none", "M", "L", "P", "ML", "MP", "LP", "MLP"):
        for seed in (1, 2):
            state = hexkit.load_game("hive", expansions=expansions).new_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(70):
                if state.is_over():
                    break
                assert evaluate(state.engine) == evaluate_python(state.engine), \
                    state.game_string()
                checked += 1
                state.push(rng.choice(state.legal_moves()))
    assert checked > 800
