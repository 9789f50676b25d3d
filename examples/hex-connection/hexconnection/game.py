"""The rules of Hex: the moves, the game (options and tables) and the state.

Red joins the top and bottom rows, Blue the left and right columns. Each turn a player puts
one stone of their colour on an empty cell; stones never move. The board cannot fill up
without one player connecting, so Hex has no draws.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hexkit import (
    BoundedHexBoard,
    Game,
    GameSpec,
    Hex,
    IllegalMoveError,
    Move,
    MoveParseError,
    Outcome,
    State,
)
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.view import BoardView

from hexconnection.render import board_view, render_text

RED, BLUE = 0, 1
EMPTY = -1
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
GOALS = ("connected top and bottom", "connected left and right")

# A column letter then a row number without leading zero: "c3", "k11".
CELL_TEXT = re.compile(r"([a-z])([1-9][0-9]?)")


@dataclass(frozen=True)
class Place(Move):
    """Put a stone on the cell in column ``q`` (a, b, ...) and row ``r`` (1, 2, ...)."""

    q: int
    r: int

    def __str__(self) -> str:
        return f"{COLUMNS[self.q]}{self.r + 1}"


@dataclass(frozen=True)
class Swap(Move):
    """The pie rule: as the second move, Blue takes over Red's opening stone."""

    def __str__(self) -> str:
        return "swap"


#: A move of Hex.
HexMove = Place | Swap


class HexGame(Game):
    """Hex with its options fixed: the board and the tables every state shares."""

    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        super().__init__(spec, options)
        n = self.size = self.options["size"]
        self.swap_rule: bool = self.options["swap"]
        # rhombus() numbers the cells row by row: cell r * n + q is Hex(q, r).
        self.board = BoundedHexBoard.rhombus(n, n)
        cells = self.board.cells
        self.neighbours = self.board.neighbour_index
        #: The move that fills each cell, made once so that legal_moves() allocates nothing.
        self.places = tuple(Place(q, r) for q, r in cells)
        # Four extra union-find nodes stand for the board's edges.
        self.top, self.bottom, self.left, self.right = range(n * n, n * n + 4)
        #: edges[colour][cell]: the edge nodes a stone of that colour on that cell touches.
        self.edges = (
            tuple(_touching((self.top, r == 0), (self.bottom, r == n - 1)) for q, r in cells),
            tuple(_touching((self.left, q == 0), (self.right, q == n - 1)) for q, r in cells),
        )
        #: The cell reflected in the long diagonal, (q, r) -> (r, q): where a swap puts Blue.
        self.mirror = tuple(self.board.index[Hex(r, q)] for q, r in cells)

    def new_state(self, seed: int | None = None) -> HexState:
        """The empty board, Red to move."""
        return HexState(self, seed)


def _touching(*pairs: tuple[int, bool]) -> tuple[int, ...]:
    return tuple(node for node, touches in pairs if touches)


