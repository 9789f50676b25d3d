"""The ``hive`` bot: legal moves within its budget, the state left alone, a win in one
taken, an opponent's win in one stopped, pressure on the enemy Queen preferred."""

from __future__ import annotations

import pytest
from hive.bot import HiveBot, evaluate, parse_bot_arg

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
    from hive.bot import playout_evaluate

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
