"""FocusGame, the course API: layout, turns, every message and the order of the checks
(specs/focus.md §1-§9). Each refused call is also checked to change nothing."""

from __future__ import annotations

import pytest
from focus import FocusGame

A, B = ("PlayerA", "R"), ("PlayerB", "G")
MOVED = "successfully moved"
TURN = "not your turn"
LOCATION = "invalid location"
NUMBER = "invalid number of pieces"
NO_RESERVE = "no pieces in reserve"


def colour_at(r: int, c: int) -> str:
    return "R" if (r + c // 2) % 2 == 0 else "G"


def full_board() -> dict[tuple[int, int], list[str]]:
    return {(r, c): [colour_at(r, c)] for r in range(6) for c in range(6)}


def position(board=None, **kwargs) -> FocusGame:
    return FocusGame.from_position(A, B, board=board if board is not None else {}, **kwargs)


def refused(game: FocusGame, call: str, *args, expect: str) -> None:
    """The call returns ``expect`` and leaves the whole position as it was."""
    before = game.to_dict()
    assert getattr(game, call)(*args) == expect
    assert game.to_dict() == before


# -- construction and layout -----------------------------------------------------------
def test_initial_layout_has_red_where_row_plus_half_column_is_even():
    game = FocusGame(A, B)
    for r in range(6):
        for c in range(6):
            assert game.show_pieces((r, c)) == [colour_at(r, c)]


def test_layout_is_colour_fixed_when_the_first_player_is_green():
    game = FocusGame(("Gina", "G"), ("Rita", "R"))
    assert game.show_pieces((0, 0)) == ["R"]
    assert game.show_pieces((0, 2)) == ["G"]
    assert game.move_piece("Gina", (0, 2), (0, 1), 1) == MOVED
    assert game.show_pieces((0, 1)) == ["R", "G"]


def test_player_order_layout_puts_the_first_players_colour_on_the_corner_pattern():
    game = FocusGame(("Gina", "G"), ("Rita", "R"), layout="player_order")
    assert game.show_pieces((0, 0)) == ["G"]
    assert game.show_pieces((0, 2)) == ["R"]
    assert game.move_piece("Gina", (0, 0), (0, 1), 1) == MOVED


def test_colours_are_case_insensitive_and_reported_upper_case():
    game = FocusGame(("PlayerA", "r"), ("PlayerB", "g"))
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    assert game.show_pieces((0, 1)) == ["R", "R"]


def test_every_player_starts_with_empty_reserve_and_no_captures():
    game = FocusGame(A, B)
    for name in ("PlayerA", "PlayerB"):
        assert game.show_reserve(name) == 0
        assert game.show_captured(name) == 0


@pytest.mark.parametrize("p1, p2", [
    (("Same", "R"), ("Same", "G")),
    (("PlayerA", "R"), ("PlayerB", "r")),
    (("PlayerA", "B"), ("PlayerB", "G")),
    (("PlayerA", "RG"), ("PlayerB", "G")),
    (("PlayerA",), ("PlayerB", "G")),
    ("PlayerA", ("PlayerB", "G")),
    ((1, "R"), ("PlayerB", "G")),
])
def test_bad_players_raise_value_error(p1, p2):
    with pytest.raises(ValueError):
        FocusGame(p1, p2)


@pytest.mark.parametrize("make", [lambda: FocusGame(A, B, "exact"),
                                  lambda: FocusGame(A, B, distance="exact")])
def test_distance_may_be_given_by_position_or_keyword(make):
    game = make()
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    assert game.move_piece("PlayerB", (1, 0), (0, 0), 1) == MOVED
    refused(game, "move_piece", "PlayerA", (0, 1), (1, 1), 2, expect=LOCATION)
    assert game.move_piece("PlayerA", (0, 1), (2, 1), 2) == MOVED


def test_unknown_distance_or_layout_raises_value_error():
    with pytest.raises(ValueError):
        FocusGame(A, B, distance="far")
    with pytest.raises(ValueError):
        FocusGame(A, B, layout="random")


# -- turns ------------------------------------------------------------------------------
def test_either_player_may_move_first():
    assert FocusGame(A, B).move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    assert FocusGame(A, B).move_piece("PlayerB", (0, 2), (0, 1), 1) == MOVED


def test_players_alternate_after_the_first_move():
    game = FocusGame(A, B)
    assert game.move_piece("PlayerB", (0, 2), (0, 1), 1) == MOVED
    refused(game, "move_piece", "PlayerB", (1, 0), (0, 0), 1, expect=TURN)
    assert game.move_piece("PlayerA", (0, 0), (1, 0), 1) == MOVED
    refused(game, "move_piece", "PlayerA", (0, 4), (0, 3), 1, expect=TURN)
    assert game.move_piece("PlayerB", (1, 1), (0, 1), 1) == MOVED


def test_a_refused_first_call_does_not_decide_who_starts():
    game = FocusGame(A, B)
    refused(game, "move_piece", "PlayerA", (0, 0), (0, 3), 1, expect=LOCATION)
    assert game.move_piece("PlayerB", (0, 2), (0, 1), 1) == MOVED


def test_unknown_or_differently_cased_name_is_not_your_turn():
    game = FocusGame(A, B)
    refused(game, "move_piece", "PlayerC", (0, 0), (0, 1), 1, expect=TURN)
    refused(game, "move_piece", "playera", (0, 0), (0, 1), 1, expect=TURN)
    refused(game, "move_piece", ["PlayerA"], (0, 0), (0, 1), 1, expect=TURN)


def test_names_are_free_text_matched_exactly():
    game = FocusGame(("PlA-ah", "R"), ("pl b", "G"))
    assert game.move_piece("pl b", (0, 2), (0, 1), 1) == MOVED
    assert game.move_piece("PlA-ah", (0, 0), (1, 0), 1) == MOVED


def test_a_reserved_move_is_a_turn():
    game = position(full_board(), reserve={"PlayerA": 2})
    assert game.reserved_move("PlayerA", (2, 2)) == MOVED
    refused(game, "reserved_move", "PlayerA", (2, 2), expect=TURN)
    assert game.move_piece("PlayerB", (1, 0), (0, 0), 1) == MOVED


def test_from_position_turn_names_who_moves_next():
    game = position(full_board(), turn="PlayerB")
    refused(game, "move_piece", "PlayerA", (0, 0), (0, 1), 1, expect=TURN)
    assert game.move_piece("PlayerB", (0, 2), (0, 1), 1) == MOVED


# -- invalid location (check 3) -------------------------------------------------------
@pytest.mark.parametrize("frm, to", [
    ((0, 0), (0, 0)),       # no move
    ((0, 0), (1, 1)),       # diagonal
    ((0, 0), (6, 0)),       # off the board
    ((-1, 0), (0, 0)),
    ((0, 0), (0, -1)),
    ((0, 0, 0), (0, 1)),    # malformed squares
    ("00", (0, 1)),
    ((0.0, 0), (0, 1)),
    ((0, 0), None),
    ((True, 0), (0, 1)),
    ((2, 2), (2, 3)),       # source top is the opponent's
])
def test_bad_squares_and_geometry_are_invalid_location(frm, to):
    refused(FocusGame(A, B), "move_piece", "PlayerA", frm, to, 1, expect=LOCATION)


def test_moving_from_an_empty_square_is_invalid_location():
    game = position({(0, 0): ["R"]})
    refused(game, "move_piece", "PlayerA", (3, 3), (3, 4), 1, expect=LOCATION)


def test_a_stack_topped_by_the_opponent_cannot_be_lifted():
    game = FocusGame(A, B)
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    refused(game, "move_piece", "PlayerB", (0, 1), (0, 0), 2, expect=LOCATION)


def test_positions_may_be_lists():
    game = FocusGame(A, B)
    assert game.move_piece("PlayerA", [0, 0], [0, 1], 1) == MOVED
    assert game.show_pieces([0, 1]) == ["R", "R"]


# -- invalid number of pieces (check 4) -----------------------------------------------
@pytest.mark.parametrize("n", [0, -1, 2, 1.0, "1", True, None])
def test_bad_piece_counts_are_invalid_number(n):
    refused(FocusGame(A, B), "move_piece", "PlayerA", (0, 0), (0, 1), n, expect=NUMBER)


def test_the_count_may_be_the_whole_stack_but_not_more():
    game = position({(2, 2): ["G", "R", "R"]})
    refused(game, "move_piece", "PlayerA", (2, 2), (2, 5), 4, expect=NUMBER)
    assert game.move_piece("PlayerA", (2, 2), (2, 5), 3) == MOVED
    assert game.show_pieces((2, 5)) == ["G", "R", "R"]
    assert game.show_pieces((2, 2)) == []


# -- distance (check 5) ------------------------------------------------------------------
def test_distance_is_bounded_by_the_pieces_moved_not_the_stack_height():
    game = position({(0, 0): ["R", "R", "R"]})
    refused(game, "move_piece", "PlayerA", (0, 0), (0, 2), 1, expect=LOCATION)
    assert game.move_piece("PlayerA", (0, 0), (0, 2), 2) == MOVED
    assert game.show_pieces((0, 0)) == ["R"]
    assert game.show_pieces((0, 2)) == ["R", "R"]


def test_up_to_allows_a_shorter_move_than_the_count():
    game = position({(0, 0): ["R", "G", "R"]})
    assert game.move_piece("PlayerA", (0, 0), (1, 0), 3) == MOVED
    assert game.show_pieces((1, 0)) == ["R", "G", "R"]


def test_exact_distance_requires_moving_as_far_as_the_count():
    game = position({(0, 0): ["R", "G", "R"]}, distance="exact")
    refused(game, "move_piece", "PlayerA", (0, 0), (1, 0), 3, expect=LOCATION)
    refused(game, "move_piece", "PlayerA", (0, 0), (4, 0), 3, expect=LOCATION)
    assert game.move_piece("PlayerA", (0, 0), (3, 0), 3) == MOVED
    assert game.show_pieces((3, 0)) == ["R", "G", "R"]


def test_location_errors_come_before_number_errors():
    game = FocusGame(A, B)
    refused(game, "move_piece", "PlayerA", (0, 0), (1, 1), 0, expect=LOCATION)
    refused(game, "move_piece", "PlayerA", (2, 2), (2, 3), 9, expect=LOCATION)


def test_number_errors_come_before_distance_errors():
    game = FocusGame(A, B)
    refused(game, "move_piece", "PlayerA", (0, 0), (0, 5), 0, expect=NUMBER)
    refused(game, "move_piece", "PlayerA", (0, 0), (5, 0), 2, expect=NUMBER)


def test_turn_errors_come_before_location_errors():
    game = FocusGame(A, B)
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    refused(game, "move_piece", "PlayerA", (9, 9), (1, 1), 0, expect=TURN)


# -- moving onto stacks, jumping, overflow ---------------------------------------------
def test_moved_pieces_keep_their_order_on_top_of_the_target():
    game = position({(3, 0): ["G", "R", "G", "R"], (3, 3): ["G", "G"]})
    assert game.move_piece("PlayerA", (3, 0), (3, 3), 3) == MOVED
    assert game.show_pieces((3, 3)) == ["G", "G", "R", "G", "R"]
    assert game.show_pieces((3, 0)) == ["G"]


def test_squares_passed_over_are_unaffected():
    game = position({(0, 0): ["R", "R", "R"], (0, 1): ["G", "G"], (0, 2): ["R"]})
    assert game.move_piece("PlayerA", (0, 0), (0, 3), 3) == MOVED
    assert game.show_pieces((0, 1)) == ["G", "G"]
    assert game.show_pieces((0, 2)) == ["R"]
    assert game.show_pieces((0, 3)) == ["R", "R", "R"]


def test_overflow_sends_own_bottom_pieces_to_reserve_and_captures_the_rest():
    game = position({(4, 4): ["R", "G", "R", "G"], (4, 5): ["R", "R", "R"]})
    assert game.move_piece("PlayerA", (4, 5), (4, 4), 3) == MOVED
    assert game.show_pieces((4, 4)) == ["R", "G", "R", "R", "R"]
    assert game.show_reserve("PlayerA") == 1
    assert game.show_captured("PlayerA") == 1
    assert game.show_reserve("PlayerB") == 0
    assert game.show_captured("PlayerB") == 0


def test_a_stack_of_exactly_five_is_not_reduced():
    game = position({(1, 1): ["G", "G"], (1, 2): ["R", "R", "R"]})
    assert game.move_piece("PlayerA", (1, 2), (1, 1), 3) == MOVED
    assert game.show_pieces((1, 1)) == ["G", "G", "R", "R", "R"]
    assert game.show_captured("PlayerA") == 0


def test_captures_are_credited_to_the_mover_only():
    game = position({(0, 0): ["R", "R", "R", "R", "G"], (0, 1): ["G"]}, turn="PlayerB")
    assert game.move_piece("PlayerB", (0, 1), (0, 0), 1) == MOVED
    assert game.show_captured("PlayerB") == 1
    assert game.show_captured("PlayerA") == 0
    assert game.show_reserve("PlayerA") == 0


# -- reserved moves ----------------------------------------------------------------------
def test_reserved_move_places_a_piece_on_top_of_any_square():
    game = position({(2, 2): ["G", "G"]}, reserve={"PlayerA": 3})
    assert game.reserved_move("PlayerA", (2, 2)) == MOVED
    assert game.show_pieces((2, 2)) == ["G", "G", "R"]
    assert game.show_reserve("PlayerA") == 2
    assert game.move_piece("PlayerB", (2, 2), (2, 3), 1) == LOCATION
    assert game.reserved_move("PlayerB", (5, 5)) == NO_RESERVE


def test_reserved_move_onto_an_empty_square():
    game = position({}, reserve={"PlayerB": 1})
    assert game.reserved_move("PlayerB", (5, 5)) == MOVED
    assert game.show_pieces((5, 5)) == ["G"]


def test_reserved_move_can_overflow_and_capture():
    game = position({(0, 5): ["G", "R", "G", "G", "G"]}, reserve={"PlayerA": 1})
    assert game.reserved_move("PlayerA", (0, 5)) == MOVED
    assert game.show_pieces((0, 5)) == ["R", "G", "G", "G", "R"]
    assert game.show_captured("PlayerA") == 1


def test_empty_reserve_is_reported_before_the_turn():
    game = FocusGame(A, B)
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    refused(game, "reserved_move", "PlayerA", (0, 0), expect=NO_RESERVE)


def test_reserved_move_out_of_turn_with_a_reserve_is_not_your_turn():
    game = position(full_board(), reserve={"PlayerA": 1}, turn="PlayerB")
    refused(game, "reserved_move", "PlayerA", (0, 0), expect=TURN)


def test_reserved_move_by_an_unknown_name_is_not_your_turn():
    refused(position(reserve={"PlayerA": 1}), "reserved_move", "Nobody", (0, 0), expect=TURN)


@pytest.mark.parametrize("pos", [(6, 0), (0, -1), (1,), "a1", (1.0, 2), None])
def test_reserved_move_to_a_bad_square_is_invalid_location(pos):
    refused(position(reserve={"PlayerA": 1}), "reserved_move", "PlayerA", pos,
            expect=LOCATION)


def test_no_reserve_is_reported_before_a_bad_square():
    refused(FocusGame(A, B), "reserved_move", "PlayerA", (9, 9), expect=NO_RESERVE)


# -- winning -----------------------------------------------------------------------------
def test_the_sixth_capture_wins_with_the_name_as_given():
    game = FocusGame.from_position(
        ("pl-A x", "R"), B, board={(0, 1): ["R"], (0, 2): ["G"] * 5},
        captured={"pl-A x": 5})
    assert game.move_piece("pl-A x", (0, 1), (0, 2), 1) == "pl-A x Wins"
    assert game.show_captured("pl-A x") == 6


def test_captures_beyond_six_all_count():
    game = position({(3, 3): ["G", "G", "G", "G", "G"], (3, 4): ["R", "R"]},
                    captured={"PlayerA": 5})
    assert game.move_piece("PlayerA", (3, 4), (3, 3), 2) == "PlayerA Wins"
    assert game.show_captured("PlayerA") == 7


def test_a_reserved_move_can_win():
    game = position({(5, 0): ["G"] * 5}, reserve={"PlayerB": 0, "PlayerA": 1},
                    captured={"PlayerA": 5})
    assert game.reserved_move("PlayerA", (5, 0)) == "PlayerA Wins"


def test_after_a_win_every_move_is_refused_with_the_winner():
    game = position({(0, 1): ["R"], (0, 2): ["G"] * 5, (4, 4): ["G"], (5, 5): ["R"]},
                    captured={"PlayerA": 5}, reserve={"PlayerA": 1, "PlayerB": 1})
    assert game.move_piece("PlayerA", (0, 1), (0, 2), 1) == "PlayerA Wins"
    refused(game, "move_piece", "PlayerB", (4, 4), (4, 5), 1, expect="PlayerA Wins")
    refused(game, "move_piece", "PlayerA", (5, 5), (5, 4), 1, expect="PlayerA Wins")
    refused(game, "move_piece", "Nobody", (9, 9), (0, 0), 0, expect="PlayerA Wins")
    refused(game, "reserved_move", "PlayerB", (0, 0), expect="PlayerA Wins")
    refused(game, "reserved_move", "PlayerA", (0, 0), expect="PlayerA Wins")
    assert game.show_pieces((0, 2)) == ["G", "G", "G", "G", "R"]
    assert game.show_captured("PlayerA") == 6
    assert game.show_reserve("PlayerB") == 1


def test_six_captures_given_at_construction_win_on_the_next_successful_move():
    game = position(full_board(), captured={"PlayerB": 6})
    refused(game, "move_piece", "PlayerB", (0, 2), (0, 0), 1, expect=LOCATION)
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 1) == MOVED
    assert game.move_piece("PlayerB", (0, 2), (0, 1), 1) == "PlayerB Wins"


