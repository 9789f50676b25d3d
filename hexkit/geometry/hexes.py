"""Hex coordinates: one small immutable value type (Red Blob Games' cube/axial conventions).

A :class:`Hex` is axial ``(q, r)`` with the implied third cube coordinate ``s = -q - r``.
The six directions, in ring order, are those of HexAround's course code:
``(0,+1) (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1)``, so HexAround's ``(x, y)`` is ``Hex(x, y)``.
Cube coordinates are Red Blob's ``(q, r, s)``; a game with a labelling of its own converts
it itself (Hex Baron's ``(x, y, z)`` is ``(q, s, r)``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

#: The six axial direction vectors in ring order (each is adjacent to the next).
DIRECTIONS: tuple[tuple[int, int], ...] = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))


class Hex(NamedTuple):
    """A hex cell in axial coordinates. Immutable, hashable, ordered, cheap."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate, ``-q - r``."""
        return -self.q - self.r

    @classmethod
    def from_cube(cls, q: int, r: int, s: int) -> Hex:
        """Build from cube coordinates ``(q, r, s)`` with ``q + r + s == 0``."""
        if q + r + s != 0:
            raise ValueError(f"cube coordinates must sum to 0, got ({q}, {r}, {s})")
        return cls(q, r)

    def cube(self) -> tuple[int, int, int]:
        """Cube coordinates ``(q, r, s)`` (Red Blob's order; inverse of :meth:`from_cube`)."""
        return (self.q, self.r, -self.q - self.r)

    def __add__(self, other: object) -> Hex:
        if not isinstance(other, tuple):
            return NotImplemented
        return Hex(self.q + other[0], self.r + other[1])

    def __sub__(self, other: tuple[int, int]) -> Hex:
        return Hex(self.q - other[0], self.r - other[1])

    def scale(self, k: int) -> Hex:
        """This vector multiplied by ``k``."""
        return Hex(self.q * k, self.r * k)

    def neighbour(self, direction: int) -> Hex:
        """The adjacent hex in direction 0..5 (ring order of :data:`DIRECTIONS`)."""
        dq, dr = DIRECTIONS[direction % 6]
        return Hex(self.q + dq, self.r + dr)

    def neighbours(self) -> tuple[Hex, ...]:
        """The six adjacent hexes in ring order."""
        q, r = self
        return tuple(Hex(q + dq, r + dr) for dq, dr in DIRECTIONS)

    def distance(self, other: tuple[int, int]) -> int:
        """Number of steps between two hexes."""
        dq = self.q - other[0]
        dr = self.r - other[1]
        return max(abs(dq), abs(dr), abs(dq + dr))

    def length(self) -> int:
        """Distance from the origin."""
        return max(abs(self.q), abs(self.r), abs(self.q + self.r))

    def in_line(self, other: tuple[int, int]) -> bool:
        """True if both hexes lie on one straight line of hexes (share q, r or s)."""
        return (
            self.q == other[0]
            or self.r == other[1]
            or self.q + self.r == other[0] + other[1]
        )

    def direction_to(self, other: tuple[int, int]) -> int | None:
        """Direction index of the straight line towards ``other``, or None if not in line."""
        if other == self or not self.in_line(other):
            return None
        n = self.distance(other)
        step = ((other[0] - self.q) // n, (other[1] - self.r) // n)
        return DIRECTIONS.index(step)

    def line_to(self, other: tuple[int, int]) -> list[Hex]:
        """The hexes strictly between two in-line hexes, nearest first.

        Raises ValueError if the hexes are not in line.
        """
        d = self.direction_to(other)
        if d is None:
            if tuple(other) == tuple(self):
                return []
            raise ValueError(f"{self} and {tuple(other)} are not in a straight line")
        n = self.distance(other)
        dq, dr = DIRECTIONS[d]
        return [Hex(self.q + dq * k, self.r + dr * k) for k in range(1, n)]

    def ray(self, direction: int) -> Iterator[Hex]:
        """Hexes from this one outward in one direction (excluding this one), without end."""
        dq, dr = DIRECTIONS[direction % 6]
        q, r = self
        while True:
            q += dq
            r += dr
            yield Hex(q, r)

    def ring(self, radius: int) -> list[Hex]:
        """The hexes at exactly ``radius`` steps, in ring order (just this hex for 0)."""
        if radius < 0:
            raise ValueError("radius must be >= 0")
        if radius == 0:
            return [self]
        results = []
        # Start at direction 4 scaled, then walk each of the six sides.
        h = Hex(self.q + DIRECTIONS[4][0] * radius, self.r + DIRECTIONS[4][1] * radius)
        for side in range(6):
            for _ in range(radius):
                results.append(h)
                h = h.neighbour(side)
        return results

    def spiral(self, radius: int) -> list[Hex]:
        """All hexes within ``radius`` steps, centre first then ring by ring."""
        out: list[Hex] = []
        for k in range(radius + 1):
            out.extend(self.ring(k))
        return out

    def rotate(self, steps: int = 1, centre: tuple[int, int] = (0, 0)) -> Hex:
        """Rotate by ``steps`` sixths of a turn (clockwise in ring order) about ``centre``."""
        q, r = self.q - centre[0], self.r - centre[1]
        s = -q - r
        for _ in range(steps % 6):
            # One step along DIRECTIONS' ring order maps (q, r, s) -> (-s, -q, -r).
            q, r, s = -s, -q, -r
        return Hex(q + centre[0], r + centre[1])

    def __str__(self) -> str:
        return f"({self.q}, {self.r})"

    def __repr__(self) -> str:
        return f"Hex({self.q}, {self.r})"


def common_neighbours(a: tuple[int, int], b: tuple[int, int]) -> tuple[Hex, Hex]:
    """The two hexes adjacent to both of two adjacent hexes (the 'gate' of a step a->b)."""
    d = Hex(*a).direction_to(b)
    if d is None or Hex(*a).distance(b) != 1:
        raise ValueError(f"{tuple(a)} and {tuple(b)} are not adjacent")
    ha = Hex(*a)
    return (ha.neighbour(d - 1), ha.neighbour(d + 1))
