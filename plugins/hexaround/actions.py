"""HexAround's fixed action space, on a bounded window around the first hex as OpenSpiel
bounds Hive's board: HexAround's board has no edge, so its moves are numbered on the
``WINDOW_RADIUS`` = 6 hexes around (0, 0) (127 hexes), where the first creature is placed
(OpenSpiel's README: most Hive games stay within 6 of the first tile).

Action 0 is ``pass``; then ``place KIND x y`` for each creature kind (the configuration's
order) and window hex; then ``move KIND x y x' y'`` for each kind and pair of window hexes
(any creature of a stack may move in some variants, so the kind is part of the number). A
move to or from a hex outside the window has no
number and is left out of the mask (OpenSpiel calls such games a draw; the adapters do
the same when no legal move is left inside).
"""

from __future__ import annotations

from typing import Any

from hexkit.game import Game, Move
from hexkit.kit.actions import ActionSpace, ActionSpaceError

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


class HexAroundActions(ActionSpace):
    """pass, placements (kind x window hex), moves (kind x window hex x window hex)."""

    def __init__(self, game: Game, radius: int = WINDOW_RADIUS):
        engine = game.new_state(seed=0).engine  # type: ignore[attr-defined]
        self.kinds: tuple[str, ...] = tuple(engine.names)
        self.kind_index = {k: i for i, k in enumerate(self.kinds)}
        self.window = Window(radius)
        w = self.window.size
        self.moves_from = 1 + len(self.kinds) * w
        self.num_actions = self.moves_from + len(self.kinds) * w * w

    def action_of(self, move: Move) -> int:
        index = self.window.index
        w = self.window.size
        # HexAround's moves are tuples: () pass, (kind, x, y), (kind, fx, fy, tx, ty).
        values: tuple[Any, ...] = tuple(move) if isinstance(move, tuple) else ()
        try:
            if not values:
                if str(move) == "pass":
                    return 0
            elif len(values) == 3:
                kind, x, y = values
                return 1 + self.kind_index[kind] * w + index[(x, y)]
            elif len(values) == 5:
                kind, fx, fy, tx, ty = values
                return (self.moves_from + (self.kind_index[kind] * w + index[(fx, fy)]) * w
                        + index[(tx, ty)])
        except (KeyError, TypeError, ValueError):
            pass
        raise ActionSpaceError(f"{move} has no number in the window of radius "
                               f"{self.window.radius}")

    def describe(self) -> str:
        w, k = self.window.size, len(self.kinds)
        return (
            f"{self.num_actions} actions on the {w} hexes within {self.window.radius} of "
            f"(0, 0): 0 pass; 1..{self.moves_from - 1} place KIND x y, 1 + kind * {w} + "
            f"hex ({k} kinds: {', '.join(self.kinds)}); {self.moves_from}.."
            f"{self.num_actions - 1} move KIND from one hex to another, {self.moves_from} + "
            f"(kind * {w} + from) * {w} + to (hexes numbered by y, then x)."
        )
