"""The HexAround rules engine: a :class:`~hexaround.position.Position` and a move generator
held together, with legal-action generation, the checks of single requests with their
reasons, and the end of the game.

The engine's parts, one concern each: :mod:`hexaround.hexgrid` (hex keys and bit tables),
:mod:`hexaround.position` (the board, hands, apply/undo, read API), :mod:`hexaround.colony`
(cut vertices), :mod:`hexaround.rules` (the movement rules, stated once, readable: they
also give the refusal reasons and serve the rule options and extensions) and
:mod:`hexaround.movegen` (the fast generators: compiled, or the Python twin). Import each
name from the module that defines it.

A game built on this engine (Hive) subclasses :class:`Engine` and overrides its hooks:
:meth:`Engine.make_generator`, :meth:`Engine.generate`, :meth:`Engine.end_checks` (and
``apply``/``undo`` for a faster apply of its own through the position's public writers).

An action is a tuple ``(kind, from_key, to_key)``; ``from_key`` is None for a placement.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial
from operator import attrgetter
from typing import Any, Self

from hexaround import rules as plain
from hexaround import tables
from hexaround.colony import connected
from hexaround.config import PLAYERS, HexAroundConfig
from hexaround.extensions import Extensions
from hexaround.hexgrid import (
    FLY,
    HATCH,
    INTRUDE,
    JUMP,
    KAMIKAZE,
    NEAR,
    OFFSETS,
    RUN,
    RUNS,
    SWAP,
    TRAP,
    WALK,
    coords_of,
    fmt,
    hex_distance,
    in_range,
)
from hexaround.movegen import (
    MoveGenerator,
    PythonGenerator,
    compiled_generator,
    mover_moves,
)
from hexaround.position import PASS, Action, Caches, Position, _topmost
from hexkit.kit.enginestate import game_memo
from hexkit.kit.statepickle import Shared, history

# Results.
ONGOING, BLUE_WON, RED_WON, DRAW = 0, 1, 2, 3
_WINNERS: dict[int, tuple[int, ...]] = {BLUE_WON: (0,), RED_WON: (1,), DRAW: ()}

#: The one Python generator (it keeps nothing of its own).
PYTHON_GENERATOR = PythonGenerator()


def _read(name: str, doc: str) -> Any:
    """A read-only view of the position's attribute ``name`` on the engine."""
    return property(attrgetter("position." + name), doc=doc)


