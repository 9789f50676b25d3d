"""Focus moves and their notation.

Squares are ``(row, col)`` with ``(0, 0)`` at the top left. In text a square is the column
letter and the row number counted from 1 (``(0, 0)`` is ``a1``, ``(0, 1)`` is ``b1``,
``(5, 5)`` is ``f6``), or the pair ``row,col`` itself.

* ``a1-a3x2`` moves the top 2 pieces of a1 to a3 (also ``a1-a3:2`` as on pbmserv, or
  ``move 0,0 2,0 2``). Without a count (``a1-a3``) the count is the distance.
* ``r:c4`` enters a reserve piece on c4 (also ``reserve c4`` or ``reserve 3,2``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hexkit.errors import MoveParseError
from hexkit.game import Move

Square = tuple[int, int]

COLUMNS = "abcdefghijklmnopqrstuvwxyz"


def square_name(square: Square) -> str:
    """``(0, 0)`` -> ``a1``: column letter, then the row counted from 1.

    A square beyond the letters (only in a move that is off every board) is written
    ``row,col``, which parses back too."""
    row, col = square
    if 0 <= col < len(COLUMNS) and row >= 0:
        return f"{COLUMNS[col]}{row + 1}"
    return f"{row},{col}"


@dataclass(frozen=True, slots=True)
class StackMove(Move):
    """Move the top ``count`` pieces of the stack on ``frm`` onto ``to``."""

    frm: Square
    to: Square
    count: int

    def __str__(self) -> str:
        return f"{square_name(self.frm)}-{square_name(self.to)}x{self.count}"


@dataclass(frozen=True, slots=True)
class ReserveMove(Move):
    """Enter one piece from the mover's reserve on ``to``."""

    to: Square

    def __str__(self) -> str:
        return f"r:{square_name(self.to)}"


FocusMove = StackMove | ReserveMove

_NUM = r"\d{1,3}"
_SQ = rf"(?:[a-z]{_NUM}|\(?\s*{_NUM}\s*,\s*{_NUM}\s*\)?)"
_ALGEBRAIC = re.compile(rf"({_SQ})\s*-\s*({_SQ})(?:\s*[x:]\s*({_NUM}))?")
_WORDY = re.compile(rf"(?:move|m)\s+({_SQ})\s+({_SQ})(?:\s+({_NUM}))?")
_RESERVE = re.compile(rf"(?:r|reserve|drop)(?:\s*:\s*|\s+)({_SQ})")

MOVE_HELP = """\
Moves: FROM-TOxN moves the top N pieces of FROM to TO, e.g. a1-a3x2 (also a1-a3:2, or
  move 0,0 2,0 2 with row,col pairs); without xN the count is the distance.
  r:SQUARE enters a piece from your reserve, e.g. r:c4 (also reserve c4, reserve 3,2).
Squares: column letter + row number from the top (a1 is row 0, col 0), or row,col."""


def parse_square(text: str) -> Square:
    """``b3`` -> ``(2, 1)``; ``2,1`` or ``(2, 1)`` -> ``(2, 1)`` (MoveParseError if neither)."""
    t = text.strip().strip("()").strip()
    if "," in t:
        row_text, _, col_text = t.partition(",")
        try:
            return (int(row_text), int(col_text))
        except ValueError:
            raise MoveParseError(f"{text!r} is not a square such as b3 or 2,1") from None
    if len(t) >= 2 and t[0] in COLUMNS and t[1:].isdigit() and t[1:].isascii():
        row = int(t[1:])
        if row < 1:
            raise MoveParseError(f"{text!r}: row numbers start at 1")
        return (row - 1, COLUMNS.index(t[0]))
    raise MoveParseError(f"{text!r} is not a square such as b3 or 2,1")


def parse_move(text: str) -> FocusMove:
    """Read a move in any accepted notation (syntax only; legality is checked on push)."""
    if not isinstance(text, str):
        raise MoveParseError(f"a move is text, not {type(text).__name__}")
    t = " ".join(text.strip().lower().split())
    m = _ALGEBRAIC.fullmatch(t) or _WORDY.fullmatch(t)
    if m:
        frm, to = parse_square(m.group(1)), parse_square(m.group(2))
        count = int(m.group(3)) if m.group(3) else abs(frm[0] - to[0]) + abs(frm[1] - to[1])
        return StackMove(frm, to, count)
    m = _RESERVE.fullmatch(t)
    if m:
        return ReserveMove(parse_square(m.group(1)))
    shown = text if len(text) <= 40 else text[:37] + "..."
    raise MoveParseError(f"{shown!r} is not a Focus move (e.g. a1-a3x2 or r:c4; type help)")
