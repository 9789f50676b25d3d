"""Pieces and stacks: a piece belongs to a seat (0-based player index) and has a kind."""

from __future__ import annotations

from typing import NamedTuple


class Piece(NamedTuple):
    """One piece: its owner's seat index and its kind in the game's own words (e.g. 'CRAB')."""

    owner: int
    kind: str

    def __str__(self) -> str:
        return f"{self.kind}@{self.owner}"


#: A stack lists its pieces bottom first; the last element is the top piece.
Stack = list[Piece]


def top(stack: Stack) -> Piece | None:
    """The top piece of a stack, or None if it is empty."""
    return stack[-1] if stack else None
