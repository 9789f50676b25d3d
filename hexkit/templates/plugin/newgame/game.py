"""The rules of newgame: a Game (options fixed) that makes States (positions).

A state writes five things: ``legal_moves``, ``parse_move``, ``apply`` (through
``self.journal``, so undo is free), ``outcome`` and ``view``; hexkit's ``State`` does the
rest (push and pop, copies, saving, turns, the text board drawn from the view with each
cell's label under it, and whose turn it is or who won). A move's ``gesture`` says where
it is made, so that in the browser (``hexkit serve``) a stone is played by clicking its hex.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from hexkit import (
    BoardView,
    BoundedHexBoard,
    CellView,
    Game,
    GameSpec,
    Hex,
    IllegalMoveError,
    Move,
    MoveParseError,
    OptionError,
    Outcome,
    PieceView,
    State,
)
from hexkit.kit.gestures import Gesture

EMPTY = -1
#: The three axes of the grid; a line runs along one of them.
AXES = ((1, 0), (0, 1), (1, -1))
#: A move as typed: q and r, separated by a comma or spaces ("0,0", "1, -1").
HEX_TEXT = re.compile(r"(-?[0-9]{1,2})\s*[,\s]\s*(-?[0-9]{1,2})")


@dataclass(frozen=True)
class Place(Move):
    """Put a stone on the hex (q, r). Typed as ``q,r``."""

    q: int
    r: int

    def __str__(self) -> str:
        return f"{self.q},{self.r}"

    def gesture(self) -> Gesture:
        """Made by clicking the hex: from nowhere (the stone is not on the board yet) to
        the hex, in the view's coordinates."""
        return Gesture(None, (self.q, self.r), "stone")


class NewgameGame(Game):
    """The rules with their options fixed: the board and its lines, computed once."""

    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        super().__init__(spec, options)
        radius, line = self.options["radius"], self.options["line"]
        if line > 2 * radius + 1:
            raise OptionError(f"option line: {line} does not fit a board of radius {radius}")
        self.board = BoundedHexBoard.hexagon(radius)
        index = self.board.index
        self.places = [Place(h.q, h.r) for h in self.board.cells]
        # Every run of `line` hexes on the board, as tuples of cell numbers (ints are fast).
        self.lines_through: list[list[tuple[int, ...]]] = [[] for _ in self.board.cells]
        for start in self.board.cells:
            for dq, dr in AXES:
                run = [Hex(start.q + dq * k, start.r + dr * k) for k in range(line)]
                if all(h in index for h in run):
                    for h in run:
                        self.lines_through[index[h]].append(tuple(index[h] for h in run))

    def new_state(self, seed: int | None = None) -> NewgameState:
        return NewgameState(self, seed)


class NewgameState(State[NewgameGame, Place]):
    """A position: one int per hex (EMPTY or the owner's seat), and the winner if any."""

    def __init__(self, game: NewgameGame, seed: int | None = None):
        super().__init__(game, seed)
        self.stones = [EMPTY] * len(game.board)
        self.winner: int | None = None

    def legal_moves(self) -> list[Place]:
        if self.outcome() is not None:
            return []
        return [self.game.places[i] for i, s in enumerate(self.stones) if s == EMPTY]

    def parse_move(self, text: str) -> Place:
        match = HEX_TEXT.fullmatch(text.strip())
        if match is None:
            raise MoveParseError(f"{text!r} is not a hex: type q,r such as 0,0 or 1,-1")
        return Place(int(match[1]), int(match[2]))

    def apply(self, move: Move) -> None:
        if not isinstance(move, Place):
            raise IllegalMoveError(f"{move!r} is not a move of this game")
        i = self.game.board.index.get(Hex(move.q, move.r))
        if i is None:
            raise IllegalMoveError(f"{move} is not on the board")
        if self.outcome() is not None:
            raise IllegalMoveError("the game is over")
        if self.stones[i] != EMPTY:
            raise IllegalMoveError(f"{move} is already taken")
        me = self.current_player
        self.journal.set_item("stones", i, me)
        if any(all(self.stones[j] == me for j in run) for run in self.game.lines_through[i]):
            self.journal.set("winner", me)
        self.advance_turn()

    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return Outcome((self.winner,), f"{self.game.options['line']} in a row")
        if EMPTY not in self.stones:
            return Outcome((), "the board is full")
        return None

    def view(self) -> BoardView:
        """The board for every renderer: each hex labelled with what a player types to put
        a stone there, stones with their owner's initial, the last move highlighted."""
        last = self.move_stack[-1] if self.move_stack else None
        cells = tuple(
            CellView((h.q, h.r), f"{h.q},{h.r}", "",
                     () if s == EMPTY else (PieceView(s, self.players[s][0]),))
            for h, s in zip(self.game.board.cells, self.stones, strict=True)
        )
        highlight = ((last.q, last.r),) if last is not None else ()
        return BoardView("hex", cells, self.players, "pointy", highlight)
