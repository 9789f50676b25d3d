"""Properties of FocusGame over many positions: it accepts exactly the moves the generic
engine lists, refused calls change nothing, and no piece is ever created or lost."""

from __future__ import annotations

import random

import pytest
from focus import FocusGame
from focus.notation import StackMove
from hypothesis import given, settings
from hypothesis import strategies as st

import hexkit

A, B = ("PlayerA", "R"), ("PlayerB", "G")
NAMES = ("PlayerA", "PlayerB")
SQUARES = [(r, c) for r in range(6) for c in range(6)]


def _snapshot(state) -> dict:
    """from_position arguments for a generic course state."""
    letters = state.rules.letters
    board = {}
    for i, sq in enumerate(state.rules.squares):
        if state.stack(i):
            board[sq] = [letters[s] for s in state.stack(i)]
    return {
        "board": board,
        "reserve": {NAMES[s]: state.reserve(s) for s in range(2)},
        "captured": {NAMES[s]: state.captured(s) for s in range(2)},
        "turn": NAMES[state.current_player],
    }


def _positions(distance: str, count: int, seed: int):
    game = hexkit.load_game("focus", distance=distance)
    chooser = random.Random(seed)
    for k in range(count):
        state = game.new_state(seed=k)
        for _ in range(chooser.randrange(5, 120)):
            if state.is_over():
                break
            legal = state.legal_moves()
            state.push(legal[chooser.randrange(len(legal))])
        if not state.is_over():
            yield state


def _board_of(game: FocusGame) -> dict:
    return {sq: game.show_pieces(sq) for sq in SQUARES}


@pytest.mark.parametrize("distance", ["up_to", "exact"])
def test_facade_accepts_exactly_the_engines_legal_stack_moves(distance):
    for state in _positions(distance, 8, seed=3):
        snap = _snapshot(state)
        mover = snap["turn"]
        expected = {(m.frm, m.to, m.count) for m in state.legal_moves()
                    if isinstance(m, StackMove)}
        accepted = set()
        game = FocusGame.from_position(A, B, distance=distance, **snap)
        for frm in SQUARES:
            for to in SQUARES:
                if frm[0] != to[0] and frm[1] != to[1]:
                    continue
                for n in range(0, 7):
                    result = game.move_piece(mover, frm, to, n)
                    if result in ("successfully moved", f"{mover} Wins"):
                        accepted.add((frm, to, n))
                        after = state.copy()
                        after.push(StackMove(frm, to, n))
                        assert _board_of(game) == {
                            sq: [after.rules.letters[s] for s in after.stack(i)]
                            for i, sq in enumerate(after.rules.squares)
                        }
                        game = FocusGame.from_position(A, B, distance=distance, **snap)
        assert accepted == expected


_square = st.one_of(
    st.sampled_from(SQUARES),
    st.tuples(st.integers(-2, 7), st.integers(-2, 7)),
    st.sampled_from([None, "a1", (1,), (0, 0, 0), (1.0, 2)]),
)
_call = st.one_of(
    st.tuples(st.just("move_piece"), st.sampled_from(NAMES + ("Nobody",)), _square, _square,
              st.one_of(st.integers(-1, 6), st.sampled_from([True, 1.0, None]))),
    st.tuples(st.just("reserved_move"), st.sampled_from(NAMES + ("Nobody",)), _square),
)


def _pieces(game: FocusGame) -> int:
    on_board = sum(len(game.show_pieces(sq)) for sq in SQUARES)
    return on_board + sum(game.show_reserve(n) + game.show_captured(n) for n in NAMES)


@settings(max_examples=60, deadline=None)
@given(calls=st.lists(_call, max_size=60), distance=st.sampled_from(["up_to", "exact"]))
def test_refused_calls_change_nothing_and_pieces_are_conserved(calls, distance):
    game = FocusGame(A, B, distance=distance)
    last_mover = None
    for call, name, *args in calls:
        before = game.to_dict()
        result = getattr(game, call)(name, *args)
        if result == "successfully moved":
            assert name != last_mover
            last_mover = name
            assert game.to_dict() != before
        elif result.endswith(" Wins") and before["winner"] is None:
            last_mover = name
        else:
            assert game.to_dict() == before, (call, name, args, result)
        assert _pieces(game) == 36


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_random_course_games_through_the_facade_alternate_and_conserve_pieces(seed):
    game = FocusGame(A, B)
    chooser = random.Random(seed)
    engine = hexkit.load_game("focus").new_state()
    for _ in range(200):
        legal = engine.legal_moves()
        if not legal:
            break
        move = legal[chooser.randrange(len(legal))]
        seat = engine.current_player
        name = NAMES[seat]
        if isinstance(move, StackMove):
            result = game.move_piece(name, move.frm, move.to, move.count)
        else:
            result = game.reserved_move(name, move.to)
        engine.push(move)
        outcome = engine.outcome()
        if outcome is not None and "captured" not in outcome.reason:
            # The generic game's rule for a player left without a move; the course has none.
            assert result == "successfully moved"
            break
        assert result == (f"{name} Wins" if engine.is_over() else "successfully moved")
        assert _pieces(game) == 36
        assert game.show_captured(name) == engine.captured(seat)
        assert game.show_reserve(name) == engine.reserve(seat)
