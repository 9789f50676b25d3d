"""check_game over every registered game, and proof that it catches broken games."""

from __future__ import annotations

import pytest

from hexkit import plugins
from hexkit.testing import ConformanceError, check_game

from .conftest import load_plugin_file


@pytest.mark.parametrize("name", plugins.game_names())
def test_every_registered_game_passes_the_conformance_kit(name):
    # Two deep checks (notation, saving, exact undo) per position instead of the default
    # six: every other check of each position stays (24 moves pushed and popped), at half
    # the CPU; each game's own tests run the kit on its variants too.
    report = check_game(name, games=2, max_moves=150, sample=2)
    assert report.games == 2 and report.moves > 0


def test_conformance_kit_plays_tictactoe_to_the_end(tictactoe_registry):
    report = check_game("tictactoe", registry=tictactoe_registry, games=4)
    assert report.finished == 4


def _broken_registry(patch):
    module = load_plugin_file("tictactoe")
    patch(module)
    return plugins.build_registry(entry_points=False, use_env=False,
                                  extra=[("tictactoe", module)])


def test_conformance_kit_catches_an_undo_that_does_not_restore():
    def patch(module):
        def apply(self, move):  # changes the board behind the journal's back
            self.cells[(move.row, move.col)] = self.current_player

        module.TicTacToeState.apply = apply

    with pytest.raises(ConformanceError, match="does not restore"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_notation_that_does_not_round_trip():
    def patch(module):
        module.Mark.__str__ = lambda self: f"{self.row},{self.col}"

    with pytest.raises(ConformanceError, match="does not parse back"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_a_game_with_no_moves_that_is_not_over():
    def patch(module):
        module.TicTacToeState.legal_moves = lambda self: []

    with pytest.raises(ConformanceError, match="legal_moves\\(\\) is empty"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_a_parser_that_accepts_junk():
    def patch(module):
        original = module.TicTacToeState.parse_move

        def lenient(self, text):
            if text == "@@@":
                return module.Mark(0, 0)
            return original(self, text)

        module.TicTacToeState.parse_move = lenient

    with pytest.raises(ConformanceError, match="junk text '@@@'"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_a_gesture_off_the_board():
    from hexkit.kit.gestures import Gesture

    def patch(module):
        module.TicTacToeState.gesture = lambda self, move: Gesture((99, 99), (move.row, move.col))

    with pytest.raises(ConformanceError, match="starts at \\(99, 99\\), not a cell of view"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_moves_from_that_misses_moves():
    from hexkit.kit.gestures import Gesture

    def patch(module):
        module.TicTacToeState.gesture = lambda self, move: Gesture(None, (move.row, move.col))
        module.TicTacToeState.moves_from = lambda self, origin: self.legal_moves()[:1]

    with pytest.raises(ConformanceError, match="moves_from\\(None\\) lists 1 moves"):
        check_game("tictactoe", registry=_broken_registry(patch))


def test_conformance_kit_catches_an_undo_that_restores_the_saved_form_but_not_the_position():
    from .test_state_kit import SPEC, RowState

    class Forgetful(RowState):
        """Remembers the last stone outside the journal, so pop leaves it behind."""

        last = None

        def apply(self, move):
            super().apply(move)
            self.last = move.at

        def render(self):
            return super().render() + f"\nlast stone: {self.last}"

    class Game(type(SPEC.make_game())):
        def new_state(self, seed=None):
            return Forgetful(self, seed)

    with pytest.raises(ConformanceError, match="render\\(\\) differs"):
        check_game(Game(SPEC, {}), games=1)
