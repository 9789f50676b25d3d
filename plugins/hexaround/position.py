"""One HexAround position: the board's incremental tables, the hands, applying and taking
back actions exactly, and the read API that the rules, renderers, policies, the course
facade and extension abilities use. The rules (legal lists, refusals, the end of the game)
are :class:`hexaround.engine.Engine`'s, which holds a position.

Hexes are int keys (:mod:`hexaround.hexgrid`); a piece code is ``kind * 2 + player``. The
tables derived from a position (its colony analysis, legal list, search tables) live in one
:class:`Caches` object, dropped at one point when the position changes.
"""

from __future__ import annotations

from typing import Any

from hexaround.colony import Analysis
from hexaround.config import BUTTERFLY, PLAYERS, HexAroundConfig
from hexaround.extensions import EMPTY, Extensions
from hexaround.hexgrid import (
    _HALF,
    BACK_BITS,
    BITS,
    COORD_LIMIT,
    FLY,
    INTRUDE,
    JUMP,
    KAMIKAZE,
    NEAR,
    OFFSETS,
    POPCOUNT,
    SHIFT,
    STRIDE,
    SWAP,
    TRAP,
    WALK,
)

#: An action: (kind, from hex or None for a placement, to hex).
Action = tuple[int, "int | None", int]
#: No attribute of that name.
_MISSING = object()
#: The action of a player who passes (``no_action: pass``): no creature, no hex.
PASS: tuple[int, int | None, int] = (-1, -1, -1)
#: How many positions back undo finds the legal list again.
KEPT_LISTS = 2
#: ``stack_limit: unlimited``.
UNLIMITED = 1 << 62

# How a mover may end on an occupied hex (spec §8.6), as in hexaround.rules.
END_NONE, END_ATTACK, END_SWAP, END_STACK = 0, 1, 2, 3


class Caches:
    """Everything derived from one position: its colony analysis, legal list, per-mover
    destinations and the generator's search tables. :meth:`position_changed` is the one
    point where a change of position drops them."""

    __slots__ = ("owner", "analysis", "legal", "legal_set", "given_back", "landings", "dests",
                 "movers", "links", "lifted_links", "nodes", "node_keys")

    def __init__(self, owner: int = 0) -> None:
        #: id() of the position these caches belong to.
        self.owner = owner
        self.analysis: Analysis | None = None
        self.legal: list[Action] | None = None
        #: (the legal list, its set) for membership tests.
        self.legal_set: tuple[Any, set[Any]] | None = None
        #: The list undo gave back for the position (while it is ``legal``, a pickle holds
        #: it: its order may differ from a list made afresh).
        self.given_back: list[Action] | None = None
        #: Per end mode, the hexes a flyer or jumper may land on.
        self.landings: dict[int, set[int]] = {}
        #: (hex, code) -> sorted destinations; per player its movers.
        self.dests: dict[tuple[int, int], list[int]] = {}
        self.movers: dict[int, list[tuple[int, int]]] = {}
        # The Python generator's link tables are kept across positions: a change drops only
        # the entries that read a changed hex (see position_changed).
        self.links: dict[tuple[bool, int], dict[int, Any]] = {}
        #: Per link table, the links of src's neighbours as they are with src lifted.
        self.lifted_links: dict[tuple[bool, int], dict[int, dict[int, Any]]] = {}
        self.nodes: dict[int, int] = {}
        self.node_keys: list[int] = []

    def for_copy(self, owner: int) -> Caches:
        """The caches of a copy of the position: the analysis and the legal list are never
        changed in place, so they are shared; the rest is rebuilt."""
        twin = Caches(owner)
        twin.analysis = self.analysis
        twin.legal = self.legal
        twin.legal_set = self.legal_set
        twin.given_back = self.given_back
        return twin

    def position_changed(self, changed: list[int], flips: list[int]) -> None:
        """Drop what the previous position derived. Link-table entries are dropped where
        they read a changed hex: the neighbours of a hex whose stack changed (their slides
        and landings) and of a hex that gained its first or lost its last occupied
        neighbour (``flips``: their contact test). The set iteration orders below never
        reach the legal moves."""
        self.analysis = None
        self.landings = {}
        self.dests = {}
        self.movers = {}
        self.legal = None
        if not self.links:
            return  # nothing built (the compiled generator needs no link tables)
        if len(self.node_keys) > 4096:
            self.links = {}
            self.lifted_links = {}
            self.nodes = {}
            self.node_keys = []
            return
        stale = set(flips)
        stale.update(changed)
        tables = list(self.links.values()) + list(self.lifted_links.values())
        # A hex's links never read its own stack, only its neighbours'.
        for k in stale:
            for o in OFFSETS:
                h = k + o
                for table in tables:
                    table.pop(h, None)