class Engine:
    """One HexAround position with its history and its rules (see the module docstring).

    The position's read API is also the engine's (``engine.stacks``, ``engine.height(k)``...:
    read-only views of :attr:`position`); changes go through :meth:`apply` and
    :meth:`undo`, or the position's public writers for a position being set up."""

    #: Words of the end-of-game reasons; a game on this engine (Hive) names its own.
    SIDE_NAMES: tuple[str, str] = ("BLUE", "RED")
    KEY_PIECE, KEY_PIECES = "butterfly", "butterflies"

    def __init__(self, config: HexAroundConfig, extensions: Extensions | None = None):
        #: The board, hands and history.
        self.position = Position(config, extensions)
        self._result = ONGOING
        self._reason = ""
        #: The stuck-player check (spec §10.2) of the player to act is still to be done: it
        #: needs that player's legal list, made only when someone asks.
        self._stuck_pending = False
        #: Per action applied, (result, reason, stuck check pending) before it.
        self._outcomes: list[tuple[int, str, bool]] = []
        #: The move generator for this configuration (compiled, or the Python twin).
        self.generator: MoveGenerator = self.make_generator()
        #: The engine this one was copied from by :meth:`start_copy` (a game's engine at
        #: the start), or None: a pickle then holds only what differs from it.
        self.template: Engine | None = None

    # -- hooks for games built on this engine ---------------------------------------------
    def make_generator(self) -> MoveGenerator:
        """The move generator for this engine's configuration (hook): the compiled one
        where it is built and applies, else the Python one."""
        return compiled_generator(self.position) or PYTHON_GENERATOR

    def end_checks(self, mover: int) -> None:
        """The end-of-game checks after ``mover``'s action (hook): a surrounded key piece
        ends the game; otherwise the stuck-player rule is checked when the result is next
        asked for."""
        if not self.surround_check():
            self._stuck_pending = True

    # -- the position's read API ----------------------------------------------------------
    config = _read("config", "The game's configuration.")
    rules = _read("rules", "The configuration's rule options.")
    extensions = _read("extensions", "The extension abilities and placement rules in use.")
    names = _read("names", "Creature type names by kind.")
    kind_index = _read("kind_index", "Kind by creature type name.")
    butterfly = _read("butterfly", "The butterfly's kind.")
    kind_flags = _read("kind_flags", "Property bits per kind.")
    kind_props = _read("kind_props", "Effective properties per kind.")
    kind_dist = _read("kind_dist", "Max distance per kind.")
    code_flags = _read("code_flags", "Property bits per piece code.")
    code_end = _read("code_end", "End mode per piece code.")
    code_search = _read("code_search", "Extension category search per piece code, or None.")
    code_actions = _read("code_actions", "Extension ability actions per piece code.")
    placement_rules = _read("placement_rules", "Extension placement refusals.")
    one_gate = _read("one_gate", "slide_rule: one_gate.")
    during = _read("during", "one_colony: during.")
    heights = _read("heights", "gates_count_heights.")
    jump_over = _read("jump_over", "jump_landing: over_pieces.")
    pin_any = _read("pin_any", "pinned_under: any.")
    pass_when_stuck = _read("pass_when_stuck", "no_action: pass.")
    freeze = _read("freeze", "freeze_last_moved: 0 off, 1 moved, 2 moved or placed.")
    stack_limit = _read("stack_limit", "The stack limit (a huge number when unlimited).")
    fast_rules = _read("fast_rules", "True when the built-in searches are HexAround's own.")
    has_extension_moves = _read("has_extension_moves", "True if extensions add moves.")
    by_membership = _read("by_membership", "Single requests are checked by the legal list.")
    stacks = _read("stacks", "Hex -> piece codes bottom first (read only).")
    occ = _read("occ", "The occupied hexes (read only).")
    nmask = _read("nmask", "Hex -> mask of its occupied neighbours (read only).")
    frontier = _read("frontier", "Empty hexes next to the colony (read only).")
    cadj = _read("cadj", "Per player: hex -> neighbours topped by that player (read only).")
    hands = _read("hands", "Per player, creatures in hand by kind (read only).")
    actions = _read("actions", "Actions taken per player (read only).")
    bpos = _read("bpos", "Hex of each player's butterfly, or None (read only).")
    frozen = _read("frozen", "Hex of the creature frozen for this turn, or None.")
    far = _read("far", "Occupied hexes near the coordinate limit.")
    cache = _read("cache", "Everything derived from the position (hexaround.position.Caches).")
    to_move = _read("to_move", "Seat of the player to act.")
    turn_number = _read("turn_number", "1 + the successful actions of a player.")
    under_obligation = _read("under_obligation", "Butterfly in hand from the 4th turn on.")
    top = _read("top", "Code of the top creature on a hex, or None.")
    height = _read("height", "Number of creatures on a hex.")
    is_occupied = _read("is_occupied", "True if a creature is on the hex.")
    creature_at = _read("creature_at", "(creature type, player) of the top creature.")
    stack_at = _read("stack_at", "(creature type, player) pairs on a hex, bottom first.")
    board = _read("board", "Hex -> piece codes bottom first (read only).")
    neighbours = _read("neighbours", "The six neighbours of a hex.")
    occupied = _read("occupied", "The occupied hexes (read only).")
    border = _read("border", "The empty hexes next to the colony (read only).")
    crowding = _read("crowding", "How many of a hex's neighbours are occupied.")
    occupied_neighbours = _read("occupied_neighbours", "Occupied neighbours of a hex.")
    in_hand = _read("in_hand", "How many creatures of a kind a player has in hand.")
    kind_name = _read("kind_name", "Creature type name of a piece code.")
    has_property = _read("has_property", "True if a piece code's type has a property.")
    max_distance = _read("max_distance", "Max distance of a piece code's type.")
    butterfly_at = _read("butterfly_at", "Hex of a player's butterfly, or None.")
    is_cut = _read("is_cut", "True if lifting a hex's creatures splits the colony.")
    gate_blocks = _read("gate_blocks", "Hive's step at height: is the step blocked?")
    position_key = _read("position_key", "A hashable summary of the position.")
    last_action = _read("last_action", "(player, action) of the last action, or None.")
    analysis = _read("analysis", "The colony's cut-vertex structure (computed once).")
    surrounded = _read("surrounded", "True if all six neighbours of a hex are occupied.")
    movers = _read("movers", "(hex, code) of every creature of a player that may move.")

    # -- copies and resets ----------------------------------------------------------------
    def reset(self) -> None:
        """The empty board and full hands."""
        self.position.reset()
        self._result = ONGOING
        self._reason = ""
        self._stuck_pending = False
        self._outcomes = []

    def copy(self) -> Self:
        """An independent engine in the same position (the generator is shared: it keeps
        no position)."""
        if "_kit_state" in self.__dict__:  # an unpickled state's: its history made first
            kit_need_history(self)
        twin = type(self).__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.position = self.position.copy()
        twin._outcomes = list(self._outcomes)
        return twin

    def clear_caches(self) -> None:
        """Forget every table derived from the position (benchmarks time cold searches)."""
        self.position.clear_caches()

    def start_copy(self) -> Self:
        """A copy of this engine (a game's engine at the start) that remembers it as its
        template: a pickle of the copy, or of any copy of it, holds the template once (as
        bytes kept with it; see :class:`hexkit.kit.statepickle.Shared`) and only what differs
        from it, not the configuration and the tables derived from it."""
        twin = self.copy()
        twin.template = self
        return twin

    #: The engine's own histories (a compact pickle makes them again by replaying).
    kit_histories: tuple[str, ...] = ("_outcomes",)
    #: Those of :attr:`kit_histories` whose last entry a compact pickle holds.
    kit_last_names: frozenset[str] = frozenset()

    def kit_last_entries(self) -> dict[str, list[Any]]:
        """The last entries of :attr:`kit_last_names`, as a compact pickle holds them."""
        return {}

    #: The engine's own tables of ints (dicts of int -> int, sets of ints) a compact pickle
    #: writes as int64 words with the position's (see :func:`kit_pack`).
    kit_tables: tuple[str, ...] = ()

    #: Attributes a compact pickle leaves out (see :func:`kit_pack`).
    kit_skip: frozenset[str] = frozenset({"position", "template", "generator", "_kit_state",
                                          "_kit_copied", "_outcomes"})

    def __getstate__(self) -> dict[str, Any]:
        # The compiled generator is rebuilt from the configuration, never pickled.
        state = dict(self.__dict__)
        del state["generator"]
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self.generator = self.make_generator()

    def __reduce_ex__(self, protocol: Any) -> Any:
        template = self.template
        if template is None or template is self:
            return super().__reduce_ex__(protocol)

        base = template.__dict__
        changes = {k: v for k, v in self.__getstate__().items()
                   if base.get(k, _MISSING) is not v and k not in ("position", "template")}
        position = self.position.changes_from(template.position)
        # Histories (entries never changed in place) pickle by chunks written once.
        for table, names in ((position, ("history", "_last")), (changes, ("_outcomes",))):
            for name in names:
                if type(table.get(name)) is list:
                    table[name] = history(table[name])
        return (_engine_from_template, (Shared(template), position, changes))

    # -- applying actions and the end of the game -----------------------------------------
    def apply(self, action: tuple[int, int | None, int]) -> None:
        """Carry out an action already known to be valid, then run the end-of-game checks."""
        p = self.position.to_move
        self._outcomes.append((self._result, self._reason, self._stuck_pending))
        self._stuck_pending = False
        self.position.apply(action)
        self.end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        if "_kit_state" in self.__dict__:  # an unpickled state's: its history made first
            kit_need_history(self)
        self.position.undo()
        self._result, self._reason, self._stuck_pending = self._outcomes.pop()

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.result != ONGOING

    def surround_check(self) -> bool:
        """End the game if a key piece (butterfly, Queen) is surrounded; True if it did."""
        nmask = self.position.nmask
        b0, b1 = self.position.bpos
        first_in = b0 is not None and nmask.get(b0, 0) == 63
        second_in = b1 is not None and nmask.get(b1, 0) == 63
        if not (first_in or second_in):
            return False
        if first_in and second_in:
            self._result, self._reason = DRAW, f"both {self.KEY_PIECES} are surrounded"
        else:
            self._result = RED_WON if first_in else BLUE_WON
            loser = self.SIDE_NAMES[0 if first_in else 1]
            self._reason = f"{loser}'s {self.KEY_PIECE} is surrounded"
        return True

    def _resolve_stuck(self) -> None:
        """The stuck-player rule for the player to act: its legal list (needed next anyway)
        doubles as the "can still act" check."""
        self._stuck_pending = False
        legal = self.position.cache.legal = self.generate(self.to_move, False)
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

    def winners(self) -> tuple[int, ...] | None:
        """The winning seats once the game is over (``(0,)``, ``(1,)``, ``()`` for a draw);
        None while it goes on."""
        return _WINNERS.get(self.result)

    # -- generation -----------------------------------------------------------------------
    def legal_actions(self) -> list[tuple[int, int | None, int]]:
        """Every legal action of the player to act (cached per position).

        On the empty board the first placement may go anywhere; the list then offers the
        origin (0, 0) only, since every hex is the same up to translation.
        """
        if self._stuck_pending:
            self._resolve_stuck()
        legal = self.cache.legal
        if legal is None:
            legal = [] if self._result != ONGOING else self.generate(self.to_move, False)
            self.cache.legal = legal
        return legal

    def has_action(self, player: int) -> bool:
        """True if ``player`` could act now (ignoring whose turn it is)."""
        return self.pass_when_stuck or bool(self.generate(player, True))

    def generate(self, p: int, first_only: bool = False) -> list[tuple[int, int | None, int]]:
        """The legal actions of player ``p`` in this position (hook; ``first_only``: any
        one will do), uncached: see :meth:`legal_actions`."""
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
        if first_only or not self.fast_rules:
            out = self.python_moves(p, first_only)
            if first_only:
                return out
        else:
            got = self.generator.moves(self.position, p)
            out = got if got is not None else PYTHON_GENERATOR.moves(self.position, p)
        if self.has_extension_moves:
            out += self._extension_moves(p, out)
        frozen = self.frozen
        if frozen is not None and frozen in self.stacks:
            kind = self.stacks[frozen][-1] >> 1
            out = [a for a in out if a[1] != frozen or a[0] != kind]
        return out

    def python_moves(self, p: int, first_only: bool) -> list[tuple[int, int | None, int]]:
        """The moves of p's creatures with built-in categories, by the Python generator
        (HexAround's reading) or the plain rules (when options change them)."""
        position = self.position
        find: Callable[[int, int], list[int]]
        if self.fast_rules:
            find = partial(PYTHON_GENERATOR.destinations, position)
        else:
            find = self.plain_destinations
        return mover_moves(position, p, first_only, find)

    def _extension_moves(self, p: int, base: list[Action]) -> list[Action]:
        """Moves by extension categories (movers ascending), then the (from, to) actions of
        extension abilities, without repeating an action already listed."""
        out: list[tuple[int, int | None, int]] = []
        movers = self.cache.movers.get(p)
        if movers is None:
            movers = self.cache.movers[p] = self.movers(p)
        search = self.code_search
        cache = self.cache.dests
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

    def reachable(self, src: int, code: int) -> list[int]:
        """Hexes the creature may reach by its movement category and attributes, before the
        one-colony check, by the plain searches of :mod:`hexaround.rules` (the mover already
        lifted from the working board). Single requests are checked with it; the fast
        generators have their own searches, so tests can compare the two."""
        fn = self.code_search[code]
        if fn is not None:
            res = list(fn(self, src, code))
        else:
            res = plain.reachable(self.position, src, code)
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
        return plain.reachable(self.position, src, code)

    def step_allowed(self, a: int, b: int) -> bool:
        """May a creature on hex ``a`` step to the adjacent hex ``b`` under this game's
        slide rule (:func:`hexaround.rules.step_allowed`)?"""
        return plain.step_allowed(self.position, a, b, OFFSETS.index(b - a))

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
        self.position.lift_mover(src, stack, i)
        try:
            fn = self.code_search[code]
            if fn is None:
                raw = plain.reachable(self.position, src, code)
            else:
                limit = self.stack_limit
                raw = list({d for d in fn(self, src, code)
                            if d != src and len(stacks.get(d, ())) < limit})
            if self.far:
                raw = [d for d in raw if in_range(*coords_of(d))]
            if raw and (cut or destroy):
                raw = PYTHON_GENERATOR.keep_connected(self.position, src, code, lifted, cut, raw)
        finally:
            self.position.drop_mover(src, stack)
        raw.sort()
        return raw

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
            self.position.lift(src)
        try:
            reached = dst in self.reachable(src, code)
        finally:
            if lifted:
                self.position.drop(src)
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
        return connected(occ)

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
        legal = self.cache.legal
        if legal is None:
            return False
        cached = self.cache.legal_set
        if cached is None or cached[0] is not legal:
            cached = (legal, set(legal))
            self.cache.legal_set = cached
        return action in cached[1]


