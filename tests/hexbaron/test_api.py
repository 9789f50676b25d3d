"""Hex Baron through hexkit's generic game API: conformance, notation, legal moves, undo,
serialisation, copies, and the pictures."""

from __future__ import annotations

import json
import random

import pytest
from hexbaron.commands import Command

from hexkit.errors import IllegalMoveError, MoveParseError, RecordError
from hexkit.testing import check_game

from .conftest import board, plain_game


@pytest.mark.parametrize("options", [
    {}, {"setup": "game1"}, {"size": 4}, {"size": 12, "max_turns": 5},
    {"tie_rule": "player_two", "max_turns": 2}, {"show_ids": False},
], ids=str)
def test_hexbaron_passes_the_conformance_kit(options):
    report = check_game("hexbaron", games=2, max_moves=200, extensions="none", **options)
    assert report.moves > 0


def random_positions(seeds=range(4), plies=60, **options):
    for seed in seeds:
        state = plain_game(**options).new_state(seed)
        chooser = random.Random(seed)
        for _ in range(plies):
            if state.is_over():
                break
            yield state
            legal = state.legal_moves()
            state.push(legal[chooser.randrange(len(legal))])


def every_well_formed_command(n: int):
    yield Command("pass")
    for a in range(n):
        for verb in ("saw", "dig", "spawn"):
            yield Command(verb, (a,))
        for word in ("less", "pbds"):
            yield Command("upgrade", (word, a))
        for b in range(n):
            yield Command("move", (a, b))


def test_legal_moves_are_exactly_the_commands_that_would_be_carried_out():
    for state in random_positions(seeds=range(3), plies=25, setup="game1"):
        legal = set(state.legal_moves())
        accepted = {c for c in every_well_formed_command(state.pos.n) if state.check(c) is None}
        assert legal == accepted
        assert len(state.legal_moves()) == len(legal)  # no duplicates


def test_an_unfinished_game_always_has_a_legal_move_even_with_no_resources():
    state = board(4, "1,Serf,0 2,Baron,7", p1="0,0,0")
    assert state.legal_moves() == [Command("pass")]


def test_a_refused_command_leaves_the_state_exactly_as_it_was():
    rng = random.Random(5)
    for state in random_positions(seeds=range(2), plies=40):
        before = json.dumps(state.to_dict(), sort_keys=True)
        depth = len(state.move_stack)
        for _ in range(20):
            command = Command(rng.choice(["move", "saw", "dig", "spawn"]),
                              tuple(rng.randint(-3, 40) for _ in range(2)))
            command = Command(command.verb, command.args[:1 if command.verb != "move" else 2])
            if state.check(command) is not None:
                with pytest.raises(IllegalMoveError):
                    state.push(command)
        assert json.dumps(state.to_dict(), sort_keys=True) == before
        assert len(state.move_stack) == depth


@pytest.mark.parametrize("text, command", [
    ("move 0 4", Command("move", (0, 4))),
    ("  MOVE   0\t04 ", Command("move", (0, 4))),
    ("Upgrade LESS 8", Command("upgrade", ("less", 8))),
    ("spawn 4", Command("spawn", (4,))),
    ("dig 23", Command("dig", (23,))),
    ("pass", Command("pass")),
])
def test_commands_are_read_in_any_case_with_any_spacing(text, command):
    state = plain_game().new_state(0)
    assert state.parse_move(text) == command
    assert state.parse_move(str(command)) == command


@pytest.mark.parametrize("text, message", [
    ("", "empty command"),
    ("fly 3", "unknown command 'fly'"),
    ("move 0", "move takes two tile numbers"),
    ("move 0 4 5", "move takes two tile numbers"),
    ("move a 4", "FROM must be a tile number, not 'a'"),
    ("spawn -1", "tile must be a tile number, not '-1'"),
    ("spawn +4", "tile must be a tile number"),
    ("spawn \u0664", "tile must be a tile number"),
    ("saw", "saw takes one tile number"),
    ("upgrade serf 8", "cannot upgrade to 'serf'"),
    ("upgrade 8 less", "cannot upgrade to '8'"),
    ("upgrade less", "upgrade takes a piece type and a tile"),
    ("pass 3", "pass takes nothing"),
    ("saw 99999999999999999", "far too large"),
])
def test_malformed_commands_are_refused_with_a_one_line_reason(text, message):
    state = plain_game().new_state(0)
    before = state.to_dict()
    with pytest.raises(MoveParseError, match=message) as info:
        state.push(text)
    assert "\n" not in str(info.value)
    assert state.to_dict() == before


def test_commands_that_are_not_hex_baron_commands_are_refused():
    state = plain_game().new_state(0)
    for bad in (Command("fly", (3,)), Command("move", (1,)), Command("move", ("a", "b"))):
        with pytest.raises(IllegalMoveError):
            state.push(bad)
    assert state.move_stack == []