def test_second_player_can_win_the_game():
    game = position({(1, 1): ["R", "R", "R", "R", "R"], (1, 2): ["G"]},
                    captured={"PlayerB": 4}, turn="PlayerB")
    assert game.move_piece("PlayerB", (1, 2), (1, 1), 1) == MOVED
    assert game.show_captured("PlayerB") == 1 + 4
    game = position({(1, 1): ["R", "R", "R", "R", "R"], (1, 2): ["G", "G"]},
                    captured={"PlayerB": 4}, turn="PlayerB")
    assert game.move_piece("PlayerB", (1, 2), (1, 1), 2) == "PlayerB Wins"


# -- queries -----------------------------------------------------------------------------
@pytest.mark.parametrize("pos", [(6, 6), (-1, 0), (0,), "0,0", None, (0, 0, 0), (False, 0)])
def test_show_pieces_off_the_board_is_invalid_location(pos):
    assert FocusGame(A, B).show_pieces(pos) == LOCATION


def test_show_pieces_of_an_empty_square_is_an_empty_list():
    assert position({(0, 0): ["R"]}).show_pieces((4, 4)) == []


@pytest.mark.parametrize("name", ["Nobody", "playera", None, ["PlayerA"]])
def test_counts_of_an_unknown_name_are_zero(name):
    game = position(reserve={"PlayerA": 2}, captured={"PlayerA": 3})
    assert game.show_reserve(name) == 0
    assert game.show_captured(name) == 0