def _in_line(a: int, b: int) -> bool:
    dx, dy = coords_of(b - a)
    return dx == 0 or dy == 0 or dx + dy == 0


#: No attribute of that name.
_MISSING = object()

# -- the compact pickle of a state (hexkit.kit.statepickle): an engine's tables beside its
# template's, its histories made again by replaying the moves when first needed -----------

#: A position's histories (and its changes since the last search, made anew).
POSITION_HISTORIES = ("history", "_last", "_undo_legal", "flips")
_POSITION_SKIP = frozenset({*POSITION_HISTORIES, "_cache"})


def kit_pack(engine: Engine) -> tuple[Any, ...] | None:
    """What a compact pickle holds of an engine copied from its template: the position's
    attributes and the engine's that are not the template's objects, histories left out
    but for their last entries (what the last action did, for pictures), the legal list
    undo gave back, and the position's tables with the engine's :attr:`Engine.kit_tables`
    as int64 words (None in that place: they are among the attributes; None for all: an
    engine of another shape)."""
    template = engine.template
    position = engine.position
    if (template is None or template is engine
            or type(position).__getstate__ is not Position.__getstate__):
        return None
    cls = type(engine)
    data, pdata = engine.__dict__, position.__dict__
    cadj = pdata["cadj"]
    own = cls.kit_tables
    words = tables.pack((pdata["stacks"], pdata["occ"], pdata["nmask"], pdata["frontier"],
                         *cadj, *map(data.__getitem__, own))) if len(cadj) == 2 else None
    if words is None:
        skip, pskip = cls.kit_skip, _POSITION_SKIP
    else:  # (the tables in the words, not among the attributes)
        skip, pskip = _skip_with_tables(cls), _POSITION_SKIP_TABLES
    return (tables.changed(pdata, template.position.__dict__, pskip),
            tables.changed(data, template.__dict__, skip), position.kept_legal(),
            position._last[-1:], engine.kit_last_entries(), words)


