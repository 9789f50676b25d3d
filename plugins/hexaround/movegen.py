"""HexAround's move generators, one shape: ``moves(position, player)`` lists the moves of the
player's creatures with built-in categories, in the engine's order (hexes ascending, per
hex top down, destinations ascending), or answers None to leave the position to the Python
generator.

:class:`CompiledGenerator` wraps the C generator (``hexaround._movegen``) where it is built;
:class:`PythonGenerator` is its Python twin (link tables kept across positions, cut-vertex
shortcuts for the one-colony rule). Both serve HexAround's own reading of the built-in
categories; they are checked against the plain rules of :mod:`hexaround.rules` (same moves,
same order) by the tests and by ``benchmarks/hexaround_movegen.py``.
``HEXAROUND_PURE_PYTHON=1`` switches the compiled generators (HexAround's and Hive's) off.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from functools import partial
from typing import Any, Protocol

from hexaround import rules as plain
from hexaround.colony import Analysis
from hexaround.hexgrid import (
    BACK_BITS,
    FLY,
    FREE_STEPS,
    GATE_OPENS,
    INTRUDE,
    JUMP,
    KAMIKAZE,
    NEAR,
    OFFSETS,
    ONTO_STEPS,
    POPCOUNT,
    RUN,
    RUNS,
    SWAP,
    TRAP,
    WALK,
    bits_to_keys,
    coords_of,
    disc_offsets,
    hex_distance,
    in_range,
    ray_offsets,
)
from hexaround.position import END_ATTACK, END_NONE, END_STACK, END_SWAP, Action, Position
from hexaround.rules import walk as plain_walk

try:
    _movegen: Any = importlib.import_module("hexaround._movegen")
except ImportError:  # built without a C compiler: the Python generator does the work
    _movegen = None

#: Set HEXAROUND_PURE_PYTHON=1 to use the Python generators even when the C ones are built.
PURE_PYTHON_ENV = "HEXAROUND_PURE_PYTHON"


def compiled_generators_enabled() -> bool:
    """False when ``HEXAROUND_PURE_PYTHON`` switches every compiled generator off."""
    return not os.environ.get(PURE_PYTHON_ENV)


def native_generator_available() -> bool:
    """True if HexAround's compiled move generator is built and not switched off."""
    return _movegen is not None and compiled_generators_enabled()


class MoveGenerator(Protocol):
    """What an engine asks of its generator (HexAround's and Hive's have this shape)."""

    def moves(self, position: Any, player: int) -> list[Action] | None:
        """The moves of ``player``'s creatures in ``position``, or None: the Python
        generator takes this position."""


class CompiledGenerator:
    """The C generator for one configuration (it keeps no position between calls, so one
    serves every copy of an engine; it is rebuilt, never pickled)."""

    __slots__ = ("native",)

    def __init__(self, native: Any) -> None:
        #: The ``hexaround._movegen.Generator`` object.
        self.native = native

    def moves(self, position: Position, player: int) -> list[Action] | None:
        """The compiled generator's list; None for a lone creature or far coordinates."""
        return self.native.moves(position.stacks, player)

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a compiled generator is rebuilt from its configuration, not copied")


def compiled_generator(position: Position) -> CompiledGenerator | None:
    """The compiled generator for this position's configuration, or None. It serves the
    built-in categories under HexAround's reading of the rules; a creature whose category
    is an extension's has no category bit, so the compiled generator skips it."""
    if not (native_generator_available() and position.fast_rules):
        return None
    flags = position.code_flags
    if position.pin_any:
        flags = tuple(f | TRAP for f in flags)
    return CompiledGenerator(_movegen.Generator(
        flags, [min(position.kind_dist[c >> 1], 1 << 20) for c in range(len(flags))],
        position.code_end, min(position.stack_limit, 1 << 30), position.butterfly,
        position.rules.kamikaze_survives))


def mover_moves(position: Position, player: int, first_only: bool,
                find: Callable[[int, int], list[int]]) -> list[Action]:
    """The moves of the player's creatures with built-in categories, ``find(src, code)``
    giving each one's destinations (kept per position in the position's caches, sorted, so
    the list is the same whichever search made it). ``first_only``: any one move, trying
    the creatures that are cheapest to search first."""
    out: list[Action] = []
    cache = position.cache
    movers = cache.movers.get(player)
    if movers is None:
        movers = cache.movers[player] = position.movers(player)
    dests_of = cache.dests
    if first_only:
        cost = position.code_cost
        movers = sorted(movers, key=lambda m: cost[m[1]])
    search = position.code_search
    for src, code in movers:
        if search[code] is not None:
            continue  # an extension category (the engine's business)
        kind = code >> 1
        dests = dests_of.get((src, code))
        if dests is None:
            dests = dests_of[(src, code)] = sorted(find(src, code))
        if dests:
            if first_only:
                out.append((kind, src, dests[0]))
                return out
            out.extend([(kind, src, d) for d in dests])
    return out


