"""Placing creatures (rules §5), the butterfly deadline (§5.1), turns and refused requests."""

from __future__ import annotations

from pathlib import Path

from hexaround import MoveResult

from .conftest import manager, play, position, refused


def test_blue_first_placement_may_go_on_any_hex(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "CRAB", 5, -3))
    assert gm.stack_at(5, -3) == [("CRAB", "BLUE")]


def test_red_first_placement_must_touch_blue(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0))
    refused(gm.place_creature("BUTTERFLY", 2, 0), "next to")
    play(gm, ("place", "BUTTERFLY", 1, -1))
    assert gm.get_creature_at(1, -1) == "BUTTERFLY"


def test_later_placement_must_touch_own_colour(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "BUTTERFLY", 0, 1))
    refused(gm.place_creature("CRAB", 0, 3), "not next to", "BLUE")
    play(gm, ("place", "CRAB", 0, -1))


def test_placement_next_to_an_enemy_is_refused_even_beside_own(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "BUTTERFLY", 0, 1))
    refused(gm.place_creature("CRAB", 1, 0), "next to a RED creature")
    refused(gm.place_creature("CRAB", -1, 1), "next to a RED creature")


def test_placement_on_an_occupied_hex_is_refused(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "BUTTERFLY", 0, 1))
    refused(gm.place_creature("CRAB", 0, 0), "occupied")


def test_placement_needs_the_creature_in_hand(tmp_path: Path) -> None:
    gm = manager(tmp_path, players={"BLUE": {"BUTTERFLY": 1, "CRAB": 1}})
    play(gm, ("place", "CRAB", 0, 0), ("place", "CRAB", 0, 1))
    assert gm.in_hand("BLUE", "CRAB") == 0
    refused(gm.place_creature("CRAB", 0, -1), "no CRAB left")
    refused(gm.place_creature("EAGLE", 0, -1), "no creature EAGLE")


def test_colour_of_a_stack_is_its_top_creature(tmp_path: Path) -> None:
    board = {(0, 0): [("CRAB", "RED"), ("TURTLE", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (1, -1): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("place", "CRAB", -1, 0))  # touches only the blue-topped stack
    gm = position(tmp_path, board)
    refused(gm.place_creature("CRAB", 1, 0), "next to a RED creature")


def test_hatching_lets_its_owner_place_next_to_the_enemy(tmp_path: Path) -> None:
    board = {(0, 0): [("HEN", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (0, -1): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("place", "CRAB", 1, 0))  # next to the red butterfly, but also to the hen
    assert gm.stack_at(1, 0) == [("CRAB", "BLUE")]
    board[(0, 0)] = [("CRAB", "BLUE")]
    gm = position(tmp_path, board)
    refused(gm.place_creature("CRAB", 1, 0), "next to a RED creature")


def test_hatching_counts_only_on_top_of_its_stack(tmp_path: Path) -> None:
    board = {(0, 0): [("HEN", "BLUE"), ("TURTLE", "RED")], (0, 1): [("BUTTERFLY", "RED")],
             (0, -1): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.place_creature("CRAB", 1, -1), "next to a RED creature")


def test_hatching_does_not_help_the_enemy(tmp_path: Path) -> None:
    board = {(0, 0): [("HEN", "RED")], (0, 1): [("BUTTERFLY", "RED")],
             (0, -1): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.place_creature("CRAB", 1, -1), "next to a RED creature")


def _three_turns_each(gm) -> None:
    play(gm, ("place", "CRAB", 0, 0), ("place", "CRAB", 0, 1),
         ("place", "CRAB", 0, -1), ("place", "CRAB", 0, 2),
         ("place", "CRAB", 0, -2), ("place", "BUTTERFLY", 0, 3))


def test_butterfly_must_be_placed_on_a_players_fourth_turn(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    _three_turns_each(gm)
    refused(gm.place_creature("CRAB", 0, -3), "must place the BUTTERFLY")
    refused(gm.move_creature("CRAB", 0, -2, 1, -2), "must place the BUTTERFLY")
    play(gm, ("place", "BUTTERFLY", 1, -3))
    play(gm, ("place", "CRAB", 1, 3), ("place", "CRAB", 0, -3))


def test_red_butterfly_deadline_is_reds_own_fourth_turn(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "CRAB", 0, 1),
         ("place", "CRAB", 0, -1), ("place", "CRAB", 0, 2),
         ("place", "CRAB", 0, -2), ("place", "CRAB", 0, 3),
         ("place", "CRAB", 0, -3))
    refused(gm.place_creature("CRAB", 0, 4), "RED must place the BUTTERFLY")
    play(gm, ("place", "BUTTERFLY", 0, 4))


def test_course_option_still_allows_moves_under_the_deadline(tmp_path: Path) -> None:
    gm = manager(tmp_path, rules={"butterfly_deadline_blocks_moves": False})
    _three_turns_each(gm)
    refused(gm.place_creature("CRAB", 0, -3), "must place the BUTTERFLY")
    play(gm, ("move", "CRAB", 0, -2, 1, -2))
    assert gm.get_creature_at(1, -2) == "CRAB"


def test_an_early_butterfly_removes_the_deadline(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "BUTTERFLY", 0, 1),
         ("place", "CRAB", 0, -1), ("place", "CRAB", 0, 2),
         ("place", "CRAB", 0, -2), ("place", "CRAB", 0, 3),
         ("place", "CRAB", 0, -3), ("place", "CRAB", 0, 4))
    play(gm, ("move", "CRAB", 0, -3, 1, -3))


def test_a_refused_request_changes_nothing_and_the_same_player_acts_again(
        tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "BUTTERFLY", 0, 0))
    before = gm.state.to_dict()
    refused(gm.place_creature("BUTTERFLY", 5, 5), "next to")
    refused(gm.move_creature("BUTTERFLY", 0, 0, 0, 1), "no RED BUTTERFLY")
    assert gm.state.to_dict() == before
    assert gm.player_to_act == "RED"
    play(gm, ("place", "BUTTERFLY", 0, 1))
    assert gm.player_to_act == "BLUE"


def test_errors_do_not_count_as_turns_for_the_deadline(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "CRAB", 0, 0), ("place", "CRAB", 0, 1),
         ("place", "CRAB", 0, -1), ("place", "CRAB", 0, 2))
    for _ in range(3):
        refused(gm.place_creature("CRAB", 5, 5))
    play(gm, ("place", "CRAB", 0, -2))  # still Blue's third turn: no deadline yet


def test_player_under_the_deadline_with_no_hex_for_the_butterfly_loses(
        tmp_path: Path) -> None:
    # Blue's only creature is fenced in by Red; Blue has made three actions.
    board = {(0, 0): [("CRAB", "BLUE")], (0, 1): [("BUTTERFLY", "RED")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "RED")],
             (0, -1): [("CRAB", "RED")], (-1, 0): [("CRAB", "RED")],
             (-1, 2): [("DOVE", "RED")]}
    gm = position(tmp_path, board, to_move="RED", turns=2)
    response = gm.move_creature("DOVE", -1, 2, -1, 1)
    assert response.move_result is MoveResult.RED_WON
    assert "BLUE can neither place nor move" in response.message
