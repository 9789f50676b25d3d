"""Attributes and stacks (rules §8, §9): intruding, trapping, swapping, kamikaze, the stack
limit and the precedence of abilities on an occupied hex."""

from __future__ import annotations

from pathlib import Path

from hexaround import MoveResult

from .conftest import CREATURES, STOCK, play, position, refused

BASE = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")]}


def test_intruder_walks_over_creatures(tmp_path: Path) -> None:
    # The turtle crosses the red butterfly; a plain walker of the same reach cannot.
    board = {(0, 0): [("TURTLE", "BLUE")], (1, -1): [("BUTTERFLY", "BLUE")],
             (1, 0): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "TURTLE", 0, 0, 2, 0))
    board[(0, 0)] = [("SPIDER", "BLUE")]
    gm = position(tmp_path, board)
    refused(gm.move_creature("SPIDER", 0, 0, 2, 0))


def test_intruder_may_end_on_a_creature_and_form_a_stack(tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("TURTLE", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "TURTLE", -1, 0, 0, 0))
    assert gm.stack_at(0, 0) == [("BUTTERFLY", "BLUE"), ("TURTLE", "BLUE")]
    assert gm.get_creature_at(0, 0) == "TURTLE"
    assert gm.has_property(0, 0, "INTRUDING") and not gm.has_property(0, 0, "QUEEN")


def test_intruder_cannot_end_on_a_stack_at_the_limit(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")], (1, 0): [("BUTTERFLY", "RED")],
             (-1, 0): [("TURTLE", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("TURTLE", -1, 0, 0, 0), "stack limit is 2")


def test_stack_limit_option_sets_the_highest_stack(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")], (1, 0): [("BUTTERFLY", "RED")],
             (-1, 0): [("TURTLE", "BLUE")]}
    gm = position(tmp_path, board, rules={"stack_limit": 3})
    play(gm, ("move", "TURTLE", -1, 0, 0, 0))
    assert len(gm.stack_at(0, 0)) == 3
    board = {**BASE, (-1, 0): [("TURTLE", "BLUE")]}
    gm = position(tmp_path, board, rules={"stack_limit": 1})
    refused(gm.move_creature("TURTLE", -1, 0, 0, 0), "stack limit is 1")


def test_creature_under_a_non_trapping_intruder_may_move(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")], (1, 0): [("BUTTERFLY", "RED")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "BUTTERFLY", 0, 0, 0, 1))
    assert gm.stack_at(0, 0) == [("TURTLE", "RED")]
    assert gm.stack_at(0, 1) == [("BUTTERFLY", "BLUE")]


def test_intruding_traps_by_default_option(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")], (1, 0): [("BUTTERFLY", "RED")],
             (-1, 0): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board, rules={"intruding_traps_by_default": True})
    refused(gm.move_creature("BUTTERFLY", 0, 0, 0, 1), "trapped")
    assert gm.has_property(0, 0, "TRAPPING")


def test_trapper_may_land_on_any_creature_even_a_butterfly(tmp_path: Path) -> None:
    board = {**BASE, (2, 0): [("BEETLE", "BLUE")], (2, -1): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "BEETLE", 2, 0, 1, 0))
    assert gm.stack_at(1, 0) == [("BUTTERFLY", "RED"), ("BEETLE", "BLUE")]


def test_trapped_creature_cannot_move_until_the_trapper_leaves(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED"), ("BEETLE", "BLUE")],
             (0, 1): [("CRAB", "RED")], (-1, 0): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board, to_move="RED")
    refused(gm.move_creature("BUTTERFLY", 1, 0, 1, 1), "trapped")
    play(gm, ("place", "CRAB", 0, 2))
    play(gm, ("move", "BEETLE", 1, 0, 1, -1))
    play(gm, ("move", "BUTTERFLY", 1, 0, 1, 1))


def test_trapper_below_the_top_traps_only_what_lies_under_it(tmp_path: Path) -> None:
    board = {(0, 0): [("CRAB", "BLUE"), ("BEETLE", "RED"), ("TURTLE", "BLUE")],
             (1, 0): [("BUTTERFLY", "RED")], (-1, 0): [("BUTTERFLY", "BLUE")]}
    gm = position(tmp_path, board, rules={"stack_limit": 3})
    refused(gm.move_creature("CRAB", 0, 0, 0, 1), "trapped")
    play(gm, ("move", "TURTLE", 0, 0, 0, 1))
    assert gm.stack_at(0, 0) == [("CRAB", "BLUE"), ("BEETLE", "RED")]


def test_swapper_exchanges_places_with_the_creature_on_its_target(tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("CUCKOO", "BLUE")], (2, 0): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "CUCKOO", -1, 0, 2, 0))
    assert gm.stack_at(2, 0) == [("CUCKOO", "BLUE")]
    assert gm.stack_at(-1, 0) == [("CRAB", "RED")]