class PythonGenerator:
    """The Python twin of the compiled generator (HexAround's reading of the built-in
    categories). It keeps nothing itself: its link tables live in the position's caches."""

    __slots__ = ()

    def moves(self, position: Position, player: int) -> list[Action]:
        """Built-in category moves (see :func:`mover_moves`)."""
        return mover_moves(position, player, False, partial(self.destinations, position))

    def destinations(self, pos: Position, src: int, code: int) -> list[int]:
        """Every hex the creature ``code`` at ``src`` may legally move to (all rules)."""
        flags = pos.code_flags[code]
        m = pos.kind_dist[code >> 1]
        end = pos.code_end[code]
        lifted = len(pos.stacks[src]) == 1
        nmask = pos.nmask
        occ = pos.occ
        # A hex whose occupied neighbours form one group never cuts the colony.
        cut = lifted and RUNS[nmask.get(src, 0)] > 1 and pos.analysis().is_cut(src)
        destroy = flags & KAMIKAZE and not pos.rules.kamikaze_survives
        n_occ = len(occ) - lifted
        # Position-wide tables first, while src is still on the board.
        if flags & (FLY | JUMP):
            cached = pos.cache.landings.get(end)
            landing = cached if cached is not None else self._landing(pos, end)
            if n_occ and not cut and not destroy:
                # The colony stays one group whatever the landing hex, so the working board
                # is not needed: only the empty neighbours that touch the colony through
                # src alone are lost when it is lifted.
                dead = [src + o for o, bit in BACK_BITS
                        if nmask[src + o] == bit and src + o not in occ] if lifted else []
                if flags & FLY:
                    raw = self._fly_fast(pos, src, m, landing, dead, n_occ)
                else:
                    raw = self._jump_fast(pos, src, m, landing, dead, n_occ)
                if pos.far:
                    raw = [d for d in raw if in_range(*coords_of(d))]
                return raw
        elif n_occ and not cut and not destroy and not (flags & RUN and m > 6):
            # As above; the path search takes the lift of src into account by itself.
            raw = self._paths(pos, src, m, bool(flags & INTRUDE), end, bool(flags & RUN), lifted)
            if pos.far:
                raw = [d for d in raw if in_range(*coords_of(d))]
            return raw
        dead = []
        if lifted:
            # Lift src (as _lift), noting the empty neighbours left without contact.
            occ.discard(src)
            for o, bit in BACK_BITS:
                n = src + o
                mk = nmask[n] ^ bit
                nmask[n] = mk
                if not mk and n not in occ:
                    dead.append(n)
        try:
            if not occ:
                raw = plain.reachable(pos, src, code)  # the only creature on the board
            elif flags & (WALK | RUN):
                raw = self._paths(pos, src, m, bool(flags & INTRUDE), end, bool(flags & RUN),
                                  lifted)
            elif flags & FLY:
                raw = self._fly_fast(pos, src, m, landing, dead, len(occ))
            else:
                raw = self._jump_fast(pos, src, m, landing, dead, len(occ))
            if pos.far:
                raw = [d for d in raw if in_range(*coords_of(d))]
            if not raw:
                return raw
            if not cut and not destroy:
                # Lifting a non-cut src (or leaving others on it) keeps one colony.
                return raw
            return self.keep_connected(pos, src, code, lifted, cut, raw)
        finally:
            if lifted:
                occ.add(src)
                for o, bit in BACK_BITS:
                    nmask[src + o] ^= bit

    def _landing(self, pos: Position, end: int) -> set[int]:
        """Hexes a flyer or jumper with this end mode may land on (for this position, on the
        full board): empty hexes touching the colony and the occupied ones it may end on."""
        got = pos.cache.landings.get(end)
        if got is None:
            if end == END_NONE:
                got = pos.frontier
            elif end == END_ATTACK:
                got = pos.frontier | pos.occ
            else:
                got = set(pos.frontier)
                stacks = pos.stacks
                if end == END_STACK:
                    limit = pos.stack_limit
                    got.update(k for k in pos.occ if len(stacks[k]) < limit)
                else:
                    b = pos.butterfly
                    got.update(k for k in pos.occ if stacks[k][-1] >> 1 != b)
            pos.cache.landings[end] = got
        return got

    def _fly_fast(self, pos: Position, src: int, m: int, landing: set[int], dead: list[int],
                  n_occ: int) -> list[int]:
        """Flyer destinations; ``dead``: empty neighbours of src without contact once it is
        lifted; ``n_occ``: occupied hexes on the working board."""
        if pos.nmask.get(src, 0) == 63:
            return []
        m = min(m, n_occ + 1)
        offs = disc_offsets(m)
        if len(offs) > 4 * len(landing):
            res = {d for d in landing if 1 <= hex_distance(src, d) <= m}
        else:
            res = landing.intersection(map(src.__add__, offs))
        res.discard(src)
        for n in dead:
            res.discard(n)
        # The intersection adds hexes in disc order, so its order depends only on the
        # position (no sort needed for a reproducible move list).
        return list(res)

    def _jump_fast(self, pos: Position, src: int, m: int, landing: set[int], dead: list[int],
                   n_occ: int) -> list[int]:
        m = min(m, n_occ + 1)
        res = landing.intersection(map(src.__add__, ray_offsets(m)))
        for n in dead:
            res.discard(n)
        return list(res)

    def _node_bit(self, pos: Position, key: int) -> int:
        """A bit of its own for a hex (for path bitsets); kept across positions."""
        bit = pos.cache.nodes.get(key)
        if bit is None:
            bit = pos.cache.nodes[key] = 1 << len(pos.cache.node_keys)
            pos.cache.node_keys.append(key)
        return bit

    def _paths(self, pos: Position, src: int, m: int, intruding: bool, end: int, run: bool,
               lifted: bool) -> list[int]:
        """Walker (up to m steps) or runner (a simple path of exactly m steps) destinations,
        with src lifted when ``lifted`` (whether or not it is already off the board), or
        still occupied by others.

        Per hex, a link table holds the (hex, bit) pairs one slide on that a path may pass
        through and the bitset of those it may end on, as on the full board; one table per
        kind of mover, kept across positions (apply/undo drop the entries near a change).
        Lifting src changes only the links of src's neighbours, which are computed on the
        working board and put in the table for this search only; neighbours of src left
        without contact with the colony are "dead" (never entered)."""
        nmask = pos.nmask
        free, onto = FREE_STEPS, ONTO_STEPS
        if run and m > 6 and len(plain_walk(pos, src, m, intruding, END_ATTACK)) < m:
            # A simple path of m steps needs m hexes besides src.
            return []
        key = (intruding, end)
        shared = pos.cache.links.get(key)
        if shared is None:
            shared = pos.cache.links[key] = {}
            pos.cache.lifted_links[key] = {}
        lifted_links = pos.cache.lifted_links[key]
        nodes = pos.cache.nodes
        bit_of = partial(self._node_bit, pos)
        stacks = pos.stacks
        limit = pos.stack_limit
        butterfly = pos.butterfly

        def links(a: int, mk: int) -> tuple[tuple[tuple[int, int], ...], int]:
            # Targets that lose contact when src is lifted are masked out by the caller.
            passes = [(b, nodes.get(b) or bit_of(b))
                      for b in [a + o for o in free[mk]] if b in nmask]
            ends = 0
            for _, bit in passes:
                ends |= bit
            if end or intruding:
                for o in onto[mk]:
                    b = a + o
                    bit = nodes.get(b) or bit_of(b)
                    if intruding:
                        passes.append((b, bit))
                    if end == END_STACK:
                        if len(stacks[b]) < limit:
                            ends |= bit
                    elif end == END_SWAP:
                        if stacks[b][-1] >> 1 != butterfly:
                            ends |= bit
                    elif end:
                        ends |= bit
            return (tuple(passes), ends)

        # Masks of src's neighbours as on the full board, for their shared entries.
        full_masks: dict[int, int] = {}

        def store(a: int) -> tuple[Any, ...]:
            mk = full_masks.get(a)
            if mk is None:
                mk = nmask.get(a, 0)
            got = shared[a] = (*links(a, mk), mk)
            return got

        start = nodes.get(src) or bit_of(src)
        saved: list[tuple[int, Any]] = []
        if lifted:
            # Lifting src changes the masks of its neighbours only: where that opens a gate
            # their links differ for this search; a neighbour left without contact with the
            # colony is never entered. (src may or may not be lifted off the board yet.)
            occ = pos.occ
            for d, (o, back) in enumerate(BACK_BITS):
                n = src + o
                full = nmask.get(n, 0) | back
                mk = full ^ back
                if not mk and n not in occ:
                    start |= nodes.get(n) or bit_of(n)
                    continue
                if GATE_OPENS[full][(d + 3) % 6]:
                    saved.append((n, shared.get(n)))
                    variants = lifted_links.get(n)
                    if variants is None:
                        variants = lifted_links[n] = {}
                    got = variants.get(mk)
                    if got is None:
                        got = variants[mk] = (*links(n, mk), full)
                    shared[n] = got
                elif n not in shared:
                    full_masks[n] = full
        found = 0
        try:
            if not run:
                seen = start
                layer = [src]
                # Layers 0 .. m-2 are expanded; the last one only contributes its ends.
                for _ in range(m - 1):
                    nxt = []
                    for a in layer:
                        got = shared.get(a) or store(a)
                        found |= got[1]
                        for b, bit in got[0]:
                            if not seen & bit:
                                seen |= bit
                                nxt.append(b)
                    if not nxt:
                        break
                    layer = nxt
                else:
                    for a in layer:
                        found |= (shared.get(a) or store(a))[1]
                found &= ~start
            elif m == 1:
                found = (shared.get(src) or store(src))[1] & ~start
            else:
                def extend(a: int, left: int, seen: int) -> None:
                    nonlocal found
                    passes = (shared.get(a) or store(a))[0]
                    if left == 2:
                        for b, bit in passes:
                            if not seen & bit:
                                found |= (shared.get(b) or store(b))[1] \
                                    & ~seen
                        return
                    if left == 3:
                        for b, bit in passes:
                            if not seen & bit:
                                sb = seen | bit
                                for c, cbit in (shared.get(b) or store(b))[0]:
                                    if not sb & cbit:
                                        found |= (shared.get(c) or store(c))[1] & ~sb
                        return
                    left -= 1
                    for b, bit in passes:
                        if not seen & bit:
                            extend(b, left, seen | bit)

                extend(src, m, start)
        finally:
            for n, old in saved:
                if old is None:
                    del shared[n]
                else:
                    shared[n] = old
        return bits_to_keys(found, pos.cache.node_keys)

    def keep_connected(self, pos: Position, src: int, code: int, lifted: bool, cut: bool,
                   cands: list[int]) -> list[int]:
        """Keep the candidates after which the colony is one group (spec §6).

        Called on the working board (src lifted when ``lifted``)."""
        occ = pos.occ
        stacks = pos.stacks
        flags = pos.code_flags[code]
        attack = bool(flags & KAMIKAZE)
        destroy = attack and not pos.rules.kamikaze_survives
        if not lifted:
            if not destroy:
                return cands
            # src stays occupied: only a target emptied by the attack leaves the board.
            an = pos.analysis()
            return [d for d in cands
                    if not (d in occ and len(stacks[d]) == 1 and an.is_cut(d))]
        if not cut:
            if not destroy:
                return cands
            out = []
            inner: Analysis | None = None
            for d in cands:
                if d in occ and len(stacks[d]) == 1:
                    # Both src and d leave the board: d must not cut what remains.
                    if inner is None:
                        inner = Analysis(occ, pos.nmask)
                    if inner.is_cut(d):
                        continue
                out.append(d)
            return out
        an = pos.analysis()
        parts = an.parts(src)
        intervals = an.sep[src]
        disc = an.disc
        nmask = pos.nmask
        swap = bool(flags & SWAP) and not attack
        # The usual case: one separated subtree and the rest of the colony.
        two = parts == 2 and len(intervals) == 1
        lo, hi = intervals[0]
        if two and hi - lo < 4:
            # A small separated part: the hexes that could rejoin it are few, find them.
            part = an.order[lo:hi + 1]
            bridges = set()
            for h in part:
                for o in OFFSETS:
                    e = h + o
                    if e not in occ and e != src and e not in bridges:
                        for q in NEAR[nmask.get(e, 0)]:
                            if not lo <= disc[e + q] <= hi:
                                bridges.add(e)
                                break
            out = []
            for d in cands:
                if d in occ:
                    if swap or (destroy and len(stacks[d]) == 1
                                and an.part_size(src, an.part_of(src, d)) == 1):
                        out.append(d)
                elif d in bridges:
                    out.append(d)
            return out
        out = []
        for d in cands:
            if d in occ:
                if swap:
                    out.append(d)
                elif destroy and len(stacks[d]) == 1:
                    if parts == 2 and an.part_size(src, an.part_of(src, d)) == 1:
                        out.append(d)
                continue
            mk = nmask.get(d, 0)
            if POPCOUNT[mk] < parts:
                continue
            if two:
                inside = outside = False
                for o in NEAR[mk]:
                    if lo <= disc[d + o] <= hi:
                        inside = True
                    else:
                        outside = True
                if inside and outside:
                    out.append(d)
            elif len({an.part_of(src, d + o) for o in NEAR[mk]}) == parts:
                out.append(d)
        return out
