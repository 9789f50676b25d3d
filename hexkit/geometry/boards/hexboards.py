"""A bounded hex board with numbered cells and neighbour tables."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hexkit.geometry.hexes import DIRECTIONS, Hex


class BoundedHexBoard:
    """A finite set of hexes, numbered 0..n-1 in the given order, with neighbour tables.

    ``neighbour_index[i]`` lists the indices adjacent to cell ``i`` in ascending order;
    build once, then rule code works on plain ints.
    """

    def __init__(self, cells: Iterable[Hex]):
        self._cells: tuple[Hex, ...] = tuple(Hex(*c) for c in cells)
        self.index: dict[Hex, int] = {h: i for i, h in enumerate(self._cells)}
        if len(self.index) != len(self._cells):
            raise ValueError("a bounded hex board cannot list a cell twice")
        table = []
        index = self.index
        for q, r in self._cells:
            near = [index[n] for n in ((q + dq, r + dr) for dq, dr in DIRECTIONS) if n in index]
            near.sort()
            table.append(tuple(near))
        self.neighbour_index: tuple[tuple[int, ...], ...] = tuple(table)

    @classmethod
    def hexagon(cls, radius: int) -> BoundedHexBoard:
        """A hexagon-shaped board of the given radius (centre first, then ring by ring)."""
        return cls(Hex(0, 0).spiral(radius))

    @classmethod
    def rhombus(cls, width: int, height: int) -> BoundedHexBoard:
        """A ``width`` x ``height`` parallelogram (the board of the game Hex), row by row."""
        return cls(Hex(q, r) for r in range(height) for q in range(width))

    @property
    def cells(self) -> Sequence[Hex]:
        """Cells in index order."""
        return self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.index

    def neighbours(self, cell: Hex) -> tuple[Hex, ...]:
        """Adjacent cells on the board, in index order."""
        return tuple(self._cells[j] for j in self.neighbour_index[self.index[cell]])

    def distance(self, a: Hex, b: Hex) -> int:
        """Hex distance (the board is convex for every layout built here)."""
        return Hex(*a).distance(b)
