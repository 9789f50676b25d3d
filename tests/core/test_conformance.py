"""check_game over every registered game, and proof that it catches broken games."""

from __future__ import annotations

import pytest

from hexkit import plugins
from hexkit.testing import ConformanceError, check_game

from .conftest import load_plugin_file


@pytest.mark.parametrize("name", plugins.game_names())
def test_every_registered_game_passes_the_conformance_kit(name):
    report = check_game(name, games=2, max_moves=150)
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
        module.TicTacToeState._pop = lambda self: None

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
