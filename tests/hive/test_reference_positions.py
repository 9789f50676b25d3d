"""Every position made with MzingaCpp (tests/hive/data/reference_positions.json, written by
benchmarks/hive_reference_positions.py): the same legal MoveStrings, character for
character; and in each, Hive's compiled generator lists what the Python one does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hive import notation
from hive.generator import native_hive_generator_available

import hexkit

from .test_compiled_generator import assert_generators_agree

DATA = Path(__file__).parent / "data" / "reference_positions.json"


@pytest.mark.skipif(not DATA.exists(), reason="reference positions not generated here")
def test_legal_moves_equal_mzingas_in_every_reference_position():
    positions = json.loads(DATA.read_text())["positions"]
    games = {}
    wrong = []
    state, played = None, ()
    for item in positions:
        text = item["game_string"]
        parts = notation.split_game_string(text)
        letters = parts.expansions
        game = games.get(letters)
        if game is None:
            game = games[letters] = hexkit.load_game("hive", expansions=letters or "none")
        if state is not None and state.game is game and parts.moves[:len(played)] == played:
            # The same game a few plies on (positions are written every few plies): its
            # new moves only, then the header's check, as state_from_game_string does.
            for move in parts.moves[len(played):]:
                state.push(move)
            notation.check_header(state.engine, parts)
        else:
            state = game.state_from_game_string(text)
        played = parts.moves
        mine = sorted(str(m) for m in state.legal_moves())
        if mine != sorted(item["valid_moves"]):
            wrong.append(text)
        engine = state.engine
        if native_hive_generator_available() and engine.bpos[engine.to_move] is not None:
            assert_generators_agree(engine)
    assert len(positions) > 100
    assert not wrong, f"{len(wrong)} positions differ, first: {wrong[0]}"
