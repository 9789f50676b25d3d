"""Square boards with orthogonal adjacency and an optional shape mask (a cross, a ring...)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

#: Orthogonal steps (row, col): up, right, down, left.
ORTHOGONAL: tuple[tuple[int, int], ...] = ((-1, 0), (0, 1), (1, 0), (0, -1))

Square = tuple[int, int]


class SquareBoard:
    """The squares ``(row, col)`` of a rows x cols grid that the mask keeps, row-major.

    Precomputed per square index: ``neighbour_index`` (orthogonal neighbours) and
    ``ray_index[i][d]`` (the squares from ``i`` outward in direction ``d`` of
    :data:`ORTHOGONAL`, nearest first, stopping at the edge or a removed square).
    """

    def __init__(self, rows: int, cols: int, cells: Iterable[Square] | None = None):
        if rows < 1 or cols < 1:
            raise ValueError("a square board needs at least one row and one column")
        self.rows = rows
        self.cols = cols
        if cells is None:
            keep = [(r, c) for r in range(rows) for c in range(cols)]
        else:
            wanted = {tuple(c) for c in cells}
            for r, c in wanted:
                if not (0 <= r < rows and 0 <= c < cols):
                    raise ValueError(f"square {(r, c)} is outside a {rows}x{cols} grid")
            keep = [(r, c) for r in range(rows) for c in range(cols) if (r, c) in wanted]
        self._cells: tuple[Square, ...] = tuple(keep)
        self.index: dict[Square, int] = {sq: i for i, sq in enumerate(self._cells)}
        rays = []
        for r, c in self._cells:
            per_dir = []
            for dr, dc in ORTHOGONAL:
                ray = []
                rr, cc = r + dr, c + dc
                while (rr, cc) in self.index:
                    ray.append(self.index[(rr, cc)])
                    rr, cc = rr + dr, cc + dc
                per_dir.append(tuple(ray))
            rays.append(tuple(per_dir))
        self.ray_index: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        self.neighbour_index: tuple[tuple[int, ...], ...] = tuple(
            tuple(ray[0] for ray in per_dir if ray) for per_dir in rays
        )

    @property
    def cells(self) -> Sequence[Square]:
        """Squares in row-major order."""
        return self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __contains__(self, cell: object) -> bool:
        return cell in self.index

    def neighbours(self, cell: Square) -> tuple[Square, ...]:
        """Orthogonally adjacent squares on the board."""
        return tuple(self._cells[j] for j in self.neighbour_index[self.index[cell]])

    def distance(self, a: Square, b: Square) -> int:
        """Orthogonal (Manhattan) distance."""
        return abs(a[0] - b[0]) + abs(a[1] - b[1])

    def ray(self, cell: Square, direction: int) -> tuple[Square, ...]:
        """Squares from ``cell`` outward in one direction of ORTHOGONAL, nearest first."""
        return tuple(self._cells[j] for j in self.ray_index[self.index[cell]][direction])
