"""Hive positions as numpy planes on a 17 x 17 window of axial hexes (OpenSpiel's board
radius, 8) centred on the middle of the hive, so that the planes move with the hive (the
action numbers are relative to tiles, so the window is only what an agent sees).

Seats are counted from the observer (0 = the observer); bug types in the order
``Q S B G A M L P``. Channels: per seat and bug type 1 where that bug is on top of a stack;
per seat and bug type how many of them the stack holds; stack heights; per seat and bug
type how many are in hand (filled planes); per seat, filled, whether it is to move. A hive
wider than 17 hexes shows its middle only.
"""

from __future__ import annotations

from typing import Any

from hexaround.hexgrid import coords_of

from hexkit.game import State
from hexkit.kit.actions import numpy_module
from hive.engine import LETTERS

RADIUS = 8
SIDE = 2 * RADIUS + 1
BUGS = len(LETTERS)
#: First channel of each group.
COUNT, HEIGHT, HAND, TURN = 2 * BUGS, 4 * BUGS, 4 * BUGS + 1, 6 * BUGS + 1
SHAPE = (TURN + 2, SIDE, SIDE)


def describe() -> str:
    """The channels, for people."""
    return (
        f"float32 {SHAPE[0]} x {SIDE} x {SIDE} (axial q across, r down, centred on the "
        f"hive): channels 0..{COUNT - 1} seat (from the observer) x bug ({' '.join(LETTERS)})"
        f" on top; {COUNT}..{HEIGHT - 1} seat x bug, how many in the stack; {HEIGHT} stack "
        f"height; {HAND}..{TURN - 1} seat x bug in hand; {TURN}..{TURN + 1} seat to move."
    )


def observe(state: State, seat: int) -> Any:
    """The planes of a Hive position seen by ``seat``."""
    np = numpy_module()
    engine = state.engine  # type: ignore[attr-defined]
    out = np.zeros(SHAPE, dtype=np.float32)
    stacks = engine.stacks
    code_type = engine.code_type
    if stacks:
        cells = [(coords_of(key), stack) for key, stack in stacks.items()]
        qs = [c[0][0] for c in cells]
        rs = [c[0][1] for c in cells]
        dq = RADIUS - (min(qs) + max(qs)) // 2
        dr = RADIUS - (min(rs) + max(rs)) // 2
        for (q, r), stack in cells:
            col, row = q + dq, r + dr
            if not (0 <= row < SIDE and 0 <= col < SIDE):
                continue
            for code in stack:
                out[COUNT + ((code & 1) - seat) % 2 * BUGS + code_type[code], row, col] += 1
            top = stack[-1]
            out[((top & 1) - seat) % 2 * BUGS + code_type[top], row, col] = 1
            out[HEIGHT, row, col] = len(stack)
    for colour in (0, 1):
        rel = (colour - seat) % 2
        for index, left in enumerate(engine.hands[colour]):
            if left:
                out[HAND + rel * BUGS + code_type[2 * index + colour]] += left
    out[TURN + (engine.to_move - seat) % 2] = 1
    return out