#: The position's tables a pickle holds as int64 words where the C module is built
#: (:mod:`hexaround.tables`: a tenth of pickle's cost).
_TABLE_NAMES = frozenset({"stacks", "occ", "nmask", "frontier", "cadj"})
_POSITION_SKIP_TABLES = _POSITION_SKIP | _TABLE_NAMES
#: Per engine class, the attributes its pack leaves out when the tables are words.
_SKIPS: dict[type, frozenset[str]] = {}


def _skip_with_tables(cls: type[Engine]) -> frozenset[str]:
    """``cls.kit_skip`` and ``cls.kit_tables`` (worked out once per class)."""
    found = _SKIPS.get(cls)
    if found is None:
        found = _SKIPS[cls] = cls.kit_skip | frozenset(cls.kit_tables)
    return found


def _with_tables(template: Engine, packed: tuple[Any, ...]
                 ) -> tuple[dict[str, Any], dict[str, Any]]:
    """A pack's position and engine changes with the tables read back from their words."""
    pchanges, changes, words = packed[0], packed[1], packed[5]
    if words is None:
        return pchanges, changes
    pchanges, changes = dict(pchanges), dict(changes)
    _tables_into(pchanges, changes, type(template), words)
    return pchanges, changes


def _tables_into(pdata: dict[str, Any], data: dict[str, Any], cls: type[Engine],
                 words: bytes) -> None:
    """The tables :func:`kit_pack` wrote as ``words``, read into a position's (``pdata``)
    and an engine's (``data``) attributes."""
    found = tables.unpack(words)
    pdata["stacks"], pdata["occ"], pdata["nmask"], pdata["frontier"] = found[:4]
    pdata["cadj"] = found[4:6]
    if len(found) > 6:
        data.update(zip(cls.kit_tables, found[6:], strict=True))


