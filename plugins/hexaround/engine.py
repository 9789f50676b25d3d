"""The HexAround rules engine: one position, action checks with reasons, fast legal-action
generation, apply and exact undo.

Hexes are ints (``x * STRIDE + y``) so that a neighbour is one addition; the six offsets
follow :data:`hexkit.hexes.DIRECTIONS`. The engine keeps, incrementally, the stacks, the set
of occupied hexes, per hex the number of occupied neighbours (``adj``: continuity and
surrounding in O(1)) and per player the number of neighbours of that colour (``cadj``:
placement in O(1) per candidate). Per position it computes once, lazily, the articulation
points of the colony (iterative Tarjan) with the DFS intervals of the separated parts, so the
one-colony rule costs O(1) per candidate move instead of a search.

An action is a tuple ``(kind, from_key, to_key)``; ``from_key`` is None for a placement.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hexaround.config import BUTTERFLY, PLAYERS, HexAroundConfig

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


class Analysis:
    """Articulation structure of the colony, computed once per position.

    ``disc[h]`` is the DFS discovery number of occupied hex h; ``sep[v]`` lists, for a cut
    vertex v, the DFS intervals (first, last discovery number) of the child subtrees that
    removing v separates; every other hex stays in the part with v's parent.
    """

    __slots__ = ("disc", "sep", "root", "size")

    def __init__(self, occ: set[int]):
        self.size = len(occ)
        disc: dict[int, int] = {}
        sep: dict[int, list[tuple[int, int]]] = {}
        self.disc = disc
        self.sep = sep
        self.root = None
        if not occ:
            return
        root = min(occ)
        self.root = root
        low: dict[int, int] = {root: 0}
        disc[root] = 0
        parent: dict[int, int | None] = {root: None}
        t = 1
        vs = [root]
        idx = [0]
        offs = OFFSETS
        while vs:
            v = vs[-1]
            i = idx[-1]
            if i < 6:
                idx[-1] = i + 1
                w = v + offs[i]
                if w in occ:
                    dw = disc.get(w)
                    if dw is None:
                        parent[w] = v
                        disc[w] = low[w] = t
                        t += 1
                        vs.append(w)
                        idx.append(0)
                    elif w != parent[v] and dw < low[v]:
                        low[v] = dw
            else:
                vs.pop()
                idx.pop()
                p = parent[v]
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
        # Keep only real cut vertices: the root with one child is not one.
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
    """One HexAround position with its history. Seats: 0 = BLUE, 1 = RED."""

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
        self.stack_limit = rules.stack_limit
        self.max_reach = max(self.kind_dist)
        self._far_threshold = COORD_LIMIT - self.max_reach - 1
        self.reset()

    # -- state -------------------------------------------------------------------------
    def reset(self) -> None:
        """The empty board and full hands."""
        self.stacks: dict[int, list[int]] = {}
        self.occ: set[int] = set()
        self.adj: dict[int, int] = {}
        self.cadj: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self.hands = [[self.config.stocks[p][n] for n in self.names] for p in PLAYERS]
        self.actions = [0, 0]
        self.bpos: list[int | None] = [None, None]
        self.result = ONGOING
        self.reason = ""
        self.far = 0
        self.history: list[tuple[Any, ...]] = []
        self._analysis: Analysis | None = None
        self._legal: list[tuple[int, int | None, int]] | None = None
        self._legal_set_for: tuple[Any, set[Any]] | None = None

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
            a = self._analysis = Analysis(self.occ)
        return a

    def _set_stack(self, key: int, new: list[int]) -> None:
        """Replace a hex's stack, keeping occ/adj/cadj/far in step."""
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
        adj = self.adj
        if old_owner < 0:
            self.occ.add(key)
            col = self.cadj[new_owner]
            for o in OFFSETS:
                n = key + o
                adj[n] = adj.get(n, 0) + 1
                col[n] = col.get(n, 0) + 1
            if self._is_far(key):
                self.far += 1
        elif new_owner < 0:
            self.occ.discard(key)
            col = self.cadj[old_owner]
            for o in OFFSETS:
                n = key + o
                c = adj[n] - 1
                if c:
                    adj[n] = c
                else:
                    del adj[n]
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

    # -- applying actions ----------------------------------------------------------------
    def apply(self, action: tuple[int, int | None, int]) -> None:
        """Carry out an action already known to be valid, then run the end-of-game checks."""
        kind, src, dst = action
        p = self.to_move
        stacks = self.stacks
        changed: list[tuple[int, list[int]]] = []
        hand_changes: list[tuple[int, int, int]] = []
        code = kind * 2 + p
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
                             self.reason, self._legal))
        self.actions[p] += 1
        self._analysis = None
        self._legal = None
        self._update_butterflies(changed)
        self._end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        p, changed, hand_changes, bpos, result, reason, legal = self.history.pop()
        for key, old in reversed(changed):
            self._set_stack(key, old)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] -= delta
        self.actions[p] -= 1
        self.bpos = list(bpos)
        self.result = result
        self.reason = reason
        self._analysis = None
        self._legal = legal

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
        adj = self.adj
        b0, b1 = self.bpos
        blue_in = b0 is not None and adj.get(b0, 0) == 6
        red_in = b1 is not None and adj.get(b1, 0) == 6
        if blue_in and red_in:
            self.result, self.reason = DRAW, "both butterflies are surrounded"
        elif red_in:
            self.result, self.reason = BLUE_WON, "RED's butterfly is surrounded"
        elif blue_in:
            self.result, self.reason = RED_WON, "BLUE's butterfly is surrounded"
        elif not self.has_action(1 - mover):
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
        for src, code in self.movers(p):
            for d in self.destinations(src, code):
                out.append((code >> 1, src, d))
                if first_only:
                    return out
        return out

    def placement_hexes(self, p: int, first_only: bool = False) -> list[int]:
        """Empty hexes where player ``p`` may place now, ascending."""
        occ = self.occ
        if self.actions[p] == 0:
            if not occ:
                return [0]
            out = [k for k in self.adj if k not in occ]
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
        for o in OFFSETS:
            s = stacks.get(key + o)
            if s is not None:
                top = s[-1]
                if top & 1 == p and flags[top] & HATCH:
                    return True
        return False

    def movers(self, p: int) -> list[tuple[int, int]]:
        """(hex, piece code) of every creature of ``p`` that may move: per hex and type the
        topmost one, unless a trapping creature lies above it. Hexes ascending."""
        out = []
        flags = self.code_flags
        for k in sorted(self.stacks):
            s = self.stacks[k]
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
        stacks = self.stacks
        lifted = len(stacks[src]) == 1
        occ = self.occ
        adj = self.adj
        an = self.analysis()
        if lifted:
            occ.discard(src)
            for o in OFFSETS:
                adj[src + o] -= 1
        try:
            raw = self.reachable(src, code)
            if not raw:
                return raw
            return self._connected(src, code, lifted, raw, an)
        finally:
            if lifted:
                occ.add(src)
                for o in OFFSETS:
                    adj[src + o] += 1

    def reachable(self, src: int, code: int) -> list[int]:
        """Hexes the creature may reach by its movement category and attributes, before the
        one-colony check. Call with the mover already lifted from the working board."""
        flags = self.code_flags[code]
        m = self.kind_dist[code >> 1]
        if flags & KAMIKAZE:
            end = END_ATTACK
        elif flags & SWAP:
            end = END_SWAP
        elif flags & (TRAP | INTRUDE):
            end = END_STACK
        else:
            end = END_NONE
        if flags & WALK:
            res = self._walk(src, m, bool(flags & INTRUDE), end)
        elif flags & RUN:
            res = self._run(src, m, bool(flags & INTRUDE), end)
        elif flags & FLY:
            if self.adj.get(src, 0) == 6:
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
        occ = self.occ
        adj = self.adj
        seen = {src}
        res = []
        cur = [src]
        for _ in range(m):
            nxt = []
            for a in cur:
                for o, g1, g2 in STEPS:
                    b = a + o
                    if b in seen or (a + g1 in occ and a + g2 in occ):
                        continue
                    if b in occ:
                        seen.add(b)
                        if end and self._end_ok(b, end):
                            res.append(b)
                        if intruding:
                            nxt.append(b)
                    elif adj.get(b):
                        seen.add(b)
                        res.append(b)
                        nxt.append(b)
            if not nxt:
                break
            cur = nxt
        return res

    def _run(self, src: int, m: int, intruding: bool, end: int) -> list[int]:
        occ = self.occ
        adj = self.adj
        # A simple path of m steps needs m hexes besides src: give up early when fewer are
        # reachable at all (this keeps long runners from exploring hopeless paths).
        if m > 6 and len(self._walk(src, m, intruding, END_ATTACK)) < m:
            return []
        found: dict[int, None] = {}
        ends = {}
        visited = {src}

        def extend(a: int, left: int) -> None:
            for o, g1, g2 in STEPS:
                b = a + o
                if b in visited or (a + g1 in occ and a + g2 in occ):
                    continue
                if b in occ:
                    if left == 1:
                        ok = ends.get(b)
                        if ok is None:
                            ok = ends[b] = bool(end) and self._end_ok(b, end)
                        if ok:
                            found[b] = None
                        continue
                    if not intruding:
                        continue
                elif not adj.get(b):
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
        adj = self.adj
        res = []
        if not occ:
            # The only creature on the board: every hex in range keeps one colony.
            return [src + o for o in disc_offsets(m)]
        m = min(m, len(occ) + 1)
        offs = disc_offsets(m)
        if len(offs) > 4 * len(adj):
            cands: Iterable[int] = sorted(
                k for k in adj if k != src and 1 <= hex_distance(src, k) <= m
            )
            for d in cands:
                if d in occ:
                    if end and self._end_ok(d, end):
                        res.append(d)
                elif adj.get(d):
                    res.append(d)
            return res
        for o in offs:
            d = src + o
            if d in occ:
                if end and self._end_ok(d, end):
                    res.append(d)
            elif adj.get(d):
                res.append(d)
        return res

    def _jump(self, src: int, m: int, end: int) -> list[int]:
        occ = self.occ
        adj = self.adj
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
                elif lone or adj.get(d):
                    res.append(d)
        return res

    def _connected(self, src: int, code: int, lifted: bool, cands: list[int],
                   an: Analysis) -> list[int]:
        """Keep the candidates after which the colony is one group (spec §6)."""
        occ = self.occ  # the working board: src is absent when lifted
        stacks = self.stacks
        flags = self.code_flags[code]
        attack = bool(flags & KAMIKAZE)
        destroy = attack and not self.rules.kamikaze_survives
        swap = bool(flags & SWAP) and not attack
        out = []
        if not lifted:
            # src stays occupied: only a kamikaze that empties its target removes a hex.
            for d in cands:
                if d in occ:
                    if destroy and len(stacks[d]) == 1 and an.is_cut(d):
                        continue
                out.append(d)
            return out
        cut = an.is_cut(src)
        if not cut:
            inner: Analysis | None = None
            for d in cands:
                if d in occ and destroy and len(stacks[d]) == 1:
                    # Both src and d leave the board: d must not cut the rest.
                    if inner is None:
                        inner = Analysis(occ)
                    if inner.is_cut(d):
                        continue
                out.append(d)
            return out
        parts = an.parts(src)
        for d in cands:
            if d in occ:
                if swap:
                    out.append(d)
                elif destroy and len(stacks[d]) == 1:
                    part = an.part_of(src, d)
                    if parts == 2 and an.part_size(src, part) == 1:
                        out.append(d)
                continue
            seen = set()
            for o in OFFSETS:
                n = d + o
                if n in occ:
                    seen.add(an.part_of(src, n))
            if len(seen) == parts:
                out.append(d)
        return out

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
        occ = self.occ
        if self.actions[p] == 0:
            if not occ or self.adj.get(key):
                return None
            return f"{PLAYERS[p]}'s first creature must be placed next to the creature " \
                   f"already on the board"
        if not self.cadj[p].get(key):
            return f"{fmt(key)} is not next to a hex of {PLAYERS[p]}'s colour"
        if self.cadj[1 - p].get(key) and not self._hatch_next_to(key, p):
            return f"{fmt(key)} is next to a {PLAYERS[1 - p]} creature"
        return None

    def why_not_move(self, kind: int, src: int, dst: int) -> str | None:
        """Why the player to act may not move its ``kind`` from src to dst (None if valid)."""
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
        if dist > m and not flags & RUN:
            return f"{fmt(dst)} is {dist} hexes away; {name} moves at most {m}"
        if dist > m:
            return f"{fmt(dst)} is {dist} hexes away; {name} runs exactly {m} steps"
        if flags & JUMP and not _in_line(src, dst):
            return f"{name} jumps only in a straight line and {fmt(dst)} is not in line " \
                   f"with {fmt(src)}"
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
        lifted = len(stack) == 1
        occ, adj = self.occ, self.adj
        if lifted:
            occ.discard(src)
            for o in OFFSETS:
                adj[src + o] -= 1
        try:
            if flags & FLY and adj.get(src, 0) == 6:
                return f"the {name} at {fmt(src)} is surrounded and cannot take off"
            if dst not in self.reachable(src, code):
                if flags & WALK:
                    return (f"{name} cannot walk from {fmt(src)} to {fmt(dst)} in at most {m} "
                            f"steps (each step must slide through a free gap and stay next "
                            f"to the colony)")
                if flags & RUN:
                    return (f"{name} cannot run from {fmt(src)} to {fmt(dst)} in exactly {m} "
                            f"steps without visiting a hex twice (each step must slide "
                            f"through a free gap and stay next to the colony)")
                return f"{name} cannot reach {fmt(dst)}: the colony would be disconnected"
        finally:
            if lifted:
                occ.add(src)
                for o in OFFSETS:
                    adj[src + o] += 1
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
