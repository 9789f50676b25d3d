"""Pieces: a piece belongs to a seat (0-based player index) and has a kind."""

from __future__ import annotations

from typing import Any, NamedTuple


class Piece(NamedTuple):
    """One piece: its owner's seat index and its kind in the game's own words (e.g. 'CRAB')."""

    owner: int
    kind: str

    def __str__(self) -> str:
        return f"{self.kind}@{self.owner}"

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # The class and the values: pickle's generic way for a named tuple costs twice as
        # much, and a board's pieces are in every pickle of its states.
        return (Piece, tuple(self))
