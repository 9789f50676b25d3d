"""The movement rules of HexAround, stated once as plain searches.

Each function reads like the rules document (spec §6-§8): a slide is a step that the gate
and contact rules allow; WALKING takes up to m slides, RUNNING a simple path of exactly m,
FLYING any hex within m unless surrounded, JUMPING in a straight line. The rule options of
the configuration change them in the documented places (``slide_rule``,
``gates_count_heights``, ``jump_landing``, ``stack_limit``), which is how Hive reads the
same words. Every search runs on the *working board*: the mover is lifted off its hex
(``engine.stacks``, ``engine.occ`` and ``engine.nmask`` do not show it) and returns the hexes
it may end on before the one-colony rule, which the engine applies afterwards.

The engine's fast generators (the compiled one and its Python twin) are checked against
these searches; refusal reasons for single requests come from them too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from hexaround.hexgrid import FLY, INTRUDE, JUMP, OFFSETS, RUN, WALK, disc_offsets, hex_distance

if TYPE_CHECKING:
    from hexaround.position import Position

# How a mover may end on an occupied hex (spec §8.6).
END_NONE, END_ATTACK, END_SWAP, END_STACK = 0, 1, 2, 3


def step_allowed(e: Position, a: int, b: int, d: int) -> bool:
    """May a creature on ``a`` step to its neighbour ``b`` (direction ``d``)?

    HexAround (spec §6): blocked iff both gate hexes are occupied; an empty ``b`` must touch
    the colony. ``slide_rule: one_gate`` (Hive): into an empty hex only when exactly one
    gate hex is occupied. ``gates_count_heights`` (Hive's step at height): blocked iff both
    gate stacks are higher than the source (without the mover) and the destination stack,
    and a step with nothing under, at or beside it has no contact."""
    g1 = a + OFFSETS[d - 1]
    g2 = a + OFFSETS[(d + 1) % 6]
    if e.heights:
        stacks = e.stacks
        hs, hd = len(stacks.get(a, ())), len(stacks.get(b, ()))
        h1, h2 = len(stacks.get(g1, ())), len(stacks.get(g2, ()))
        top = hs if hs > hd else hd
        if (h1 if h1 < h2 else h2) > top:
            return False
        if top:
            return True
        if not (h1 or h2):
            return False
        return True if e.one_gate else bool(e.nmask.get(b))
    occ = e.occ
    o1, o2 = g1 in occ, g2 in occ
    if o1 and o2:
        return False
    if b in occ:
        return True
    if e.one_gate:
        return o1 or o2
    return bool(e.nmask.get(b))


def end_allowed(e: Position, dst: int, end: int) -> bool:
    """May a mover with end mode ``end`` finish on the occupied hex ``dst`` (spec §8.6)?"""
    if end == END_ATTACK:
        return True
    stack = e.stacks[dst]
    if end == END_SWAP:
        return stack[-1] >> 1 != e.butterfly
    if end == END_STACK:
        return len(stack) < e.stack_limit
    return False


def walk(e: Position, src: int, m: int, intruding: bool, end: int) -> list[int]:
    """WALKING: the hexes reached by 1..m allowed steps; intermediate hexes empty unless the
    walker is INTRUDING; an occupied end needs an attribute that allows it."""
    occ = e.occ
    seen = {src}
    res = []
    layer = [src]
    for _ in range(m):
        nxt = []
        for a in layer:
            for d in range(6):
                b = a + OFFSETS[d]
                if b in seen or not step_allowed(e, a, b, d):
                    continue
                seen.add(b)
                if b not in occ:
                    res.append(b)
                    nxt.append(b)
                    continue
                if end and end_allowed(e, b, end):
                    res.append(b)
                if intruding:
                    nxt.append(b)
        if not nxt:
            break
        layer = nxt
    return res


def run(e: Position, src: int, m: int, intruding: bool, end: int) -> list[int]:
    """RUNNING: the ends of the simple paths of exactly m allowed steps (start visited)."""
    occ = e.occ
    if m > 6 and len(walk(e, src, m, intruding, END_ATTACK)) < m:
        return []  # a simple path of m steps needs m hexes besides the start
    found: dict[int, None] = {}
    visited = {src}

    def extend(a: int, left: int) -> None:
        for d in range(6):
            b = a + OFFSETS[d]
            if b in visited or not step_allowed(e, a, b, d):
                continue
            if b in occ:
                if left == 1:
                    if end and end_allowed(e, b, end):
                        found[b] = None
                    continue
                if not intruding:
                    continue
            elif left == 1:
                found[b] = None
                continue
            visited.add(b)
            extend(b, left - 1)
            visited.discard(b)

    extend(src, m)
    return list(found)


def fly(e: Position, src: int, m: int, end: int) -> list[int]:
    """FLYING: not when surrounded; any hex within m that touches the colony, or an
    occupied one the mover may end on."""
    occ = e.occ
    nmask = e.nmask
    if nmask.get(src, 0) == 63:
        return []
    if not occ:
        # The only creature on the board: every hex in range keeps one colony.
        return [src + o for o in disc_offsets(m)]
    m = min(m, len(occ) + 1)
    offs = disc_offsets(m)
    cands: Iterable[int]
    if len(offs) > 4 * len(nmask):
        cands = sorted(k for k in nmask if k != src and 1 <= hex_distance(src, k) <= m)
    else:
        cands = [src + o for o in offs]
    res = []
    for d in cands:
        if d in occ:
            if end and end_allowed(e, d, end):
                res.append(d)
        elif nmask.get(d):
            res.append(d)
    return res


def jump(e: Position, src: int, m: int, end: int) -> list[int]:
    """JUMPING: in one of the six straight lines, within m. ``jump_landing: in_line``: any
    hex touching the colony (or an occupied one it may end on); ``over_pieces`` (Hive's
    grasshopper): over at least one creature onto the first empty hex."""
    occ = e.occ
    res = []
    if e.jump_over:
        for o in OFFSETS:
            d = src + o
            if d not in occ:
                continue
            k = 1
            while d in occ and k <= m:
                d += o
                k += 1
            if k <= m and d not in occ:
                res.append(d)
        return res
    nmask = e.nmask
    lone = not occ
    if not lone:
        m = min(m, len(occ) + 1)
    for o in OFFSETS:
        d = src
        for _ in range(m):
            d += o
            if d in occ:
                if end and end_allowed(e, d, end):
                    res.append(d)
            elif lone or nmask.get(d):
                res.append(d)
    return res


def reachable(e: Position, src: int, code: int) -> list[int]:
    """The hexes the built-in category of creature ``code`` reaches from ``src`` on the
    working board, before the one-colony rule."""
    flags = e.code_flags[code]
    m = e.kind_dist[code >> 1]
    end = e.code_end[code]
    if flags & WALK:
        return walk(e, src, m, bool(flags & INTRUDE), end)
    if flags & RUN:
        return run(e, src, m, bool(flags & INTRUDE), end)
    if flags & FLY:
        return fly(e, src, m, end)
    if flags & JUMP:
        return jump(e, src, m, end)
    return []