def test_show_pieces_returns_a_copy():
    game = FocusGame(A, B)
    game.show_pieces((0, 0)).append("G")
    assert game.show_pieces((0, 0)) == ["R"]


# -- from_position -----------------------------------------------------------------------
def test_from_position_lists_every_non_empty_square_and_the_rest_is_empty():
    game = position({(0, 0): ["r", "g"], (3, 2): ["G"]}, reserve={"PlayerA": 1},
                    captured={"PlayerB": 2})
    assert game.show_pieces((0, 0)) == ["R", "G"]
    assert game.show_pieces((3, 2)) == ["G"]
    assert sum(len(game.show_pieces((r, c))) for r in range(6) for c in range(6)) == 3
    assert (game.show_reserve("PlayerA"), game.show_captured("PlayerB")) == (1, 2)
    assert (game.show_reserve("PlayerB"), game.show_captured("PlayerA")) == (0, 0)


def test_from_position_does_not_check_reachability():
    game = position({(0, 0): ["R"] * 7}, captured={"PlayerA": 30})
    assert game.show_pieces((0, 0)) == ["R"] * 7
    assert game.move_piece("PlayerA", (0, 0), (0, 5), 6) == "PlayerA Wins"
    assert game.show_pieces((0, 5)) == ["R"] * 5
    assert game.show_reserve("PlayerA") == 1


