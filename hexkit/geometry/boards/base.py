"""The board protocol every topology follows."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

Cell = TypeVar("Cell", bound=Hashable)


@runtime_checkable
class Board(Protocol[Cell]):
    """What every topology provides. ``cells`` is the iteration (display) order; ``index``
    numbers the cells in that order, for the integer tables hot rule code works on."""

    @property
    def cells(self) -> Sequence[Cell]: ...

    index: dict[Cell, int]

    def __contains__(self, cell: object) -> bool: ...

    def __len__(self) -> int: ...

    def neighbours(self, cell: Cell) -> Sequence[Cell]: ...

    def distance(self, a: Cell, b: Cell) -> int: ...
