"""The rules of Hex: the moves, the game (options and precomputed tables) and the state.

Red joins the top and bottom rows, Blue the left and right columns. Each turn a player puts
one stone of their colour on an empty cell; stones never move. The board cannot fill up
without one player connecting, so Hex has no draws.
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
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
    OptionError,
    Outcome,
    RecordError,
    State,
    rng_from_json,
    rng_to_json,
)
from hexkit.view import BoardView, CellView, PieceView

RED, BLUE = 0, 1
EMPTY = -1
PLAYERS = ("Red", "Blue")
#: One letter per seat, for the text board and saved positions.
STONES = ("R", "B")
MIN_SIZE, MAX_SIZE = 3, 19
COLUMNS = "abcdefghijklmnopqrstuvwxyz"
GOALS = ("connected top and bottom", "connected left and right")

# A column letter then a row number without leading zero: "c3", "k11".
CELL_TEXT = re.compile(r"([a-z])([1-9][0-9]?)")


# -- moves ---------------------------------------------------------------------------------
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


# -- the game ------------------------------------------------------------------------------
class HexGame(Game):
    """Hex with its options fixed; holds the board and the tables every state shares."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]):
        super().__init__(spec, options)
        n = self.options["size"]
        if not MIN_SIZE <= n <= MAX_SIZE:
            raise OptionError(f"option size: {n} is outside {MIN_SIZE}..{MAX_SIZE}")
        self.size: int = n
        self.swap_rule: bool = self.options["swap"]
        self.board = BoundedHexBoard.rhombus(n, n)
        cells = self.board.cells
        self.neighbours: tuple[tuple[int, ...], ...] = self.board.neighbour_index
        #: The move that fills each cell, made once so that legal_moves() allocates nothing.
        self.places: tuple[Place, ...] = tuple(Place(q, r) for q, r in cells)
        # Four extra union-find nodes stand for the board's edges.
        self.top, self.bottom, self.left, self.right = range(n * n, n * n + 4)
        #: edges[colour][cell]: the edge nodes a stone of that colour on that cell touches.
        self.edges: tuple[tuple[tuple[int, ...], ...], ...] = (
            tuple(_touching((self.top, r == 0), (self.bottom, r == n - 1)) for q, r in cells),
            tuple(_touching((self.left, q == 0), (self.right, q == n - 1)) for q, r in cells),
        )
        #: The cell reflected in the long diagonal, (q, r) -> (r, q): where a swap puts Blue.
        self.mirror: tuple[int, ...] = tuple(self.board.index[Hex(r, q)] for q, r in cells)
        self.terrain: tuple[str, ...] = tuple(_edge_terrain(q, r, n) for q, r in cells)

    def new_state(self, seed: int | None = None) -> HexState:
        """The empty board, Red to move."""
        return HexState(self, [EMPTY] * (self.size * self.size), False, random.Random(seed))

    def state_from_dict(self, data: Mapping[str, Any]) -> HexState:
        """Rebuild a position saved by :meth:`HexState.to_dict` (RecordError if corrupt)."""
        if not isinstance(data, Mapping):
            raise RecordError("hex position: expected a mapping")
        n = self.size
        if data.get("size") != n:
            raise RecordError(f"hex position: size {data.get('size')!r} is not this game's {n}")
        rows = data.get("rows")
        if not isinstance(rows, list) or len(rows) != n:
            raise RecordError(f"hex position: 'rows' must be a list of {n} strings")
        stones = []
        for r, row in enumerate(rows):
            if not isinstance(row, str) or len(row) != n or set(row) - set(".RB"):
                raise RecordError(f"hex position: row {r + 1} must be {n} of '.', 'R', 'B'")
            stones.extend(EMPTY if c == "." else STONES.index(c) for c in row)
        swapped = data.get("swapped")
        if not isinstance(swapped, bool) or (swapped and not self.swap_rule):
            raise RecordError("hex position: 'swapped' must be true or false (true needs swap)")
        try:
            rng = rng_from_json(data.get("rng"))
        except ValueError as exc:
            raise RecordError(f"hex position: {exc}") from None
        reds, blues = stones.count(RED), stones.count(BLUE)
        # Red opens, so Red is never behind; a swap turns Red's opening stone into Blue's.
        lead = blues - reds if swapped else reds - blues
        if lead not in (0, 1) or (swapped and reds + blues == 0):
            raise RecordError(f"hex position: {reds} red and {blues} blue stones cannot occur")
        state = HexState(self, stones, swapped, rng)
        winner = state.winner()
        if winner is not None and winner == state.current_player:
            raise RecordError(f"hex position: {PLAYERS[winner]} has won but is to move")
        return state