def test_swapping_with_a_butterfly_is_refused(tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("CUCKOO", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("CUCKOO", -1, 0, 1, 0), "cannot swap", "butterfly")


def test_swap_puts_each_creature_on_top_of_what_remains(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("CUCKOO", "BLUE")], (1, 0): [("BUTTERFLY", "RED")],
             (2, 0): [("CRAB", "RED"), ("TURTLE", "RED")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "CUCKOO", 0, 0, 2, 0))
    assert gm.stack_at(0, 0) == [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")]
    assert gm.stack_at(2, 0) == [("CRAB", "RED"), ("CUCKOO", "BLUE")]


def test_kamikaze_destroys_the_attacker_and_returns_the_victim_to_its_hand(
        tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("WASP", "BLUE")], (2, 0): [("CRAB", "RED")],
             (1, 1): [("CRAB", "RED")]}
    gm = position(tmp_path, board)
    wasps, crabs = gm.in_hand("BLUE", "WASP"), gm.in_hand("RED", "CRAB")
    play(gm, ("move", "WASP", -1, 0, 2, 0))
    assert gm.stack_at(2, 0) == [] and gm.stack_at(-1, 0) == []
    assert gm.in_hand("RED", "CRAB") == crabs + 1 == STOCK["CRAB"] - 1
    assert gm.in_hand("BLUE", "WASP") == wasps


def test_kamikaze_survives_option_leaves_the_attacker_on_the_target(tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("WASP", "BLUE")], (2, 0): [("CRAB", "RED")],
             (1, 1): [("CRAB", "RED")]}
    gm = position(tmp_path, board, rules={"kamikaze_survives": True})
    play(gm, ("move", "WASP", -1, 0, 2, 0))
    assert gm.stack_at(2, 0) == [("WASP", "BLUE")]
    assert gm.in_hand("RED", "CRAB") == STOCK["CRAB"] - 1


def test_kamikaze_may_attack_its_own_side(tmp_path: Path) -> None:
    board = {**BASE, (-1, 0): [("WASP", "BLUE")], (0, -1): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board)
    play(gm, ("move", "WASP", -1, 0, 0, -1))
    assert gm.in_hand("BLUE", "CRAB") == STOCK["CRAB"]


def test_kamikaze_attack_that_splits_the_colony_is_refused(tmp_path: Path) -> None:
    board = {**BASE, (2, 0): [("CRAB", "RED")], (3, 0): [("CRAB", "RED")],
             (1, -1): [("WASP", "BLUE")]}
    gm = position(tmp_path, board)
    refused(gm.move_creature("WASP", 1, -1, 2, 0), "disconnected")
    play(gm, ("move", "WASP", 1, -1, 3, 0))


def test_kamikaze_comes_before_intruding_on_an_occupied_hex(tmp_path: Path) -> None:
    creatures = {**CREATURES, "RAM": {"max_distance": 2,
                                      "properties": ["WALKING", "INTRUDING", "KAMIKAZE"]}}
    players = {"BLUE": {**STOCK, "RAM": 1}}
    board = {**BASE, (-1, 0): [("RAM", "BLUE")], (0, -1): [("CRAB", "RED")]}
    gm = position(tmp_path, board, creatures=creatures, players=players)
    play(gm, ("move", "RAM", -1, 0, 0, -1))
    assert gm.stack_at(0, -1) == []  # an attack, not a climb


def test_kamikaze_on_a_butterfly_brings_back_the_butterfly_deadline(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")],
             (1, -1): [("CRAB", "BLUE")], (2, -1): [("WASP", "RED")]}
    gm = position(tmp_path, board, to_move="RED")
    play(gm, ("move", "WASP", 2, -1, 0, 0))
    assert gm.in_hand("BLUE", "BUTTERFLY") == 1
    refused(gm.place_creature("CRAB", 1, -2), "must place the BUTTERFLY")
    play(gm, ("place", "BUTTERFLY", 1, -2))


def test_a_returned_butterfly_before_the_fourth_turn_follows_the_normal_rules(
        tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("BUTTERFLY", "RED")],
             (1, -1): [("CRAB", "BLUE")], (2, -1): [("WASP", "RED")]}
    gm = position(tmp_path, board, to_move="RED", turns=1)
    play(gm, ("move", "WASP", 2, -1, 0, 0))
    play(gm, ("place", "CRAB", 1, -2))


def test_a_stack_counts_as_one_occupied_hex_around_a_butterfly(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "RED")], (0, 1): [("CRAB", "RED"), ("TURTLE", "BLUE")],
             (1, 0): [("CRAB", "RED")], (1, -1): [("CRAB", "RED")],
             (0, -1): [("BUTTERFLY", "BLUE")], (-1, 0): [("CRAB", "BLUE")],
             (-2, 1): [("DOVE", "BLUE")]}
    gm = position(tmp_path, board)
    response = gm.move_creature("DOVE", -2, 1, -1, 1)
    assert response.move_result is MoveResult.BLUE_WON


def test_kamikaze_on_a_stack_sends_back_only_the_top_creature(tmp_path: Path) -> None:
    board = {**BASE, (2, 0): [("CRAB", "RED"), ("TURTLE", "BLUE")], (1, 1): [("CRAB", "RED")],
             (-1, 0): [("WASP", "RED")]}
    gm = position(tmp_path, board, to_move="RED")
    turtles = gm.in_hand("BLUE", "TURTLE")
    play(gm, ("move", "WASP", -1, 0, 2, 0))
    assert gm.stack_at(2, 0) == [("CRAB", "RED")]
    assert gm.in_hand("BLUE", "TURTLE") == turtles + 1
    gm = position(tmp_path, board, to_move="RED", rules={"kamikaze_survives": True})
    play(gm, ("move", "WASP", -1, 0, 2, 0))
    assert gm.stack_at(2, 0) == [("CRAB", "RED"), ("WASP", "RED")]
