"""The generic ``focus`` game: options, the cross-board layouts, notation, the real game's
rules (exact distance, players out, last mover wins, Domination's first turn), undo,
serialisation and rendering."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from focus.notation import ReserveMove, StackMove, parse_move, square_name

import hexkit
from hexkit.errors import IllegalMoveError, MoveParseError, OptionError, RecordError

CROSS_REMOVED = {(0, 0), (0, 1), (1, 0), (0, 6), (0, 7), (1, 7), (6, 0), (7, 0), (7, 1),
                 (6, 7), (7, 7), (7, 6)}
FOUR_PLAYER_PICTURE = """\
. . C C A D . .
. D D D A D A .
C C C C A D A D
D D D D A D A D
B C B C B B B B
B C B C A A A A
. C B C B B B .
. . B C A A . ."""


def board_of(state) -> dict[tuple[int, int], list[int]]:
    return {sq: state.stack(i) for i, sq in enumerate(state.rules.squares)}


def state_with(game_text: str, board: dict, turn: int = 0, **fields):
    """A position of ``game_text`` from to_dict()-style data."""
    game = hexkit.load_game(game_text)
    n = game.rules.players
    data = {
        "board": [[r, c, list(s)] for (r, c), s in board.items()],
        "reserve": fields.get("reserve", [0] * n), "captured": fields.get("captured", [0] * n),
        "turn": turn, "turns_taken": fields.get("turns_taken", [1] * n),
        "out": fields.get("out", []), "winner": None, "reason": "",
        "rng": hexkit.rng_to_json(__import__("random").Random(0)),
    }
    return game.state_from_dict(data)


def refused(state, move) -> str:
    before = state.to_dict()
    depth = len(state.move_stack)
    with pytest.raises(IllegalMoveError) as info:
        state.push(move)
    assert state.to_dict() == before
    assert len(state.move_stack) == depth
    assert "\n" not in str(info.value)
    return str(info.value)


# -- options -------------------------------------------------------------------------------
def test_game_strings_name_only_options_that_differ_from_the_defaults():
    assert str(hexkit.load_game("focus")) == "focus"
    assert str(hexkit.load_game("focus(board=cross,players=4)")) == "focus(board=cross,players=4)"
    assert str(hexkit.load_game("focus", board="cross", players=3)) == \
        "focus(board=cross,players=3)"


def test_course_board_defaults_to_the_course_rules():
    s = hexkit.load_game("focus").settings
    assert (s.distance, s.win, s.captures_to_win, s.max_height, s.start_reserve) == \
        ("up_to", "captures", 6, 5, 0)


@pytest.mark.parametrize("players, reserve", [(2, 0), (3, 1), (4, 0)])
def test_cross_board_defaults_to_sacksons_rules(players, reserve):
    s = hexkit.load_game("focus", board="cross", players=players).settings
    assert (s.distance, s.win, s.max_height, s.start_reserve) == \
        ("exact", "last_mover", 5, reserve)


@pytest.mark.parametrize("text, words", [
    ("focus(players=3)", "no layout for 3 players"),
    ("focus(board=hexagon)", "unknown focus board 'hexagon'"),
    ("focus(board=/no/such/file.yaml)", "no variant file"),
    ("focus(distance=far)", "option distance"),
    ("focus(win=points)", "option win"),
    ("focus(players=5)", "option players"),
    ("focus(colours=RR)", "option colours"),
    ("focus(colours=RB)", "option colours"),
    ("focus(max_height=0)", "option max_height"),
    ("focus(start_reserve=-1)", "option start_reserve"),
    ("focus(captures_to_win=0)", "option captures_to_win"),
    ("focus(layout=random)", "option layout"),
])
def test_bad_options_are_one_line_option_errors(text, words):
    with pytest.raises(OptionError) as info:
        hexkit.load_game(text)
    assert words in str(info.value)
    assert "\n" not in str(info.value)


def test_colours_option_with_colour_fixed_layout_keeps_red_on_the_corner_pattern():
    state = hexkit.load_game("focus(colours=GR)").new_state()
    assert state.players == ("Green", "Red")
    assert state.stack(state.rules.index[(0, 0)]) == [1]
    assert str(state.legal_moves()[0]).startswith("c1")


def test_player_order_layout_gives_the_first_seat_the_corner_pattern():
    state = hexkit.load_game("focus(colours=GR,layout=player_order)").new_state()
    assert state.stack(state.rules.index[(0, 0)]) == [0]
    assert state.render().splitlines()[1].split()[1] == "G:1"


def test_max_height_option_overflows_above_its_value():
    state = state_with("focus(max_height=3)", {(0, 0): [1, 1], (0, 1): [0, 0]})
    state.push("b1-a1x2")
    assert board_of(state)[(0, 0)] == [1, 0, 0]
    assert state.captured(0) == 1


def test_start_reserve_option_gives_everyone_reserve_pieces():
    state = hexkit.load_game("focus(start_reserve=2)").new_state()
    assert [state.reserve(s) for s in range(2)] == [2, 2]
    assert ReserveMove((3, 3)) in state.legal_moves()


def test_captures_to_win_option():
    state = state_with("focus(captures_to_win=2)", {(0, 0): [1, 1, 1, 1, 1], (0, 1): [0, 0],
                                                   (5, 5): [1]})
    state.push("b1-a1x2")
    assert state.outcome() == hexkit.Outcome((0,), "Red captured 2 pieces")


# -- boards and layouts --------------------------------------------------------------------
def test_cross_board_has_52_squares_without_three_at_each_corner():
    rules = hexkit.load_game("focus(board=cross)").rules
    assert len(rules.squares) == 52
    assert set(rules.squares) == {(r, c) for r in range(8) for c in range(8)} - CROSS_REMOVED


def test_cross_two_player_layout_is_the_course_pattern_shifted_into_the_centre():
    board = board_of(hexkit.load_game("focus(board=cross)").new_state())
    for (r, c), stack in board.items():
        if 1 <= r <= 6 and 1 <= c <= 6:
            cr, cc = r - 1, c - 1
            assert stack == [0 if (cr + cc // 2) % 2 == 0 else 1]
        else:
            assert stack == []


def test_cross_three_player_layout_follows_the_pair_formula_and_keeps_one_in_reserve():
    state = hexkit.load_game("focus(board=cross,players=3)").new_state()
    for (r, c), stack in board_of(state).items():
        if 1 <= r <= 6 and 1 <= c <= 6:
            row, pair = r - 1, (c - 1) // 2
            seat = 0 if row % 3 == pair % 3 else 2 if row % 3 == (pair - 1) % 3 else 1
            assert stack == [seat]
        else:
            assert stack == []
    assert [state.reserve(s) for s in range(3)] == [1, 1, 1]


def test_cross_four_player_layout_fills_all_52_squares_thirteen_each():
    board = board_of(hexkit.load_game("focus(board=cross,players=4)").new_state())
    for r, line in enumerate(FOUR_PLAYER_PICTURE.splitlines()):
        for c, token in enumerate(line.split()):
            if token == ".":
                assert (r, c) not in board
            else:
                assert board[(r, c)] == ["ABCD".index(token)]
    assert Counter(s[0] for s in board.values()) == {0: 13, 1: 13, 2: 13, 3: 13}


# -- notation ------------------------------------------------------------------------------
@pytest.mark.parametrize("text, move", [
    ("a1-a3x2", StackMove((0, 0), (2, 0), 2)),
    ("A1 - A3 : 2", StackMove((0, 0), (2, 0), 2)),
    ("c1-c3:2", StackMove((0, 2), (2, 2), 2)),
    ("a1-a3", StackMove((0, 0), (2, 0), 2)),
    ("move 0,0 0,1 1", StackMove((0, 0), (0, 1), 1)),
    ("move (0, 0) (2,0) 2", StackMove((0, 0), (2, 0), 2)),
    ("move b1 b2", StackMove((0, 1), (1, 1), 1)),
    ("h8-h6x2", StackMove((7, 7), (5, 7), 2)),
    ("r:c4", ReserveMove((3, 2))),
    ("R:E5", ReserveMove((4, 4))),
    ("reserve 2,3", ReserveMove((2, 3))),
    ("reserve c4", ReserveMove((3, 2))),
    ("drop c4", ReserveMove((3, 2))),
])
def test_notation_forms_parse_to_moves(text, move):
    assert parse_move(text) == move


@pytest.mark.parametrize("text", ["", "a1", "a1-", "a0-a1x1", "a1-a2x", "move 0,0", "r:",
                                  "reserve", "a1xa2", "move 0,0 0,1 one", "zz1-a1x1"])
def test_text_that_is_no_move_is_a_one_line_parse_error(text):
    with pytest.raises(MoveParseError) as info:
        parse_move(text)
    assert "\n" not in str(info.value)


def test_moves_are_written_column_letter_then_row_from_the_top():
    assert str(StackMove((0, 0), (0, 1), 1)) == "a1-b1x1"
    assert str(StackMove((5, 5), (3, 5), 2)) == "f6-f4x2"
    assert str(ReserveMove((2, 3))) == "r:d3"
    assert square_name((7, 2)) == "c8"


@pytest.mark.parametrize("game_text", ["focus", "focus(board=cross,players=4)",
                                       "focus(board=cross,players=3,start_reserve=2)"])
def test_every_legal_move_round_trips_through_its_text(game_text):
    state = hexkit.load_game(game_text).new_state()
    for move in state.legal_moves():
        assert state.parse_move(str(move)) == move
        assert hash(state.parse_move(str(move))) == hash(move)


# -- legal moves ---------------------------------------------------------------------------
def test_opening_moves_on_the_course_board_are_each_red_single_to_each_neighbour():
    state = hexkit.load_game("focus").new_state()
    expected = set()
    for r in range(6):
        for c in range(6):
            if (r + c // 2) % 2 == 0:
                for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    if 0 <= r + dr < 6 and 0 <= c + dc < 6:
                        expected.add(StackMove((r, c), (r + dr, c + dc), 1))
    assert set(state.legal_moves()) == expected
    assert len(state.legal_moves()) == len(expected)


def test_up_to_distance_moves_k_pieces_one_to_k_squares():
    state = state_with("focus", {(0, 0): [0, 0, 0]})
    got = {(m.to, m.count) for m in state.legal_moves()}
    down = {((d, 0), k) for k in (1, 2, 3) for d in range(1, k + 1)}
    right = {((0, d), k) for k in (1, 2, 3) for d in range(1, k + 1)}
    assert got == down | right


def test_exact_distance_moves_k_pieces_exactly_k_squares():
    state = state_with("focus(distance=exact)", {(0, 0): [0, 0, 0]})
    got = {(m.to, m.count) for m in state.legal_moves()}
    assert got == {((k, 0), k) for k in (1, 2, 3)} | {((0, k), k) for k in (1, 2, 3)}


def test_moves_on_the_cross_board_reach_into_the_arms_and_stop_at_the_edge():
    state = state_with("focus(board=cross)", {(2, 1): [0, 0, 0, 0, 0]})
    targets = {m.to for m in state.legal_moves()}
    assert (2, 0) in targets and (0, 1) not in targets and (1, 1) in targets
    assert targets == {(2, 0), (1, 1), (3, 1), (4, 1), (5, 1), (6, 1), (2, 2), (2, 3),
                       (2, 4), (2, 5), (2, 6)}


def test_reserve_pieces_add_a_drop_on_every_square():
    state = state_with("focus", {(0, 0): [0]}, reserve=[1, 0])
    drops = [m for m in state.legal_moves() if isinstance(m, ReserveMove)]
    assert len(drops) == 36


# -- refused moves -------------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ("c1-b1x1", "not yours"),
    ("a1-b1x2", "a1 holds 1 piece, so you can move only 1, not 2"),
    ("a1-b2x1", "straight"),
    ("a1-a3x1", "at most 1"),
    ("a1-g1x1", "not a square"),
    ("move 9,9 0,0 1", "not a square"),
    ("a1-a1x1", "leave its square"),
    ("d4-d5x1", "no stack"),
    ("r:a1", "no pieces in reserve"),
])
def test_illegal_moves_are_refused_with_a_reason_and_change_nothing(text, words):
    state = state_with("focus", {(0, 0): [0], (0, 2): [1], (2, 2): [0]})
    assert words in refused(state, text)


@pytest.mark.parametrize("move", [StackMove((0, 0), (0, 1), "1"), StackMove([0, 0], (0, 1), 1),
                                  ReserveMove(None), object()])
def test_hand_built_malformed_moves_are_refused_not_crashing(move):
    state = state_with("focus", {(0, 0): [0], (0, 2): [1]}, reserve=[1, 1])
    refused(state, move)


def test_exact_distance_refuses_a_shorter_move():
    state = state_with("focus(distance=exact)", {(0, 0): [0, 0]})
    assert "exactly 2" in refused(state, "a1-a2x2")


# -- the real game: players out, last mover wins, the first turn of Domination ----------
def test_covering_the_last_stack_of_the_only_opponent_wins_for_the_last_mover():
    state = state_with("focus(board=cross)", {(3, 3): [0], (3, 4): [1], (5, 5): [0, 1, 0]})
    state.push("d4-e4x1")
    assert state.is_over()
    assert state.outcome() == hexkit.Outcome((0,), "Red is the last player able to move")
    assert state.legal_moves() == []
    assert "game is over" in refused(state, "f6-f5x1")


def test_a_player_with_a_reserve_is_not_out():
    state = state_with("focus(board=cross)", {(3, 3): [0], (3, 4): [1]}, reserve=[0, 1])
    state.push("d4-e4x1")
    assert not state.is_over()
    assert state.current_player == 1
    assert all(isinstance(m, ReserveMove) for m in state.legal_moves())


def test_a_player_out_is_skipped_and_the_last_one_left_wins():
    board = {(3, 3): [0], (3, 4): [1], (6, 6): [2, 0], (2, 2): [2]}
    state = state_with("focus(board=cross,players=3)", board)
    state.push("d4-e4x1")          # Green's only stack is covered: Green is out
    assert not state.is_active(1)
    assert state.current_player == 2
    state.push("c3-c4x1")          # Blue moves; Red is next, Green skipped
    assert state.current_player == 0 and not state.is_over()
    state.push("e4-c4x2")          # Red covers Blue's last stack: Red is the last mover
    assert state.outcome() == hexkit.Outcome((0,), "Red is the last player able to move")
    for _ in range(3):
        state.pop()
    assert state.is_active(1) and state.current_player == 0 and not state.is_over()


def test_a_player_out_stays_out_when_a_later_move_uncovers_their_piece():
    state = state_with("focus(board=cross,players=3)",
                       {(3, 3): [0], (3, 4): [1], (2, 2): [2], (6, 6): [0]})
    state.push("d4-e4x1")          # Green's only piece is covered: Green is out
    state.push("c3-c4x1")
    state.push("e4-f4x1")          # Red steps off Green's piece
    assert state.stack(state.rules.index[(3, 4)]) == [1]
    assert not state.is_active(1)
    assert state.current_player == 2 and not state.is_over()
    assert "Green" in state.render() and "stacks 1  (out)" in state.render()


def test_win_by_captures_on_the_cross_board_with_four_players():
    board = {(2, 2): [1, 2, 3, 1, 2], (2, 3): [0], (7, 2): [1], (7, 3): [2], (7, 4): [3]}
    state = state_with("focus(board=cross,players=4,win=captures,captures_to_win=1)", board)
    state.push("d3-c3x1")
    assert state.outcome() == hexkit.Outcome((0,), "Red captured 1 pieces")


def test_three_players_must_enter_their_reserve_on_an_empty_square_first():
    state = hexkit.load_game("focus(board=cross,players=3)").new_state()
    legal = state.legal_moves()
    empty = {sq for sq, s in board_of(state).items() if not s}
    assert len(empty) == 16
    assert set(legal) == {ReserveMove(sq) for sq in empty}
    assert "first turn" in refused(state, "b2-c2x1")
    assert "first turn" in refused(state, "r:b2")
    for text in ("r:a3", "r:a4", "r:a5"):
        state.push(text)
    assert [state.reserve(s) for s in range(3)] == [0, 0, 0]
    assert not any(isinstance(m, ReserveMove) for m in state.legal_moves())
    assert StackMove((2, 0), (3, 0), 1) in state.legal_moves()


# -- undo, copies, serialisation ---------------------------------------------------------
def test_push_then_pop_restores_an_overflow_exactly():
    state = state_with("focus", {(0, 0): [1, 0, 1, 0, 1], (0, 1): [0, 0, 0], (5, 5): [1]},
                       reserve=[1, 0])
    before = state.to_dict()
    state.push("b1-a1x3")
    assert board_of(state)[(0, 0)] == [0, 1, 0, 0, 0]
    assert (state.reserve(0), state.captured(0)) == (2, 2)
    state.push("f6-f5x1")
    state.push("r:a1")
    assert board_of(state)[(0, 0)] == [1, 0, 0, 0, 0]
    assert (state.reserve(0), state.captured(0)) == (2, 2)
    for _ in range(3):
        state.pop()
    assert state.to_dict() == before


def test_copies_are_independent_and_can_undo():
    state = hexkit.load_game("focus").new_state(seed=4)
    state.push("a1-b1x1")
    twin = state.copy()
    twin.push("c1-b1x1")
    assert board_of(state)[(0, 1)] == [0, 0]
    assert twin.pop() == StackMove((0, 2), (0, 1), 1)
    assert twin.pop() == StackMove((0, 0), (0, 1), 1)
    assert board_of(twin)[(0, 1)] == [0]
    assert board_of(state)[(0, 1)] == [0, 0]


def test_to_dict_is_json_and_round_trips_mid_game():
    game = hexkit.load_game("focus(board=cross,players=3)")
    state = game.new_state(seed=9)
    for text in ("r:a3", "r:h4", "r:d1", "b2-c2x1"):
        state.push(text)
    data = json.loads(json.dumps(state.to_dict()))
    restored = game.state_from_dict(data)
    assert restored.to_dict() == state.to_dict()
    assert restored.legal_moves() == state.legal_moves()
    assert restored.move_stack == []


@pytest.mark.parametrize("change", [
    lambda d: d.pop("board"),
    lambda d: d.update(board="a1"),
    lambda d: d["board"].append([0, 0, [0]]),          # off the cross
    lambda d: d["board"].append(list(d["board"][0])),   # repeated square
    lambda d: d["board"][0][2].append(7),                # no seat 7
    lambda d: d.update(reserve=[0, 0]),                  # three players
    lambda d: d.update(captured=[0, -1, 0]),
    lambda d: d.update(turn=3),
    lambda d: d.update(turn=True),
    lambda d: d.update(winner="Red"),
    lambda d: d.update(out=[5]),
    lambda d: d.update(rng=[1, 2]),
    lambda d: d.update(turns_taken="x"),
])
def test_corrupt_positions_are_one_line_record_errors(change):
    game = hexkit.load_game("focus(board=cross,players=3)")
    data = game.new_state().to_dict()
    change(data)
    with pytest.raises(RecordError) as info:
        game.state_from_dict(data)
    assert "\n" not in str(info.value)


# -- rendering -----------------------------------------------------------------------------
def test_cross_rendering_has_coordinates_stacks_and_blank_corners():
    state = state_with("focus(board=cross,players=4)",
                       {(0, 2): [0, 1, 3], (7, 5): [2], (3, 0): [3, 3]}, reserve=[0, 2, 0, 1],
                       captured=[4, 0, 0, 0])
    lines = state.render().splitlines()
    assert lines[0].split() == list("abcdefgh")
    assert lines[1].split() == ["1", "RGY:3", ".", ".", "."]
    assert lines[1].index("RGY:3") == lines[0].index("c")
    assert lines[4].split() == ["4", "YY:2"] + ["."] * 7
    assert lines[8].split() == ["8", ".", ".", ".", "B:1"]
    text = state.render()
    assert "R Red     reserve 0  captured 4  stacks 0" in text
    assert "G Green   reserve 2  captured 0  stacks 0" in text
    assert "Y Yellow  reserve 1  captured 0  stacks 2" in text
    assert "To move: Red (R)." in text


def test_rendering_reports_the_result_and_players_out():
    state = state_with("focus(board=cross)", {(3, 3): [0], (3, 4): [1]})
    state.push("d4-e4x1")
    text = state.render()
    assert "Game over: Red wins (Red is the last player able to move)." in text
    assert "stacks 0  (out)" in text


def test_view_lists_every_square_with_pieces_bottom_first_and_highlights_the_last_move():
    state = hexkit.load_game("focus(board=cross)").new_state()
    state.push("b2-b3x1")
    view = state.view()
    assert view.topology == "square" and len(view.cells) == 52
    cell = {c.at: c for c in view.cells}[(2, 1)]
    assert cell.label == "b3"
    assert [(p.owner, p.text) for p in cell.pieces] == [(1, "G"), (0, "R")]
    assert view.highlight == ((1, 1), (2, 1))
    assert view.players == ("Red", "Green")


def test_move_help_explains_the_notation():
    help_text = hexkit.load_game("focus").new_state().move_help()
    assert "a1-a3x2" in help_text and "r:" in help_text


def test_a_refusal_names_the_squares_as_the_player_wrote_them():
    state = hexkit.load_game("focus").new_state(seed=1)
    with pytest.raises(IllegalMoveError, match=r"^the stack on 2,2 is not yours: Green is on top$"):
        state.push("move 2,2 2,4 1")
    with pytest.raises(IllegalMoveError, match=r"^the stack on c3 is not yours: Green is on top$"):
        state.push("c3-a3x1")
    assert state.move_stack == []
