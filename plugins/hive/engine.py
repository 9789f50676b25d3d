"""Hive's rules on HexAround's engine: the position is HexAround's
(:class:`hexaround.position.Position`: stacks, occupied hexes, neighbour masks, colour
adjacency and the cut-vertex analysis, all kept incrementally), held by
:class:`HiveEngine`, which extends :class:`hexaround.engine.Engine` through its hooks
(``make_generator``, ``generate``, ``end_checks``) and a faster apply and undo of its own
written with the position's public writers. This module states Hive's placement and end
rules (spec hive.md §2-§5); the pieces' moves are :mod:`hive.generator`'s (compiled, or
Python over :mod:`hive.rules`).

Every numbered Hive piece is its own HexAround creature kind with a stock of one (``QUEEN``
is HexAround's butterfly, then ``S1``, ``S2``, ``B1``...), so a piece code
(``kind * 2 + colour``) names one piece: ``wS2`` is a code, and moves keep their identity.

An action is a tuple ``(code, from_hex, to_hex)``: ``from_hex`` is None for a placement;
the code is the moving piece's, whoever moves it (a Pillbug's throw moves a piece of either
colour). :data:`PASS` is the pass. Hexes are HexAround's int keys (axial ``(q, r)`` is
HexAround's ``(x, y)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexaround.engine import BLUE_WON, DRAW, ONGOING, RED_WON, Engine, kit_need_history

from hexkit.kit.statepickle import History
from hive.abilities import EXTENSIONS, hive_config
from hive.directions import move_string, ref_texts
from hive.generator import CompiledHiveGenerator, PythonHiveGenerator, hive_generator
from hive.rules import ANT, BEETLE, GRASSHOPPER, LADYBUG, MOSQUITO, PILLBUG, QUEEN, SPIDER

#: Bug letters by type (UHP).
LETTERS = "QSBGAMLP"
BUG_NAMES = ("Queen Bee", "Spider", "Beetle", "Grasshopper", "Soldier Ant", "Mosquito",
             "Ladybug", "Pillbug")
#: How many of each type a player has.
COUNTS = (1, 2, 2, 3, 3, 1, 1, 1)
#: Expansion letter per expansion bug type.
EXPANSION_OF = {MOSQUITO: "M", LADYBUG: "L", PILLBUG: "P"}
COLOURS = "wb"
#: Results in Hive's words (HexAround's seat 0 is White).
WHITE_WON, BLACK_WON = BLUE_WON, RED_WON

#: The pass action.
PASS: tuple[int, None, int] = (-1, None, 0)
ORIGIN = 0

def expansion_types(expansions: str) -> tuple[int, ...]:
    """The bug types in play for an expansions string (``""``, ``"M"``... ``"MLP"``)."""
    return (QUEEN, SPIDER, BEETLE, GRASSHOPPER, ANT) + tuple(
        t for t in (MOSQUITO, LADYBUG, PILLBUG) if EXPANSION_OF[t] in expansions)


def piece_names(expansions: str) -> tuple[tuple[int, str], ...]:
    """(bug type, name without colour) of every piece kind, in kind order: ``Q``, ``S1``..."""
    out = []
    for t in expansion_types(expansions):
        n = COUNTS[t]
        if n == 1:
            out.append((t, LETTERS[t]))
        else:
            out.extend((t, f"{LETTERS[t]}{i}") for i in range(1, n + 1))
    return tuple(out)


class HiveEngine(Engine):
    """One Hive position with its history, on HexAround's position tables."""

    SIDE_NAMES = ("White", "Black")
    KEY_PIECE, KEY_PIECES = "Queen", "Queens"

    def __init__(self, expansions: str = "MLP", repetition_draw: bool = False):
        self.expansions = expansions
        self.repetition_draw = repetition_draw
        kinds = piece_names(expansions)
        #: Per kind: bug type and name (``S1``); per code: bug type and name (``wS1``).
        self.kind_types = tuple(t for t, _ in kinds)
        self.kind_labels = tuple(n for _, n in kinds)
        self.code_type = tuple(self.kind_types[c >> 1] for c in range(2 * len(kinds)))
        self.code_name = tuple(COLOURS[c & 1] + self.kind_labels[c >> 1]
                               for c in range(2 * len(kinds)))
        self.code_of = {n: c for c, n in enumerate(self.code_name)}
        #: Per code, the reference-piece parts of MoveStrings (see :mod:`hive.notation`).
        self.ref_texts = ref_texts(self.code_name)
        #: Per bug type: its kinds in number order (only the lowest in hand is placed).
        groups: dict[int, list[int]] = {}
        for k, t in enumerate(self.kind_types):
            groups.setdefault(t, []).append(k)
        self.groups = tuple(tuple(g) for g in groups.values())
        self.has_throwers = MOSQUITO in groups or PILLBUG in groups
        self._hive_reset()
        super().__init__(hive_config(expansions, kinds), EXTENSIONS)

    def _hive_reset(self) -> None:
        #: Hex of every piece on the board, by code.
        self.where: dict[int, int] = {}
        #: Code of the piece moved (or placed, or thrown) by the last action, else -1.
        self.last = -1
        #: Positions seen, for the repetition draw (position key -> count).
        self.seen: dict[Any, int] = {}
        #: Per action applied: (action, last, result, reason, legal list, analysis) before.
        self.history: list[tuple[Any, ...]] = []

    def reset(self) -> None:
        """The empty board, full hands, White to play."""
        super().reset()
        self._hive_reset()

    def make_generator(self) -> CompiledHiveGenerator | PythonHiveGenerator:
        """Hive's generator of the pieces' moves (:mod:`hive.generator`)."""
        return hive_generator(self)

    def move_strings(self, actions: list[tuple[int, int | None, int]]) -> list[str]:
        """The canonical MoveStrings of actions in this position (:mod:`hive.directions`)."""
        generator = self.generator
        if isinstance(generator, CompiledHiveGenerator):
            got = generator.move_strings(self.position.stacks, actions)
            if got is not None:
                return got
        return [move_string(self, a) for a in actions]

    # -- the read API used by notation, rendering and tests ---------------------------------
    def height(self, key: int) -> int:
        """Number of pieces on a hex."""
        s = self.stacks.get(key)
        return len(s) if s else 0

    def top(self, key: int) -> int:
        """Code of the top piece on a hex, or -1."""
        s = self.stacks.get(key)
        return s[-1] if s else -1

    def in_hand(self, code: int) -> bool:
        """True if the piece has not been placed yet."""
        return self.hands[code & 1][code >> 1] > 0

    @property
    def move_number(self) -> int:
        """Actions played so far (both players, passes included)."""
        return self.actions[0] + self.actions[1]

    # -- applying actions -----------------------------------------------------------------
    def apply(self, action: tuple[int, int | None, int]) -> None:
        """Play an action already known to be legal, then decide whether the game ended."""
        code, src, dst = action
        position = self.position
        p = (position.actions[0] + position.actions[1]) & 1
        # The list of legal actions comes back with the position on undo: a caller that
        # tries every move (a search, push-and-pop checks) generates each position once.
        cache = position.cache
        self.history.append((action, self.last, self.result, self.reason, cache.legal,
                             cache.analysis))
        position.flips.clear()
        if code < 0:
            self.last = -1
        else:
            stacks = position.stacks
            if src is None:
                position.hands[p][code >> 1] -= 1
                position.set_stack(dst, [code])
            else:
                position.set_stack(src, stacks[src][:-1])
                d = stacks.get(dst)
                position.set_stack(dst, d + [code] if d else [code])
            self.where[code] = dst
            if code < 2:
                position.bpos[code] = dst
            self.last = code
        position.actions[p] += 1
        cache.analysis = None
        cache.legal = None
        cache.legal_set = None
        self.end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        if "_kit_state" in self.__dict__:  # an unpickled state's: its history made first
            kit_need_history(self)
        action, last, result, reason, legal, analysis = self.history.pop()
        if self.repetition_draw:
            key = self.position_key()
            n = self.seen[key] - 1
            if n:
                self.seen[key] = n
            else:
                del self.seen[key]
        code, src, dst = action
        position = self.position
        p = (position.actions[0] + position.actions[1] - 1) & 1
        position.flips.clear()
        if code >= 0:
            stacks = position.stacks
            position.set_stack(dst, stacks[dst][:-1])
            if src is None:
                position.hands[p][code >> 1] += 1
                del self.where[code]
                if code < 2:
                    position.bpos[code] = None
            else:
                s = stacks.get(src)
                position.set_stack(src, s + [code] if s else [code])
                self.where[code] = src
                if code < 2:
                    position.bpos[code] = src
        position.actions[p] -= 1
        self.last = last
        self.result = result
        self.reason = reason
        cache = position.cache
        cache.analysis = analysis
        cache.legal = cache.given_back = legal  # (a pickle holds it: Position.__getstate__)
        cache.legal_set = None

    def end_checks(self, mover: int) -> None:
        """A surrounded Queen ends the game; so does a third repetition under the
        repetition rule. (A Hive player always has an action: a pass at worst.)"""
        self.surround_check()
        if self.repetition_draw:
            key = self.position_key()
            n = self.seen.get(key, 0) + 1
            self.seen[key] = n
            if n >= 3 and self.result == ONGOING:
                self.result, self.reason = DRAW, "the same position arose three times"

    def position_key(self) -> str:
        """The position for the repetition rule, as text: the player to act, the frozen
        piece and the stacks."""
        stacks = self.position.stacks
        parts = [str(self.to_move), str(self.last)]
        parts.extend(f"{k}:{','.join(map(str, stacks[k]))}" for k in sorted(stacks))
        return ";".join(parts)

    # -- generation -----------------------------------------------------------------------
    def legal_actions(self) -> list[tuple[int, int | None, int]]:
        """Every legal action of the player to act ([PASS] if nothing else is legal, [] once
        the game is over). Cached per position; do not change the list."""
        cache = self.cache
        legal = cache.legal
        if legal is None:
            if self.result != ONGOING:
                legal = []
            else:
                legal = self.generate(self.to_move)
                if not legal:
                    legal = [PASS]
            cache.legal = legal
        return legal

    def has_action(self, player: int) -> bool:
        """True: a Hive player always has an action (a pass at worst)."""
        return True

    def placement_codes(self, p: int) -> list[int]:
        """Codes of the pieces ``p`` may place now: the lowest-numbered of each type in
        hand; only the Queen on the 4th turn while she is in hand; never the Queen on the
        1st turn (tournament opening)."""
        hand = self.hands[p]
        n = self.actions[p]
        if n == 3 and self.bpos[p] is None:
            return [p] if hand[0] else []
        out = []
        for group in self.groups:
            for k in group:
                if hand[k]:
                    if k or n:
                        out.append(k * 2 + p)
                    break
        return out

    def placement_hexes(self, p: int, first_only: bool = False) -> list[int]:
        """Empty hexes where ``p`` may place: the origin for White's first piece, any
        neighbour of it for Black's first, later hexes next to a stack topped by ``p`` and
        next to none topped by the opponent."""
        occ = self.occ
        if self.actions[p] == 0:
            if not occ:
                return [ORIGIN]
            return [k for k in self.nmask if k not in occ]
        theirs = self.cadj[1 - p]
        return [k for k in self.cadj[p] if k not in occ and k not in theirs]

    def generate(self, p: int, first_only: bool = False) -> list[tuple[int, int | None, int]]:
        """The legal actions of ``p`` (no pass), without duplicates: placements (hexes in
        the colour-adjacency table's order, then piece codes), then the moves and throws of
        the pieces on the board (:mod:`hive.generator`)."""
        codes = self.placement_codes(p)
        out: list[tuple[int, int | None, int]]
        if codes:
            out = [(c, None, d) for d in self.placement_hexes(p) for c in codes]
        else:
            out = []
        if self.position.bpos[p] is None:
            return out
        got = self.generator.moves(self, p)
        if got is None:
            got = PythonHiveGenerator().moves(self, p)
        return out + got if out else got

    def perft(self, depth: int) -> int:
        """The leaf positions ``depth`` plies below this one, bulk counted (the last ply's
        actions counted, not played; a finished game has no moves, so it counts 1 at depth
        0 and 0 below). Counted in C on the compiled generator's own board where it is
        built, else by walking the tree with :meth:`apply` and :meth:`undo`
        (:func:`perft_by_walk`); the two agree, under the repetition rule too (a third
        occurrence of a position ends the game)."""
        if depth <= 0:
            return 1
        if self.result != ONGOING:
            return 0
        generator = self.generator
        if isinstance(generator, CompiledHiveGenerator):
            seen = self._repetition_keys(generator) if self.repetition_draw else None
            if seen is not None or not self.repetition_draw:
                count = generator.perft(self, depth, seen)
                if count is not None:
                    return count
        return perft_by_walk(self, depth)

    def _repetition_keys(self, generator: CompiledHiveGenerator) -> list[int] | None:
        """The compiled perft's keys of the positions counted in :attr:`seen` (with their
        counts), found by walking back the history; None if some counted position is not
        on it (counts loaded from a saved game)."""
        back = self.copy()
        known: dict[str, int] = {}
        while back.history:
            known[back.position_key()] = generator.repetition_key(back.stacks, back.to_move,
                                                                  back.last)
            back.undo()
        if not self.seen.keys() <= known.keys():
            return None
        return [known[key] for key, n in self.seen.items() for _ in range(n)]

    def copy(self) -> HiveEngine:
        """An independent copy of this position and its history: HexAround's copy of the
        tables, plus Hive's piece positions and repetition counts."""
        twin = super().copy()
        assert isinstance(twin, HiveEngine)
        twin.where = dict(self.where)
        twin.seen = dict(self.seen)
        twin.history = list(self.history)
        return twin

    #: The name the game, the bot and the UHP engine use.
    clone = copy

    kit_histories = ("_outcomes", "history")
    kit_skip = Engine.kit_skip | {"history"}
    kit_last_names = frozenset({"history"})
    kit_tables = ("where",)

    def kit_last_entries(self) -> dict[str, list[Any]]:
        """The last history entry, without its caches (pictures read its action)."""
        history = self.history
        return {"history": [_without_caches(history[-1])]} if history else {}

    def __getstate__(self) -> dict[str, Any]:
        # The legal lists and colony analyses kept for undo are made again when needed.
        state = super().__getstate__()
        # (As a History: whole chunks pickled once per process, like the other histories.)
        state["history"] = History(self.history, encode=_without_caches)
        return state

    # -- helpers for notation and the game ------------------------------------------------
    def action_for(self, code: int, dst: int) -> tuple[int, int | None, int]:
        """The action that puts piece ``code`` on hex ``dst`` from where it is now."""
        return (code, self.where.get(code), dst)

    def pieces_on_board(self) -> Sequence[int]:
        """Codes of the pieces on the board."""
        return tuple(self.where)


def _without_caches(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """A history entry as a pickle holds it: without the legal list and colony analysis
    it keeps for undo (made again when needed)."""
    return entry[:4] + (None, None)


def perft_by_walk(engine: HiveEngine, depth: int) -> int:
    """The leaf positions ``depth`` (1 or more) plies below the engine's position, by
    applying and undoing every legal action but those of the last ply, which are counted
    (the pure-Python counter, and the one under the repetition rule)."""
    actions = engine.legal_actions()
    if depth == 1:
        return len(actions)
    apply, undo = engine.apply, engine.undo
    total = 0
    for action in list(actions):
        apply(action)
        total += perft_by_walk(engine, depth - 1)
        undo()
    return total


#: Hive's engine, its pieces and its results (ONGOING and DRAW are the engine's result
#: codes, as HexAround's engine gives them).
__all__ = [
    "BLACK_WON", "BUG_NAMES", "COLOURS", "COUNTS", "DRAW", "EXPANSION_OF", "LETTERS",
    "ONGOING", "ORIGIN", "PASS", "WHITE_WON", "HiveEngine", "expansion_types", "perft_by_walk",
    "piece_names",
]
