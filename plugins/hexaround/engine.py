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
from typing import Any

from hexaround import rules as plain
from hexaround.config import BUTTERFLY, PLAYERS, HexAroundConfig
from hexaround.extensions import EMPTY, Extensions
from hexaround.hexgrid import (
    BACK_BITS,
    BITS,
    COORD_LIMIT,
    FLY,
    FREE_STEPS,
    GATE_OPENS,
    HATCH,
    INTRUDE,
    JUMP,
    KAMIKAZE,
    NEAR,
    OFFSETS,
    ONTO_STEPS,
    POPCOUNT,
    QUEEN,  # noqa: F401  (re-exported: the engine's public names)
    RUN,
    RUNS,
    STEPS,  # noqa: F401
    STRIDE,  # noqa: F401
    SWAP,
    TRAP,
    WALK,
    bits_to_keys,
    coords_of,
    disc_offsets,
    fmt,
    hex_distance,
    in_range,
    key_of,  # noqa: F401
    ray_offsets,
)
from hexaround.rules import END_ATTACK, END_NONE, END_STACK, END_SWAP

try:
    from hexaround import _movegen
except ImportError:  # built without a C compiler: the Python generator does the work
    _movegen = None

#: Set HEXAROUND_PURE_PYTHON=1 to use the Python generator even when the C one is built.
PURE_PYTHON_ENV = "HEXAROUND_PURE_PYTHON"


def native_generator_available() -> bool:
    """True if the compiled move generator is built and not switched off."""
    return _movegen is not None and not os.environ.get(PURE_PYTHON_ENV)

# Results.
ONGOING, BLUE_WON, RED_WON, DRAW = 0, 1, 2, 3

