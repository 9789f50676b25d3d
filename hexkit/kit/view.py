"""A game-neutral picture of a position, for renderers (SVG, notebooks) that know no game.

A game builds a :class:`BoardView` from its state in ``State.view()``; the renderers draw
only what is in it. Hex cells are axial ``(q, r)`` (see :mod:`hexkit.geometry.hexes`), square cells
``(row, col)``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


@dataclass(frozen=True)
class PieceView:
    """One piece as drawn: its owner's seat (None for neutral) and a short label."""

    owner: int | None
    text: str


@dataclass(frozen=True)
class CellView:
    """One cell: where it is, its label (tile id or coordinates), terrain and stack."""

    at: tuple[int, int]
    label: str = ""
    terrain: str = ""
    pieces: tuple[PieceView, ...] = ()  # bottom first


@dataclass(frozen=True)
class HandView:
    """Pieces off the board that a player can bring in (a hand or a reserve): whose they
    are, their kind (as in the moves' gestures: ``Hand(seat, kind)``), how many, and a label
    for people (``CRAB``, ``reserve``)."""

    seat: int
    kind: str
    count: int
    label: str = ""


@dataclass(frozen=True)
class BoardView:
    """Everything a renderer needs to draw one position."""

    topology: Literal["hex", "square"]
    cells: tuple[CellView, ...]
    players: tuple[str, ...]
    #: Hex boards only: "flat" tops (Hex Baron's drawing) or "pointy" tops.
    orientation: Literal["flat", "pointy"] = "pointy"
    #: Cells touched by the last move (drawn highlighted).
    highlight: tuple[tuple[int, int], ...] = ()
    #: Status lines shown under the board (to move, reserves, scores...).
    caption: tuple[str, ...] = field(default_factory=tuple)
    #: Terrain names to fill colours ("#rrggbb"); unknown terrains get a default.
    terrain_colours: tuple[tuple[str, str], ...] = ()
    #: Pieces in the players' hands or reserves (clickable origins of moves in a browser).
    hands: tuple[HandView, ...] = ()
    #: Hex boards only: larger second coordinate drawn higher up (as in HexAround's text
    #: board, where larger y is on top); by default it grows downwards, like screen rows.
    y_up: bool = False