class HexState(State[HexGame, HexMove]):
    """A Hex position: one entry per cell (EMPTY, RED or BLUE).

    Connections are kept in a union-find over the cells and the four edge nodes, updated
    as each stone is placed. Every change goes through ``self.journal``, so a refused move
    and ``pop`` roll it back exactly; the union-find links by size and never compresses
    paths, so each union is two small journaled changes.
    """

    def __init__(self, game: HexGame, seed: int | None = None):
        super().__init__(game, seed)
        nodes = len(game.places) + 4
        self.stones = [EMPTY] * len(game.places)
        self.parent = list(range(nodes))
        self.weight = [1] * nodes  # the size of each union-find tree, at its root
        self.swapped = False

    def legal_moves(self) -> list[HexMove]:
        if self.outcome() is not None:
            return []
        places = self.game.places
        moves: list[HexMove] = [places[i] for i, s in enumerate(self.stones) if s == EMPTY]
        if self._may_swap():
            moves.append(Swap())
        return moves

    def parse_move(self, text: str) -> HexMove:
        word = text.strip().lower()
        if word == "swap":
            return Swap()
        match = CELL_TEXT.fullmatch(word)
        if match is None:
            raise MoveParseError(
                f"cannot read {text!r}: type a cell as column letter and row number, e.g. c3"
            )
        return Place(COLUMNS.index(match[1]), int(match[2]) - 1)

    def apply(self, move: Move) -> None:
        outcome = self.outcome()
        if outcome is not None:
            raise IllegalMoveError(f"the game is over: {self.players[outcome.winners[0]]} "
                                   "has won")
        if isinstance(move, Place):
            self._place(move)
        elif isinstance(move, Swap):
            self._swap()
        else:
            raise IllegalMoveError(f"{move!r} is not a Hex move")
        self.advance_turn()

    def _place(self, move: Place) -> None:
        n = self.game.size
        if not (0 <= move.q < n and 0 <= move.r < n):
            raise IllegalMoveError(f"{move} is not on the {n}x{n} board")
        cell = move.r * n + move.q
        if self.stones[cell] != EMPTY:
            raise IllegalMoveError(f"{move} is taken by {self.players[self.stones[cell]]}")
        self._put(cell, self.current_player)

    def _swap(self) -> None:
        if not self.game.swap_rule:
            raise IllegalMoveError("the swap rule is off in this game (option swap=false)")
        if not self._may_swap():
            raise IllegalMoveError("swap is allowed only as Blue's first move, after Red's")
        red = self.stones.index(RED)
        # Red's stone is the only one: it was joined to its edges only. Make them single
        # again, then Blue's stone goes on the mirrored cell.
        for node in (red, *self.game.edges[RED][red]):
            self.journal.set_item("parent", node, node)
            self.journal.set_item("weight", node, 1)
        self.journal.set_item("stones", red, EMPTY)
        self._put(self.game.mirror[red], BLUE)
        self.journal.set("swapped", True)

    def _may_swap(self) -> bool:
        return self.game.swap_rule and self.turn_order.turns_taken == (1, 0)

    # -- connections -----------------------------------------------------------------------
    def _put(self, cell: int, colour: int) -> None:
        """A stone on ``cell``, joined to its same-coloured neighbours and its edges."""
        self.journal.set_item("stones", cell, colour)
        stones = self.stones
        for other in self.game.neighbours[cell]:
            if stones[other] == colour:
                self._union(cell, other)
        for edge in self.game.edges[colour][cell]:
            self._union(cell, edge)

    def _find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            node = parent[node]
        return node

    def _union(self, a: int, b: int) -> None:
        a, b = self._find(a), self._find(b)
        if a == b:
            return
        if self.weight[a] < self.weight[b]:
            a, b = b, a
        self.journal.set_item("parent", b, a)
        self.journal.set_item("weight", a, self.weight[a] + self.weight[b])

    def _connected(self, colour: int) -> bool:
        g = self.game
        if colour == RED:
            return self._find(g.top) == self._find(g.bottom)
        return self._find(g.left) == self._find(g.right)

    def outcome(self) -> Outcome | None:
        for colour in (RED, BLUE):
            if self._connected(colour):
                return Outcome((colour,), GOALS[colour])
        return None

    # -- for people and user interfaces -------------------------------------------------
    def gesture(self, move: HexMove) -> Gesture:
        """A stone comes from the mover's hand to its cell; a swap is made without a cell."""
        if isinstance(move, Swap):
            return Gesture(None, None, "stone")
        return Gesture(Hand(self.current_player, "stone"), (move.q, move.r), "stone")

    def render(self) -> str:
        return render_text(self)

    def view(self) -> BoardView:
        return board_view(self)

    def move_help(self) -> str:
        n = self.game.size
        text = (
            f"Type a cell as column letter and row number, e.g. c3 (columns a-{COLUMNS[n - 1]},"
            f" rows 1-{n}). Red joins the top and bottom rows, Blue the left and right columns."
        )
        if self.game.swap_rule:
            text += " As Blue's first move, 'swap' takes over Red's opening stone (pie rule)."
        return text
