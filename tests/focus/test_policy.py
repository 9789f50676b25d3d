"""Focus's help for the MCTS bot: the evaluation of unfinished playouts and its registration."""

from __future__ import annotations

import random

import pluggy
import pytest
from focus import plugin as focus_plugin
from focus.policy import evaluate

import hexkit
from hexkit import hookspecs
from hexkit.bots.mcts import MctsBot, playout_policy
from hexkit.plugins import build_registry


def position(game_text: str, board: dict, turn: int = 0, **fields):
    """A position of ``game_text`` from to_dict()-style data."""
    game = hexkit.load_game(game_text)
    n = game.rules.players
    return game.state_from_dict({
        "board": [[r, c, list(s)] for (r, c), s in board.items()],
        "reserve": fields.get("reserve", [0] * n), "captured": fields.get("captured", [0] * n),
        "turn": turn, "turns_taken": [1] * n, "out": fields.get("out", []),
        "winner": None, "reason": "", "rng": hexkit.rng_to_json(random.Random(0)),
    })


SPREAD = {(0, 0): [0], (0, 2): [1], (2, 0): [0, 1], (2, 2): [1, 0]}


def test_mcts_evaluation_prefers_the_player_with_more_captures():
    state = position("focus", SPREAD, captured=[3, 1])
    red, green = evaluate(state)
    assert red > green
    assert 0.0 <= green < 0.5 < red <= 1.0
    assert evaluate(position("focus", SPREAD, captured=[1, 3])) == [green, red]


def test_mcts_evaluation_is_even_when_captures_and_reserves_are_equal():
    assert evaluate(position("focus", SPREAD, captured=[2, 2], reserve=[1, 1])) == [0.5, 0.5]


def test_mcts_evaluation_counts_a_reserve_piece_as_half_a_capture():
    state = position("focus", SPREAD, captured=[1, 0], reserve=[0, 2])
    assert evaluate(state) == [0.5, 0.5]
    ahead = position("focus", SPREAD, captured=[1, 0], reserve=[0, 1])
    assert evaluate(ahead)[0] > evaluate(ahead)[1]


def test_mcts_evaluation_stays_below_a_win_for_a_lead_short_of_the_captures_needed():
    red, green = evaluate(position("focus", SPREAD, captured=[5, 0]))
    assert 0.5 < red < 1.0 and 0.0 < green < 0.5


def test_mcts_evaluation_of_the_last_mover_game_is_each_players_share_of_stacks_and_reserve():
    # Red controls three stacks, Green one stack plus a reserve piece.
    board = {(2, 2): [0], (2, 3): [1, 0], (3, 3): [0], (4, 4): [0, 1]}
    red, green = evaluate(position("focus(board=cross)", board, reserve=[0, 1]))
    assert (red, green) == pytest.approx((0.6, 0.4))


def test_mcts_evaluation_gives_nothing_to_a_player_who_is_out_in_a_four_player_game():
    board = {(2, 2): [0], (2, 3): [1], (3, 3): [3, 1], (4, 4): [3]}
    rewards = evaluate(position("focus(board=cross,players=4)", board, out=[2]))
    assert len(rewards) == 4
    assert rewards[2] == 0.0
    assert rewards[1] > rewards[0] == rewards[3] > 0.0
    assert sum(rewards) == pytest.approx(1.0)


def test_mcts_with_the_evaluation_takes_the_only_capturing_move():
    # Red's two on c3 onto Green's four on d3 make six: one Green piece is captured. No
    # other Red move captures, and no move ends the game within a short playout.
    board = {(2, 2): [0, 0], (2, 3): [1, 1, 1, 1], (5, 5): [1], (5, 0): [0]}
    state = position("focus", board)
    policy = playout_policy("focus")
    for seed in range(1, 6):
        assert str(MctsBot(300, seed=seed, policy=policy).choose(state)) == "c3-d3x2"


def test_the_focus_policy_is_registered_when_the_registry_is_built():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("focus", focus_plugin)])
    policy = playout_policy("focus", registry.pm)
    assert policy is not None
    assert policy.evaluate is evaluate
    assert policy.depth is not None and policy.depth > 0


def test_the_focus_plugin_loads_where_the_mcts_service_is_absent():
    pm = pluggy.PluginManager("hexkit")
    pm.add_hookspecs(hookspecs)
    pm.register(focus_plugin, name="focus")
    pm.check_pending()  # an unknown hook not marked optional would raise here