#: An action: (kind, from hex or None for a placement, to hex).
Action = tuple[int, "int | None", int]
#: The action of a player who passes (``no_action: pass``): no creature, no hex.
PASS: tuple[int, int | None, int] = (-1, -1, -1)
#: ``stack_limit: unlimited``.
UNLIMITED = 1 << 62


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

    def __init__(self, config: HexAroundConfig, extensions: Extensions | None = None):
        self.config = config
        rules = config.rules
        self.rules = rules
        ext = extensions or EMPTY
        self.extensions = ext
        self.names: tuple[str, ...] = tuple(c.name for c in config.creatures)
        self.kind_index = {n: i for i, n in enumerate(self.names)}
        self.butterfly = self.kind_index[BUTTERFLY]
        kind_flags = []
        kind_props = []
        for c in config.creatures:
            bits = 0
            props = c.effective_properties(rules)
            for p in props:
                bits |= BITS.get(p, 0)
            kind_flags.append(bits)
            kind_props.append(props)
        self.kind_flags = tuple(kind_flags)
        #: Effective properties per creature type (built-in and extension names).
        self.kind_props: tuple[frozenset[str], ...] = tuple(kind_props)
        self.kind_dist = tuple(c.max_distance for c in config.creatures)
        #: Piece code = kind * 2 + owner; these tables are indexed by code.
        ncodes = 2 * len(kind_flags)
        self.code_flags = tuple(kind_flags[c >> 1] for c in range(ncodes))
        self.code_end = tuple(_end_mode(f) for f in self.code_flags)
        self.code_cost = tuple(
            0 if f & (FLY | JUMP) else 1 if f & WALK and self.kind_dist[c >> 1] == 1 else
            2 if f & WALK else 3 for c, f in enumerate(self.code_flags))
        # The places where a relative of HexAround reads the rules differently (options).
        self.one_gate = rules.slide_rule == "one_gate"
        self.during = rules.one_colony == "during"
        self.heights = rules.gates_count_heights
        self.jump_over = rules.jump_landing == "over_pieces"
        self.pin_any = rules.pinned_under == "any"
        self.pass_when_stuck = rules.no_action == "pass"
        self.freeze = ("off", "moved", "moved_or_placed").index(rules.freeze_last_moved)
        self.stack_limit = UNLIMITED if rules.stack_limit == "unlimited" else rules.stack_limit
        #: Extension abilities per code: the category's search, and the action functions.
        abilities = ext.abilities
        self.code_search: tuple[Any, ...] = tuple(
            abilities[c.extension_category].moves if c.extension_category in abilities
            else None for c in config.creatures for _ in (0, 1))
        self.code_actions: tuple[tuple[Any, ...], ...] = tuple(
            tuple(abilities[p].actions for p in sorted(props)
                  if p in abilities and abilities[p].actions is not None)
            for props in kind_props for _ in (0, 1))
        used = set().union(*kind_props)
        self.placement_rules = tuple(r.refuse for r in ext.placement_rules
                                     if not r.requires or r.requires.upper() in used)
        #: The searches of the built-in categories are HexAround's own (fast generators
        #: apply); otherwise every mover goes through the plain rules (:mod:`hexaround.rules`).
        self.fast_rules = not (self.one_gate or self.during or self.heights or self.jump_over)
        self.has_extension_moves = any(f is not None for f in self.code_search) or any(
            self.code_actions)
        #: Single requests are checked by membership in the legal list, not by reasons.
        self.by_membership = not self.fast_rules or self.has_extension_moves
        self.max_reach = max(self.kind_dist)
        self._far_threshold = COORD_LIMIT - min(self.max_reach, COORD_LIMIT // 2) - 1
        #: The compiled generator for this configuration, or None (see :meth:`_generate`).
        #: It serves the built-in categories; an extension category has no category bit,
        #: so the compiled generator skips those creatures.
        self.native: Any = None
        if native_generator_available() and self.fast_rules:
            cflags = [f | TRAP for f in self.code_flags] if self.pin_any else self.code_flags
            self.native = _movegen.Generator(
                cflags, [min(self.kind_dist[c >> 1], 1 << 20) for c in range(ncodes)],
                self.code_end, min(self.stack_limit, 1 << 30), self.butterfly,
                rules.kamikaze_survives)
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
        self._result = ONGOING
        self._reason = ""
        #: The stuck-player check (spec §10.2) of the player to act is still to be done: it
        #: needs that player's legal list, made only when someone asks.
        self._stuck_pending = False
        self.far = 0
        #: Hex of the creature the last action moved (or placed) while ``freeze_last_moved``
        #: holds it for a turn; None otherwise.
        self.frozen: int | None = None
        self.history: list[tuple[Any, ...]] = []
        #: (player, action) per action taken, for the read API.
        self._last: list[tuple[int, tuple[int, int | None, int]]] = []
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

    def copy(self) -> Engine:
        """An independent engine in the same position (tables copied, caches shared where
        they are never changed in place)."""
        twin = Engine.__new__(Engine)
        twin.__dict__.update(self.__dict__)
        twin.stacks = dict(self.stacks)  # stacks are replaced, never mutated in place
        twin.occ = set(self.occ)
        twin.nmask = dict(self.nmask)
        twin.frontier = set(self.frontier)
        twin._landings = {}
        twin.cadj = (dict(self.cadj[0]), dict(self.cadj[1]))
        twin.hands = [list(h) for h in self.hands]
        twin.actions = list(self.actions)
        twin.bpos = list(self.bpos)
        twin.history = list(self.history)
        twin._last = list(self._last)
        twin._links = {}
        twin._lifted_links = {}
        twin._flips = []
        twin._dests = {}
        twin._movers = {}
        twin._nodes = {}
        twin._node_keys = []
        return twin

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

    # -- read API: what renderers, policies, the course facade and extensions read --------
    # Hexes are int keys (:func:`hexaround.hexgrid.key_of`); a neighbour is ``key + o`` for
    # ``o`` in :data:`hexaround.hexgrid.OFFSETS`. A piece code is ``kind * 2 + player``.
    def top(self, key: int) -> int | None:
        """Code of the top creature on the hex, or None if it is empty."""
        s = self.stacks.get(key)
        return s[-1] if s else None

    def height(self, key: int) -> int:
        """Number of creatures on the hex."""
        return len(self.stacks.get(key, ()))

    def is_occupied(self, key: int) -> bool:
        """True if at least one creature is on the hex."""
        return key in self.occ

    def creature_at(self, key: int) -> tuple[str, str] | None:
        """(creature type, player) of the top creature, or None."""
        s = self.stacks.get(key)
        if not s:
            return None
        return self.names[s[-1] >> 1], PLAYERS[s[-1] & 1]

    def stack_at(self, key: int) -> list[tuple[str, str]]:
        """(creature type, player) pairs on the hex, bottom first."""
        names = self.names
        return [(names[c >> 1], PLAYERS[c & 1]) for c in self.stacks.get(key, ())]

    def board(self) -> dict[int, list[int]]:
        """Hex -> piece codes bottom first (read only: the engine's own table)."""
        return self.stacks

    @staticmethod
    def neighbours(key: int) -> tuple[int, ...]:
        """The six neighbours of a hex in ring order (spec §2)."""
        return tuple(key + o for o in OFFSETS)

    def occupied_neighbours(self, key: int) -> list[int]:
        """The occupied neighbours of a hex, in ring order."""
        return [key + o for o in NEAR[self.nmask.get(key, 0)]]

    def in_hand(self, player: int, kind: int) -> int:
        """How many creatures of that type the player has in hand."""
        return self.hands[player][kind]

    def kind_name(self, code: int) -> str:
        """Creature type name of a piece code."""
        return self.names[code >> 1]

    def has_property(self, code: int, prop: str) -> bool:
        """True if the creature type of the piece code has that (effective) property."""
        return prop in self.kind_props[code >> 1]

    def max_distance(self, code: int) -> int:
        """Max distance of the creature type of the piece code."""
        return self.kind_dist[code >> 1]

    def butterfly_at(self, player: int) -> int | None:
        """Hex of the player's butterfly, or None while it is in hand."""
        return self.bpos[player]

    def is_cut(self, key: int) -> bool:
        """True if taking the creatures of hex ``key`` off the board splits the colony (the
        position before the move; computed once per position and shared by all
        searches)."""
        return key in self.analysis().sep

    def step_allowed(self, a: int, b: int) -> bool:
        """May a creature on hex ``a`` step to the adjacent hex ``b`` under this game's
        slide rule (:func:`hexaround.rules.step_allowed`)?"""
        return plain.step_allowed(self, a, b, OFFSETS.index(b - a))

    def gate_blocks(self, a: int, b: int, hs: int, hd: int) -> bool:
        """Hive's step at height: a step from ``a`` (source height ``hs`` without the mover)
        to adjacent ``b`` (height ``hd``) is blocked iff both gate stacks are higher than
        both, or nothing is under, at or beside it."""
        d = OFFSETS.index(b - a)
        stacks = self.stacks
        h1 = len(stacks.get(a + OFFSETS[d - 1], ()))
        h2 = len(stacks.get(a + OFFSETS[(d + 1) % 6], ()))
        top = hs if hs > hd else hd
        return min(h1, h2) > top or not (top or h1 or h2)

    def position_key(self) -> tuple[Any, ...]:
        """A hashable summary of the position (board, hands, player to act, frozen hex),
        equal for equal positions: for repetition rules."""
        return (frozenset((k, tuple(s)) for k, s in self.stacks.items()),
                tuple(map(tuple, self.hands)), self.to_move, self.frozen)

    def last_action(self) -> tuple[int, tuple[int, int | None, int]] | None:
        """(player, action) of the last action, or None at the start."""
        return self._last[-1] if self._last else None

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
        frozen = self.frozen
        if self.freeze:
            self.frozen = None if kind < 0 or (src is None and self.freeze == 1) else dst
        if kind < 0:  # a pass
            pass
        elif src is None:
            changed.append((dst, []))
            self._set_stack(dst, [code])
            hand_changes.append((p, kind, -1))
        else:
            s_old = stacks[src]
            if code not in s_old:
                code ^= 1  # an ability moves another player's creature (Hive's pillbug)
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
        self.history.append((p, changed, hand_changes, tuple(self.bpos), self._result,
                             self._reason, frozen, self._stuck_pending, self._legal))
        self.actions[p] += 1
        self._last.append((p, action))
        self._stuck_pending = False
        self._position_changed(changed)
        self._update_butterflies(changed)
        self._end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        (p, changed, hand_changes, bpos, result, reason, frozen, pending,
         legal) = self.history.pop()
        self.frozen = frozen
        self._flips = []
        for key, old in reversed(changed):
            self._set_stack(key, old)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] -= delta
        self.actions[p] -= 1
        self._last.pop()
        self.bpos = list(bpos)
        self._result = result
        self._reason = reason
        self._position_changed(changed)
        # The list of the position returned to: undo after trying a move is common (bots,
        # conformance checks), and the list makes the next push a set look-up.
        self._stuck_pending = pending
        self._legal = legal

    def _position_changed(self, changed: list[tuple[int, list[int]]]) -> None:
        """Drop what was derived from the previous position."""
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
            self._result, self._reason = DRAW, "both butterflies are surrounded"
        elif red_in:
            self._result, self._reason = BLUE_WON, "RED's butterfly is surrounded"
        elif blue_in:
            self._result, self._reason = RED_WON, "BLUE's butterfly is surrounded"
        else:
            self._stuck_pending = True

    def _resolve_stuck(self) -> None:
        """The stuck-player rule for the player to act: its legal list (needed next anyway)
        doubles as the "can still act" check."""
        self._stuck_pending = False
        legal = self._legal = self._generate(self.to_move, False)
        if not legal:
            mover = 1 - self.to_move
            self._result = BLUE_WON if mover == 0 else RED_WON
            self._reason = f"{PLAYERS[1 - mover]} can neither place nor move"

    @property
    def result(self) -> int:
        """ONGOING, BLUE_WON, RED_WON or DRAW."""
        if self._stuck_pending:
            self._resolve_stuck()
        return self._result

    @result.setter
    def result(self, value: int) -> None:
        self._stuck_pending = False
        self._result = value

    @property
    def reason(self) -> str:
        """Why the game ended ("" while it goes on)."""
        if self._stuck_pending:
            self._resolve_stuck()
        return self._reason

    @reason.setter
    def reason(self, value: str) -> None:
        self._reason = value

    # -- generation ----------------------------------------------------------------------
    def legal_actions(self) -> list[tuple[int, int | None, int]]:
        """Every legal action of the player to act (cached per position).

        On the empty board the first placement may go anywhere; the list then offers the
        origin (0, 0) only, since every hex is the same up to translation.
        """
        if self._stuck_pending:
            self._resolve_stuck()
        legal = self._legal
        if legal is None:
            legal = [] if self._result != ONGOING else self._generate(self.to_move, False)
            self._legal = legal
        return legal

    def has_action(self, player: int) -> bool:
        """True if ``player`` could act now (ignoring whose turn it is)."""
        return self.pass_when_stuck or bool(self._generate(player, True))

    def _generate(self, p: int, first_only: bool) -> list[tuple[int, int | None, int]]:
        out: list[tuple[int, int | None, int]] = []
        obliged = self.actions[p] >= 3 and self.bpos[p] is None
        hand = self.hands[p]
        if obliged:
            kinds = [self.butterfly] if hand[self.butterfly] else []
        else:
            kinds = [k for k, n in enumerate(hand) if n]
        if kinds and (self.placement_rules or self.rules.butterfly_not_first):
            kinds = [k for k in kinds if self._placement_refusal(p, k) is None]
        if kinds:
            spots = self.placement_hexes(p, first_only)
            for d in spots:
                for k in kinds:
                    out.append((k, None, d))
            if out and first_only:
                return out
        if not (obliged and self.rules.butterfly_deadline_blocks_moves) and (
                self.bpos[p] is not None or self.rules.moves_before_butterfly):
            out += self._move_actions(p, first_only and not self.by_membership
                                      and not self.freeze)
        if not out and self.pass_when_stuck and self._result == ONGOING:
            out.append(PASS)
        return out

    def _move_actions(self, p: int, first_only: bool) -> list[tuple[int, int | None, int]]:
        """The moves of p's creatures: the built-in categories from the compiled generator
        (or its Python twin, or the plain rules when options change them), then the
        extension categories, then the actions of extension abilities; frozen creatures
        left out."""
        out: list[tuple[int, int | None, int]] | None = None
        if not first_only and self.fast_rules and self.native is not None:
            out = self.native.moves(self.stacks, p)
        if out is None:
            out = self._python_moves(p, first_only)
            if first_only:
                return out
        if self.has_extension_moves:
            out += self._extension_moves(p, out)
        frozen = self.frozen
        if frozen is not None and frozen in self.stacks:
            kind = self.stacks[frozen][-1] >> 1
            out = [a for a in out if a[1] != frozen or a[0] != kind]
        return out

    def _python_moves(self, p: int, first_only: bool) -> list[tuple[int, int | None, int]]:
        out: list[tuple[int, int | None, int]] = []
        movers = self._movers.get(p)
        if movers is None:
            movers = self._movers[p] = self.movers(p)
        cache = self._dests
        if first_only:
            # Any one move will do: try the creatures that are cheapest to search first.
            cost = self.code_cost
            movers = sorted(movers, key=lambda m: cost[m[1]])
        search = self.code_search
        find = self.destinations if self.fast_rules else self.plain_destinations
        for src, code in movers:
            if search[code] is not None:
                continue  # an extension category (see _extension_moves)
            kind = code >> 1
            dests = cache.get((src, code))
            if dests is None:
                # Sorted, so the list is the same whichever generator made it.
                dests = cache[(src, code)] = sorted(find(src, code))
            if dests:
                if first_only:
                    out.append((kind, src, dests[0]))
                    return out
                out.extend([(kind, src, d) for d in dests])
        return out

    def _extension_moves(self, p: int, base: list[Action]) -> list[Action]:
        """Moves by extension categories (movers ascending), then the (from, to) actions of
        extension abilities, without repeating an action already listed."""
        out: list[tuple[int, int | None, int]] = []
        movers = self._movers.get(p)
        if movers is None:
            movers = self._movers[p] = self.movers(p)
        search = self.code_search
        cache = self._dests
        for src, code in movers:
            if search[code] is not None:
                dests = cache.get((src, code))
                if dests is None:
                    dests = cache[(src, code)] = self.plain_destinations(src, code)
                kind = code >> 1
                out.extend([(kind, src, d) for d in dests])
        acting = self.code_actions
        seen: set[Any] | None = None
        stacks = self.stacks
        frozen = self.frozen
        for src, code in movers:
            fns = acting[code]
            if not fns or (src == frozen and stacks[src][-1] == code):
                continue
            if seen is None:
                seen = set(base)
                seen.update(out)
            for fn in fns:
                for f, t in fn(self, src, code):
                    if f == frozen:
                        continue
                    action = (stacks[f][-1] >> 1, f, t)
                    if action not in seen:
                        seen.add(action)
                        out.append(action)
        return out

    def _placement_refusal(self, p: int, kind: int) -> str | None:
        """Why the turn-based placement rules forbid ``kind`` now (options and extensions)."""
        if (kind == self.butterfly and self.rules.butterfly_not_first
                and self.actions[p] == 0):
            return f"{PLAYERS[p]} may not place the BUTTERFLY on the first turn"
        for refuse in self.placement_rules:
            why = refuse(self, p, kind)
            if why:
                return str(why)
        return None

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
            if self.pin_any:
                if s[-1] & 1 == p:
                    out.append((k, s[-1]))
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
        if run and m > 6 and len(plain.walk(self, src, m, intruding, END_ATTACK)) < m:
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

    # -- the plain rules: every mover when options change the built-in searches ------------
    def reachable(self, src: int, code: int) -> list[int]:
        """Hexes the creature may reach by its movement category and attributes, before the
        one-colony check, by the plain searches of :mod:`hexaround.rules` (the mover already
        lifted from the working board). Single requests are checked with it; the fast
        generators have their own searches, so tests can compare the two."""
        fn = self.code_search[code]
        res = list(fn(self, src, code)) if fn is not None else plain.reachable(self, src, code)
        if self.far:
            res = [d for d in res if in_range(*coords_of(d))]
        return res

    def search(self, src: int, code: int) -> list[int]:
        """Where a creature ``code`` standing on ``src`` could go by its category, on the
        current working board, before the one-colony rule. For extension abilities that
        copy another creature's movement (Hive's mosquito): call it from inside a
        ``moves`` function, where the mover is already lifted."""
        fn = self.code_search[code]
        if fn is not None:
            return list(fn(self, src, code))
        return plain.reachable(self, src, code)

    def plain_destinations(self, src: int, code: int) -> list[int]:
        """Every hex the creature ``code`` at ``src`` may move to, by the plain rules and
        the extension abilities, with the rule options (sorted)."""
        stacks = self.stacks
        stack = stacks[src]
        lifted = len(stack) == 1
        # The full board's cut vertices, before anything is lifted.
        cut = lifted and RUNS[self.nmask.get(src, 0)] > 1 and self.analysis().is_cut(src)
        if cut and self.during:
            return []  # Hive: lifting it would split the colony
        flags = self.code_flags[code]
        destroy = flags & KAMIKAZE and not self.rules.kamikaze_survives
        if destroy:
            self.analysis()
        i = _topmost(stack, code)
        self._lift_mover(src, stack, i)
        try:
            fn = self.code_search[code]
            if fn is None:
                raw = plain.reachable(self, src, code)
            else:
                limit = self.stack_limit
                raw = list({d for d in fn(self, src, code)
                            if d != src and len(stacks.get(d, ())) < limit})
            if self.far:
                raw = [d for d in raw if in_range(*coords_of(d))]
            if raw and (cut or destroy):
                raw = self._connected(src, code, lifted, cut, raw)
        finally:
            self._drop_mover(src, stack)
        raw.sort()
        return raw

    def _lift_mover(self, src: int, stack: list[int], i: int) -> None:
        """Take the mover (``stack[i]``) off its hex: stacks, occupancy and neighbour masks
        show the working board until :meth:`_drop_mover`."""
        rest = stack[:i] + stack[i + 1:]
        if rest:
            self.stacks[src] = rest
        else:
            del self.stacks[src]
            self._lift(src)

    def _drop_mover(self, src: int, stack: list[int]) -> None:
        """Undo :meth:`_lift_mover`."""
        if src not in self.stacks:
            self._drop(src)
        self.stacks[src] = stack

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
        refusal = self._placement_refusal(p, kind)
        if refusal:
            return refusal
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
        if self.bpos[p] is None and not self.rules.moves_before_butterfly:
            return f"{PLAYERS[p]} may not move before the BUTTERFLY is on the board"
        stack = self.stacks.get(src)
        code = kind * 2 + p
        if self.by_membership:
            return self._why_not_listed(kind, src, dst)
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

    def _why_not_listed(self, kind: int, src: int, dst: int) -> str | None:
        """A move checked against the legal list (extension abilities or rule options that
        change the built-in searches), with the plainest reason that applies."""
        if (kind, src, dst) in self.legal_actions():
            return None
        p = self.to_move
        name = self.names[kind]
        stack = self.stacks.get(src)
        if not stack or not any(c >> 1 == kind for c in stack):
            return f"there is no {name} at {fmt(src)}"
        if src == dst:
            return f"the {name} must move to another hex"
        if src == self.frozen and stack[-1] >> 1 == kind:
            return f"the {name} at {fmt(src)} moved last turn and cannot move now"
        code = kind * 2 + p
        if code in stack and stack[-1] != code and (
                self.pin_any or any(self.code_flags[c] & TRAP
                                    for c in stack[_topmost(stack, code) + 1:])):
            return f"the {name} at {fmt(src)} is pinned under another creature"
        if (self.during and len(stack) == 1 and code in stack
                and RUNS[self.nmask.get(src, 0)] > 1 and self.is_cut(src)):
            return f"moving the {name} at {fmt(src)} would split the colony"
        return f"the {name} at {fmt(src)} cannot move to {fmt(dst)}"

    def check(self, action: tuple[int, int | None, int]) -> str | None:
        """Why an action is not valid now, or None."""
        kind, src, dst = action
        if kind < 0:
            if self.result != ONGOING:
                return "the game is over"
            if PASS in self.legal_actions():
                return None
            return "a player may pass only when no other action is possible"
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
