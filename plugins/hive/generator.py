"""Hive's move generators, in the shape of HexAround's (:class:`hexaround.movegen.MoveGenerator`):
``moves(engine, player)`` lists the moves and Pillbug throws of the player's pieces on the
board (placements are the engine's), or answers None to leave the position to Python.

:class:`CompiledHiveGenerator` wraps the C generator (``hive._hivegen``) where it is built;
:class:`PythonHiveGenerator` states the same rules over :mod:`hive.rules`. Both give the
same actions in the same order: the player's pieces in the order of the engine's ``where``
table; per piece its destinations in direction order for the one-step movers (Queen, Beetle,
Pillbug, any piece on top of the hive) and the Grasshopper, ascending by hex for the others;
then the throws, without repeating an action. ``HEXAROUND_PURE_PYTHON=1`` switches the
compiled one off, as it does HexAround's. The compiled one also counts perft in C
(:meth:`CompiledHiveGenerator.perft`), on a board of its own kept across apply and undo.
"""

from __future__ import annotations

import importlib
from typing import Any, Protocol

from hexaround.hexgrid import NEAR, RUNS
from hexaround.movegen import compiled_generators_enabled
from hexaround.position import Position

from hive.rules import MOSQUITO, PILLBUG, reach, steps, throws

try:
    _hivegen: Any = importlib.import_module("hive._hivegen")
except ImportError:  # built without a C compiler: the Python generator does the work
    _hivegen = None

Action = tuple[int, "int | None", int]


class HiveEngine(Protocol):
    """What the generators read of :class:`hive.engine.HiveEngine`."""

    position: Position
    #: Hex of every piece on the board, by code (insertion order: the generators' order).
    where: dict[int, int]
    #: The code of the piece moved last (frozen for this turn), or -1.
    last: int
    code_type: tuple[int, ...]
    code_name: tuple[str, ...]
    ref_texts: tuple[tuple[str, ...], ...]


def native_hive_generator_available() -> bool:
    """True if Hive's compiled generator is built and not switched off."""
    return _hivegen is not None and compiled_generators_enabled()


class PythonHiveGenerator:
    """Hive's pieces on the board, in Python (the readable reference of the C one)."""

    __slots__ = ()

    def moves(self, engine: HiveEngine, p: int) -> list[Action]:
        """The moves and throws of ``p``'s pieces on the board."""
        position = engine.position
        stacks = position.stacks
        nmask = position.nmask
        last = engine.last
        ctype = engine.code_type
        analysis = None
        throwers = False
        out: list[Action] = []
        for code, src in engine.where.items():
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
                    analysis = position.analysis()
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
            del stacks[src]
            position.lift(src)
            if t == MOSQUITO:
                found: set[int] = set()
                for kind in set(tops):
                    if kind != MOSQUITO:
                        found.update(reach(position, src, kind))
                dests: Any = sorted(found)
            else:
                dests = reach(position, src, t)
                if type(dests) is set:
                    dests = sorted(dests)
            position.drop(src)
            stacks[src] = s
            for d in dests:
                out.append((code, src, d))
        if throwers:
            if analysis is None:
                analysis = position.analysis()
            self._throws(engine, p, analysis.sep, out)
            out = list(dict.fromkeys(out))
        return out

    @staticmethod
    def _throws(engine: HiveEngine, p: int, cuts: Any, out: list[Action]) -> None:
        """The Pillbug's ability, for p's Pillbug and for p's Mosquito next to a Pillbug."""
        stacks = engine.position.stacks
        nmask = engine.position.nmask
        ctype = engine.code_type
        last = engine.last
        where = engine.where
        frozen = where.get(last) if last >= 0 else None
        for code, h in where.items():
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


class CompiledHiveGenerator:
    """The C generator for one game type (it keeps no position between calls, so one serves
    every copy of an engine; it is rebuilt, never pickled)."""

    __slots__ = ("native",)

    def __init__(self, engine: HiveEngine) -> None:
        #: The ``hive._hivegen.Generator`` object.
        self.native = _hivegen.Generator(engine.code_type, engine.code_name, engine.ref_texts)

    def moves(self, engine: HiveEngine, p: int) -> list[Action] | None:
        """The compiled generator's list; None for far coordinates."""
        return self.native.moves(
            engine.position.stacks, engine.where, p, engine.last)

    def perft(self, engine: HiveEngine, depth: int,
              seen: list[int] | None = None) -> int | None:
        """The leaves ``depth`` (1 or more) plies below the engine's ongoing position,
        counted in C with bulk counting at the last ply (the C module keeps its own board
        across apply and undo); ``seen``: None, or for the repetition rule the
        :meth:`repetition_key` of every position the game has reached by a move (repeats
        included). None leaves the count to :func:`hive.engine.perft_by_walk` (a hive too
        far out, or too deep a count)."""
        position = engine.position
        count: int | None = self.native.perft(position.stacks, position.hands,
                                              position.actions, engine.last, depth, seen)
        return count

    def repetition_key(self, stacks: dict[int, list[int]], to_move: int, last: int) -> int:
        """A position's hash for the repetition rule of :meth:`perft`."""
        key: int = self.native.repetition_key(stacks, to_move, last)
        return key

    def move_strings(self, stacks: dict[int, list[int]],
                     actions: list[Action]) -> list[str] | None:
        """The canonical MoveStrings of ``actions`` in the position ``stacks`` (None: the
        position is left to :func:`hive.directions.move_string`)."""
        return self.native.move_strings(stacks, actions)

    def __reduce__(self) -> tuple[Any, ...]:
        raise TypeError("a compiled generator is rebuilt from its game type, not copied")


#: The one Python generator (it keeps nothing of its own).
PYTHON_HIVE_GENERATOR = PythonHiveGenerator()


def hive_generator(engine: HiveEngine) -> CompiledHiveGenerator | PythonHiveGenerator:
    """The compiled generator where it is built and not switched off, else Python's."""
    if native_hive_generator_available():
        return CompiledHiveGenerator(engine)
    return PYTHON_HIVE_GENERATOR
