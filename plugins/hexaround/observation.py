"""HexAround positions as numpy planes on a window (the hexes within 6 of (0, 0), on a
13 x 13 grid: rows ``y + 6``, columns ``x + 6``; OpenSpiel's README: most Hive games stay
within 6 of the first tile). The action space needs no window (hexaround.actions).

Seats are counted from the observer (0 = the observer). Channels: per seat and creature
kind (the configuration's order) 1 where that creature is on top of a stack; per seat and
kind how many of them the stack holds; per seat and kind how many are in hand (filled
planes); per seat, filled, whether it is to move; 1 on the window's hexes. Creatures
outside the window are not seen.
"""

from __future__ import annotations

import weakref
from typing import Any

from hexaround.hexgrid import key_of
from hexkit.game import Game, State
from hexkit.kit.actions import numpy_module

#: Hexes from (0, 0) to the window's edge.
WINDOW_RADIUS = 6


class Window:
    """The hexes within ``radius`` of (0, 0), numbered row by row (``y`` then ``x``), and
    their places on a ``(2r + 1) x (2r + 1)`` grid (rows ``y + r``, columns ``x + r``)."""

    def __init__(self, radius: int = WINDOW_RADIUS):
        self.radius = r = radius
        self.side = 2 * r + 1
        self.hexes: tuple[tuple[int, int], ...] = tuple(
            (x, y) for y in range(-r, r + 1) for x in range(-r, r + 1)
            if max(abs(x), abs(y), abs(x + y)) <= r
        )
        self.index = {h: i for i, h in enumerate(self.hexes)}
        self.size = len(self.hexes)
        #: Flat index of each window hex on the grid.
        self.flat = tuple((y + r) * self.side + (x + r) for x, y in self.hexes)


#: Each game's layout, made once (kept while the game lives).
_LAYOUTS: weakref.WeakKeyDictionary[Game, WindowPlanes] = weakref.WeakKeyDictionary()


class WindowPlanes:
    """The layout of one game's planes, built once per game."""

    def __init__(self, game: Game, window: Window | None = None):
        np = numpy_module()
        engine = game.new_state(seed=0).engine  # type: ignore[attr-defined]
        self.window = window or Window()
        self.kinds = len(engine.names)
        self.names = tuple(engine.names)
        self.area = self.window.side ** 2
        k = self.kinds
        self.count = 2 * k
        self.hand = 4 * k
        self.turn = 6 * k
        self.shape = (6 * k + 3, self.window.side, self.window.side)
        self.board = np.zeros(self.area, dtype=np.float32)
        self.board[list(self.window.flat)] = 1.0
        #: Flat grid index of each engine key inside the window.
        self.place: dict[int, int] = {}
        for (x, y), flat in zip(self.window.hexes, self.window.flat, strict=True):
            self.place[key_of(x, y)] = flat

    def describe(self) -> str:
        """The channels, for people."""
        k = self.kinds
        return (
            f"float32 {self.shape[0]} x {self.shape[1]} x {self.shape[2]}: channels "
            f"0..{2 * k - 1} seat (from the observer) x kind ({', '.join(self.names)}) on top; "
            f"{2 * k}..{4 * k - 1} seat x kind, how many in the stack; {4 * k}..{6 * k - 1} "
            f"seat x kind in hand; {6 * k}..{6 * k + 1} seat to move; {6 * k + 2} the window."
        )


def planes_for(game: Game) -> WindowPlanes:
    """The layout of ``game``'s planes (made once and kept on the game)."""
    found = _LAYOUTS.get(game)
    if found is None:
        found = _LAYOUTS[game] = WindowPlanes(game)
    return found


def observe(state: State, seat: int) -> Any:
    """The planes of a HexAround position seen by ``seat``."""
    np = numpy_module()
    layout = planes_for(state.game)
    engine = state.engine  # type: ignore[attr-defined]
    area, k, place = layout.area, layout.kinds, layout.place
    out = np.zeros(layout.shape[0] * area, dtype=np.float32)
    tops = []
    for key, stack in engine.stacks.items():
        flat = place.get(key)
        if flat is None:
            continue
        for code in stack:
            out[(layout.count + ((code & 1) - seat) % 2 * k + (code >> 1)) * area + flat] += 1
        code = stack[-1]
        tops.append((((code & 1) - seat) % 2 * k + (code >> 1)) * area + flat)
    out[tops] = 1.0
    for p in (0, 1):
        rel = (p - seat) % 2
        for kind, n in enumerate(engine.hands[p]):
            if n:
                channel = layout.hand + rel * k + kind
                out[channel * area:(channel + 1) * area] = n
    channel = layout.turn + (engine.to_move - seat) % 2
    out[channel * area:(channel + 1) * area] = 1.0
    out[(layout.turn + 2) * area:] = layout.board
    return out.reshape(layout.shape)

