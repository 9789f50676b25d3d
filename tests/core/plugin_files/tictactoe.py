"""A complete little game used by the core tests: tic-tac-toe on a core square board.

It is loaded the way a student's single-file plugin would be: from a plugins folder.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hexkit import (
    Game,
    GameSpec,
    IllegalMoveError,
    Move,
    MoveParseError,
    Option,
    OptionError,
    Outcome,
    SquareBoard,
    State,
    hookimpl,
    rng_from_json,
    rng_to_json,
)
from hexkit.kit.view import BoardView, CellView, PieceView

MARKS = ("X", "O")


@dataclass(frozen=True)
class Mark(Move):
    row: int
    col: int

    def __str__(self) -> str:
        return f"{'abcdefghi'[self.col]}{self.row + 1}"


class TicTacToe(Game):
    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        super().__init__(spec, options)
        n = options["size"]
        if not 3 <= n <= 9:
            raise OptionError(f"option size: {n} is outside 3..9")
        self.board = SquareBoard(n, n)
        lines = [[(r, c) for c in range(n)] for r in range(n)]
        lines += [[(r, c) for r in range(n)] for c in range(n)]
        lines += [[(i, i) for i in range(n)], [(i, n - 1 - i) for i in range(n)]]
        self.lines = lines

    def new_state(self, seed: int | None = None) -> TicTacToeState:
        return TicTacToeState(self, {}, random.Random(seed))

    def _state_from_dict(self, data: Mapping[str, Any]) -> TicTacToeState:
        cells = {(int(r), int(c)): int(p) for r, c, p in data["cells"]}
        return TicTacToeState(self, cells, rng_from_json(data["rng"]))


class TicTacToeState(State[TicTacToe, Mark]):
    def __init__(self, game: TicTacToe, cells: dict[tuple[int, int], int], rng: random.Random):
        super().__init__(game, rng)
        self.cells = dict(cells)

    @property
    def players(self) -> tuple[str, ...]:
        return MARKS

    @property
    def current_player(self) -> int:
        return len(self.cells) % 2

    def _winner(self) -> int | None:
        for line in self.game.lines:
            owners = {self.cells.get(sq) for sq in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop()
        return None

    def is_over(self) -> bool:
        return self._winner() is not None or len(self.cells) == len(self.game.board)

    def outcome(self) -> Outcome | None:
        w = self._winner()
        if w is not None:
            return Outcome((w,), "three in a row")
        if len(self.cells) == len(self.game.board):
            return Outcome((), "board full")
        return None

    def legal_moves(self) -> list[Mark]:
        if self.is_over():
            return []
        return [Mark(r, c) for r, c in self.game.board.cells if (r, c) not in self.cells]

    def parse_move(self, text: str) -> Mark:
        t = text.strip().lower()
        n = self.game.options["size"]
        if len(t) != 2 or t[0] not in "abcdefghi"[:n] or t[1] not in "123456789"[:n]:
            raise MoveParseError(f"{text!r} is not a square such as b2")
        return Mark(int(t[1]) - 1, "abcdefghi".index(t[0]))

    def apply(self, move: Move) -> None:
        if not isinstance(move, Mark) or (move.row, move.col) not in self.game.board:
            raise IllegalMoveError(f"{move} is not a square of this board")
        if self.is_over():
            raise IllegalMoveError("the game is over")
        if (move.row, move.col) in self.cells:
            raise IllegalMoveError(f"{move} is already taken")
        self.journal.set_item("cells", (move.row, move.col), self.current_player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "cells": [[r, c, p] for (r, c), p in sorted(self.cells.items())],
            "rng": rng_to_json(self.rng),
        }

    def render(self) -> str:
        n = self.game.options["size"]
        rows = []
        for r in range(n):
            marks = " ".join(
                MARKS[self.cells[(r, c)]] if (r, c) in self.cells else "." for c in range(n)
            )
            rows.append(f"{r + 1} {marks}")
        rows.append("  " + " ".join("abcdefghi"[:n]))
        return "\n".join(rows)

    def view(self) -> BoardView:
        cells = tuple(
            CellView(sq, str(Mark(*sq)), "", (PieceView(self.cells[sq], MARKS[self.cells[sq]]),)
                     if sq in self.cells else ())
            for sq in self.game.board.cells
        )
        return BoardView("square", cells, MARKS)

    def move_help(self) -> str:
        return "Type a square as column letter and row number, e.g. b2."


SPEC = GameSpec(
    name="tictactoe",
    description="three in a row on a square grid",
    factory=TicTacToe,
    options=(Option("size", 3, "side of the board", int),),
    rules="Players take turns marking squares; a full row, column or diagonal wins.",
)


@hookimpl
def hexkit_register_games(register: Any) -> None:
    register(SPEC)
