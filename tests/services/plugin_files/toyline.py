"""A small complete game for the service tests: k-in-a-row on an n x n square board.

Options make it exercise what the services must handle without knowing any game: 2 or 3
players (per-seat rewards), and ``blockers``: after every move a neutral blocker lands on a
random empty square drawn from the state's own generator (randomness that a record must
reproduce and that undo must restore).
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

NAMES = ("Xavier", "Olga", "Zed")
MARKS = ("X", "O", "Z")
BLOCKER = -1
FILES = "abcdefgh"


@dataclass(frozen=True)
class Mark(Move):
    row: int
    col: int

    def __str__(self) -> str:
        return f"{FILES[self.col]}{self.row + 1}"


class ToyLine(Game):
    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        super().__init__(spec, options)
        n, k = options["size"], options["line"]
        if not 3 <= n <= 8:
            raise OptionError(f"option size: {n} is outside 3..8")
        if not 2 <= k <= n:
            raise OptionError(f"option line: {k} must be between 2 and the size")
        self.board = SquareBoard(n, n)
        self.lines: list[tuple[tuple[int, int], ...]] = []
        for r in range(n):
            for c in range(n):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = tuple((r + dr * i, c + dc * i) for i in range(k))
                    if all(0 <= rr < n and 0 <= cc < n for rr, cc in cells):
                        self.lines.append(cells)

    def new_state(self, seed: int | None = None) -> ToyLineState:
        return ToyLineState(self, {}, random.Random(seed), [])

    def _state_from_dict(self, data: Mapping[str, Any]) -> ToyLineState:
        cells = {(int(r), int(c)): int(p) for r, c, p in data["cells"]}
        return ToyLineState(self, cells, rng_from_json(data["rng"]),
                            [tuple(x) for x in data.get("last", [])])


class ToyLineState(State[ToyLine, Mark]):
    def __init__(self, game: ToyLine, cells: dict[tuple[int, int], int], rng: random.Random,
                 last: list[tuple[int, int]]):
        super().__init__(game, rng)
        self.cells = dict(cells)
        self.last = list(last)

    @property
    def players(self) -> tuple[str, ...]:
        return NAMES[: self.game.options["players"]]

    @property
    def current_player(self) -> int:
        marks = sum(1 for p in self.cells.values() if p != BLOCKER)
        return marks % self.game.options["players"]

    def _winner(self) -> int | None:
        for line in self.game.lines:
            owners = {self.cells.get(sq) for sq in line}
            if len(owners) == 1:
                owner = owners.pop()
                if owner is not None and owner != BLOCKER:
                    return owner
        return None

    def _full(self) -> bool:
        return len(self.cells) == len(self.game.board)

    def is_over(self) -> bool:
        return self._winner() is not None or self._full()

    def outcome(self) -> Outcome | None:
        w = self._winner()
        if w is not None:
            return Outcome((w,), f"{self.game.options['line']} in a row")
        if self._full():
            return Outcome((), "board full")
        return None

    def legal_moves(self) -> list[Mark]:
        if self.is_over():
            return []
        return [Mark(r, c) for r, c in self.game.board.cells if (r, c) not in self.cells]

    def parse_move(self, text: str) -> Mark:
        t = text.strip().lower()
        n = self.game.options["size"]
        if len(t) != 2 or t[0] not in FILES[:n] or t[1] not in "12345678"[:n]:
            raise MoveParseError(f"{text!r} is not a square such as b2")
        return Mark(int(t[1]) - 1, FILES.index(t[0]))

    def apply(self, move: Move) -> None:
        if not isinstance(move, Mark) or (move.row, move.col) not in self.game.board:
            raise IllegalMoveError(f"{move} is not a square of this board")
        if self.is_over():
            raise IllegalMoveError("the game is over")
        if (move.row, move.col) in self.cells:
            raise IllegalMoveError(f"{move} is already taken")
        journal = self.journal
        journal.set_item("cells", (move.row, move.col), self.current_player)
        dropped = None
        if self.game.options["blockers"] and not self.is_over():
            journal.keep_rng()
            empty = [sq for sq in self.game.board.cells if sq not in self.cells]
            dropped = empty[self.rng.randrange(len(empty))]
            journal.set_item("cells", dropped, BLOCKER)
        journal.set("last", [(move.row, move.col)] + ([dropped] if dropped else []))

    def to_dict(self) -> dict[str, Any]:
        return {
            "cells": [[r, c, p] for (r, c), p in sorted(self.cells.items())],
            "last": [list(sq) for sq in self.last],
            "rng": rng_to_json(self.rng),
        }

    def _mark(self, sq: tuple[int, int]) -> str:
        p = self.cells.get(sq)
        return "." if p is None else ("#" if p == BLOCKER else MARKS[p])

    def render(self) -> str:
        n = self.game.options["size"]
        rows = [f"{r + 1} " + " ".join(self._mark((r, c)) for c in range(n)) for r in range(n)]
        rows.append("  " + " ".join(FILES[:n]))
        return "\n".join(rows)

    def view(self) -> BoardView:
        cells = []
        for sq in self.game.board.cells:
            p = self.cells.get(sq)
            pieces = () if p is None else (
                (PieceView(None, "#"),) if p == BLOCKER else (PieceView(p, MARKS[p]),))
            cells.append(CellView(sq, str(Mark(*sq)), "", pieces))
        caption = (f"{self.players[self.current_player]} to move",) if not self.is_over() else ()
        return BoardView("square", tuple(cells), self.players, highlight=tuple(self.last),
                         caption=caption)

    def move_help(self) -> str:
        return "Type a square such as b2."


SPEC = GameSpec(
    "toyline",
    "k in a row on a small square board (service tests)",
    ToyLine,
    options=(
        Option("size", 3, "board size", int),
        Option("line", 3, "marks in a row to win", int),
        Option("players", 2, "number of players", int, choices=(2, 3)),
        Option("blockers", False, "a random blocker falls after every move", bool),
    ),
    min_players=2,
    max_players=3,
)


@hookimpl
def hexkit_register_games(register):
    register(SPEC)
