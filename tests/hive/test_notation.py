"""UHP notation (spec hive.md §6): canonical MoveStrings, any reference piece accepted,
GameStrings read and written, bad input refused in one line."""

from __future__ import annotations

import random

import pytest
from hive import notation
from hive.game import HiveMove

import hexkit
from hexkit.errors import IllegalMoveError, MoveParseError


def _game(expansions="none"):
    return hexkit.load_game("hive", expansions=expansions)


def test_first_move_is_the_piece_alone_and_later_moves_name_a_reference_piece():
    state = _game().new_state(0)
    assert "wS1" in map(str, state.legal_moves())
    state.push("wS1")
    moves = set(map(str, state.legal_moves()))
    assert {"bS1 wS1-", "bS1 wS1/", "bS1 \\wS1", "bS1 -wS1", "bS1 /wS1", "bS1 wS1\\"} <= moves


def test_canonical_reference_is_the_first_neighbour_clockwise_from_north_west():
    state = _game().state_from_game_string(
        "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    # wQ (-1,0) to (0,-1): the scan NW, NE, E finds nothing, SE finds wS1.
    assert "wQ \\wS1" in map(str, state.legal_moves())
    # Any reference that names the hex is accepted, and comes back canonical.
    assert state.parse_move("wQ wQ/") == HiveMove("wQ \\wS1")


def test_moves_onto_the_hive_name_the_piece_below():
    state = _game().state_from_game_string(
        "Base;InProgress;White[4];wB1;bB1 wB1-;wQ -wB1;bQ bB1-;wB2 /wQ;bB2 bQ\\")
    moves = set(map(str, state.legal_moves()))
    # wB1 holds the hive together; wB2 (south-west of wQ) climbs onto wQ.
    assert "wB2 wQ" in moves and not any(m.startswith("wB1") for m in moves)


def test_game_string_round_trips_through_a_random_game():
    game = _game("MLP")
    state = game.new_state(3)
    rng = random.Random(5)
    for _ in range(40):
        if state.is_over():
            break
        state.push(rng.choice(state.legal_moves()))
    text = state.game_string()
    assert text.startswith("Base+MLP;InProgress;")
    again = game.state_from_game_string(text)
    assert again.game_string() == text
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, state.legal_moves()))


def test_game_type_strings_name_the_expansions():
    assert [notation.parse_game_type(t) for t in notation.GAME_TYPES] == [
        notation.expansions_of(c) for c in notation.EXPANSION_CHOICES]
    assert notation.parse_game_type("base+pml") == "MLP"
    for bad in ("Hive", "Base+", "Base+X", "Base+MM"):
        with pytest.raises(notation.NotationError):
            notation.parse_game_type(bad)


@pytest.mark.parametrize("text", ["wX1", "wS3", "wQ1", "wA", "wS1 -bG1-", "wS1  ,bG1",
                                  "move wS1", "wS1 bG1 bG2"])
def test_unreadable_move_strings_are_refused_in_one_line(text):
    state = _game().new_state(0)
    with pytest.raises(MoveParseError) as info:
        state.parse_move(text)
    assert "\n" not in str(info.value)


def test_a_reference_piece_not_on_the_board_is_refused_and_nothing_changes():
    state = _game().new_state(0)
    state.push("wS1")
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="not on the board"):
        state.push("bS1 wA1-")
    with pytest.raises(IllegalMoveError, match="no bM in Base"):
        state.push("bM wS1-")
    assert state.to_dict() == before


@pytest.mark.parametrize("text, problem", [
    ("", "empty"),
    ("Base;Playing;White[1]", "not a game state"),
    ("Base;NotStarted;Red[1]", "not a turn"),
    ("Base;InProgress;Black[1];wQ", "Queen Bee may not be placed"),
    ("Base;InProgress;White[2];wS1;bS1 wS1-", None),
    ("Base;InProgress;White[3];wS1;bS1 wS1-", r"says White\[3\]"),
    ("Base;InProgress;White[2];wS1;;bS1 wS1-", "empty move"),
])
def test_game_strings_are_checked(text, problem):
    game = _game()
    if problem is None:
        assert game.state_from_game_string(text).game_string() == text
        return
    with pytest.raises(notation.NotationError, match=problem) as info:
        game.state_from_game_string(text)
    assert "\n" not in str(info.value)


def test_a_loaded_game_string_can_be_taken_back_move_by_move():
    state = _game().state_from_game_string("Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;"
                                           "bQ bS1-")
    assert [str(state.pop()) for _ in range(4)] == ["bQ bS1-", "wQ -wS1", "bS1 wS1-", "wS1"]
    assert state.game_string() == "Base;NotStarted;White[1]"


def test_a_refusal_names_the_destination_hex_as_the_player_wrote_it():
    state = hexkit.load_game("hive").new_state()
    for move in ("wS1", "bS1 wS1-", "wQ \\wS1", "bQ bS1\\"):
        state.push(move)
    with pytest.raises(IllegalMoveError, match=r"^the hex -bQ touches a piece of the opponent$"):
        state.push("wA1 -bQ")  # the same hex as wS1\, which the game would write
    assert len(state.move_stack) == 4
    state.push("wA1 wQ/")
    with pytest.raises(IllegalMoveError, match=r"none can throw it to the hex bQ-$"):
        state.push("wS1 bQ-")
