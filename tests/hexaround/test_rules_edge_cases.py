"""Corners of the rules that the document leaves open, decided in docs/hexaround.md."""

from __future__ import annotations

from pathlib import Path

import pytest
from hexaround import MoveResult

from .conftest import play, position, refused


def test_a_creature_alone_on_the_board_may_fly_anywhere_in_range(tmp_path: Path) -> None:
    gm = position(tmp_path, {(0, 0): [("DOVE", "BLUE")]}, turns=2)
    flights = {str(m) for m in gm.state.legal_moves() if str(m).startswith("move")}
    assert len(flights) == 36  # every hex within 3
    # Red, with nothing on the board and its first action made, then cannot act at all.
    assert gm.move_creature("DOVE", 0, 0, 3, -3).move_result is MoveResult.BLUE_WON
    assert gm.stack_at(3, -3) == [("DOVE", "BLUE")]


def test_a_creature_alone_on_the_board_cannot_walk(tmp_path: Path) -> None:
    gm = position(tmp_path, {(0, 0): [("CRAB", "BLUE")]}, turns=2)
    refused(gm.move_creature("CRAB", 0, 0, 0, 1), "walk")
    assert all(str(m).startswith("place") for m in gm.state.legal_moves())


def test_a_kamikaze_that_empties_the_board_leaves_the_opponent_unable_to_act(
        tmp_path: Path) -> None:
    gm = position(tmp_path, {(0, 0): [("CRAB", "RED")], (1, 0): [("WASP", "BLUE")]}, turns=2)
    response = gm.move_creature("WASP", 1, 0, 0, 0)
    assert response.move_result is MoveResult.BLUE_WON
    assert "RED can neither place nor move" in response.message


def test_coordinates_are_32_bit_integers(tmp_path: Path) -> None:
    edge = 2**31 - 1
    gm = position(tmp_path, {(edge, 0): [("BUTTERFLY", "BLUE")]}, to_move="RED", turns=0)
    refused(gm.place_creature("BUTTERFLY", edge + 1, 0), "32-bit")
    assert all(abs(m.x) <= edge for m in gm.state.legal_moves())
    play(gm, ("place", "BUTTERFLY", edge, 1))


def test_a_saved_position_whose_player_cannot_act_is_refused(tmp_path: Path) -> None:
    from hexkit.errors import RecordError

    gm = position(tmp_path, {(0, 0): [("CRAB", "RED")], (1, 0): [("WASP", "BLUE")]}, turns=2)
    data = gm.state.to_dict()
    data["board"] = []
    with pytest.raises(RecordError, match="cannot act"):
        gm.game.state_from_dict(data)