class Position:
    """One HexAround position with its history (no rules: see
    :class:`hexaround.engine.Engine`). Seats: 0 = BLUE, 1 = RED.

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
        self.stack_limit: int = \
            UNLIMITED if rules.stack_limit == "unlimited" else int(rules.stack_limit)
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
        self.reset()

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
        self.far = 0
        #: Hex of the creature the last action moved (or placed) while ``freeze_last_moved``
        #: holds it for a turn; None otherwise.
        self.frozen: int | None = None
        self.history: list[tuple[Any, ...]] = []
        #: (player, action) per action taken, for the read API.
        self._last: list[tuple[int, tuple[int, int | None, int]]] = []
        self._cache = Caches(id(self))
        #: Hexes that gained their first or lost their last occupied neighbour since the
        #: last change of position (for the Python generator's link tables).
        self.flips: list[int] = []
        #: Per action in ``history``, the legal list of the position before it (or None).
        self._undo_legal: list[list[Action] | None] = []

    def copy(self) -> Position:
        """An independent engine in the same position (tables copied, caches shared where
        they are never changed in place)."""
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.stacks = dict(self.stacks)  # stacks are replaced, never mutated in place
        twin.occ = set(self.occ)
        twin.nmask = dict(self.nmask)
        twin.frontier = set(self.frontier)
        twin._cache = self.cache.for_copy(id(twin))
        twin.cadj = (dict(self.cadj[0]), dict(self.cadj[1]))
        twin.hands = [list(h) for h in self.hands]
        twin.actions = list(self.actions)
        twin.bpos = list(self.bpos)
        twin.history = list(self.history)
        twin._last = list(self._last)
        twin._undo_legal = [None] * len(self._undo_legal)
        twin.flips = []
        return twin

    def __getstate__(self) -> dict[str, Any]:
        # A pickle holds the position and its history; the tables derived from it (caches,
        # the legal lists kept for undo) are made again when asked for, but for a legal list
        # undo gave back, which a copy shares too: it may list the moves in another order
        # than a list made afresh (Hive's order follows the changes its tables went
        # through), and the unpickled state must list them as this one does. (A list made
        # for this position is not held: making it again costs less than pickling it.)
        state = dict(self.__dict__)
        state["_cache"] = self._kept_legal()
        state["_undo_legal"] = [None] * len(self._undo_legal)
        state["flips"] = []
        return state

    def kept_legal(self) -> list[Action] | None:
        """The legal list a pickle holds: the one undo gave back, while it is the
        position's (see :meth:`__getstate__`)."""
        return self._kept_legal()

    def _kept_legal(self) -> list[Action] | None:
        """The legal list a pickle holds: the one undo gave back, while it is the
        position's."""
        cache = self._cache
        legal = cache.legal
        return legal if legal is not None and legal is cache.given_back else None

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        legal = state.get("_cache")
        self._cache = Caches(id(self))
        if type(legal) is list:
            self._cache.legal = self._cache.given_back = legal

    def changes_from(self, template: Position) -> dict[str, Any]:
        """What a pickle of this position holds beside ``template``, the position it was
        copied from (directly or not): every attribute that is not the template's own object
        (a copy shares the configuration and its tables, and copies what changes)."""
        base = template.__dict__
        if type(self).__getstate__ is not Position.__getstate__:
            return {k: v for k, v in self.__getstate__().items()
                    if base.get(k, _MISSING) is not v}
        # What __getstate__ gives, without copying the attributes first (it replaces three,
        # always by new objects, so never the template's).
        changes = {k: v for k, v in self.__dict__.items() if base.get(k, _MISSING) is not v}
        changes["_cache"] = self._kept_legal()
        changes["_undo_legal"] = [None] * len(self._undo_legal)
        changes["flips"] = []
        return changes

    def load_changes(self, changes: dict[str, Any]) -> None:
        """Take what :meth:`changes_from` gave (on a copy of the same template)."""
        self.__setstate__(changes)

    @property
    def cache(self) -> Caches:
        """Everything derived from the position (see :class:`Caches`). A copy made by
        copying the instance's ``__dict__`` gets caches of its own on first use."""
        cache = self._cache
        if cache.owner != id(self):
            cache = self._cache = cache.for_copy(id(self))
        return cache

    def clear_caches(self) -> None:
        """Forget every table derived from the position (benchmarks time cold searches)."""
        self._cache = Caches(id(self))

    @property
    def to_move(self) -> int:
        """Seat of the player to act."""
        return (self.actions[0] + self.actions[1]) & 1

    def turn_number(self, player: int) -> int:
        """1 + the successful actions of that player."""
        return self.actions[player] + 1

    def under_obligation(self, player: int) -> bool:
        """Butterfly in hand from the player's 4th turn on (spec §5.1)."""
        return self.actions[player] >= 3 and self.bpos[player] is None

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

    def occupied(self) -> set[int]:
        """The occupied hexes (read only: the engine's own set)."""
        return self.occ

    def border(self) -> set[int]:
        """The empty hexes next to the colony (read only: the engine's own set)."""
        return self.frontier

    def crowding(self, key: int) -> int:
        """How many of the hex's six neighbours are occupied."""
        return POPCOUNT[self.nmask.get(key, 0)]

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

    def analysis(self) -> Analysis:
        """The colony's cut-vertex structure for this position (computed once)."""
        a = self.cache.analysis
        if a is None:
            a = self.cache.analysis = Analysis(self.occ, self.nmask)
        return a

    def surrounded(self, key: int) -> bool:
        """True if all six neighbours of the hex are occupied."""
        return self.nmask.get(key, 0) == 63

    def set_stack(self, key: int, new: list[int]) -> None:
        """Replace a hex's stack (an empty list empties it), keeping occ/nmask/cadj/far in
        step. Stack lists are never changed in place: pass a new list."""
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
            # Flips only matter to the Python generator's link tables (when it has any).
            flips = self.flips if self._cache.links else None
            for o, bit in BACK_BITS:
                n = key + o
                mk = nmask.get(n)
                if mk is None:
                    nmask[n] = bit
                    if flips is not None:
                        flips.append(n)
                else:
                    nmask[n] = mk | bit
                col[n] = col.get(n, 0) + 1
                if n not in occ:
                    frontier.add(n)
            t = self._far_threshold
            x = (key + _HALF) >> SHIFT
            if not (-t <= x <= t and -t <= key - x * STRIDE <= t):
                self.far += 1
        elif new_owner < 0:
            self.occ.discard(key)
            frontier = self.frontier
            if key in nmask:
                frontier.add(key)
            col = self.cadj[old_owner]
            flips = self.flips if self._cache.links else None
            for o, bit in BACK_BITS:
                n = key + o
                mk = nmask[n] & ~bit
                if mk:
                    nmask[n] = mk
                else:
                    del nmask[n]
                    frontier.discard(n)
                    if flips is not None:
                        flips.append(n)
                c = col[n] - 1
                if c:
                    col[n] = c
                else:
                    del col[n]
            t = self._far_threshold
            x = (key + _HALF) >> SHIFT
            if not (-t <= x <= t and -t <= key - x * STRIDE <= t):
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

    def lift(self, src: int) -> None:
        """Take hex src off the working board (its creature is in the air): ``occ`` and
        ``nmask`` no longer show it until :meth:`drop` (``stacks`` is the caller's)."""
        self.occ.discard(src)
        nmask = self.nmask
        for o, bit in BACK_BITS:
            nmask[src + o] ^= bit

    def drop(self, src: int) -> None:
        """Undo :meth:`lift`."""
        self.occ.add(src)
        nmask = self.nmask
        for o, bit in BACK_BITS:
            nmask[src + o] ^= bit

    def lift_mover(self, src: int, stack: list[int], i: int) -> None:
        """Take the mover (``stack[i]``) off its hex: stacks, occupancy and neighbour masks
        show the working board until :meth:`drop_mover`."""
        rest = stack[:i] + stack[i + 1:]
        if rest:
            self.stacks[src] = rest
        else:
            del self.stacks[src]
            self.lift(src)

    def drop_mover(self, src: int, stack: list[int]) -> None:
        """Undo :meth:`lift_mover`."""
        if src not in self.stacks:
            self.drop(src)
        self.stacks[src] = stack

    def apply(self, action: tuple[int, int | None, int]) -> None:
        """Carry out an action already known to be valid (the engine checks the rules and
        the end of the game)."""
        kind, src, dst = action
        p = self.to_move
        stacks = self.stacks
        changed: list[tuple[int, list[int]]] = []
        hand_changes: list[tuple[int, int, int]] = []
        code = kind * 2 + p
        self.flips = []
        frozen = self.frozen
        if self.freeze:
            self.frozen = None if kind < 0 or (src is None and self.freeze == 1) else dst
        if kind < 0:  # a pass
            pass
        elif src is None:
            changed.append((dst, []))
            self.set_stack(dst, [code])
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
            self.set_stack(src, s_new)
            self.set_stack(dst, d_new)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] += delta
        self.history.append((p, changed, hand_changes, tuple(self.bpos), frozen))
        # The legal lists of the last few positions come back on undo (a caller that tries
        # every move, then pops it, generates each position once); older ones are dropped,
        # since holding a list per ply of a long game costs the garbage collector more.
        kept = self._undo_legal
        kept.append(self.cache.legal)
        if len(kept) > KEPT_LISTS:
            kept[-KEPT_LISTS - 1] = None
        self.actions[p] += 1
        self._last.append((p, action))
        self._position_changed(changed)
        self._update_butterflies(changed)

    def undo(self) -> None:
        """Take back the last action exactly."""
        p, changed, hand_changes, bpos, frozen = self.history.pop()
        legal = self._undo_legal.pop() if self._undo_legal else None
        self.frozen = frozen
        self.flips = []
        for key, old in reversed(changed):
            self.set_stack(key, old)
        for owner, k, delta in hand_changes:
            self.hands[owner][k] -= delta
        self.actions[p] -= 1
        self._last.pop()
        self.bpos = list(bpos)
        self._position_changed(changed)
        # The list of the position returned to: undo after trying a move is common (bots,
        # conformance checks), and the list makes the next push a set look-up.
        cache = self.cache
        cache.legal = cache.given_back = legal

    def _position_changed(self, changed: list[tuple[int, list[int]]]) -> None:
        """Drop what was derived from the previous position."""
        self.cache.position_changed([k for k, _ in changed], self.flips)

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
