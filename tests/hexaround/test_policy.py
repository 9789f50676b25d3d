"""HexAround's help for the MCTS bot: the butterfly-pressure evaluation and its registration."""

from __future__ import annotations

from pathlib import Path

import pluggy
import pytest
from hexaround import policy as hexaround_policy
from hexaround.policy import evaluate, pressure

import hexkit
from hexkit import hookspecs
from hexkit.bots import RandomBot
from hexkit.bots.mcts import MctsBot, PlayoutPolicy, playout_policy
from hexkit.plugins import build_registry

from .conftest import position

CREATURES = {
    "BUTTERFLY": {"max_distance": 1, "properties": ["WALKING", "QUEEN"]},
    "CRAB": {"max_distance": 1, "properties": ["WALKING"]},
    "DOVE": {"max_distance": 5, "properties": ["FLYING"]},
}
STOCK = {"BUTTERFLY": 1, "CRAB": 3, "DOVE": 2}
BLUE_BUTTERFLY = [("BUTTERFLY", "BLUE")]
RED_BUTTERFLY = [("BUTTERFLY", "RED")]


def state_of(folder: Path, board: dict) -> hexkit.State:
    """A generic-API state with ``board`` set up directly, BLUE to act."""
    gm = position(folder, board, creatures=CREATURES, players={"BLUE": STOCK, "RED": STOCK})
    return gm.state


def test_mcts_evaluation_prefers_the_player_whose_butterfly_is_less_crowded(tmp_path):
    # BLUE's butterfly at (0,0) has one occupied neighbour, RED's at (0,3) three.
    board = {(0, 0): BLUE_BUTTERFLY, (0, 1): [("CRAB", "BLUE")], (0, 2): [("CRAB", "RED")],
             (0, 3): RED_BUTTERFLY, (1, 3): [("CRAB", "RED")], (-1, 4): [("DOVE", "BLUE")]}
    state = state_of(tmp_path, board)
    assert (pressure(state, 0), pressure(state, 1)) == (1, 3)
    blue, red = evaluate(state)
    assert 0.5 < blue < 1.0 and 0.0 < red < 0.5
    assert blue + red == pytest.approx(1.0)


def test_mcts_evaluation_is_even_when_both_butterflies_are_equally_crowded(tmp_path):
    board = {(0, 0): BLUE_BUTTERFLY, (0, 1): [("CRAB", "BLUE")], (0, 2): [("CRAB", "RED")],
             (0, 3): RED_BUTTERFLY}
    assert evaluate(state_of(tmp_path, board)) == [0.5, 0.5]


def test_mcts_evaluation_counts_anyones_creature_next_to_a_butterfly(tmp_path):
    # Two RED crabs crowd RED's own butterfly as much as BLUE's would.
    board = {(0, 0): BLUE_BUTTERFLY, (0, 1): RED_BUTTERFLY, (1, 1): [("CRAB", "RED")],
             (-1, 2): [("CRAB", "RED")]}
    state = state_of(tmp_path, board)
    assert (pressure(state, 0), pressure(state, 1)) == (1, 3)
    blue, red = evaluate(state)
    assert blue > red


def test_mcts_evaluation_counts_a_butterfly_in_hand_as_free():
    state = hexkit.load_game("hexaround").new_state(seed=1)
    state.push("place DUCK 0 0")
    state.push("place BUTTERFLY 0 1")
    assert (pressure(state, 0), pressure(state, 1)) == (0, 1)
    blue, red = evaluate(state)
    assert blue > red


def test_mcts_evaluation_never_reaches_a_certain_result_before_the_game_ends(tmp_path):
    # Five neighbours of RED's butterfly taken, none of BLUE's: the best unfinished case.
    board = {(0, 0): BLUE_BUTTERFLY, (0, 1): [("CRAB", "BLUE")], (0, 2): RED_BUTTERFLY,
             (1, 1): [("CRAB", "BLUE")], (1, 2): [("CRAB", "RED")], (0, 3): [("CRAB", "RED")],
             (-1, 3): [("DOVE", "RED")]}
    state = state_of(tmp_path, board)
    assert (pressure(state, 0), pressure(state, 1)) == (1, 5)
    blue, red = evaluate(state)
    assert 0.5 < blue < 1.0


@pytest.mark.parametrize("mcts_seat", [0, 1])
def test_mcts_with_the_evaluation_beats_the_random_bot_in_a_short_game(mcts_seat):
    policy = PlayoutPolicy("hexaround", evaluate=evaluate, depth=hexaround_policy.DEPTH)
    state = hexkit.load_game("hexaround").new_state(seed=3)
    # Random seed 4: MCTS surrounds the butterfly within about 20 actions in either seat
    # (seed 5 ended seat 0's game after 5 actions and dragged seat 1's over 126, 45 s of CPU).
    bots = {mcts_seat: MctsBot(100, seed=7, policy=policy), 1 - mcts_seat: RandomBot(4)}
    while not state.is_over() and len(state.move_stack) < 400:
        state.push(bots[state.current_player].choose(state))
    assert state.outcome() is not None, "no result in 400 actions"
    assert state.outcome().winners == (mcts_seat,)


def test_the_hexaround_policy_is_registered_when_the_registry_is_built():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("hexaround_policy", hexaround_policy)])
    policy = playout_policy("hexaround", registry.pm)
    assert policy is not None
    assert policy.evaluate is evaluate
    assert policy.depth == hexaround_policy.DEPTH


def test_the_policy_module_loads_where_the_mcts_service_is_absent():
    pm = pluggy.PluginManager("hexkit")
    pm.add_hookspecs(hookspecs)
    pm.register(hexaround_policy, name="hexaround_policy")
    pm.check_pending()  # an unknown hook not marked optional would raise here
