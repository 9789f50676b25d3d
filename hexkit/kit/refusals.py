"""One wording for a refused move, shared by every front-end (the terminal, the browser):
what was wrong, and the line with its mistyped words corrected when the legal moves have
close ones."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hexkit.errors import IllegalMoveError, MoveParseError
from hexkit.suggest import correct_line, words_of


def move_words(state: Any) -> set[str]:
    """Words a player may mean in a move: the words of the legal moves' notation and the
    kinds and labels of the pieces moved or in hand."""
    moves = state.legal_moves()
    words = words_of(str(m) for m in moves)
    for m in moves:
        g = state.gesture(m)
        if g is not None and g.kind:
            words.add(g.kind)
    try:
        hands = state.view().hands
    except NotImplementedError:
        hands = ()
    for hand in hands:
        words.update(w for w in (hand.kind, hand.label) if w.isalpha())
    return words


def push_or_refusal(state: Any, move: Any, *, hint: str,
                    extra_words: Iterable[str] = ()) -> str | None:
    """Push ``move`` (a Move or its text); None if it was played, else the one-line refusal
    (the state is unchanged). ``hint`` follows an unreadable move that has no correction."""
    try:
        state.push(move)
    except MoveParseError as exc:
        better = _did_you_mean(state, str(move), extra_words)
        advice = f"; did you mean '{better}'?" if better else hint
        return f"cannot read that move: {exc}{advice}"
    except IllegalMoveError as exc:
        # The line was read as a move: a front-end word ('moves' for 'move') is not meant.
        better = _did_you_mean(state, str(move), ())
        return f"illegal move: {exc}" + (f"; did you mean '{better}'?" if better else "")
    return None


def _did_you_mean(state: Any, line: str, extra_words: Iterable[str]) -> str | None:
    """The line with its mistyped words corrected, if that is a legal move now or one of
    the front-end's words (``help``): a suggestion that would be refused too is none."""
    words = set(extra_words)
    better = correct_line(line, move_words(state) | words)
    if better is None:
        return None
    if better.split()[0] in words:
        return better
    try:
        move = state.parse_move(better)
    except (MoveParseError, IllegalMoveError):
        return None
    return better if str(move) in {str(m) for m in state.legal_moves()} else None
