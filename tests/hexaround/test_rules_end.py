"""The end of the game (rules §10): surrounded butterflies, the draw, the stuck player, and
requests after the end."""

from __future__ import annotations

from pathlib import Path

from hexaround import MoveResult

from .conftest import play, position, refused

RING = [(0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)]


def _almost_surrounded(red_butterfly_neighbours: int = 5):
    """Red's butterfly at (0, 0) with its first five neighbours taken; a blue dove at
    (-2, 2) can fly into the sixth, (-1, 1)."""
    board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("CRAB", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("BUTTERFLY", "BLUE")],
             (0, -1): [("CRAB", "BLUE")], (-1, 0): [("CRAB", "BLUE")],
             (-2, 1): [("DOVE", "BLUE")]}
    return board


def test_surrounding_the_red_butterfly_wins_for_blue(tmp_path: Path) -> None:
    gm = position(tmp_path, _almost_surrounded())
    response = gm.move_creature("DOVE", -2, 1, -1, 1)
    assert response.move_result is MoveResult.BLUE_WON
    assert "RED's butterfly is surrounded" in response.message
    assert gm.is_over()


def test_surrounding_ones_own_butterfly_loses(tmp_path: Path) -> None:
    board = _almost_surrounded()
    board[(-2, 1)] = [("DOVE", "RED")]
    board[(-1, 0)] = [("CRAB", "RED")]
    gm = position(tmp_path, board, to_move="RED")
    assert gm.move_creature("DOVE", -2, 1, -1, 1).move_result is MoveResult.BLUE_WON


def test_surrounding_the_blue_butterfly_wins_for_red(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (0, 1): [("CRAB", "BLUE")],
             (1, 0): [("CRAB", "BLUE")], (1, -1): [("BUTTERFLY", "RED")],
             (0, -1): [("CRAB", "RED")], (-1, 0): [("CRAB", "RED")],
             (-2, 1): [("DOVE", "RED")]}
    gm = position(tmp_path, board, to_move="RED")
    response = gm.move_creature("DOVE", -2, 1, -1, 1)
    assert response.move_result is MoveResult.RED_WON


def test_surrounding_both_butterflies_with_one_action_is_a_draw(tmp_path: Path) -> None:
    # The butterflies share the empty neighbour (0, 1); every other neighbour is taken.
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")],
             (1, -1): [("CRAB", "BLUE")], (0, -1): [("CRAB", "BLUE")],
             (-1, 0): [("CRAB", "BLUE")], (-1, 1): [("CRAB", "BLUE")],
             (1, 1): [("CRAB", "RED")], (2, 0): [("CRAB", "RED")], (2, -1): [("CRAB", "RED")],
             (2, 1): [("DOVE", "BLUE")]}
    gm = position(tmp_path, board)
    response = gm.move_creature("DOVE", 2, 1, 0, 1)
    assert response.move_result is MoveResult.DRAW
    assert gm.state.outcome().is_draw


def test_a_placement_can_surround_a_butterfly(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("CRAB", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "BLUE")],
             (0, -1): [("BUTTERFLY", "BLUE")], (-1, 0): [("HEN", "BLUE")]}
    gm = position(tmp_path, board)
    # (-1, 1) touches red creatures, but the hatching hen lets Blue place there.
    assert gm.place_creature("CRAB", -1, 1).move_result is MoveResult.BLUE_WON


def test_a_player_who_can_neither_place_nor_move_loses(tmp_path: Path) -> None:
    # Blue's whole stock is on the board, and both creatures are trapped under beetles.
    players = {"BLUE": {"BUTTERFLY": 1, "CRAB": 1},
               "RED": {"BUTTERFLY": 1, "BEETLE": 2}}
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("BEETLE", "RED")],
             (1, 0): [("CRAB", "BLUE"), ("BEETLE", "RED")], (0, 1): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board, to_move="RED", players=players)
    response = gm.move_creature("BUTTERFLY", 0, 1, -1, 1)
    assert response.move_result is MoveResult.RED_WON
    assert response.message == "RED wins: BLUE can neither place nor move"


def test_every_request_after_the_end_is_a_move_error(tmp_path: Path) -> None:
    gm = position(tmp_path, _almost_surrounded())
    play_result = gm.move_creature("DOVE", -2, 1, -1, 1)
    assert play_result.move_result is MoveResult.BLUE_WON
    before = gm.state.to_dict()
    refused(gm.place_creature("CRAB", 0, -2), "game is over")
    refused(gm.move_creature("BUTTERFLY", 0, 0, 0, 2), "game is over")
    refused(gm.move_creature("CRAB", -1, 0, -1, -1), "game is over")
    assert gm.state.to_dict() == before


def test_queries_still_answer_after_the_end(tmp_path: Path) -> None:
    gm = position(tmp_path, _almost_surrounded())
    gm.move_creature("DOVE", -2, 1, -1, 1)
    assert gm.get_creature_at(-1, 1) == "DOVE"
    assert gm.is_occupied(0, 0) and gm.has_property(0, 0, "QUEEN")
    assert gm.can_reach(-1, 1, 1, 1)
    assert gm.stack_at(1, -1) == [("BUTTERFLY", "BLUE")]
    assert gm.in_hand("RED", "BUTTERFLY") == 0


def test_a_butterfly_in_hand_is_not_surrounded(tmp_path: Path) -> None:
    gm = position(tmp_path, {(0, 0): [("CRAB", "BLUE")], (1, 0): [("CRAB", "RED")]}, turns=1)
    play(gm, ("place", "CRAB", -1, 0))
    assert not gm.is_over()


def test_game_over_is_reported_through_the_generic_api(tmp_path: Path) -> None:
    gm = position(tmp_path, _almost_surrounded())
    gm.move_creature("DOVE", -2, 1, -1, 1)
    outcome = gm.state.outcome()
    assert outcome is not None and outcome.winners == (0,)
    assert gm.state.legal_moves() == []
