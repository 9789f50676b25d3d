"""Hive's rules on HexAround's engine: the position, apply and undo are HexAround's
(:class:`hexaround.engine.Engine`: stacks, occupied hexes, neighbour masks, colour
adjacency and the cut-vertex analysis, all kept incrementally); this module states Hive's
movement, placement and end rules (spec hive.md §2-§5) over that read API.

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

from hexaround.engine import (
    BLUE_WON,
    DRAW,
    NEAR,
    OFFSETS,
    ONGOING,
    RED_WON,
    RUNS,
    Engine,
)

from hive.abilities import EXTENSIONS, hive_config
from hive.directions import ref_texts
from hive.moves import (
    ANT,
    BEETLE,
    GRASSHOPPER,
    LADYBUG,
    MOSQUITO,
    PILLBUG,
    QUEEN,
    SLIDES,
    SPIDER,
    reach,
    steps,
    throws,
)

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
        super().__init__(hive_config(expansions, kinds), EXTENSIONS)

    def reset(self) -> None:
        """The empty board, full hands, White to play."""
        super().reset()
        #: Hex of every piece on the board, by code.
        self.where: dict[int, int] = {}
        #: Code of the piece moved (or placed, or thrown) by the last action, else -1.
        self.last = -1
        #: Positions seen, for the repetition draw (position key -> count).
        self.seen: dict[Any, int] = {}
        self.history = []

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
        p = (self.actions[0] + self.actions[1]) & 1
        # The list of legal actions comes back with the position on undo: a caller that
        # tries every move (a search, push-and-pop checks) generates each position once.
        cache = self.cache
        self.history.append((action, self.last, self.result, self.reason, cache.legal,
                             cache.analysis))
        self._flips.clear()
        if code < 0:
            self.last = -1
        else:
            if src is None:
                self.hands[p][code >> 1] -= 1
                self._set_stack(dst, [code])
            else:
                s = self.stacks[src]
                self._set_stack(src, s[:-1])
                d = self.stacks.get(dst)
                self._set_stack(dst, d + [code] if d else [code])
            self.where[code] = dst
            if code < 2:
                self.bpos[code] = dst
            self.last = code
        self.actions[p] += 1
        cache.analysis = None
        cache.legal = None
        cache.legal_set = None
        self._end_checks(p)

    def undo(self) -> None:
        """Take back the last action exactly."""
        action, last, result, reason, legal, analysis = self.history.pop()
        if self.repetition_draw:
            key = self.position_key()
            n = self.seen[key] - 1
            if n:
                self.seen[key] = n
            else:
                del self.seen[key]
        code, src, dst = action
        p = (self.actions[0] + self.actions[1] - 1) & 1
        self._flips.clear()
        if code >= 0:
            d = self.stacks[dst]
            self._set_stack(dst, d[:-1])
            if src is None:
                self.hands[p][code >> 1] += 1
                del self.where[code]
                if code < 2:
                    self.bpos[code] = None
            else:
                s = self.stacks.get(src)
                self._set_stack(src, s + [code] if s else [code])
                self.where[code] = src
                if code < 2:
                    self.bpos[code] = src
        self.actions[p] -= 1
        self.last = last
        self.result = result
        self.reason = reason
        cache = self.cache
        cache.analysis = analysis
        cache.legal = legal
        cache.legal_set = None

    def _end_checks(self, mover: int) -> None:
        self._surround_check()
        if self.repetition_draw:
            key = self.position_key()
            n = self.seen.get(key, 0) + 1
            self.seen[key] = n
            if n >= 3 and self.result == ONGOING:
                self.result, self.reason = DRAW, "the same position arose three times"

    def position_key(self) -> str:
        """The position for the repetition rule, as text: the player to act, the frozen
        piece and the stacks."""
        stacks = self.stacks
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

    def generate(self, p: int) -> list[tuple[int, int | None, int]]:
        """The legal actions of ``p`` (no pass), without duplicates."""
        codes = self.placement_codes(p)
        if codes:
            out = [(c, None, d) for d in self.placement_hexes(p) for c in codes]
        else:
            out = []
        if self.bpos[p] is None:
            return out
        stacks = self.stacks
        nmask = self.nmask
        last = self.last
        ctype = self.code_type
        analysis = None
        throwers = False
        for code, src in self.where.items():
            if code & 1 != p or code == last:
                continue
            s = stacks[src]
            if s[-1] != code:
                continue  # pinned under a stack
            t = ctype[code]
            if len(s) > 1:
                # On top of the hive: a Beetle or a Mosquito, which moves as a Beetle.
                stacks[src] = s[:-1]
                for d in steps(stacks, src, len(s) - 1):
                    out.append((code, src, d))
                stacks[src] = s
                continue
            if RUNS[nmask[src]] > 1:
                if analysis is None:
                    analysis = self.analysis()
                pinned = src in analysis.sep
            else:
                pinned = False
            if t == PILLBUG:
                throwers = True
            elif t == MOSQUITO:
                tops = [ctype[stacks[src + o][-1]] for o in NEAR[nmask[src]]]
                if PILLBUG in tops:
                    throwers = True
            if pinned:
                continue
            if t == MOSQUITO:
                found: set[int] = set()
                del stacks[src]
                self._lift(src)
                for kind in set(tops):
                    if kind != MOSQUITO:
                        found.update(reach(self, src, kind))
                self._drop(src)
                stacks[src] = s
                dests = sorted(found)
            else:
                del stacks[src]
                self._lift(src)
                dests = reach(self, src, t)
                self._drop(src)
                stacks[src] = s
                if type(dests) is set:
                    dests = sorted(dests)
            for d in dests:
                out.append((code, src, d))
        if throwers:
            if analysis is None:
                analysis = self.analysis()
            self._throws(p, analysis.sep, out)
            out = list(dict.fromkeys(out))
        return out

    def _throws(self, p: int, cuts: Any, out: list[tuple[int, int | None, int]]) -> None:
        """The Pillbug's ability, for p's Pillbug and for p's Mosquito next to a Pillbug."""
        stacks = self.stacks
        nmask = self.nmask
        ctype = self.code_type
        last = self.last
        frozen = self.where.get(last) if last >= 0 else None
        for code, h in self.where.items():
            if code & 1 != p or code == last:
                continue
            t = ctype[code]
            if t != PILLBUG and t != MOSQUITO:
                continue
            if len(stacks[h]) != 1:
                continue
            if t == MOSQUITO and not any(ctype[stacks[h + o][-1]] == PILLBUG
                                         for o in NEAR[nmask[h]]):
                continue
            for tgt, d in throws(stacks, cuts, h, frozen):
                out.append((stacks[tgt][0], tgt, d))

    def copy(self) -> HiveEngine:
        """An independent copy of this position and its history: HexAround's copy of the
        tables, plus Hive's piece positions and repetition counts."""
        twin = super().copy()
        assert isinstance(twin, HiveEngine)
        twin.where = dict(self.where)
        twin.seen = dict(self.seen)
        return twin

    #: The name the game, the bot and the UHP engine use.
    clone = copy

    # -- helpers for notation and the game ------------------------------------------------
    def action_for(self, code: int, dst: int) -> tuple[int, int | None, int]:
        """The action that puts piece ``code`` on hex ``dst`` from where it is now."""
        return (code, self.where.get(code), dst)

    def pieces_on_board(self) -> Sequence[int]:
        """Codes of the pieces on the board."""
        return tuple(self.where)


#: Names other modules (the UHP engine, the bot) import from here.
__all__ = [
    "ANT", "BEETLE", "BLACK_WON", "BUG_NAMES", "COLOURS", "COUNTS", "DRAW", "EXPANSION_OF",
    "GRASSHOPPER", "LADYBUG", "LETTERS", "MOSQUITO", "OFFSETS", "ONGOING", "ORIGIN", "PASS",
    "PILLBUG", "QUEEN", "SLIDES", "SPIDER", "WHITE_WON", "HiveEngine", "expansion_types",
    "piece_names",
]
