"""The board protocol and the per-cell stack store every topology shares."""

from __future__ import annotations

from collections.abc import Hashable, Iterator, Sequence
from typing import Protocol, TypeVar, runtime_checkable

from hexkit.pieces import Piece, Stack

Cell = TypeVar("Cell", bound=Hashable)


@runtime_checkable
class Board(Protocol[Cell]):
    """What every topology provides. ``cells`` is the iteration (display) order."""

    @property
    def cells(self) -> Sequence[Cell]: ...

    def __contains__(self, cell: object) -> bool: ...

    def neighbours(self, cell: Cell) -> Sequence[Cell]: ...

    def distance(self, a: Cell, b: Cell) -> int: ...

    def stack(self, cell: Cell) -> Stack: ...


class StackStore:
    """Stacks of pieces per cell, bottom first. Empty cells hold no entry."""

    def __init__(self) -> None:
        self._stacks: dict[Hashable, Stack] = {}

    def stack(self, cell: Hashable) -> Stack:
        """The pieces on a cell, bottom first (an empty list if none). Do not mutate it."""
        return self._stacks.get(cell, [])

    def height(self, cell: Hashable) -> int:
        """Number of pieces on a cell."""
        s = self._stacks.get(cell)
        return len(s) if s else 0

    def top(self, cell: Hashable) -> Piece | None:
        """The top piece on a cell, or None."""
        s = self._stacks.get(cell)
        return s[-1] if s else None

    def put(self, cell: Hashable, piece: Piece) -> None:
        """Put a piece on top of a cell's stack."""
        if cell not in self:
            raise KeyError(f"{cell!r} is not on this board")
        self._stacks.setdefault(cell, []).append(piece)

    def take(self, cell: Hashable, count: int = 1) -> list[Piece]:
        """Remove and return the top ``count`` pieces of a cell (bottom first)."""
        s = self._stacks.get(cell)
        if not s or count > len(s) or count < 1:
            raise ValueError(f"cannot take {count} piece(s) from {cell!r}")
        taken = s[-count:]
        del s[-count:]
        if not s:
            del self._stacks[cell]
        return taken

    def clear(self) -> None:
        """Remove every piece."""
        self._stacks.clear()

    def occupied(self) -> Iterator[Hashable]:
        """Cells holding at least one piece (in insertion order)."""
        return iter(self._stacks)

    def __contains__(self, cell: object) -> bool:  # pragma: no cover - overridden
        raise NotImplementedError
