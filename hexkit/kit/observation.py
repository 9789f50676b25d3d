"""The default observation of a position: numpy planes read from its board view.

:class:`ViewPlanes` lays the cells of a game's starting view on a grid (square boards by
``(row, col)``, hex boards by axial ``(q, r)`` as rows ``r`` and columns ``q``) and fills,
for an observing seat, float32 planes of shape ``(channels, rows, cols)``:

* per seat, counted from the observer (0 = the observer, 1 = the next seat...): 1 where
  that seat's piece is on top of the cell, and how many of that seat's pieces the cell
  holds (stack levels);
* how many neutral pieces each cell holds;
* 1 on every cell of the board (the grid's other squares are padding);
* per seat from the observer and per hand kind: that many pieces in hand, on every square;
* per seat from the observer: 1 everywhere if that seat is to move.

Games whose view is slow to build, or that know more (piece kinds, resources), give
``State.observation`` of their own; this default serves every game with a fixed board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeAlias

from hexkit.kit.actions import ActionSpaceError, numpy_module

if TYPE_CHECKING:
    import numpy

    from hexkit.kit.view import BoardView


# hexkit.game imports this module, so its Game and State are named as Any here.
Game: TypeAlias = Any
State: TypeAlias = Any


class ViewPlanes:
    """The grid and channel layout of one game's default observation."""

    def __init__(self, game: Game):
        view = game.new_state(seed=0).view()
        if not view.cells:
            raise ActionSpaceError(f"{game} has no default observation: its view shows no "
                                   "cells (give its states an observation())")
        self.seats = len(game.player_names)
        self.hex = view.topology == "hex"
        points = [self._point(c.at) for c in view.cells]
        top = min(p[0] for p in points)
        left = min(p[1] for p in points)
        self.rows = max(p[0] for p in points) - top + 1
        self.cols = max(p[1] for p in points) - left + 1
        self.place = {tuple(c.at): (p[0] - top, p[1] - left)
                      for c, p in zip(view.cells, points, strict=True)}
        self.kinds = tuple(sorted({h.kind for h in view.hands}))
        n, k = self.seats, len(self.kinds)
        #: First channel of each group.
        self.top_channel, self.count_channel = 0, n
        self.neutral_channel = 2 * n
        self.board_channel = 2 * n + 1
        self.hand_channel = 2 * n + 2
        self.turn_channel = self.hand_channel + n * k
        self.channels = self.turn_channel + n
        self.shape = (self.channels, self.rows, self.cols)
        np = numpy_module()
        self.board = np.zeros((self.rows, self.cols), dtype=np.float32)
        for r, c in self.place.values():
            self.board[r, c] = 1.0

    def _point(self, at: Any) -> tuple[int, int]:
        a, b = at
        return (b, a) if self.hex else (a, b)

    def planes(self, state: State, seat: int) -> numpy.ndarray:
        """The observation of ``state`` seen by ``seat``."""
        return self.fill(state.view(), state.current_player, seat)

    def fill(self, view: BoardView, to_move: int, seat: int) -> numpy.ndarray:
        """The planes of a view, for ``seat``, with ``to_move`` to act."""
        np = numpy_module()
        n = self.seats
        out: numpy.ndarray = np.zeros(self.shape, dtype=np.float32)
        place = self.place
        for cell in view.cells:
            at = place.get(tuple(cell.at))
            if at is None or not cell.pieces:
                continue
            r, c = at
            for piece in cell.pieces:
                if piece.owner is None:
                    out[self.neutral_channel, r, c] += 1
                else:
                    out[self.count_channel + (piece.owner - seat) % n, r, c] += 1
            owner = cell.pieces[-1].owner
            if owner is not None:
                out[self.top_channel + (owner - seat) % n, r, c] = 1
        out[self.board_channel] = self.board
        k = len(self.kinds)
        for hand in view.hands:
            if hand.kind in self.kinds and 0 <= hand.seat < n:
                rel = (hand.seat - seat) % n
                out[self.hand_channel + rel * k + self.kinds.index(hand.kind)] = hand.count
        out[self.turn_channel + (to_move - seat) % n] = 1
        return out

    def describe(self) -> str:
        """The channels, for people."""
        n, k = self.seats, len(self.kinds)
        kinds = ", ".join(repr(x) for x in self.kinds) or "none"
        grid = "axial q across, r down" if self.hex else "row, column"
        return (
            f"float32 {self.channels} x {self.rows} x {self.cols} ({grid}); channels "
            f"0..{n - 1}: top piece of each seat counted from the observer; {n}..{2 * n - 1}: "
            f"pieces of each seat in the stack; {2 * n}: neutral pieces; {2 * n + 1}: the "
            f"board's cells; {self.hand_channel}..{self.turn_channel - 1}: pieces in hand "
            f"per seat and kind ({kinds}); {self.turn_channel}..{self.channels - 1}: the "
            f"seat to move (from the observer). {k} hand kinds."
        )