@pytest.mark.parametrize("kwargs", [
    {"board": {(6, 0): ["R"]}},
    {"board": {(0, 0, 0): ["R"]}},
    {"board": {"0,0": ["R"]}},
    {"board": {(0, 0): ["B"]}},
    {"board": {(0, 0): "R"}},
    {"board": [((0, 0), ["R"])]},
    {"reserve": {"Nobody": 1}},
    {"reserve": {"PlayerA": -1}},
    {"captured": {"PlayerB": 1.5}},
    {"captured": {"PlayerB": True}},
    {"turn": "Nobody"},
    {"turn": "playera"},
])
def test_from_position_rejects_malformed_input(kwargs):
    with pytest.raises(ValueError):
        FocusGame.from_position(A, B, **kwargs)


def test_from_position_accepts_the_distance_option():
    game = FocusGame.from_position(A, B, board={(0, 0): ["R", "R"]}, distance="exact")
    assert game.move_piece("PlayerA", (0, 0), (0, 1), 2) == LOCATION
    assert game.move_piece("PlayerA", (0, 0), (0, 2), 2) == MOVED


# -- extras beyond the course API -------------------------------------------------------
def test_render_shows_stacks_bottom_to_top_with_heights_and_counts():
    game = position({(0, 0): ["G", "R"], (5, 5): ["G"]}, reserve={"PlayerA": 2},
                    captured={"PlayerB": 3})
    text = str(game)
    lines = text.splitlines()
    assert lines[0].split() == ["a", "b", "c", "d", "e", "f"]
    assert lines[1].split() == ["1", "GR:2", ".", ".", ".", ".", "."]
    assert lines[6].split() == ["6", ".", ".", ".", ".", ".", "G:1"]
    assert "R PlayerA  reserve 2  captured 0" in text
    assert "G PlayerB  reserve 0  captured 3" in text
    assert "Either player may move first." in text


def test_a_course_game_pickled_or_deep_copied_plays_on_exactly_as_the_original():
    import copy
    import pickle
    import random

    game = FocusGame(A, B, distance="exact", layout="player_order")
    game.move_piece("PlayerA", (0, 0), (0, 1), 1)
    twins = [pickle.loads(pickle.dumps(game)), copy.deepcopy(game),
             FocusGame.__new__(FocusGame)]
    twins[2].__dict__.update(pickle.loads(pickle.dumps(game.__dict__)))
    chooser = random.Random(5)
    for turn in range(400):
        player = ("PlayerA", "PlayerB")[turn % 2]
        args = (player, (chooser.randrange(6), chooser.randrange(6)),
                (chooser.randrange(6), chooser.randrange(6)), chooser.randrange(1, 4))
        said = game.move_piece(*args)
        assert [twin.move_piece(*args) for twin in twins] == [said] * 3
    assert all(twin.to_dict() == game.to_dict() for twin in twins)
