"""hexkit's conformance kit, and two rules of Hex."""

from __future__ import annotations

import pytest
from hexkit import IllegalMoveError
from hexkit.testing import check_game

from hexconnection.plugin import SPEC


@pytest.mark.parametrize("options", [{"size": 3}, {"size": 5}, {"size": 7, "swap": True}])
def test_hex_passes_the_hexkit_conformance_kit(options):
    report = check_game(SPEC.make_game(options), games=3)
    assert report.finished == 3


def test_red_wins_by_joining_top_and_bottom():
    state = SPEC.make_game({"size": 3}).new_state(seed=0)
    for move in "a1 b1 a2 b2 a3".split():
        state.push(move)
    assert state.outcome().winners == (0,)
    assert state.legal_moves() == []


def test_a_taken_cell_is_refused_and_nothing_changes():
    state = SPEC.make_game({"size": 5}).new_state(seed=0)
    state.push("c3")
    before = state.render()
    with pytest.raises(IllegalMoveError, match="c3 is taken by Red"):
        state.push("c3")
    assert state.render() == before and len(state.move_stack) == 1
