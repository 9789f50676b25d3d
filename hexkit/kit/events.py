"""Game events: what a move did, in plain words and as data.

A state emits events while it applies a move (``self.emit(...)`` in ``apply``); after
``push``, ``state.events()`` returns them, and a finished game adds one ``game_over`` event.
Front-ends narrate them (the terminal, the browser) and records replay with them. Events
are the consequences of a move (pieces destroyed, captured, sent back, points scored, a
player out), not the move itself, which its notation already says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: Standard event kinds. Games may use other kinds too; front-ends show any kind's text.
DESTROYED = "destroyed"  # a piece was removed from the game (Hex Baron's crowded pieces)
CAPTURED = "captured"  # a piece was taken by a player (Focus's captures)
RETURNED = "returned"  # a piece went back to its owner's hand (HexAround's kamikaze)
RESERVED = "reserved"  # a piece went to its owner's reserve (Focus's overflow)
TRAPPED = "trapped"  # a piece is held under another (HexAround's trapping creatures)
STACKED = "stacked"  # pieces now share a cell
SCORE = "score"  # a player's points changed (Hex Baron's VPs)
RESOURCE = "resource"  # a player's resources changed notably (fuel, lumber)
ELIMINATED = "eliminated"  # a player is out of the game
PASSED = "passed"  # a player could not act and passed
GAME_OVER = "game_over"  # the game ended (added by the core after the last move)

Cell = tuple[int, int]


@dataclass(frozen=True, eq=True)
class GameEvent:
    """One thing that happened: its kind, a sentence for people, and data for programs.

    ``seat`` is the player it concerns (None if nobody in particular), ``cells`` the board
    cells involved (in the coordinates of the game's :class:`~hexkit.kit.view.BoardView`),
    ``data`` any further JSON-safe facts (piece kind, points, counts).
    """

    kind: str
    text: str
    seat: int | None = None
    cells: tuple[Cell, ...] = ()
    data: Mapping[str, Any] = field(default_factory=dict, hash=False)

    __hash__ = None  # type: ignore[assignment]  # data is a dict

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.cells:
            out["cells"] = [list(c) for c in self.cells]
        if self.data:
            out["data"] = dict(self.data)
        return out

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> GameEvent:
        """Inverse of :meth:`to_dict`."""
        return cls(
            str(d["kind"]), str(d["text"]), d.get("seat"),
            tuple((int(c[0]), int(c[1])) for c in d.get("cells", ())), dict(d.get("data", {})),
        )
