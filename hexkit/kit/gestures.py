"""Move gestures: how a move is made by pointing, for user interfaces that know no game.

Every move of a game can say where it starts (a board cell, or a piece in a player's hand
or reserve), where it ends (a cell) and which kind of piece it involves. A user interface
builds click-to-move on this alone: a click on an origin lists the legal moves that start
there (``state.moves_from(origin)``), their targets are highlighted, and a click on a target
plays the one move that starts and ends there, or offers a chooser (in the game's notation)
when several do (Focus: how many pieces; Hex Baron: which command).

Cells are in the coordinates of the game's :class:`~hexkit.kit.view.BoardView` (axial ``(q, r)``
on hex boards, ``(row, col)`` on square ones).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

Cell = tuple[int, int]


@dataclass(frozen=True)
class Hand:
    """A piece in a player's hand or reserve, as the origin of a move (``kind`` is empty
    when the pieces there are all alike, as in Focus's reserve)."""

    seat: int
    kind: str = ""

    def __str__(self) -> str:
        return f"hand:{self.seat}:{self.kind}"


#: Where a move starts: a cell, a piece in hand, or None (moves without a place, e.g. pass).
Origin = Cell | Hand | None


@dataclass(frozen=True)
class Gesture:
    """Where a move starts and ends, and what it moves.

    ``origin``: the cell of the piece that acts, a :class:`Hand` piece, or None.
    ``target``: the cell the move ends at (None for moves with no destination, e.g. pass).
    ``kind``: the kind of piece involved, in the game's own words ("CRAB", "serf").
    ``via``: further cells the move involves, for highlighting (captures, a jumped line).
    """

    origin: Origin
    target: Cell | None
    kind: str = ""
    via: tuple[Cell, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form: cells as ``[q, r]``, a hand piece as ``{"seat", "kind"}``."""
        origin: Any = self.origin
        if isinstance(origin, Hand):
            origin = {"seat": origin.seat, "kind": origin.kind}
        elif origin is not None:
            origin = list(origin)
        return {
            "origin": origin,
            "target": None if self.target is None else list(self.target),
            "kind": self.kind,
            "via": [list(c) for c in self.via],
        }


def origin_from_json(value: Any) -> Origin:
    """Read an origin as sent by a user interface: ``[q, r]``, ``{"seat": s, "kind": k}``
    or null (ValueError if it is none of these)."""
    if value is None:
        return None
    if isinstance(value, dict):
        seat, kind = value.get("seat"), value.get("kind", "")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(kind, str):
            raise ValueError("a hand piece is {\"seat\": number, \"kind\": text}")
        return Hand(seat, kind)
    return cell_from_json(value)


def cell_from_json(value: Any) -> Cell:
    """Read a cell ``[q, r]`` (ValueError otherwise)."""
    if (isinstance(value, list | tuple) and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        return (value[0], value[1])
    raise ValueError("a cell is a pair of whole numbers")
