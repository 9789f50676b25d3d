"""A small game for the terminal tests, written on the state kit: it emits events, gives
every move a gesture, has pieces in hand, adds console words (one of them named like a
core word), and registers a slow bot that reports its progress.

Pebble: two players own stones on a row of cells. A turn is ``drop N`` (a stone from your
hand onto empty cell N) or ``slide A B`` (your stone from A to the empty neighbour B). A
stone with enemy stones on both sides is captured. The game ends when the row is full,
after ``length`` moves, or when the player to move cannot; more stones on the row wins.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from hexkit import (
    Game,
    GameSpec,
    IllegalMoveError,
    Move,
    MoveParseError,
    Option,
    Outcome,
    State,
    hookimpl,
)
from hexkit.bots import BotSpec
from hexkit.game import ConsoleCommand
from hexkit.kit.events import CAPTURED
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.view import BoardView, CellView, HandView, PieceView

STONES = 4


@dataclass(frozen=True)
class Drop(Move):
    seat: int
    at: int

    def __str__(self) -> str:
        return f"drop {self.at}"

    def gesture(self) -> Gesture:
        return Gesture(Hand(self.seat, "stone"), (0, self.at), "stone")


@dataclass(frozen=True)
class Slide(Move):
    start: int
    end: int

    def __str__(self) -> str:
        return f"slide {self.start} {self.end}"

    def gesture(self) -> Gesture:
        return Gesture((0, self.start), (0, self.end), "stone")


class Pebble(Game):
    def new_state(self, seed: int | None = None) -> PebbleState:
        return PebbleState(self, seed)

    def describe(self) -> str:
        size = self.options["size"]
        return (f"A row of {size} cells; each player has {STONES} stones in hand.\n"
                "A stone between two enemy stones is captured.\n"
                "Board: X and O are the players' stones, . an empty cell.")


class PebbleState(State):
    def __init__(self, game: Pebble, seed: int | None):
        super().__init__(game, seed)
        self.cells: list[int | None] = [None] * game.options["size"]
        self.hands = [STONES, STONES]

    def legal_moves(self) -> list[Move]:
        return [] if self.outcome() is not None else self._moves()

    def _moves(self) -> list[Move]:
        me = self.current_player
        moves: list[Move] = []
        if self.hands[me]:
            moves += [Drop(me, i) for i, c in enumerate(self.cells) if c is None]
        for i, c in enumerate(self.cells):
            if c == me:
                moves += [Slide(i, j) for j in (i - 1, i + 1)
                          if 0 <= j < len(self.cells) and self.cells[j] is None]
        return moves

    def parse_move(self, text: str) -> Move:
        words = text.split()
        if len(words) == 2 and words[0].lower() == "drop" and words[1].isdigit():
            return Drop(self.current_player, int(words[1]))
        if (len(words) == 3 and words[0].lower() == "slide" and words[1].isdigit()
                and words[2].isdigit()):
            return Slide(int(words[1]), int(words[2]))
        raise MoveParseError(f"{text!r} is not 'drop N' or 'slide A B'")

    def apply(self, move: Move) -> None:
        me = self.current_player
        if isinstance(move, Drop):
            if move.seat != me or not self.hands[me]:
                raise IllegalMoveError("you have no stone in hand")
            to = move.at
            self.journal.set_item("hands", me, self.hands[me] - 1)
        else:
            assert isinstance(move, Slide)
            if self._at(move.start) != me or abs(move.start - move.end) != 1:
                raise IllegalMoveError(f"you have no stone on {move.start} to slide there")
            self.journal.set_item("cells", move.start, None)
            to = move.end
        if not 0 <= to < len(self.cells) or self.cells[to] is not None:
            raise IllegalMoveError(f"cell {to} is not an empty cell of the row")
        self.journal.set_item("cells", to, me)
        for mid in (to - 1, to + 1):
            if self._at(mid) == 1 - me and self._at(2 * mid - to) == me:
                self.journal.set_item("cells", mid, None)
                self.emit(CAPTURED, f"{self.players[me]} captured "
                          f"{self.players[1 - me]}'s stone on {mid}", me, [(0, mid)])
        self.advance_turn()

    def _at(self, i: int) -> int | None:
        return self.cells[i] if 0 <= i < len(self.cells) else None

    def outcome(self) -> Outcome | None:
        full = None not in self.cells
        if not full and len(self.move_stack) < self.game.options["length"] and self._moves():
            return None
        a, b = self.cells.count(0), self.cells.count(1)
        if a == b:
            return Outcome((), "as many stones each")
        return Outcome((0 if a > b else 1,), "more stones on the row")

    def view(self) -> BoardView:
        cells = tuple(CellView((0, i), str(i), "", () if c is None else (PieceView(c, "XO"[c]),))
                      for i, c in enumerate(self.cells))
        hands = tuple(HandView(s, "stone", n, "stone") for s, n in enumerate(self.hands))
        caption = (f"In hand: Xavier {self.hands[0]}, Olga {self.hands[1]}.",)
        return BoardView("square", cells, self.players, caption=caption, hands=hands)

    def move_help(self) -> str:
        return "drop N puts a stone from your hand on cell N; slide A B moves your stone."


def _tally(state: State, argument: str) -> str:
    assert isinstance(state, PebbleState)
    return f"stones on the row: {state.cells.count(0)} to {state.cells.count(1)}"


def _own_save(state: State, argument: str) -> str:
    return "the game's own save word ran"


SPEC = GameSpec(
    "pebble", "stones on a row, for the terminal tests", Pebble,
    options=(Option("size", 7, "cells in the row", int),
             Option("length", 40, "moves before the game ends", int)),
    player_names=("Xavier", "Olga"),
    rules="Pebble: drop and slide stones; capture by flanking.",
    console_commands=(ConsoleCommand("tally", "count the stones on the row", _tally),
                      ConsoleCommand("save", "the game's own save", _own_save)),
)


class SlowBot:
    """Thinks for a second (``slow:SECONDS`` for longer), reporting progress, then plays
    the first legal move."""

    def __init__(self, seconds: float = 1.2) -> None:
        self.progress: Any = None
        self.seconds = seconds

    def choose(self, state: State) -> Move:
        for step in range(1, 21):
            time.sleep(self.seconds / 20)
            if self.progress is not None:
                self.progress(step, 20)
        return state.legal_moves()[0]


class FirstBot:
    """Plays the first legal move at once."""

    def choose(self, state: State) -> Move:
        return state.legal_moves()[0]


@hookimpl
def hexkit_register_games(register: Any) -> None:
    register(SPEC)


@hookimpl
def hexkit_register_bots(register: Any) -> None:
    register(BotSpec("slow", "thinks for a second (slow:SECONDS for longer)",
                     lambda game, arg, seed: SlowBot(float(arg) if arg else 1.2)))
    register(BotSpec("first", "plays the first legal move", lambda game, arg, seed: FirstBot()))