def kit_canonical(template: Engine, packed: tuple[Any, ...]) -> tuple[Any, ...]:
    """A packed engine with the template's values filled in (two packs of the same
    position compare equal whichever values each shares with the template)."""
    pchanges, changes = _with_tables(template, packed)
    skip = type(template).kit_skip
    pbase = template.position.__dict__
    position = {k: pchanges.get(k, v) for k, v in pbase.items() if k not in _POSITION_SKIP}
    engine = {k: changes.get(k, v) for k, v in template.__dict__.items() if k not in skip}
    for name in ("_stuck_pending", "_result", "_reason"):  # (a check of the end may be
        engine.pop(name, None)  # still to run, made by the next search: not the position)
    return position, engine


def kit_engine(template: Engine, packed: tuple[Any, ...]) -> Engine:
    """An engine from :func:`kit_pack`'s data on ``template``, with empty histories but
    for the last entries the pack holds (:func:`kit_histories` puts the earlier ones
    before them)."""
    pchanges, changes, legal, last, lasts, words = packed
    engine, position = _bare_engine(template)
    data = engine.__dict__
    pdata = position.__dict__
    pdata.update(pchanges)
    cls = type(template)
    if words is not None:
        _tables_into(pdata, data, cls, words)
    cache = pdata["_cache"] = Caches(id(position))
    if legal is not None:
        cache.legal = cache.given_back = legal
    pdata["history"] = []
    pdata["_last"] = list(last)
    pdata["_undo_legal"] = []
    pdata["flips"] = []
    data.update(changes)
    for name in cls.kit_histories:
        data[name] = list(lasts.get(name, ()))
    return engine