def test_undoing_a_dig_restores_the_random_generator():
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=",".join("~" * 8), seed=8)
    before = state.to_dict()
    state.push("dig 0")
    first = state.to_dict()
    state.pop()
    assert state.to_dict() == before
    state.push("dig 0")
    assert state.to_dict() == first


def test_copies_and_restored_states_replay_digs_identically():
    state = board(4, "1,PBDS,0 2,PBDS,7 1,Baron,1 2,Baron,4", terrain=",".join("~" * 8),
                  seed=3)
    twin = state.copy()
    restored = state.game.state_from_dict(json.loads(json.dumps(state.to_dict())))
    digs = ["dig 0", "dig 0", "dig 0", "dig 7", "dig 7", "dig 7"] * 4
    for s in (state, twin, restored):
        for c in digs:
            s.push(c)
    assert state.to_dict() == twin.to_dict() == restored.to_dict()
    assert state.pos.resources[0]["fuel"] > 10


def test_undo_walks_back_through_turn_ends_and_destruction():
    state = plain_game().new_state(0)
    start = state.to_dict()
    for c in ("spawn 4", "pass", "pass", "spawn 27", "pass", "pass"):
        state.push(c)
    assert state.is_over()
    while state.move_stack:
        state.pop()
    assert state.to_dict() == start


@pytest.mark.parametrize("corrupt", [
    lambda d: d.update(format="other/1"),
    lambda d: d.update(size=7),
    lambda d: d["terrain"].pop(),
    lambda d: d["terrain"].__setitem__(0, "X"),
    lambda d: d["pieces"].append([0, 0, "Knight"]),
    lambda d: d["pieces"].append([0, 1, "Serf"]),
    lambda d: d.update(to_move=1),
    lambda d: d.update(command=3),
    lambda d: d.update(baron_lost="yes"),
    lambda d: d.pop("rng"),
    lambda d: d["players"][0]["resources"].update(gold=1),
    lambda d: d.update(players=[]),
])
def test_corrupt_position_data_is_refused_with_a_record_error(corrupt):
    state = plain_game().new_state(0)
    data = json.loads(json.dumps(state.to_dict()))
    corrupt(data)
    with pytest.raises(RecordError):
        state.game.state_from_dict(data)


def test_render_shows_the_grid_names_resources_last_command_and_whose_turn():
    state = plain_game(p1_name="Ada").new_state(0)
    state.push("upgrade less 8")
    text = state.render()
    assert " / L 8\\____/~  9\\____/  10\\____/# 11\\____/" in text
    assert "Ada         VPs 0   fuel 10   lumber 5   pieces in supply 5" in text
    assert "Player Two  VPs 1   fuel 10   lumber 10   pieces in supply 5" in text
    assert "Last: Ada: upgrade less 8: the Serf on tile 8 is now a LESS (-5 lumber)" in text
    assert text.endswith("Ada to give command 2 of 3, turn 1.")


def test_render_reports_destruction_and_the_result():
    state = plain_game().new_state(0)
    for c in ("spawn 4", "pass", "pass", "spawn 27", "pass", "pass"):
        state.push(c)
    text = state.render()
    assert "Last: Player Two: pass: passed; end of Player Two's turn: destroyed s23 s27 b31 " \
           "(Player One +12 VPs)" in text
    assert text.endswith("Final VPs: Player One 12, Player Two 13.")
    assert state.outcome().reason == "a baron was destroyed; 12 VPs to 13"


def test_a_tie_is_reported_as_a_draw():
    state = board(4, "1,Baron,0 2,Baron,5 1,Serf,3 1,Serf,7", vps=(2, 10))
    for _ in range(6):
        state.push("pass")
    assert state.outcome().winners == ()
    assert state.outcome().reason == "a baron was destroyed; 12 VPs to 12"


def test_view_puts_each_tile_at_axial_x_z_with_its_number_terrain_and_piece():
    state = plain_game().new_state(0)
    state.push("move 0 4")
    view = state.view()
    assert view.topology == "hex" and view.orientation == "flat"
    cells = {c.label: c for c in view.cells}
    assert cells["4"].at == (1, 0) and cells["4"].terrain == "bog"
    assert [(p.owner, p.text) for p in cells["4"].pieces] == [(0, "B")]
    assert [(p.owner, p.text) for p in cells["31"].pieces] == [(1, "b")]
    assert cells["31"].at == (7, 0) and cells["8"].at == (0, 1)
    assert set(view.highlight) == {(0, 0), (1, 0)}
    assert dict(view.terrain_colours).keys() == {"field", "forest", "bog"}


def test_move_help_lists_every_command_with_its_cost():
    help_text = " ".join(plain_game().new_state(0).move_help().split())
    for phrase in ("move FROM TO", "upgrade less|pbds TILE", "spawn TILE", "saw TILE",
                   "dig TILE", "pass", "(5", "3 lumber", "does not count"):
        assert phrase in help_text
