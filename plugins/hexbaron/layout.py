"""Hex Baron's grid geometry: the skeleton's tile order, its (x, y, z) labels and the
neighbour tables.

Tile ``i`` of a grid of even ``size`` lies in row pair ``r = i // size``: first an even row
(x = 0, 2, 4, ...), then an odd row (x = 1, 3, 5, ...) drawn half a hex lower; along a row
y and z fall by one per tile. The label ``(x, y, z)`` is a cube coordinate in Hex Baron's
order, which is Red Blob's ``(q, s, r)``: tile ``(x, y, z)`` is ``Hex(x, z)``, and the
renderers draw it at axial ``(x, z)``.
"""

from __future__ import annotations

from functools import lru_cache

from hexkit.geometry.boards import BoundedHexBoard
from hexkit.geometry.hexes import Hex

Cube = tuple[int, int, int]


def tile_cubes(size: int) -> list[Cube]:
    """The ``(x, y, z)`` label of every tile of a grid of an even ``size`` >= 2, in the
    skeleton's order (linear time; the skeleton's set-up is quadratic)."""
    if size < 2 or size % 2:
        raise ValueError(f"a Hex Baron grid needs an even size of at least 2, got {size}")
    h = size // 2
    cubes = []
    for i in range(2 * h * h):
        r, j = divmod(i, size)
        if j < h:
            cubes.append((2 * j, -r - j, r - j))
        else:
            k = j - h
            cubes.append((2 * k + 1, -1 - r - k, r - k))
    return cubes


def hex_of(cube: Cube) -> Hex:
    """The axial hex of a tile label ``(x, y, z)``: ``Hex(x, z)``."""
    x, y, z = cube
    return Hex.from_cube(x, z, y)


@lru_cache(maxsize=16)
def grid_tables(size: int) -> tuple[tuple[tuple[int, ...], ...], tuple[Cube, ...]]:
    """(neighbours per tile, ascending; ``(x, y, z)`` per tile) of a grid of an even
    ``size`` >= 2, built once per size."""
    cubes = tile_cubes(size)
    board = BoundedHexBoard(hex_of(c) for c in cubes)
    return board.neighbour_index, tuple(cubes)
