"""Coloured boards: each game's marked-up picture is its plain text exactly, with every
piece in its owner's colour, the last move and asked-for targets marked."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

import pytest

import hexkit
from hexkit import plugins
from hexkit.render.text import LAST, TARGET
from hexkit.terminal.console import Console

GAMES = ["focus", "hexbaron", "hexaround(config=level3)", "hive", "focus(board=cross,players=3)"]


def roles_of(styled) -> set[str]:
    return {role for line in styled.roles for roles in line for role in roles.split()}


@pytest.mark.parametrize("name", GAMES)
def test_the_coloured_picture_is_the_plain_one_with_owners_and_the_last_move_marked(name):
    state = hexkit.load_game(name).new_state(seed=3)
    rng = random.Random(3)
    for ply in range(24):
        moves = state.legal_moves()
        if not moves or state.is_over():
            break
        state.push(rng.choice(moves))
        styled = state.render_styled()
        assert str(styled) == state.render(), (name, ply)
        roles = roles_of(styled)
        assert LAST in roles or str(state.move_stack[-1]) == "pass", (name, ply)
        if ply >= len(state.players):  # every player has pieces out by now
            assert {f"seat:{s}" for s in range(len(state.players))} <= roles, (name, ply)
        # The marks sit on the pieces: a seat's characters are letters or digits.
        for line, text in zip(styled.roles, styled.lines, strict=True):
            for ch, role in zip(text, line, strict=True):
                if "seat:" in role and ch != " ":
                    assert ch.isalnum() or ch in "-^", (name, text)


@pytest.mark.parametrize("name", GAMES[:4])
def test_the_targets_of_moves_from_a_cell_are_marked_where_they_are_drawn(name):
    state = hexkit.load_game(name).new_state(seed=1)
    rng = random.Random(1)
    for _ in range(4):
        state.push(rng.choice(state.legal_moves()))
    gestures = [state.gesture(m) for m in state.legal_moves()]
    targets = {g.target for g in gestures if g is not None and g.target is not None}
    assert targets
    styled = state.render_styled(targets)
    assert str(styled) == state.render()
    assert TARGET in roles_of(styled)


def test_a_view_only_game_gets_labels_turn_and_colour_from_the_core():
    saved = list(plugins._plugin_dirs)
    plugins.configure([Path(__file__).parent / "terminal_plugins"])
    try:
        state = hexkit.load_game("pebble").new_state(seed=1)
    finally:
        plugins.configure(saved)
    state.push("drop 2")
    styled = state.render_styled()
    assert str(styled) == state.render()
    assert {"seat:0", LAST, "label"} <= roles_of(styled)
    assert state.render().splitlines()[:3] == [". . X . . . .", "0 1 2 3 4 5 6",
                                                "In hand: Xavier 3, Olga 4."]
    assert state.render().splitlines()[-1] == "Olga to move."


def test_the_console_prints_the_plain_picture_without_colour_and_escapes_with_it():
    state = hexkit.load_game("focus").new_state(seed=1)
    state.push("a1-b1x1")
    plain, coloured = io.StringIO(), io.StringIO()
    Console(plain, colour=False).say_styled(state.render_styled(), state.players)
    assert plain.getvalue() == state.render() + "\n"
    pytest.importorskip("rich")
    Console(coloured, colour=True).say_styled(state.render_styled(), state.players)
    text = coloured.getvalue()
    assert re.sub(r"\x1b\[[0-9;]*m", "", text) == state.render() + "\n"
    assert "\x1b[1;31mR" in text and "\x1b[1;32mG" in text  # Red's and Green's pieces
