"""Hive through hexkit's generic API: the conformance kit, saving, copies, pictures,
gestures, events and the rules text."""

from __future__ import annotations

import json

import hexkit
from hexkit.kit.gestures import Hand
from hexkit.render.svg import render_svg
from hexkit.testing import check_game

from .positions import play, position


def test_base_game_passes_the_conformance_kit():
    report = check_game("hive", games=1, max_moves=60, expansions="none")
    assert report.moves > 0


def test_repetition_draw_game_passes_the_conformance_kit():
    report = check_game("hive", games=1, max_moves=40, repetition_draw=True)
    assert report.moves > 0


def test_saved_position_keeps_the_frozen_piece_and_the_game_string():
    state = position({(-1, 0): "bQ", (0, 0): "wP", (1, 0): "bP", (2, 0): "wQ"})
    play(state, "bQ", (1, -1))
    data = json.loads(json.dumps(state.to_dict()))
    again = state.game.state_from_dict(data)
    assert again.engine.last == state.engine.last
    assert sorted(map(str, again.legal_moves())) == sorted(map(str, state.legal_moves()))
    assert again.game_string() == state.game_string()


def test_text_picture_shows_stacks_and_hands():
    state = position({(0, 0): "wQ bB1", (1, 0): "bQ", (-1, 0): "wA1"}, to_move="w")
    text = state.render()
    assert "bB1^2" in text and "wQ < bB1" in text and "White in hand:" in text


def test_view_names_bugs_shows_stacks_hands_and_reachable_hexes():
    state = position({(0, 0): "wQ bB1", (1, 0): "bQ", (-1, 0): "wA1"})
    view = state.view()
    cells = {c.at: c for c in view.cells}
    assert [p.text for p in cells[(0, 0)].pieces] == ["Q", "B1"]
    assert [p.owner for p in cells[(0, 0)].pieces] == [0, 1]
    for move in state.legal_moves():
        g = state.gesture(move)
        assert g is not None and g.target in cells
    assert any(h.seat == 0 and h.kind == "S" for h in view.hands)
    svg = render_svg(view)
    assert "<svg" in svg and ">B1<" in svg


def test_placements_start_in_the_hand_and_moves_at_the_piece():
    state = hexkit.load_game("hive").new_state(0)
    state.push("wS1")
    found = state.moves_from(Hand(1, "A"))
    assert sorted(map(str, found))[0].startswith("bA1 ")
    assert len(found) == 6


def test_events_tell_of_throws_climbs_and_passes():
    state = position({(-1, 0): "bQ", (0, 0): "wP", (1, 0): "bP", (2, 0): "wQ"})
    play(state, "bQ", (1, -1))
    assert [e.kind for e in state.events()] == ["thrown"]
    state = position({(0, 0): "wQ bB1", (1, 0): "bQ", (2, 0): "bA1"})
    state.push("pass")
    assert [e.kind for e in state.events()] == ["passed"]
    state = position({(0, 0): "wQ", (1, 0): "bQ", (-1, 0): "wB1"})
    play(state, "wB1", (0, 0))
    assert "stacked" in [e.kind for e in state.events()]


def test_rules_text_lists_the_bugs_of_the_game_type():
    base = hexkit.load_game("hive", expansions="none").describe()
    full = hexkit.load_game("hive").describe()
    assert "x Mosquito" not in base and "1 x Mosquito" in full and "1 x Pillbug" in full
    assert "Base+MLP" in full
