"""Hex geometry and bit tables shared by HexAround's engine, rules and generators.

Hexes are ints (``x * STRIDE + y``) so that a neighbour is one addition; the six offsets
follow :data:`hexkit.geometry.hexes.DIRECTIONS`. Per hex the engine keeps a 6-bit mask of its
occupied neighbours; the tables here turn the slide rule, continuity and surrounding into
look-ups on that mask.
"""

from __future__ import annotations

from itertools import compress

SHIFT = 34
STRIDE = 1 << SHIFT
_HALF = 1 << (SHIFT - 1)
#: Coordinates are 32-bit integers, as in the course's API.
COORD_LIMIT = (1 << 31) - 1

#: Neighbour offsets in ring order (0,+1) (+1,0) (+1,-1) (0,-1) (-1,0) (-1,+1).
OFFSETS: tuple[int, ...] = (1, STRIDE, STRIDE - 1, -1, -STRIDE, -STRIDE + 1)
#: Per direction: (offset, gate offset 1, gate offset 2); the gate hexes border both ends.
STEPS: tuple[tuple[int, int, int], ...] = tuple(
    (OFFSETS[d], OFFSETS[(d - 1) % 6], OFFSETS[(d + 1) % 6]) for d in range(6)
)


def _step_tables() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Per 6-bit mask of occupied neighbours: the offsets of allowed slides to empty and to
    occupied neighbours (the gate of direction d is d-1 and d+1), of occupied neighbours,
    and the number of separate runs of occupied neighbours around the ring."""
    free, onto, near = [], [], []
    for mask in range(64):
        f, o, n = [], [], []
        for d in range(6):
            gate_shut = mask >> ((d - 1) % 6) & 1 and mask >> ((d + 1) % 6) & 1
            if mask >> d & 1:
                n.append(OFFSETS[d])
                if not gate_shut:
                    o.append(OFFSETS[d])
            elif not gate_shut:
                f.append(OFFSETS[d])
        free.append(tuple(f))
        onto.append(tuple(o))
        near.append(tuple(n))
    return tuple(free), tuple(onto), tuple(near)


#: FREE_STEPS[mask]: offsets of slides into empty neighbours; ONTO_STEPS[mask]: into
#: occupied ones; NEAR[mask]: offsets of the occupied neighbours.
FREE_STEPS, ONTO_STEPS, NEAR = _step_tables()
#: Bit that hex ``h + OFFSETS[d]`` sets in the mask of ``h``... seen from the other side:
#: occupying hex k sets, in neighbour k + OFFSETS[d], the bit of direction (d + 3) % 6.
BACK_BITS: tuple[tuple[int, int], ...] = tuple((OFFSETS[d], 1 << ((d + 3) % 6))
                                               for d in range(6))


def _gate_opens() -> tuple[tuple[bool, ...], ...]:
    table = []
    for mask in range(64):
        row = []
        for d in range(6):
            # Emptying neighbour d opens the gate of the steps d-1 or d+1 if it was shut.
            shut = [mask >> ((e - 1) % 6) & 1 and mask >> ((e + 1) % 6) & 1
                    for e in ((d - 1) % 6, (d + 1) % 6)]
            row.append(bool(mask >> d & 1) and any(shut))
        table.append(tuple(row))
    return tuple(table)


#: GATE_OPENS[mask][d]: emptying occupied neighbour d changes the other allowed slides.
GATE_OPENS = _gate_opens()
#: Number of occupied neighbours per mask.
POPCOUNT: tuple[int, ...] = tuple(bin(m).count("1") for m in range(64))


def _runs(mask: int) -> int:
    if mask == 63:
        return 1
    return sum(1 for d in range(6) if mask >> d & 1 and not mask >> ((d - 1) % 6) & 1)


#: Separate groups of occupied neighbours around the ring: a hex whose occupied neighbours
#: form one group can never split the colony, whatever lies further away.
RUNS: tuple[int, ...] = tuple(_runs(m) for m in range(64))

# Property bits.
WALK, RUN, FLY, JUMP = 1, 2, 4, 8
INTRUDE, TRAP, SWAP, KAMIKAZE, HATCH, QUEEN = 16, 32, 64, 128, 256, 512
BITS = {
    "WALKING": WALK, "RUNNING": RUN, "FLYING": FLY, "JUMPING": JUMP, "INTRUDING": INTRUDE,
    "TRAPPING": TRAP, "SWAPPING": SWAP, "KAMIKAZE": KAMIKAZE, "HATCHING": HATCH,
    "QUEEN": QUEEN,
}


def key_of(x: int, y: int) -> int:
    """The int key of hex (x, y)."""
    return x * STRIDE + y


def coords_of(key: int) -> tuple[int, int]:
    """The (x, y) of an int key."""
    x = (key + _HALF) >> SHIFT
    return x, key - x * STRIDE


def in_range(x: int, y: int) -> bool:
    """True if both coordinates are 32-bit integers."""
    return -COORD_LIMIT <= x <= COORD_LIMIT and -COORD_LIMIT <= y <= COORD_LIMIT


def hex_distance(a: int, b: int) -> int:
    """Distance between two keys."""
    dx, dy = coords_of(b - a)
    return max(abs(dx), abs(dy), abs(dx + dy))


def fmt(key: int) -> str:
    """``(x, y)`` text of a key."""
    x, y = coords_of(key)
    return f"({x}, {y})"


_DISCS: dict[int, tuple[int, ...]] = {}


def disc_offsets(radius: int) -> tuple[int, ...]:
    """Offsets of every hex at distance 1..radius, nearest first (cached for small radii)."""
    cached = _DISCS.get(radius)
    if cached is not None:
        return cached
    out = []
    for k in range(1, radius + 1):
        # Ring k, walked side by side from direction 4 scaled.
        h = OFFSETS[4] * k
        for side in range(6):
            for _ in range(k):
                out.append(h)
                h += OFFSETS[side]
    result = tuple(out)
    if radius <= 64:
        _DISCS[radius] = result
    return result


_RAYS: dict[int, tuple[int, ...]] = {}


def ray_offsets(length: int) -> tuple[int, ...]:
    """Offsets of the hexes 1..length steps away in each of the six directions."""
    got = _RAYS.get(length)
    if got is None:
        got = tuple(o * k for o in OFFSETS for k in range(1, length + 1))
        if length <= 64:
            _RAYS[length] = got
    return got


_BIT_TABLE = bytes.maketrans(b"01", b"\x00\x01")


def bits_to_keys(bits: int, keys: list[int]) -> list[int]:
    """The keys whose bit positions are set in ``bits``, lowest bit first."""
    return list(compress(keys, bin(bits)[:1:-1].encode().translate(_BIT_TABLE)))
