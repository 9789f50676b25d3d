"""Perft: count the leaf positions of a game's tree to a given depth (python-chess style).

Perft is the standard correctness test and speed measure of move generators: the number
of move sequences of length ``depth`` from a position, counting a finished game as a leaf
with no children. At the last level the moves are counted, not played ("bulk counting").

Any :class:`~hexkit.game.State` works through ``legal_moves``/``push``/``pop``. A game with
a faster counter of its own may give its state a method ``perft(depth) -> int`` returning
the same numbers; :func:`perft` then uses it (``naive=True`` always walks the generic way).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from hexkit.game import State


def perft(state: State, depth: int, *, naive: bool = False) -> int:
    """The number of leaf positions ``depth`` moves below ``state`` (bulk counted).

    ``naive`` walks every leaf with push/pop even where the game has its own counter.
    The state is left exactly as it was."""
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, not {depth}")
    if depth == 0:
        return 1
    own = None if naive else getattr(state, "perft", None)
    if own is not None:
        return int(own(depth))
    return _count(state, depth)


def _count(state: State, depth: int) -> int:
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    total = 0
    push, pop = state.push, state.pop
    for move in moves:
        push(move)
        total += _count(state, depth - 1)
        pop()
    return total


def divide(state: State, depth: int, *, naive: bool = False) -> list[tuple[str, int]]:
    """Perft split by the first move: ``(move text, leaves below it)`` for every legal
    move, in the order of ``legal_moves()``. Their sum is ``perft(state, depth)``."""
    if depth < 1:
        raise ValueError(f"perft --divide needs a depth of 1 or more, not {depth}")
    rows = []
    for move in list(state.legal_moves()):
        state.push(move)
        try:
            rows.append((str(move), perft(state, depth - 1, naive=naive)))
        finally:
            state.pop()
    return rows


@dataclass(frozen=True)
class PerftLine:
    """One depth of a perft run: the leaf count and how long counting it took."""

    depth: int
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        """Leaves counted per second (0 when too quick to time)."""
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def perft_lines(state: State, max_depth: int, *, start: int = 1,
                naive: bool = False) -> Iterator[PerftLine]:
    """Perft at each depth from ``start`` to ``max_depth``, timed, as each finishes."""
    for depth in range(start, max_depth + 1):
        began = time.perf_counter()
        nodes = perft(state, depth, naive=naive)
        yield PerftLine(depth, nodes, time.perf_counter() - began)
