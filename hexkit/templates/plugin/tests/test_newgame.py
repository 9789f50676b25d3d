"""The game's tests: hexkit's conformance kit, and the rules themselves."""

from __future__ import annotations

import hexkit
import pytest
from hexkit.testing import check_game


def test_newgame_follows_the_hexkit_game_api():
    check_game("newgame", games=5)


def test_three_in_a_row_wins():
    state = hexkit.load_game("newgame").new_state(seed=0)
    for move in ["0,0", "0,1", "1,0", "0,2", "-1,0"]:
        state.push(move)
    assert state.is_over()
    assert state.outcome().winners == (0,)


def test_a_taken_hex_is_refused_and_nothing_changes():
    state = hexkit.load_game("newgame").new_state(seed=0)
    state.push("0,0")
    before = state.render()
    with pytest.raises(hexkit.IllegalMoveError):
        state.push("0,0")
    assert state.render() == before and len(state.move_stack) == 1
