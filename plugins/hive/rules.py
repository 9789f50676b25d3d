"""How each Hive bug moves (spec hive.md §3-§4), stated once over HexAround's board tables.

Each search reads a HexAround engine's working board with the mover already lifted off
(``stacks``: hex -> pieces bottom first; ``occ``: occupied hexes; ``nmask``: per hex the
6-bit mask of its occupied neighbours), as HexAround's extension abilities are called. The
one-hive rule during the move (a piece the hive needs never gets here), the frozen piece
and the rest of a turn's rules are the generator's business.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hexaround.hexgrid import OFFSETS

# Bug types.
QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT, MOSQUITO, LADYBUG, PILLBUG = range(8)

#: Per direction d: the offset and the offsets of the two hexes next to both ends.
SIDES: tuple[tuple[int, int, int], ...] = tuple(
    (OFFSETS[d], OFFSETS[(d - 1) % 6], OFFSETS[(d + 1) % 6]) for d in range(6))


def _slide_table() -> tuple[tuple[int, ...], ...]:
    table = []
    for mask in range(64):
        row = []
        for d in range(6):
            if mask >> d & 1:
                continue
            if (mask >> ((d - 1) % 6) & 1) != (mask >> ((d + 1) % 6) & 1):
                row.append(OFFSETS[d])
        table.append(tuple(row))
    return tuple(table)


#: SLIDES[mask]: offsets of the ground slides from a hex whose occupied neighbours are
#: ``mask`` (mover lifted): into an empty neighbour with exactly one of the two hexes beside
#: the gap occupied (both: a closed gate; neither: the piece would leave the hive).
SLIDES = _slide_table()


def slides(board: Any, src: int) -> list[int]:
    """One ground slide (Queen Bee, Pillbug)."""
    return [src + o for o in SLIDES[board.nmask.get(src, 0)]]


def ant_reach(board: Any, src: int) -> set[int]:
    """Any number of ground slides (Soldier Ant), not ending on the start."""
    nmask = board.nmask
    table = SLIDES
    seen = {src}
    todo = [src]
    pop, push, add = todo.pop, todo.append, seen.add
    while todo:
        a = pop()
        for o in table[nmask.get(a, 0)]:
            b = a + o
            if b not in seen:
                add(b)
                push(b)
    seen.discard(src)
    return seen


def spider_reach(board: Any, src: int) -> set[int]:
    """Exactly three ground slides, never visiting a hex twice (Spider)."""
    nmask = board.nmask
    table = SLIDES
    found = set()
    for o1 in table[nmask.get(src, 0)]:
        a1 = src + o1
        for o2 in table[nmask.get(a1, 0)]:
            a2 = a1 + o2
            if a2 == src:
                continue
            for o3 in table[nmask.get(a2, 0)]:
                a3 = a2 + o3
                if a3 != a1 and a3 != src:
                    found.add(a3)
    return found


def grasshopper_reach(board: Any, src: int) -> list[int]:
    """A straight jump over at least one piece onto the first empty hex."""
    occ = board.occ
    out = []
    for o in OFFSETS:
        b = src + o
        if b in occ:
            b += o
            while b in occ:
                b += o
            out.append(b)
    return out


def steps(stacks: dict[int, list[int]], src: int, hs: int) -> list[int]:
    """One step at height from src (``hs`` pieces left there under the mover): blocked if
    both hexes beside the gap are higher than both ends; at ground level it needs one of
    them occupied (Beetle, Mosquito on top, Ladybug's steps)."""
    get = stacks.get
    out = []
    for o, gl, gr in SIDES:
        b = src + o
        s = get(b)
        hd = len(s) if s else 0
        s = get(src + gl)
        g1 = len(s) if s else 0
        s = get(src + gr)
        g2 = len(s) if s else 0
        top = hs if hs > hd else hd
        if (g1 if g1 < g2 else g2) > top:
            continue
        if not top and not g1 and not g2:
            continue
        out.append(b)
    return out


def ladybug_reach(stacks: dict[int, list[int]], src: int) -> set[int]:
    """Two steps on top of the hive, then one down into an empty hex other than the start."""
    get = stacks.get
    found = set()
    for b1 in steps(stacks, src, 0):
        s1 = get(b1)
        if not s1:
            continue
        for b2 in steps(stacks, b1, len(s1)):
            s2 = get(b2)
            if not s2:
                continue
            for b3 in steps(stacks, b2, len(s2)):
                if b3 != src and b3 not in stacks:
                    found.add(b3)
    return found


def reach(board: Any, src: int, bug: int) -> Iterable[int]:
    """Destinations of a ground piece moving as ``bug`` from src (lifted off the board).
    The Mosquito's and the Pillbug's abilities are not here (see :func:`throws`)."""
    if bug == ANT:
        return ant_reach(board, src)
    if bug == QUEEN or bug == PILLBUG:
        return slides(board, src)
    if bug == SPIDER:
        return spider_reach(board, src)
    if bug == GRASSHOPPER:
        return grasshopper_reach(board, src)
    if bug == BEETLE:
        return steps(board.stacks, src, 0)
    if bug == LADYBUG:
        return ladybug_reach(board.stacks, src)
    return ()


def throws(stacks: dict[int, list[int]], cuts: Any, h: int,
           frozen: int | None) -> list[tuple[int, int]]:
    """The Pillbug's ability from hex h (the Pillbug, or a Mosquito copying it, alone on
    h): (from, to) pairs lifting an adjacent lone piece, not on hex ``frozen`` and not one
    the hive needs (``cuts``: the cut vertices), up onto h and down into an empty
    neighbour of h. Up (height 0 to 1) and down (1 to 0) are steps at height, blocked by
    two stacks of 2 or more beside the gap."""
    get = stacks.get
    empties = [(o, gl, gr) for o, gl, gr in SIDES if h + o not in stacks]
    out: list[tuple[int, int]] = []
    if not empties:
        return out
    for o, gl, gr in SIDES:
        tgt = h + o
        ts = get(tgt)
        if not ts or len(ts) != 1 or tgt == frozen or tgt in cuts:
            continue
        s1 = get(h + gl)
        s2 = get(h + gr)
        if s1 and s2 and len(s1) > 1 and len(s2) > 1:
            continue
        for eo, el, er in empties:
            a = h + el
            b = h + er
            if a != tgt and b != tgt:
                s1 = get(a)
                s2 = get(b)
                if s1 and s2 and len(s1) > 1 and len(s2) > 1:
                    continue
            out.append((tgt, h + eo))
    return out
