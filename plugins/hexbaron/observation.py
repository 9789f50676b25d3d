"""Hex Baron positions as numpy planes, read from the position: pieces by kind, terrain,
resources, victory points and the command within the turn (the default from the view
would know neither terrain nor resources).

The grid is the view's (flat-topped hexes at axial ``(x, z)``: rows ``z``, columns ``x``),
seats counted from the observer (0 = the observer). Channels: per seat and piece kind (the
catalogue's order) 1 where that piece stands; per terrain (the catalogue's order) 1 on
tiles of it; per seat and resource its amount, then per seat its VPs (filled planes); the
command of the turn (3 planes, one filled); per seat, filled, whether it is to move; and
1 on the grid's tiles.
"""

from __future__ import annotations

import weakref
from typing import Any

from hexkit.game import Game, State
from hexkit.kit.actions import numpy_module

#: Each game's layout, made once (kept while the game lives).
_LAYOUTS: weakref.WeakKeyDictionary[Game, HexBaronPlanes] = weakref.WeakKeyDictionary()


class HexBaronPlanes:
    """The layout of one game's planes, built once per game."""

    def __init__(self, game: Game):
        np = numpy_module()
        probe = game.new_state(seed=0)
        pos = probe.pos  # type: ignore[attr-defined]
        grid = game.view_planes()
        self.rows, self.cols = grid.rows, grid.cols
        self.area = self.rows * self.cols
        self.flat = [grid.place[pos.cell(t)][0] * self.cols + grid.place[pos.cell(t)][1]
                     for t in range(pos.n)]
        catalogue = pos.catalogue
        self.kinds = {name: i for i, name in enumerate(catalogue.pieces)}
        self.terrains = {symbol: i for i, symbol in enumerate(catalogue.terrains)}
        self.resources = tuple(catalogue.resources)
        k, t, r = len(self.kinds), len(self.terrains), len(self.resources)
        self.terrain = 2 * k
        self.resource = self.terrain + t
        self.vps = self.resource + 2 * r
        self.command = self.vps + 2
        self.turn = self.command + 3
        self.shape = (self.turn + 3, self.rows, self.cols)
        self.board = np.zeros(self.area, dtype=np.float32)
        self.board[self.flat] = 1.0

    def describe(self) -> str:
        """The channels, for people."""
        k = len(self.kinds)
        return (
            f"float32 {self.shape[0]} x {self.rows} x {self.cols}: channels 0..{2 * k - 1} "
            f"seat (from the observer) x piece kind ({', '.join(self.kinds)}); "
            f"{self.terrain}..{self.resource - 1} terrain ({', '.join(self.terrains)}); "
            f"{self.resource}..{self.vps - 1} seat x resource ({', '.join(self.resources)}); "
            f"{self.vps}..{self.vps + 1} VPs per seat; {self.command}..{self.command + 2} the "
            f"command of the turn; {self.turn}..{self.turn + 1} seat to move; "
            f"{self.turn + 2} the grid."
        )


def planes_for(game: Game) -> HexBaronPlanes:
    """The layout of ``game``'s planes (made once and kept on the game)."""
    found = _LAYOUTS.get(game)
    if found is None:
        found = _LAYOUTS[game] = HexBaronPlanes(game)
    return found


def observe(state: State, seat: int) -> Any:
    """The planes of a Hex Baron position seen by ``seat``."""
    np = numpy_module()
    layout = planes_for(state.game)
    pos = state.pos  # type: ignore[attr-defined]
    area, flat, kinds, terrains = layout.area, layout.flat, layout.kinds, layout.terrains
    k = len(kinds)
    out = np.zeros(layout.shape[0] * area, dtype=np.float32)
    ones = []
    for tile, piece in enumerate(pos.pieces):
        if piece is not None:
            ones.append((((piece.owner - seat) % 2) * k + kinds[piece.kind]) * area + flat[tile])
    for tile, symbol in enumerate(pos.terrain):
        ones.append((layout.terrain + terrains[symbol]) * area + flat[tile])
    out[ones] = 1.0
    r = len(layout.resources)
    for s in (0, 1):
        rel = (s - seat) % 2
        for i, name in enumerate(layout.resources):
            channel = layout.resource + rel * r + i
            out[channel * area:(channel + 1) * area] = pos.resources[s].get(name, 0)
        channel = layout.vps + rel
        out[channel * area:(channel + 1) * area] = pos.vps[s]
    channel = layout.command + pos.command
    out[channel * area:(channel + 1) * area] = 1.0
    channel = layout.turn + (pos.seat - seat) % 2
    out[channel * area:(channel + 1) * area] = 1.0
    out[(layout.turn + 2) * area:] = layout.board
    return out.reshape(layout.shape)
