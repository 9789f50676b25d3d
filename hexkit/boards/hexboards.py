"""Hex topologies: a bounded board with numbered cells, and an unbounded sparse board."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from hexkit.boards.base import StackStore
from hexkit.hexes import DIRECTIONS, Hex


class BoundedHexBoard(StackStore):
    """A finite set of hexes, numbered 0..n-1 in the given order, with neighbour tables.

    ``neighbour_index[i]`` lists the indices adjacent to cell ``i`` in ascending order;
    build once, then rule code works on plain ints.
    """

    def __init__(self, cells: Iterable[Hex]):
        super().__init__()
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
    def hexbaron(cls, size: int) -> BoundedHexBoard:
        """Hex Baron's layout for an even ``size`` >= 2: size²/2 tiles in the skeleton's order.

        Row pair r holds an even row (x = 0, 2, ...) then an odd row (x = 1, 3, ...); along a
        row y and z fall by one per tile. Linear time (the skeleton's set-up is quadratic).
        """
        if size < 2 or size % 2:
            raise ValueError(f"a Hex Baron grid needs an even size of at least 2, got {size}")
        h = size // 2
        cells = []
        for i in range(2 * h * h):
            r, j = divmod(i, size)
            if j < h:
                x, y, z = 2 * j, -r - j, r - j
            else:
                k = j - h
                x, y, z = 2 * k + 1, -1 - r - k, r - k
            cells.append(Hex.from_cube(x, y, z))
        return cls(cells)

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


class UnboundedHexBoard(StackStore):
    """An infinite hex plane stored sparsely: only occupied hexes take memory."""

    @property
    def cells(self) -> Sequence[Hex]:
        """The occupied hexes, sorted (the board has no edges, so only these are listed)."""
        return sorted(Hex(*c) for c in self.occupied())

    def __contains__(self, cell: object) -> bool:
        return isinstance(cell, tuple) and len(cell) == 2

    def neighbours(self, cell: tuple[int, int]) -> tuple[Hex, ...]:
        """The six adjacent hexes in ring order."""
        q, r = cell
        return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Hex distance."""
        return Hex(*a).distance(b)

    def bounds(self) -> tuple[int, int, int, int] | None:
        """(min q, max q, min r, max r) of the occupied hexes, or None when empty."""
        occ = list(self.occupied())
        if not occ:
            return None
        qs = [c[0] for c in occ]
        rs = [c[1] for c in occ]
        return min(qs), max(qs), min(rs), max(rs)
