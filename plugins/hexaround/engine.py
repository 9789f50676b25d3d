"""The HexAround rules engine: one position, action checks with reasons, fast legal-action
generation, apply and exact undo.

Hexes are ints (``x * STRIDE + y``) so that a neighbour is one addition; the six offsets
follow :data:`hexkit.hexes.DIRECTIONS`. The engine keeps, incrementally, the stacks, the set
of occupied hexes, per hex a 6-bit mask of its occupied neighbours (``nmask``: continuity,
surrounding and the slide rule become table look-ups, see :data:`FREE_STEPS`) and per player
the number of neighbours of that colour (``cadj``: placement in O(1) per candidate). Per
position it computes once, lazily, the cut vertices of the colony (iterative Tarjan) with the
DFS intervals of the parts they separate, so the one-colony rule costs O(1) per candidate
move instead of a search.

The moves of the creatures on the board come from the compiled generator
(``hexaround._movegen``, the same searches in C) when it is built; the Python searches here
are the reference it is tested against and the fallback (``HEXAROUND_PURE_PYTHON=1``).

An action is a tuple ``(kind, from_key, to_key)``; ``from_key`` is None for a placement.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from itertools import compress
from typing import Any

from hexaround.config import BUTTERFLY, PLAYERS, HexAroundConfig

try:
    from hexaround import _movegen
except ImportError:  # built without a C compiler: the Python generator does the work
    _movegen = None

#: Set HEXAROUND_PURE_PYTHON=1 to use the Python generator even when the C one is built.
PURE_PYTHON_ENV = "HEXAROUND_PURE_PYTHON"


def native_generator_available() -> bool:
    """True if the compiled move generator is built and not switched off."""
    return _movegen is not None and not os.environ.get(PURE_PYTHON_ENV)

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

# How a mover may end on an occupied hex (spec §8.6).
END_NONE, END_ATTACK, END_SWAP, END_STACK = 0, 1, 2, 3

# Results.
ONGOING, BLUE_WON, RED_WON, DRAW = 0, 1, 2, 3


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


class Analysis:
    """Cut vertices of the colony, computed once per position (iterative Tarjan).

    ``disc[h]`` is the DFS discovery number of occupied hex h; ``sep[v]`` lists, for a cut
    vertex v, the DFS intervals (first, last discovery number) of the child subtrees that
    removing v separates; every other hex stays in the part with v's parent.
    """

    __slots__ = ("disc", "sep", "root", "size", "order")

    def __init__(self, occ: set[int] | dict[int, Any], nmask: dict[int, int]):
        disc: dict[int, int] = {}
        sep: dict[int, list[tuple[int, int]]] = {}
        self.disc = disc
        self.sep = sep
        self.root: int | None = None
        self.size = 0
        #: The hexes in discovery order (a separated subtree is a slice of it).
        self.order: list[int] = []
        if not occ:
            return
        root = min(occ)
        self.root = root
        order = self.order
        order.append(root)
        near = NEAR
        low = {root: 0}
        disc[root] = 0
        t = 1
        # Explicit DFS stack of (hex, parent, iterator over its occupied-neighbour offsets).
        stack: list[tuple[int, int | None, Any]] = [(root, None, iter(near[nmask.get(root, 0)]))]
        while stack:
            v, p, it = stack[-1]
            for o in it:
                w = v + o
                dw = disc.get(w)
                if dw is None:
                    if w not in occ:  # only when a hex has been taken out of the board
                        continue
                    disc[w] = low[w] = t
                    t += 1
                    order.append(w)
                    stack.append((w, v, iter(near[nmask.get(w, 0)])))
                    break
                if w != p and dw < low[v]:
                    low[v] = dw
            else:
                stack.pop()
                if p is not None:
                    lv = low[v]
                    if lv < low[p]:
                        low[p] = lv
                    if lv >= disc[p]:
                        s = sep.get(p)
                        if s is None:
                            sep[p] = [(disc[v], t - 1)]
                        else:
                            s.append((disc[v], t - 1))
        rs = sep.get(root)
        if rs is not None and len(rs) < 2:
            del sep[root]
        self.size = t

    def is_cut(self, v: int) -> bool:
        """True if removing hex v splits the colony."""
        return v in self.sep

    def parts(self, v: int) -> int:
        """How many parts the colony falls into without cut vertex v."""
        return len(self.sep[v]) + (0 if v == self.root else 1)

    def part_of(self, v: int, h: int) -> int:
        """Which part hex h is in once cut vertex v is removed (-1: the parent's part)."""
        d = self.disc[h]
        for i, (a, b) in enumerate(self.sep[v]):
            if a <= d <= b:
                return i
        return -1

    def part_size(self, v: int, part: int) -> int:
        """Number of hexes in a part of the colony without v."""
        intervals = self.sep[v]
        if part >= 0:
            a, b = intervals[part]
            return b - a + 1
        return self.size - 1 - sum(b - a + 1 for a, b in intervals)


class Engine:
    """One HexAround position with its history. Seats: 0 = BLUE, 1 = RED.

    Incremental tables: ``stacks`` (hex -> piece codes, bottom first; lists are replaced,
    never changed in place), ``occ`` (occupied hexes), ``nmask`` (hex -> 6-bit mask of its
    occupied neighbours, for every hex that has one) and ``cadj[p]`` (hex -> number of
    neighbours whose top creature is p's).
    """

    def __init__(self, config: HexAroundConfig):
        self.config = config
        rules = config.rules
        self.rules = rules
        self.names: tuple[str, ...] = tuple(c.name for c in config.creatures)
        self.kind_index = {n: i for i, n in enumerate(self.names)}
        self.butterfly = self.kind_index[BUTTERFLY]
        kind_flags = []
        for c in config.creatures:
            bits = 0
            for p in c.effective_properties(rules):
                bits |= BITS[p]
            kind_flags.append(bits)
        self.kind_flags = tuple(kind_flags)
        self.kind_dist = tuple(c.max_distance for c in config.creatures)
        #: Piece code = kind * 2 + owner; these tables are indexed by code.
        self.code_flags = tuple(kind_flags[c >> 1] for c in range(2 * len(kind_flags)))
        self.code_end = tuple(_end_mode(f) for f in self.code_flags)
        self.code_cost = tuple(
            0 if f & (FLY | JUMP) else 1 if f & WALK and self.kind_dist[c >> 1] == 1 else
            2 if f & WALK else 3 for c, f in enumerate(self.code_flags))
        self.stack_limit = rules.stack_limit
        self.max_reach = max(self.kind_dist)
        self._far_threshold = COORD_LIMIT - self.max_reach - 1
        #: The compiled generator for this configuration, or None (see :meth:`_generate`).
        self.native: Any = None
        if native_generator_available():
            self.native = _movegen.Generator(
                self.code_flags, [self.kind_dist[c >> 1] for c in range(len(self.code_flags))],
                self.code_end, rules.stack_limit, self.butterfly, rules.kamikaze_survives)
        self.reset()

    # -- state -------------------------------------------------------------------------
    def reset(self) -> None:
        """The empty board and full hands."""
        self.stacks: dict[int, list[int]] = {}
        self.occ: set[int] = set()
        self.nmask: dict[int, int] = {}
        #: Empty hexes with an occupied neighbour.
        self.frontier: set[int] = set()
        self.cadj: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.hands = [[self.config.stocks[p][n] for n in self.names] for p in PLAYERS]
        self.actions = [0, 0]
        self.bpos: list[int | None] = [None, None]
        self.result = ONGOING
        self.reason = ""
        self.far = 0
        self.history: list[tuple[Any, ...]] = []
        self._analysis: Analysis | None = None
        self._landings: dict[int, set[int]] = {}
        self._links: dict[tuple[bool, int], dict[int, Any]] = {}
        #: Per link table, the links of src's neighbours as they are with src lifted.
        self._lifted_links: dict[tuple[bool, int], dict[int, dict[int, Any]]] = {}
        #: Hexes that gained their first or lost their last occupied neighbour.
        self._flips: list[int] = []
        self._dests: dict[tuple[int, int], list[int]] = {}
        #: Per player, the movers of this position (dropped with ``_dests``).
        self._movers: dict[int, list[tuple[int, int]]] = {}
        self._nodes: dict[int, int] = {}
        self._node_keys: list[int] = []
        self._legal: list[tuple[int, int | None, int]] | None = None
        self._legal_set_for: tuple[Any, set[Any]] | None = None

    def clear_caches(self) -> None:
        """Forget every table derived from the position (benchmarks time cold searches)."""
        self._analysis = None
        self._legal = None
        self._legal_set_for = None
        self._landings = {}
        self._links = {}
        self._lifted_links = {}
        self._dests = {}
        self._movers = {}
        self._nodes = {}
        self._node_keys = []

    @property
    def to_move(self) -> int:
        """Seat of the player to act."""
        return (self.actions[0] + self.actions[1]) & 1

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result != ONGOING

    def turn_number(self, player: int) -> int:
        """1 + the successful actions of that player."""
        return self.actions[player] + 1

    def under_obligation(self, player: int) -> bool:
        """Butterfly in hand from the player's 4th turn on (spec §5.1)."""
        return self.actions[player] >= 3 and self.bpos[player] is None

    def analysis(self) -> Analysis:
        """The colony's cut-vertex structure for this position (computed once)."""
        a = self._analysis
        if a is None:
            a = self._analysis = Analysis(self.occ, self.nmask)
        return a

    def surrounded(self, key: int) -> bool:
        """True if all six neighbours of the hex are occupied."""
        return self.nmask.get(key, 0) == 63

    def _set_stack(self, key: int, new: list[int]) -> None:
        """Replace a hex's stack, keeping occ/nmask/cadj/far in step."""
        stacks = self.stacks
        old = stacks.get(key)
        old_owner = old[-1] & 1 if old else -1
        new_owner = new[-1] & 1 if new else -1
        if new:
            stacks[key] = new
        elif old:
            del stacks[key]
        if old_owner == new_owner:
            return
        nmask = self.nmask
        if old_owner < 0:
            occ = self.occ
            frontier = self.frontier
            occ.add(key)
            frontier.discard(key)
            col = self.cadj[new_owner]
            flips = self._flips
            for o, bit in BACK_BITS:
                n = key + o
                mk = nmask.get(n)
                if mk is None:
                    nmask[n] = bit
                    flips.append(n)
                else:
                    nmask[n] = mk | bit
                col[n] = col.get(n, 0) + 1
                if n not in occ:
                    frontier.add(n)
            if self._is_far(key):
                self.far += 1
        elif new_owner < 0:
            self.occ.discard(key)
            frontier = self.frontier
            if key in nmask:
                frontier.add(key)
            col = self.cadj[old_owner]
            for o, bit in BACK_BITS:
                n = key + o
                mk = nmask[n] & ~bit
                if mk:
                    nmask[n] = mk
                else:
                    del nmask[n]
                    frontier.discard(n)
                    self._flips.append(n)
                c = col[n] - 1
                if c:
                    col[n] = c
                else:
                    del col[n]
            if self._is_far(key):
                self.far -= 1
        else:
            col_old = self.cadj[old_owner]
            col_new = self.cadj[new_owner]
            for o in OFFSETS:
                n = key + o
                c = col_old[n] - 1
                if c:
                    col_old[n] = c
                else:
                    del col_old[n]
                col_new[n] = col_new.get(n, 0) + 1

    def _is_far(self, key: int) -> bool:
        x, y = coords_of(key)
        t = self._far_threshold
        return not (-t <= x <= t and -t <= y <= t)

    def _lift(self, src: int) -> None:
        """Take hex src off the working board (its creature is in the air)."""
        self.occ.discard(src)
        nmask = self.nmask
        for o, bit in BACK_BITS:
            nmask[src + o] ^= bit

    def _drop(self, src: int) -> None:
        """Undo :meth:`_lift`."""
        self.occ.add(src)
        nmask = self.nmask
        for o, bit in BACK_BITS:
            nmask[src + o] ^= bit

    # -- applying actions ----------------------------------------------------------------
    def apply(self, action: tuple[int, int | None, int]) -> None:
        """Carry out an action already known to be valid, then run the end-of-game checks."""
        kind, src, dst = action
        p = self.to_move
        stacks = self.stacks
        changed: list[tuple[int, list[int]]] = []
        hand_changes: list[tuple[int, int, int]] = []
        code = kind * 2 + p
        self._flips = []
        if src is None:
            changed.append((dst, []))
            self._set_stack(dst, [code])
            hand_changes.append((p, kind, -1))
        else:
            s_old = stacks[src]
            i = _topmost(s_old, code)
            s_new = s_old[:i] + s_old[i + 1:]
            d_old = stacks.get(dst, [])
            flags = self.code_flags[code]
            changed.append((src, s_old))
            changed.append((dst, d_old))
            if not d_old:
                d_new = [code]
            elif flags & KAMIKAZE:
                victim = d_old[-1]
                hand_changes.append((victim & 1, victim >> 1, 1))
                d_new = d_old[:-1]
                if self.rules.kamikaze_survives:
                    d_new.append(code)
            elif flags & SWAP:
                s_new.append(d_old[-1])
                d_new = d_old[:-1] + [code]
            else:
                d_new = d_old + [code]
            self._set_stack(src, s_new)
            self._set_stack(dst, d_new)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] += delta
        self.history.append((p, changed, hand_changes, tuple(self.bpos), self.result,
                             self.reason))
        self.actions[p] += 1
        self._position_changed(changed)
        self._update_butterflies(changed)
        self._end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        p, changed, hand_changes, bpos, result, reason = self.history.pop()
        self._flips = []
        for key, old in reversed(changed):
            self._set_stack(key, old)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] -= delta
        self.actions[p] -= 1
        self.bpos = list(bpos)
        self.result = result
        self.reason = reason
        self._position_changed(changed)

    def _position_changed(self, changed: list[tuple[int, list[int]]]) -> None:
        """Drop what was derived from the previous position. The legal list is not kept in
        the history for undo: regenerating is cheap, and holding every position's list kept
        hundreds of thousands of tuples alive for the garbage collector."""
        self._analysis = None
        self._landings = {}
        self._dests = {}
        self._movers = {}
        self._legal = None
        self._forget_links(changed)

    def _forget_links(self, changed: list[tuple[int, list[int]]]) -> None:
        """Drop the link-table entries that read a changed hex: the neighbours of a hex
        whose stack changed (their slides and landings) and the neighbours of a hex that
        gained its first or lost its last occupied neighbour (their contact test). The
        set iteration orders below never reach the legal moves."""
        if not self._links:
            return  # nothing built (the compiled generator needs no link tables)
        if len(self._node_keys) > 4096:
            self._links = {}
            self._lifted_links = {}
            self._nodes = {}
            self._node_keys = []
            return
        stale = set(self._flips)
        stale.update(k for k, _ in changed)
        tables = list(self._links.values()) + list(self._lifted_links.values())
        # A hex's links never read its own stack, only its neighbours'.
        for k in stale:
            for o in OFFSETS:
                h = k + o
                for table in tables:
                    table.pop(h, None)

    def _update_butterflies(self, changed: list[tuple[int, list[int]]]) -> None:
        bpos = self.bpos
        keys = [k for k, _ in changed]
        for q in (0, 1):
            if bpos[q] in keys:
                bpos[q] = None
        b = self.butterfly
        for k in keys:
            for c in self.stacks.get(k, ()):
                if c >> 1 == b:
                    bpos[c & 1] = k

    def _end_checks(self, mover: int) -> None:
        nmask = self.nmask
        b0, b1 = self.bpos
        blue_in = b0 is not None and nmask.get(b0, 0) == 63
        red_in = b1 is not None and nmask.get(b1, 0) == 63
        if blue_in and red_in:
            self.result, self.reason = DRAW, "both butterflies are surrounded"
        elif red_in:
            self.result, self.reason = BLUE_WON, "RED's butterfly is surrounded"
        elif blue_in:
            self.result, self.reason = RED_WON, "BLUE's butterfly is surrounded"
        else:
            # The opponent acts next: its full list is needed next anyway (and is what the
            # compiled generator produces), so it doubles as the "can still act" check.
            legal = self._legal = self._generate(1 - mover, False)
            if legal:
                return
            self.result = BLUE_WON if mover == 0 else RED_WON
            self.reason = f"{PLAYERS[1 - mover]} can neither place nor move"

    # -- generation ----------------------------------------------------------------------
    def legal_actions(self) -> list[tuple[int, int | None, int]]:
        """Every legal action of the player to act (cached per position).

        On the empty board the first placement may go anywhere; the list then offers the
        origin (0, 0) only, since every hex is the same up to translation.
        """
        legal = self._legal
        if legal is None:
            legal = [] if self.result != ONGOING else self._generate(self.to_move, False)
            self._legal = legal
        return legal

    def has_action(self, player: int) -> bool:
        """True if ``player`` could act now (ignoring whose turn it is)."""
        return bool(self._generate(player, True))

    def _generate(self, p: int, first_only: bool) -> list[tuple[int, int | None, int]]:
        out: list[tuple[int, int | None, int]] = []
        obliged = self.actions[p] >= 3 and self.bpos[p] is None
        hand = self.hands[p]
        if obliged:
            kinds = [self.butterfly] if hand[self.butterfly] else []
        else:
            kinds = [k for k, n in enumerate(hand) if n]
        if kinds:
            spots = self.placement_hexes(p, first_only)
            for d in spots:
                for k in kinds:
                    out.append((k, None, d))
            if out and first_only:
                return out
        if obliged and self.rules.butterfly_deadline_blocks_moves:
            return out
        if not first_only and self.native is not None:
            got = self.native.moves(self.stacks, p)
            if got is not None:
                out += got
                return out
        movers = self._movers.get(p)
        if movers is None:
            movers = self._movers[p] = self.movers(p)
        cache = self._dests
        if first_only:
            # Any one move will do: try the creatures that are cheapest to search first.
            cost = self.code_cost
            movers = sorted(movers, key=lambda m: cost[m[1]])
        for src, code in movers:
            kind = code >> 1
            dests = cache.get((src, code))
            if dests is None:
                # Sorted, so the list is the same whichever generator made it.
                dests = cache[(src, code)] = sorted(self.destinations(src, code))
            if dests:
                if first_only:
                    out.append((kind, src, dests[0]))
                    return out
                out.extend([(kind, src, d) for d in dests])
        return out

    def placement_hexes(self, p: int, first_only: bool = False) -> list[int]:
        """Empty hexes where player ``p`` may place now, ascending."""
        occ = self.occ
        if self.actions[p] == 0:
            if not occ:
                return [0]
            out = [k for k in self.nmask if k not in occ]
        else:
            mine = self.cadj[p]
            theirs = self.cadj[1 - p]
            out = []
            for k in mine:
                if k in occ:
                    continue
                if k in theirs and not self._hatch_next_to(k, p):
                    continue
                out.append(k)
                if first_only and not self.far:
                    return out
        if self.far:
            out = [k for k in out if in_range(*coords_of(k))]
        out.sort()
        return out

    def _hatch_next_to(self, key: int, p: int) -> bool:
        stacks = self.stacks
        flags = self.code_flags
        for o in NEAR[self.nmask.get(key, 0)]:
            top = stacks[key + o][-1]
            if top & 1 == p and flags[top] & HATCH:
                return True
        return False

    def movers(self, p: int) -> list[tuple[int, int]]:
        """(hex, piece code) of every creature of ``p`` that may move: per hex and type the
        topmost one, unless a trapping creature lies above it. Hexes ascending."""
        out = []
        flags = self.code_flags
        stacks = self.stacks
        for k in sorted(stacks):
            s = stacks[k]
            if len(s) == 1:
                c = s[0]
                if c & 1 == p:
                    out.append((k, c))
                continue
            seen = []
            for i in range(len(s) - 1, -1, -1):
                c = s[i]
                if c & 1 == p and c not in seen:
                    seen.append(c)
                    out.append((k, c))
                if flags[c] & TRAP:
                    break
        return out

    def destinations(self, src: int, code: int) -> list[int]:
        """Every hex the creature ``code`` at ``src`` may legally move to (all rules)."""
        flags = self.code_flags[code]
        m = self.kind_dist[code >> 1]
        end = self.code_end[code]
        lifted = len(self.stacks[src]) == 1
        nmask = self.nmask
        occ = self.occ
        # A hex whose occupied neighbours form one group never cuts the colony.
        cut = lifted and RUNS[nmask.get(src, 0)] > 1 and self.analysis().is_cut(src)
        destroy = flags & KAMIKAZE and not self.rules.kamikaze_survives
        n_occ = len(occ) - lifted
        # Position-wide tables first, while src is still on the board.
        if flags & (FLY | JUMP):
            landing = self._landings.get(end)
            if landing is None:
                landing = self._landing(end)
            if n_occ and not cut and not destroy:
                # The colony stays one group whatever the landing hex, so the working board
                # is not needed: only the empty neighbours that touch the colony through
                # src alone are lost when it is lifted.
                dead = [src + o for o, bit in BACK_BITS
                        if nmask[src + o] == bit and src + o not in occ] if lifted else []
                if flags & FLY:
                    raw = self._fly_fast(src, m, landing, dead, n_occ)
                else:
                    raw = self._jump_fast(src, m, landing, dead, n_occ)
                if self.far:
                    raw = [d for d in raw if in_range(*coords_of(d))]
                return raw
        elif n_occ and not cut and not destroy and not (flags & RUN and m > 6):
            # As above; the path search takes the lift of src into account by itself.
            raw = self._paths(src, m, bool(flags & INTRUDE), end, bool(flags & RUN), lifted)
            if self.far:
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
                raw = self.reachable(src, code)  # the only creature on the board
            elif flags & (WALK | RUN):
                raw = self._paths(src, m, bool(flags & INTRUDE), end, bool(flags & RUN),
                                  lifted)
            elif flags & FLY:
                raw = self._fly_fast(src, m, landing, dead, len(occ))
            else:
                raw = self._jump_fast(src, m, landing, dead, len(occ))
            if self.far:
                raw = [d for d in raw if in_range(*coords_of(d))]
            if not raw:
                return raw
            if not cut and not destroy:
                # Lifting a non-cut src (or leaving others on it) keeps one colony.
                return raw
            return self._connected(src, code, lifted, cut, raw)
        finally:
            if lifted:
                occ.add(src)
                for o, bit in BACK_BITS:
                    nmask[src + o] ^= bit

    # -- fast searches of the generator ---------------------------------------------------
    def _landing(self, end: int) -> set[int]:
        """Hexes a flyer or jumper with this end mode may land on (for this position, on the
        full board): empty hexes touching the colony and the occupied ones it may end on."""
        got = self._landings.get(end)
        if got is None:
            if end == END_NONE:
                got = self.frontier
            elif end == END_ATTACK:
                got = self.frontier | self.occ
            else:
                got = set(self.frontier)
                stacks = self.stacks
                if end == END_STACK:
                    limit = self.stack_limit
                    got.update(k for k in self.occ if len(stacks[k]) < limit)
                else:
                    b = self.butterfly
                    got.update(k for k in self.occ if stacks[k][-1] >> 1 != b)
            self._landings[end] = got
        return got

    def _fly_fast(self, src: int, m: int, landing: set[int], dead: list[int],
                  n_occ: int) -> list[int]:
        """Flyer destinations; ``dead``: empty neighbours of src without contact once it is
        lifted; ``n_occ``: occupied hexes on the working board."""
        if self.nmask.get(src, 0) == 63:
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

    def _jump_fast(self, src: int, m: int, landing: set[int], dead: list[int],
                   n_occ: int) -> list[int]:
        m = min(m, n_occ + 1)
        res = landing.intersection(map(src.__add__, ray_offsets(m)))
        for n in dead:
            res.discard(n)
        return list(res)

    def _node_bit(self, key: int) -> int:
        """A bit of its own for a hex (for path bitsets); kept across positions."""
        bit = self._nodes.get(key)
        if bit is None:
            bit = self._nodes[key] = 1 << len(self._node_keys)
            self._node_keys.append(key)
        return bit

    def _paths(self, src: int, m: int, intruding: bool, end: int, run: bool,
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
        nmask = self.nmask
        free, onto = FREE_STEPS, ONTO_STEPS
        if run and m > 6 and len(self._walk(src, m, intruding, END_ATTACK)) < m:
            # A simple path of m steps needs m hexes besides src.
            return []
        key = (intruding, end)
        shared = self._links.get(key)
        if shared is None:
            shared = self._links[key] = {}
            self._lifted_links[key] = {}
        lifted_links = self._lifted_links[key]
        nodes = self._nodes
        bit_of = self._node_bit
        stacks = self.stacks
        limit = self.stack_limit
        butterfly = self.butterfly

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
            occ = self.occ
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
        return bits_to_keys(found, self._node_keys)

    def _connected(self, src: int, code: int, lifted: bool, cut: bool,
                   cands: list[int]) -> list[int]:
        """Keep the candidates after which the colony is one group (spec §6).

        Called on the working board (src lifted when ``lifted``)."""
        occ = self.occ
        stacks = self.stacks
        flags = self.code_flags[code]
        attack = bool(flags & KAMIKAZE)
        destroy = attack and not self.rules.kamikaze_survives
        if not lifted:
            if not destroy:
                return cands
            # src stays occupied: only a target emptied by the attack leaves the board.
            an = self.analysis()
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
                        inner = Analysis(occ, self.nmask)
                    if inner.is_cut(d):
                        continue
                out.append(d)
            return out
        an = self.analysis()
        parts = an.parts(src)
        intervals = an.sep[src]
        disc = an.disc
        nmask = self.nmask
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

    # -- plain searches: the reference used to check single requests -----------------------
    def reachable(self, src: int, code: int) -> list[int]:
        """Hexes the creature may reach by its movement category and attributes, before the
        one-colony check, by direct search (the mover already lifted from the working
        board). Single requests are checked with it; the generator has its own faster
        searches, so tests can compare the two."""
        flags = self.code_flags[code]
        m = self.kind_dist[code >> 1]
        end = self.code_end[code]
        if flags & WALK:
            res = self._walk(src, m, bool(flags & INTRUDE), end)
        elif flags & RUN:
            res = self._run_plain(src, m, bool(flags & INTRUDE), end)
        elif flags & FLY:
            if self.nmask.get(src, 0) == 63:
                return []
            res = self._fly(src, m, end)
        else:
            res = self._jump(src, m, end)
        if self.far:
            res = [d for d in res if in_range(*coords_of(d))]
        return res

    def _end_ok(self, dst: int, end: int) -> bool:
        if end == END_ATTACK:
            return True
        s = self.stacks[dst]
        if end == END_SWAP:
            return s[-1] >> 1 != self.butterfly
        if end == END_STACK:
            return len(s) < self.stack_limit
        return False

    def _walk(self, src: int, m: int, intruding: bool, end: int) -> list[int]:
        nmask = self.nmask
        free, onto = FREE_STEPS, ONTO_STEPS
        seen = {src}
        res = []
        cur = [src]
        for _ in range(m):
            nxt = []
            for a in cur:
                mk = nmask.get(a, 0)
                for o in free[mk]:
                    b = a + o
                    if b not in seen:
                        seen.add(b)
                        if nmask.get(b):
                            res.append(b)
                            nxt.append(b)
                if end:
                    for o in onto[mk]:
                        b = a + o
                        if b not in seen:
                            seen.add(b)
                            if self._end_ok(b, end):
                                res.append(b)
                            if intruding:
                                nxt.append(b)
            if not nxt:
                break
            cur = nxt
        return res

    def _run_plain(self, src: int, m: int, intruding: bool, end: int) -> list[int]:
        """Runner destinations by direct search of every simple path of m steps."""
        occ = self.occ
        nmask = self.nmask
        found: dict[int, None] = {}
        visited = {src}
        if m > 6 and len(self._walk(src, m, intruding, END_ATTACK)) < m:
            return []

        def extend(a: int, left: int) -> None:
            mk = nmask.get(a, 0)
            allowed = FREE_STEPS[mk] + ONTO_STEPS[mk]
            for o in OFFSETS:
                b = a + o
                if b in visited or o not in allowed:
                    continue
                if b in occ:
                    if left == 1:
                        if end and self._end_ok(b, end):
                            found[b] = None
                        continue
                    if not intruding:
                        continue
                elif not nmask.get(b):
                    continue
                elif left == 1:
                    found[b] = None
                    continue
                visited.add(b)
                extend(b, left - 1)
                visited.discard(b)

        extend(src, m)
        return list(found)

    def _fly(self, src: int, m: int, end: int) -> list[int]:
        occ = self.occ
        nmask = self.nmask
        res = []
        if not occ:
            # The only creature on the board: every hex in range keeps one colony.
            return [src + o for o in disc_offsets(m)]
        m = min(m, len(occ) + 1)
        offs = disc_offsets(m)
        if len(offs) > 4 * len(nmask):
            cands: Iterable[int] = sorted(
                k for k in nmask if k != src and 1 <= hex_distance(src, k) <= m
            )
        else:
            cands = [src + o for o in offs]
        for d in cands:
            if d in occ:
                if end and self._end_ok(d, end):
                    res.append(d)
            elif nmask.get(d):
                res.append(d)
        return res

    def _jump(self, src: int, m: int, end: int) -> list[int]:
        occ = self.occ
        nmask = self.nmask
        res = []
        lone = not occ
        if not lone:
            m = min(m, len(occ) + 1)
        for o in OFFSETS:
            d = src
            for _ in range(m):
                d += o
                if d in occ:
                    if end and self._end_ok(d, end):
                        res.append(d)
                elif lone or nmask.get(d):
                    res.append(d)
        return res

    # -- checking one requested action, with the reason ------------------------------------
    def why_not_place(self, kind: int, key: int) -> str | None:
        """Why the player to act may not place ``kind`` on ``key`` (None if valid)."""
        p = self.to_move
        name = self.names[kind]
        if self.result != ONGOING:
            return "the game is over"
        if not self.hands[p][kind]:
            return f"{PLAYERS[p]} has no {name} left to place"
        if self.under_obligation(p) and kind != self.butterfly:
            return (f"{PLAYERS[p]} must place the BUTTERFLY now "
                    f"(turn {self.turn_number(p)} without it on the board)")
        if key in self.occ:
            return f"{fmt(key)} is occupied; creatures are placed on empty hexes only"
        if self.actions[p] == 0:
            if not self.occ or self.nmask.get(key):
                return None
            return (f"{PLAYERS[p]}'s first creature must be placed next to the creature "
                    f"already on the board")
        if not self.cadj[p].get(key):
            return f"{fmt(key)} is not next to a hex of {PLAYERS[p]}'s colour"
        if self.cadj[1 - p].get(key) and not self._hatch_next_to(key, p):
            return f"{fmt(key)} is next to a {PLAYERS[1 - p]} creature"
        return None

    def why_not_move(self, kind: int, src: int, dst: int) -> str | None:
        """Why the player to act may not move its ``kind`` from src to dst (None if valid).

        The one-colony check here is a plain search of the board after the move, so it
        double-checks the cut-vertex shortcut the generator uses."""
        p = self.to_move
        name = self.names[kind]
        if self.result != ONGOING:
            return "the game is over"
        if self.under_obligation(p) and self.rules.butterfly_deadline_blocks_moves:
            return (f"{PLAYERS[p]} must place the BUTTERFLY now "
                    f"(turn {self.turn_number(p)} without it on the board)")
        stack = self.stacks.get(src)
        code = kind * 2 + p
        if not stack or code not in stack:
            return f"there is no {PLAYERS[p]} {name} at {fmt(src)}"
        i = _topmost(stack, code)
        if any(self.code_flags[c] & TRAP for c in stack[i + 1:]):
            return f"the {name} at {fmt(src)} is trapped under a trapping creature"
        if src == dst:
            return f"the {name} must move to another hex"
        flags = self.code_flags[code]
        m = self.kind_dist[kind]
        dist = hex_distance(src, dst)
        if dist > m:
            how = "runs exactly" if flags & RUN else "moves at most"
            return f"{fmt(dst)} is {dist} hexes away; {name} {how} {m}"
        if flags & JUMP and not _in_line(src, dst):
            return (f"{name} jumps only in a straight line and {fmt(dst)} is not in line "
                    f"with {fmt(src)}")
        target = self.stacks.get(dst)
        if target:
            if flags & KAMIKAZE:
                pass
            elif flags & SWAP:
                if target[-1] >> 1 == self.butterfly:
                    return f"{name} cannot swap places with a butterfly"
            elif flags & (TRAP | INTRUDE):
                if len(target) >= self.stack_limit:
                    return (f"{fmt(dst)} already holds {len(target)} creatures "
                            f"(the stack limit is {self.stack_limit})")
            else:
                return f"{fmt(dst)} is occupied and {name} may only move to an empty hex"
        if flags & FLY and self.nmask.get(src, 0) == 63:
            return f"the {name} at {fmt(src)} is surrounded and cannot take off"
        lifted = len(stack) == 1
        if lifted:
            self._lift(src)
        try:
            reached = dst in self.reachable(src, code)
        finally:
            if lifted:
                self._drop(src)
        if not reached:
            if flags & WALK:
                return (f"{name} cannot walk from {fmt(src)} to {fmt(dst)} in at most {m} "
                        f"steps (each step must slide through a free gap and stay next to "
                        f"the colony)")
            if flags & RUN:
                return (f"{name} cannot run from {fmt(src)} to {fmt(dst)} in exactly {m} "
                        f"steps without visiting a hex twice (each step must slide through "
                        f"a free gap and stay next to the colony)")
            return f"{name} cannot reach {fmt(dst)}: the colony would be disconnected"
        if not self._one_colony_after(kind, src, dst):
            return "the colony would be disconnected"
        return None

    def _one_colony_after(self, kind: int, src: int, dst: int) -> bool:
        """Whether the occupied hexes form one group after the move (direct search)."""
        p = self.to_move
        code = kind * 2 + p
        occ = set(self.occ)
        s_height = len(self.stacks[src])
        target = self.stacks.get(dst)
        flags = self.code_flags[code]
        if s_height == 1 and not (target and flags & SWAP and not flags & KAMIKAZE):
            occ.discard(src)
        if target:
            if flags & KAMIKAZE and not self.rules.kamikaze_survives and len(target) == 1:
                occ.discard(dst)
        else:
            occ.add(dst)
        return _connected_set(occ)

    def check(self, action: tuple[int, int | None, int]) -> str | None:
        """Why an action is not valid now, or None."""
        kind, src, dst = action
        if src is None:
            return self.why_not_place(kind, dst)
        return self.why_not_move(kind, src, dst)

    def is_legal_fast(self, action: tuple[int, int | None, int]) -> bool:
        """True if the action is in this position's cached legal list (no cache: False)."""
        legal = self._legal
        if legal is None:
            return False
        cached = self._legal_set_for
        if cached is None or cached[0] is not legal:
            cached = (legal, set(legal))
            self._legal_set_for = cached
        return action in cached[1]


def _end_mode(flags: int) -> int:
    """How a creature may end on an occupied hex (precedence of spec §8.6)."""
    if flags & KAMIKAZE:
        return END_ATTACK
    if flags & SWAP:
        return END_SWAP
    if flags & (TRAP | INTRUDE):
        return END_STACK
    return END_NONE


def _topmost(stack: list[int], code: int) -> int:
    for i in range(len(stack) - 1, -1, -1):
        if stack[i] == code:
            return i
    raise ValueError("creature not in stack")


def _in_line(a: int, b: int) -> bool:
    dx, dy = coords_of(b - a)
    return dx == 0 or dy == 0 or dx + dy == 0


def _connected_set(occ: set[int]) -> bool:
    if not occ:
        return True
    start = next(iter(occ))
    seen = {start}
    todo = [start]
    while todo:
        a = todo.pop()
        for o in OFFSETS:
            b = a + o
            if b in occ and b not in seen:
                seen.add(b)
                todo.append(b)
    return len(seen) == len(occ)
