"""What a user interface learns from Focus without knowing it: where each move is made by
pointing (a stack's square, or the reserve), what a move did beyond itself (captures,
pieces to reserve, a player out), and the variant's rules in words."""

from __future__ import annotations

import pytest

import hexkit
from hexkit.kit.events import CAPTURED, ELIMINATED, GAME_OVER, RESERVED
from hexkit.kit.gestures import Hand
from hexkit.testing import check_game

from .test_generic_game import state_with


def test_clicking_a_stack_lists_its_moves_with_every_count():
    state = state_with("focus", {(2, 2): [1, 0, 0]})
    moves = state.moves_from((2, 2))
    assert {m.count for m in moves} == {1, 2, 3}
    assert moves == [m for m in state.legal_moves() if m.frm == (2, 2)]
    two_right = [str(m) for m in moves if state.gesture(m).target == (2, 4)]
    assert two_right == ["c3-e3x2", "c3-e3x3"]  # one click pair: the UI asks how many


def test_a_square_without_a_stack_of_the_mover_starts_no_move():
    state = state_with("focus", {(2, 2): [1, 0], (0, 0): [0, 1]})
    assert state.moves_from((0, 0)) == [] and state.moves_from((5, 5)) == []


def test_reserve_moves_start_in_the_movers_reserve_shown_as_a_hand():
    state = state_with("focus", {(2, 2): [0], (3, 3): [1]}, reserve=[2, 1])
    drops = state.moves_from(Hand(0, ""))
    assert len(drops) == 36 and {state.gesture(m).target for m in drops} == set(
        state.rules.squares)
    assert state.moves_from(Hand(1, "")) == []  # not Green's turn
    hands = {(h.seat, h.kind): (h.count, h.label) for h in state.view().hands}
    assert hands == {(0, ""): (2, "reserve"), (1, ""): (1, "reserve")}


@pytest.mark.parametrize("options", [{}, {"board": "cross", "players": 4}])
def test_every_gesture_uses_the_squares_and_hands_of_the_view(options):
    # The conformance kit checks every legal move's gesture against the view, and that
    # moves_from finds each of them, in the positions it plays.
    report = check_game("focus", games=1, max_moves=40, **options)
    assert report.moves > 0


def test_an_overflow_sends_own_pieces_to_reserve_and_captures_the_others():
    # Red moves 2 onto a stack of 4: 6 pieces, one too many; the bottom one is Red's own.
    state = state_with("focus", {(0, 0): [0, 0], (0, 1): [0, 1, 1, 0], (5, 5): [1]},
                       captured=[3, 0])
    state.push("a1-b1x2")
    found = {e.kind: e for e in state.events()}
    assert set(found) == {RESERVED}
    assert found[RESERVED].data == {"count": 1}
    assert found[RESERVED].cells == ((0, 1),)
    state = state_with("focus", {(0, 0): [0, 0, 0], (0, 1): [1, 1, 0], (5, 5): [1]},
                       captured=[3, 0])
    state.push("a1-b1x3")
    [capture] = state.events()
    assert capture.kind == CAPTURED and capture.seat == 0
    assert capture.data == {"count": 1, "owners": [1]}
    assert capture.text == ("Red captures 1 of Green's pieces: the stack on b1 grew taller "
                            "than 5 and lost its bottom piece")
    state.pop()
    assert state.events() == ()


def test_a_player_put_out_is_told_and_the_last_mover_wins():
    state = state_with("focus(board=cross,players=3)",
                       {(3, 3): [0], (3, 4): [1], (2, 2): [2], (6, 6): [0]})
    state.push("d4-e4x1")
    [out] = state.events()
    assert out.kind == ELIMINATED and out.seat == 1
    assert out.text == "Green is out: no stack on top and no piece in reserve"
    state = state_with("focus(board=cross)", {(3, 3): [0], (3, 4): [1], (5, 5): [0, 1, 0]})
    state.push("d4-e4x1")
    assert [e.kind for e in state.events()] == [ELIMINATED, GAME_OVER]


def test_a_plain_move_tells_nothing():
    state = hexkit.load_game("focus").new_state(0)
    state.push(state.legal_moves()[0])
    assert state.events() == ()


def test_describe_gives_the_stack_notation_the_reserve_and_the_variants_win():
    course = " ".join(hexkit.load_game("focus").describe().split())
    for phrase in ("'RG:2' is Red at the bottom and Green on top", "reserve",
                   "up to as many squares", "first player to capture 6 pieces wins",
                   "a1-a3x2", "r:c4"):
        assert phrase in course, phrase
    cross = " ".join(hexkit.load_game("focus(board=cross,players=3)").describe().split())
    for phrase in ("exactly as many squares", "the last player able to move wins",
                   "enter your reserve piece on an empty square", "Blue (B)"):
        assert phrase in cross, phrase


def test_the_events_of_an_earlier_move_are_still_told():
    state = state_with("focus", {(0, 0): [0, 0, 0], (0, 1): [1, 1, 0], (5, 5): [1],
                                 (4, 4): [0]}, captured=[3, 0])
    state.push("a1-b1x3")
    state.push("f6-f5x1")
    assert state.events() == ()
    [capture] = state.events(-2)
    assert capture.kind == CAPTURED and capture.cells == ((0, 1),)


def test_an_overflow_says_in_plain_words_what_was_captured_and_what_went_to_reserve():
    state = state_with("focus", {(0, 0): [0, 0, 0], (0, 1): [1, 0, 1, 1, 1], (5, 5): [1]})
    state.push("a1-b1x3")
    assert [e.text for e in state.events()] == [
        "Red captures 2 of Green's pieces: the stack on b1 grew taller than 5 and lost its "
        "bottom 3 pieces",
        "Red's own piece from the bottom goes to Red's reserve",
    ]
    state = state_with("focus", {(0, 0): [0, 0, 0], (0, 1): [0, 0, 1, 1], (5, 5): [1]})
    state.push("a1-b1x3")
    assert [e.text for e in state.events()] == [
        "2 of Red's own pieces go to Red's reserve: the stack on b1 grew taller than 5 and "
        "lost its bottom 2 pieces"]