def _touching(*pairs: tuple[int, bool]) -> tuple[int, ...]:
    return tuple(node for node, touches in pairs if touches)


def _edge_terrain(q: int, r: int, n: int) -> str:
    red_edge = r in (0, n - 1)
    blue_edge = q in (0, n - 1)
    if red_edge and blue_edge:
        return "corner"
    return "red edge" if red_edge else "blue edge" if blue_edge else ""


# -- the state -----------------------------------------------------------------------------
class HexState(State):
    """A Hex position: one entry per cell (EMPTY, RED or BLUE) and a move stack.

    Connections are kept in a union-find over the cells plus four edge nodes, updated as
    each stone is placed. It links by size and never compresses paths, so every union can
    be undone in reverse order: :meth:`_pop` is exact and cheap.
    """

    def __init__(self, game: HexGame, stones: list[int], swapped: bool, rng: random.Random):
        super().__init__(game, rng)
        self.stones = stones
        self.swapped = swapped
        self.counts = [stones.count(RED), stones.count(BLUE)]
        self._placed: list[int] = []  # per move pushed: the cell its stone went on
        self._marks: list[int] = []  # per move pushed: the union log's length before it
        self._rebuild()

    # -- players ---------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    @property
    def current_player(self) -> int:
        # Red moves on even turns; a swap is a turn that adds no stone.
        return (self.counts[RED] + self.counts[BLUE] + self.swapped) % 2

    # -- moves -----------------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.winner() is not None:
            return []
        places = self.game.places
        moves: list[Move] = [places[i] for i, s in enumerate(self.stones) if s == EMPTY]
        if self._swap_allowed():
            moves.append(Swap())
        return moves

    def parse_move(self, text: str) -> Move:
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
        winner = self.winner()
        if winner is not None:
            raise IllegalMoveError(f"the game is over: {PLAYERS[winner]} has won")
        if isinstance(move, Place):
            self._place(move)
        elif isinstance(move, Swap):
            self._swap()
        else:
            raise IllegalMoveError(f"{move!r} is not a Hex move")

    def _place(self, move: Place) -> None:
        n = self.game.size
        if not (0 <= move.q < n and 0 <= move.r < n):
            raise IllegalMoveError(f"{move} is not on the {n}x{n} board")
        cell = move.r * n + move.q  # rhombus() numbers the cells row by row
        if self.stones[cell] != EMPTY:
            raise IllegalMoveError(f"{move} is taken by {PLAYERS[self.stones[cell]]}")
        colour = self.current_player
        self._placed.append(cell)
        self._marks.append(len(self._log))
        self.stones[cell] = colour
        self.counts[colour] += 1
        self._connect(cell, colour)

    def _swap(self) -> None:
        if not self.game.swap_rule:
            raise IllegalMoveError("the swap rule is off in this game (option swap=false)")
        if not self._swap_allowed():
            raise IllegalMoveError("swap is allowed only as Blue's first move, after Red's")
        red = self.stones.index(RED)
        blue = self.game.mirror[red]
        self._placed.append(blue)
        self._marks.append(len(self._log))
        self.stones[red] = EMPTY
        self.stones[blue] = BLUE
        self.counts = [0, 1]
        self.swapped = True
        # A stone cannot be taken out of a union-find; with one stone, rebuilding is cheap.
        self._rebuild()

    def undo(self, move: Move) -> None:
        cell = self._placed.pop()
        mark = self._marks.pop()
        if isinstance(self.move_stack[-1], Swap):
            self.stones[cell] = EMPTY
            self.stones[self.game.mirror[cell]] = RED
            self.counts = [1, 0]
            self.swapped = False
            self._rebuild()
            return
        self._rollback(mark)
        self.counts[self.stones[cell]] -= 1
        self.stones[cell] = EMPTY

    def last_stone(self) -> int | None:
        """The cell of the stone placed by the last move pushed here, or None."""
        return self._placed[-1] if self._placed else None

    def _swap_allowed(self) -> bool:
        return self.game.swap_rule and self.counts == [1, 0] and not self.swapped

    # -- connections -----------------------------------------------------------------------
    def _rebuild(self) -> None:
        """Union-find from scratch: one set per cell and edge node, then every stone."""
        total = len(self.stones) + 4
        self._parent = list(range(total))
        self._size = [1] * total
        self._log: list[int] = []  # roots that were linked under another, oldest first
        for cell, colour in enumerate(self.stones):
            if colour != EMPTY:
                self._connect(cell, colour)

    def _find(self, node: int) -> int:
        parent = self._parent
        while parent[node] != node:
            node = parent[node]
        return node

    def _union(self, a: int, b: int) -> None:
        a, b = self._find(a), self._find(b)
        if a == b:
            return
        if self._size[a] < self._size[b]:
            a, b = b, a
        self._parent[b] = a
        self._size[a] += self._size[b]
        self._log.append(b)

    def _connect(self, cell: int, colour: int) -> None:
        """Join a new stone to its same-coloured neighbours and to the edges it touches."""
        stones = self.stones
        for other in self.game.neighbours[cell]:
            if stones[other] == colour:
                self._union(cell, other)
        for edge in self.game.edges[colour][cell]:
            self._union(cell, edge)

    def _rollback(self, mark: int) -> None:
        """Undo the unions made since the log had ``mark`` entries, newest first."""
        parent, size, log = self._parent, self._size, self._log
        while len(log) > mark:
            child = log.pop()
            size[parent[child]] -= size[child]
            parent[child] = child

    def _connected(self, colour: int) -> bool:
        g = self.game
        if colour == RED:
            return self._find(g.top) == self._find(g.bottom)
        return self._find(g.left) == self._find(g.right)

    def winner(self) -> int | None:
        """The seat that has joined its two edges, or None."""
        if self._connected(RED):
            return RED
        if self._connected(BLUE):
            return BLUE
        return None

    # -- state -----------------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.winner() is not None

    def outcome(self) -> Outcome | None:
        winner = self.winner()
        if winner is None:
            return None
        return Outcome((winner,), GOALS[winner])

    def to_dict(self) -> dict[str, Any]:
        n = self.game.size
        symbols = [".", *STONES]  # index -1 is EMPTY, so shift by one
        return {
            "size": n,
            "rows": [
                "".join(symbols[s + 1] for s in self.stones[r * n:(r + 1) * n]) for r in range(n)
            ],
            "swapped": self.swapped,
            "rng": rng_to_json(self.rng),
        }

    def render(self) -> str:
        n = self.game.size
        letters = " ".join(COLUMNS[:n])
        symbols = [".", *STONES]
        lines = [f"    {letters}"]
        for r in range(n):
            row = " ".join(symbols[s + 1] for s in self.stones[r * n:(r + 1) * n])
            lines.append(f"{' ' * r}{r + 1:>2}  {row}  {r + 1}")
        lines.append(f"{' ' * (n + 3)}{letters}")
        lines.append("Red (R) joins top and bottom; Blue (B) joins left and right.")
        lines.extend(self._status())
        return "\n".join(lines)

    def view(self) -> BoardView:
        g = self.game
        cells = []
        for i, (q, r) in enumerate(g.board.cells):
            colour = self.stones[i]
            pieces = () if colour == EMPTY else (PieceView(colour, STONES[colour]),)
            cells.append(CellView((q, r), str(g.places[i]), g.terrain[i], pieces))
        highlight: tuple[tuple[int, int], ...] = ()
        if self._placed:
            q, r = g.board.cells[self._placed[-1]]
            highlight = ((q, r),)
            if isinstance(self.move_stack[-1], Swap):
                highlight += ((r, q),)
        return BoardView(
            topology="hex",
            cells=tuple(cells),
            players=PLAYERS,
            orientation="pointy",
            highlight=highlight,
            caption=("Red joins top and bottom; Blue joins left and right.", *self._status()),
            terrain_colours=(
                ("red edge", "#f4cccc"), ("blue edge", "#cfe2f3"), ("corner", "#e1d5e7"),
            ),
        )

    def _status(self) -> list[str]:
        lines = []
        if self.move_stack:
            mover = PLAYERS[1 - self.current_player]
            lines.append(f"Last move: {mover} {self.move_stack[-1]}")
        if self.swapped:
            lines.append("Blue took Red's opening stone (swap).")
        outcome = self.outcome()
        if outcome is not None:
            lines.append(f"{PLAYERS[outcome.winners[0]]} wins: {outcome.reason}.")
        else:
            lines.append(f"{PLAYERS[self.current_player]} to move.")
        return lines

    def move_help(self) -> str:
        n = self.game.size
        text = (
            f"Type a cell as column letter and row number, e.g. c3 (columns a-{COLUMNS[n - 1]},"
            f" rows 1-{n}). Red joins the top and bottom rows, Blue the left and right columns."
        )
        if self.game.swap_rule:
            text += " As Blue's first move, 'swap' takes over Red's opening stone (pie rule)."
        return text