def kit_histories(engine: Engine, replay: Engine | None, owner: Any) -> None:
    """An engine made by :func:`kit_engine` with its state's histories: the entries of
    ``replay`` (the engine its moves were replayed on) before its own but for the last
    entries it was given; or, with no replay yet, ``owner`` (a weak reference to its
    state) remembered, to make them when the engine itself is copied or undoes below."""
    data = engine.__dict__
    if replay is None:
        if owner is not None:
            data["_kit_state"] = owner
        return
    data.pop("_kit_state", None)
    pdata, theirs = engine.position.__dict__, replay.position.__dict__
    for name in ("history", "_undo_legal"):
        pdata[name][:0] = theirs[name]
    pdata["_last"][:1] = theirs["_last"]
    lasts = type(engine).kit_last_names
    for name in type(engine).kit_histories:
        data[name][:1 if name in lasts else 0] = replay.__dict__[name]


def kit_need_history(engine: Engine) -> None:
    """Make the histories of an unpickled state's engine whole (through its state)."""
    owner = engine.__dict__.get("_kit_state")
    state = owner() if owner is not None else None
    if state is not None:
        state.need_history()
    engine.__dict__.pop("_kit_state", None)


def _engine_from_template(template: Engine, position: dict[str, Any],
                          changes: dict[str, Any]) -> Engine:
    """Unpickle an engine copied from a template: the template's attributes, and what the
    pickle holds in their place. Every table a copy makes its own is among those (a copy's
    tables are never the template's), so copying the template's first would be wasted."""
    engine, pos = _bare_engine(template)
    pos.load_changes(position)
    engine.__dict__.update(changes)
    return engine


