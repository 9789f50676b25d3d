"""The state kit: a game that writes only the seven members gets every other part of the
API (undo, copies, saving, events, gestures, players and turns) from the core."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from hexkit import GameSpec, IllegalMoveError, Move, MoveParseError, Outcome, State
from hexkit.game import Game
from hexkit.kit.events import CAPTURED, GAME_OVER
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.view import BoardView, CellView, PieceView
from hexkit.testing import check_game

SIZE = 5


@dataclass(frozen=True)
class Drop(Move):
    """Put a stone from the hand on cell ``at`` of a row of SIZE cells."""

    at: int

    def __str__(self) -> str:
        return str(self.at)

    def gesture(self) -> Gesture:
        return Gesture(Hand(-1, "stone"), (0, self.at), "stone")


class RowGame(Game):
    """Two players drop stones on a row; a stone between two enemy stones is captured;
    the game ends when the row is full, and whoever has more stones wins."""

    def new_state(self, seed: int | None = None) -> RowState:
        return RowState(self, seed)


class RowState(State):
    def __init__(self, game: RowGame, seed: int | None):
        super().__init__(game, seed)
        self.cells: list[int | None] = [None] * SIZE

    def legal_moves(self) -> list[Move]:
        if self.outcome() is not None:
            return []
        closed = SIZE - 1 if self.cells[0] is None else None
        return [Drop(i) for i, c in enumerate(self.cells) if c is None and i != closed]

    def parse_move(self, text: str) -> Move:
        if not text.strip().isdigit() or len(text.strip()) > 2:
            raise MoveParseError(f"{text!r} is not a cell number")
        return Drop(int(text))

    def apply(self, move: Move) -> None:
        assert isinstance(move, Drop)
        if not 0 <= move.at < SIZE:
            raise IllegalMoveError(f"cell {move.at} is off the row")
        me = self.current_player
        was = self.cells[move.at]
        self.journal.set_item("cells", move.at, me)
        if was is not None:
            raise IllegalMoveError(f"cell {move.at} is taken")
        for side in (-1, 1):
            mid, far = move.at + side, move.at + 2 * side
            if 0 <= far < SIZE and self.cells[mid] == 1 - me and self.cells[far] == me:
                self.journal.set_item("cells", mid, None)
                self.emit(CAPTURED, f"{self.players[me]} captured the stone on {mid}", me,
                          [(0, mid)])
        if move.at == SIZE - 1 and self.cells[0] is None:
            raise IllegalMoveError("the last cell is closed while the first is empty")
        self.advance_turn()

    def outcome(self) -> Outcome | None:
        if None in self.cells:
            return None
        a, b = self.cells.count(0), self.cells.count(1)
        return Outcome((), "equal") if a == b else Outcome((0 if a > b else 1,), "more stones")

    def view(self) -> BoardView:
        cells = tuple(
            CellView((0, i), str(i), "", () if c is None else (PieceView(c, "XO"[c]),))
            for i, c in enumerate(self.cells)
        )
        return BoardView("square", cells, self.players)


SPEC = GameSpec("row", "stones on a row", RowGame, player_names=("Xavier", "Olga"))


def new_state(seed: int = 1) -> RowState:
    return SPEC.make_game().new_state(seed)


def test_a_game_of_seven_members_passes_the_conformance_kit():
    report = check_game(SPEC.make_game(), games=4)
    assert report.finished == 4


def test_players_come_from_the_spec_and_turns_alternate():
    state = new_state()
    assert state.players == ("Xavier", "Olga")
    assert state.current_player == 0
    state.push("2")
    assert state.current_player == 1


def test_a_refused_move_that_changed_things_first_is_rolled_back():
    state = new_state()
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="last cell is closed"):
        state.push("4")
    assert state.to_dict() == before and state.cells == [None] * SIZE
    assert state.move_stack == [] and state.current_player == 0


def test_pop_rolls_back_captures_and_the_turn():
    state = new_state()
    for text in ("0", "1"):
        state.push(text)
    before = list(state.cells)
    state.push("2")
    assert state.cells == [0, None, 0, None, None]
    assert [e.kind for e in state.events()] == [CAPTURED]
    state.pop()
    assert state.cells == before and state.current_player == 0 and state.events() == ()


def test_a_copy_undoes_its_own_moves_without_touching_the_original():
    state = new_state()
    state.push("0")
    twin = state.copy()
    twin.push("1")
    twin.pop()
    twin.pop()
    assert twin.cells == [None] * SIZE
    assert state.cells == [0, None, None, None, None] and len(state.move_stack) == 1


def test_the_default_saved_form_replays_to_the_same_position():
    game = SPEC.make_game()
    state = game.new_state(7)
    for text in ("0", "1", "2"):
        state.push(text)
    restored = game.state_from_dict(state.to_dict())
    assert restored.cells == state.cells and restored.move_stack == []
    assert restored.to_dict() == state.to_dict()


def test_the_last_move_reports_the_end_of_the_game():
    state = new_state()
    for text in ("0", "2", "1", "3", "4"):
        state.push(text)
    events = state.events()
    assert events[-1].kind == GAME_OVER and events[-1].text.startswith("Game over: Xavier wins")


def test_gestures_list_the_moves_that_start_in_the_hand():
    state = new_state()
    moves = state.moves_from(Hand(-1, "stone"))
    assert [str(m) for m in moves] == ["0", "1", "2", "3"]
    assert state.moves_from((0, 0)) == []


def test_the_default_text_rendering_is_drawn_from_the_view():
    state = new_state()
    state.push("0")
    assert state.render().splitlines()[0].split() == ["X", ".", ".", ".", "."]
