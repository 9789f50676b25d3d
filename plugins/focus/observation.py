"""Focus positions as numpy planes, read straight from the stacks (the default reads the
board view, several times slower, and knows nothing of captures).

Planes of ``rows x cols`` of the variant's grid, for an observing seat, seats counted from
it (0 = the observer): ``height * players`` planes, one per level from the top of a stack
(0 = the top piece) and seat, 1 where that seat's piece is at that level; then per seat its
reserve, its captures and whether it is still in the game (filled planes); one plane per
seat, filled, for the seat to move; and 1 on the board's squares.
"""

from __future__ import annotations

from typing import Any

from hexkit.game import State
from hexkit.kit.actions import numpy_module


class FocusPlanes:
    """The layout of one Focus rules' planes, built once per rules."""

    def __init__(self, rules: Any):
        np = numpy_module()
        variant = rules.variant
        self.players = n = rules.players
        self.height = rules.max_height
        self.area = variant.rows * variant.cols
        self.shape = (self.height * n + 3 * n + n + 1, variant.rows, variant.cols)
        self.flat = [r * variant.cols + c for r, c in rules.squares]
        self.reserve = self.height * n
        self.captured = self.reserve + n
        self.active = self.captured + n
        self.turn = self.active + n
        self.board = np.zeros(self.area, dtype=np.float32)
        self.board[self.flat] = 1.0

    def describe(self) -> str:
        """The channels, for people."""
        n, h = self.players, self.height
        return (
            f"float32 {self.shape[0]} x {self.shape[1]} x {self.shape[2]}: channels "
            f"0..{h * n - 1} level (0 = top) x seat from the observer: that seat's piece "
            f"there; {self.reserve}..{self.captured - 1} reserve per seat; "
            f"{self.captured}..{self.active - 1} captures per seat; "
            f"{self.active}..{self.turn - 1} seat still in the game; "
            f"{self.turn}..{self.turn + n - 1} seat to move; {self.turn + n} the board."
        )


def planes_for(rules: Any) -> FocusPlanes:
    """The planes layout of ``rules`` (made once and kept on them)."""
    found = rules.__dict__.get("_planes")
    if found is None:
        found = rules._planes = FocusPlanes(rules)
    return found


def observe(state: State, seat: int) -> Any:
    """The planes of a Focus position seen by ``seat``."""
    np = numpy_module()
    rules = state.rules  # type: ignore[attr-defined]
    layout = planes_for(rules)
    n, area, height = layout.players, layout.area, layout.height
    out = np.zeros(layout.shape[0] * area, dtype=np.float32)
    ones = []
    flat = layout.flat
    for i, stack in enumerate(state._stacks):  # type: ignore[attr-defined]
        if stack:
            base = flat[i]
            level = 0
            for owner in reversed(stack):
                if level == height:
                    break
                ones.append((level * n + (owner - seat) % n) * area + base)
                level += 1
    out[ones] = 1.0
    reserve, captured = state._reserve, state._captured  # type: ignore[attr-defined]
    active = state._active  # type: ignore[attr-defined]
    for s in range(n):
        rel = (s - seat) % n
        if reserve[s]:
            out[(layout.reserve + rel) * area:(layout.reserve + rel + 1) * area] = reserve[s]
        if captured[s]:
            out[(layout.captured + rel) * area:(layout.captured + rel + 1) * area] = captured[s]
        if active[s]:
            out[(layout.active + rel) * area:(layout.active + rel + 1) * area] = 1.0
    rel = (state.current_player - seat) % n
    out[(layout.turn + rel) * area:(layout.turn + rel + 1) * area] = 1.0
    out[(layout.turn + n) * area:] = layout.board
    return out.reshape(layout.shape)
