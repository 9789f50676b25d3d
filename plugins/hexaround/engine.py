"""The HexAround rules engine: legal-action generation and the checks of single requests
with their reasons, over a :class:`~hexaround.position.Position`.

The engine's parts, one concern each: :mod:`hexaround.hexgrid` (hex keys and bit tables),
:mod:`hexaround.position` (the board, hands, apply/undo, read API), :mod:`hexaround.colony`
(cut vertices), :mod:`hexaround.rules` (the movement rules, stated once, readable: they
also give the refusal reasons and serve the rule options and extensions) and
:mod:`hexaround.movegen` (the fast generator: compiled, or its Python twin).

An action is a tuple ``(kind, from_key, to_key)``; ``from_key`` is None for a placement.
"""

from __future__ import annotations

from typing import Any

from hexaround import rules as plain
from hexaround.colony import (  # noqa: F401  (re-exported)
    Analysis,
    _connected_set,
)
from hexaround.config import PLAYERS, HexAroundConfig
from hexaround.extensions import Extensions
from hexaround.hexgrid import (  # noqa: F401  (re-exported)
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
    QUEEN,
    RUN,
    RUNS,
    STEPS,
    STRIDE,
    SWAP,
    TRAP,
    WALK,
    bits_to_keys,
    coords_of,
    disc_offsets,
    fmt,
    hex_distance,
    in_range,
    key_of,
    ray_offsets,
)
from hexaround.movegen import (  # noqa: F401  (re-exported)
    PURE_PYTHON_ENV,
    FastMoves,
    _movegen,
    compiled_generator,
    native_generator_available,
)
from hexaround.movegen import moves as fast_moves
from hexaround.position import (  # noqa: F401  (re-exported)
    BLUE_WON,
    DRAW,
    END_ATTACK,
    END_NONE,
    END_STACK,
    END_SWAP,
    ONGOING,
    PASS,
    RED_WON,
    UNLIMITED,
    Action,
    Position,
    _topmost,
)


class Engine(FastMoves):
    """One HexAround position with its history and its rules (see the module docstring)."""

    def __init__(self, config: HexAroundConfig, extensions: Extensions | None = None):
        super().__init__(config, extensions)
        #: The compiled generator for this configuration, or None.
        self.native = compiled_generator(self)

    def legal_actions(self) -> list[tuple[int, int | None, int]]:
        """Every legal action of the player to act (cached per position).

        On the empty board the first placement may go anywhere; the list then offers the
        origin (0, 0) only, since every hex is the same up to translation.
        """
        if self._stuck_pending:
            self._resolve_stuck()
        legal = self.cache.legal
        if legal is None:
            legal = [] if self._result != ONGOING else self._generate(self.to_move, False)
            self.cache.legal = legal
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
        if first_only or not self.fast_rules:
            out = self.python_moves(p, first_only)
            if first_only:
                return out
        else:
            out = fast_moves(self, p)
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
        out: list[tuple[int, int | None, int]] = []
        movers = self.cache.movers.get(p)
        if movers is None:
            movers = self.cache.movers[p] = self.movers(p)
        cache = self.cache.dests
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

    def step_allowed(self, a: int, b: int) -> bool:
        """May a creature on hex ``a`` step to the adjacent hex ``b`` under this game's
        slide rule (:func:`hexaround.rules.step_allowed`)?"""
        return plain.step_allowed(self, a, b, OFFSETS.index(b - a))

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
