"""The playout policy that the plugin gives hexkit's MCTS bot."""

from __future__ import annotations

import random

from hexkit.bots.mcts import MctsBot, playout_policy
from hexkit.plugins import build_registry
from test_hexconnection_rules import new_state, play, snapshot

from hexconnection import plugin
from hexconnection.game import Place
from hexconnection.plugin import PLAYOUT_DEPTH
from hexconnection.policy import bridge_table, save_bridge


def test_bridges_through_a_cell_name_the_two_stones_and_the_other_shared_cell():
    # On 3x3, b1 (index 1) is shared by a1 (0) and b2 (4), whose other shared cell is a2 (3);
    # and by c1 (2) and a2 (3), whose other shared cell is b2 (4).
    assert set(bridge_table(3)[1]) == {(0, 4, 3), (2, 3, 4)}
    # The centre of 3x3 lies in six bridges; a corner cell in none that stays on the board.
    assert len(bridge_table(3)[4]) == 6
    assert bridge_table(3)[0] == ()


def test_playout_answers_a_cut_into_a_bridge_by_taking_the_other_cell():
    # Red b2 and c3 form a bridge over c2 and b3; Blue takes c2, so Red must take b3.
    state = play(new_state(size=5), "b2 a5 c3 c2")
    for seed in range(20):
        assert save_bridge(state, state.legal_moves(), random.Random(seed)) == Place(1, 2)


def test_playout_plays_a_random_legal_move_when_no_bridge_is_cut():
    state = play(new_state(size=5), "b2 a5 c3 e1")
    moves = state.legal_moves()
    chosen = {save_bridge(state, moves, random.Random(seed)) for seed in range(30)}
    assert chosen <= set(moves) and len(chosen) > 5


def test_mcts_bot_gets_the_bridge_saving_policy_for_hex():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("hexconnection", plugin)])
    assert registry.problems == []
    policy = playout_policy("hex", registry.pm)
    assert policy is not None
    assert policy.choose is save_bridge and policy.depth == PLAYOUT_DEPTH == 361
    assert playout_policy("focus", registry.pm) is None


def test_mcts_bots_with_the_policy_play_a_whole_game_with_the_swap_rule():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("hexconnection", plugin)])
    state = new_state(size=5, swap=True)
    bots = [MctsBot(40, seed=seat, policy=playout_policy("hex", registry.pm)) for seat in (0, 1)]
    while not state.is_over():
        before = snapshot(state)
        move = bots[state.current_player].choose(state)
        assert snapshot(state) == before  # the search works on copies
        state.push(move)
    assert len(state.outcome().winners) == 1
