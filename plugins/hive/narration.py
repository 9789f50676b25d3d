"""What a Hive move did, as game events (the move itself is in its MoveString): a pass, a
Pillbug's throw of an opponent's piece, a climb that pins a piece, a Queen nearly
surrounded."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexaround.hexgrid import OFFSETS, coords_of

from hexkit.kit.events import PASSED, STACKED
from hive.engine import HiveEngine

THROWN = "thrown"
QUEEN_DANGER = "queen_danger"
_COLOUR = ("White", "Black")


def emit_events(engine: HiveEngine, emit: Callable[..., Any],
                action: tuple[int, int | None, int], text: str) -> None:
    """Emit the events of ``action`` (about to be applied to ``engine``) through ``emit``
    (the state's :meth:`hexkit.State.emit`)."""
    p = engine.to_move
    code, src, dst = action
    if code < 0:
        emit(PASSED, f"{_COLOUR[p]} passes: no other move is legal.", p)
        return
    name = engine.code_name[code]
    if src is not None and code & 1 != p:
        emit(THROWN, f"{_COLOUR[p]}'s Pillbug ability moves {name} ({text}).", p,
                   (coords_of(src), coords_of(dst)), piece=name)
    below = engine.stacks.get(dst)
    if below and dst != src:
        under = engine.code_name[below[-1]]
        emit(STACKED, f"{name} climbs onto {under}, which cannot move while covered.",
                   p, (coords_of(dst),), piece=name, covered=under, height=len(below) + 1)
    # The Queens' neighbours after the move: warn when one is one hex from being surrounded.
    stacks = engine.stacks
    lifted = src if src is not None and len(stacks[src]) == 1 else None
    for q in (0, 1):
        at = dst if code == q else engine.bpos[q]
        if at is None:
            continue
        around = [n for n in _neighbours(at) if (n in stacks and n != lifted) or n == dst]
        before = sum(1 for n in _neighbours(at) if n in stacks) if code != q else -1
        if len(around) == 5 and before != 5:
            emit(QUEEN_DANGER, f"{_COLOUR[q]}'s Queen Bee has one free neighbour left.",
                       q, (coords_of(at),), free=1)


def _neighbours(key: int) -> list[int]:
    return [key + o for o in OFFSETS]