def _bare_engine(template: Engine) -> tuple[Engine, Position]:
    """An engine holding ``template``'s attributes, with a position holding its position's
    (each then given what a pickle holds in their place)."""
    engine = object.__new__(type(template))
    engine.__dict__.update(template.__dict__)
    engine.template = template
    base = template.position
    pos = object.__new__(type(base))
    pos.__dict__.update(base.__dict__)
    engine.position = pos
    return engine, pos


class EngineStatePacking:
    """Mixed into the state of a game on this engine (HexAround's, Hive's; the state holds
    it in ``engine``, made from the game's ``_template``): the compact pickle of
    :mod:`hexkit.kit.statepickle`, the engine's tables beside its template's and its
    histories made again by replaying the moves when first needed."""

    game: Any
    engine: Any
    rng: Any
    _kit_packed_names: tuple[str, ...] = ("engine", "_made")
    _kit_transient: tuple[str, ...] = ("_listed",)

    def _kit_pack(self) -> tuple[Any, ...] | None:
        """:func:`kit_pack` of the engine (None: not copied from the game's template)."""
        engine = self.engine
        if engine.template is not self.game.__dict__.get("_template"):
            return None
        return kit_pack(engine)

    def _kit_unpack(self, packed: tuple[Any, ...]) -> None:
        """The engine :meth:`_kit_pack` gave, on a state made without ``__init__``."""
        game = self.game
        template = game.__dict__.get("_template")
        if template is None:
            template = game.new_engine().template
        data = self.__dict__
        data["engine"] = kit_engine(template, packed)
        data["_listed"] = None
        data["_made"] = game_memo(game, "moves")

    def _kit_canonical(self, packed: tuple[Any, ...]) -> tuple[Any, ...]:
        """The pack with the template's values filled in."""
        return kit_canonical(self.engine.template, packed)

    def _kit_records(self) -> list[Any] | None:
        """The position's history: one entry per action, shared by copies."""
        return self.engine.position.history

    def _kit_copying(self, twin: Any) -> None:
        """The engine does not make the histories while it is copied; the copy's makes
        the copy's."""
        data = self.engine.__dict__
        if twin is None:
            data["_kit_copied"] = data.pop("_kit_state", None)
            return
        owner = data.pop("_kit_copied", None)
        if owner is not None:
            data["_kit_state"] = owner
            theirs = twin.engine.__dict__
            theirs.pop("_kit_copied", None)
            theirs["_kit_state"] = weakref.ref(twin)

    def _kit_histories_made(self, replay: Any) -> None:
        """The engine's histories: the replay's, or empty."""
        kit_histories(self.engine, None if replay is None else replay.engine,
                      weakref.ref(self) if "_kit_lazy" in self.__dict__ else None)
