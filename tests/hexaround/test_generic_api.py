"""HexAround through hexkit's generic game API: conformance for every shipped variant, the
move notation, saved positions, the text picture and the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hexaround import MoveCreature, PlaceCreature

import hexkit
from hexkit.errors import IllegalMoveError, MoveParseError, RecordError
from hexkit.testing import check_game

from .conftest import CONFIGS, position

VARIANTS = sorted(p.stem for p in CONFIGS.glob("*.yaml"))


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_shipped_variant_passes_the_conformance_kit(variant: str) -> None:
    # Two deep checks (notation, saving, exact undo) per position, not six: with nine
    # variants that is still 720, and every other check of each position stays.
    report = check_game("hexaround", config=variant, games=1, max_moves=40, sample=2)
    assert report.moves > 0


def test_conformance_kit_with_the_course_rule_options() -> None:
    report = check_game("hexaround", config="level2", games=1, max_moves=40,
                        kamikaze_survives=True, butterfly_deadline_blocks_moves=False)
    assert report.moves > 0


def test_move_notation_round_trips_and_reads_any_case() -> None:
    state = hexkit.load_game("hexaround").new_state()
    assert state.parse_move("place turtle 0 -1") == PlaceCreature("TURTLE", 0, -1)
    assert state.parse_move("  MOVE Duck (0, 1) (-2, 3) ") == MoveCreature("DUCK", 0, 1, -2, 3)
    for move in (PlaceCreature("HORSE", -3, 2), MoveCreature("RABBIT", 1, -1, 0, 2)):
        assert state.parse_move(str(move)) == move
    assert str(MoveCreature("RABBIT", 1, -1, 0, 2)) == "move RABBIT 1 -1 0 2"


@pytest.mark.parametrize(("text", "why"), [
    ("", "empty move"), ("jump CRAB 0 0", "starts with 'place' or 'move'"),
    ("place TURTLE 0", "expected 'place CREATURE X Y'"),
    ("move TURTLE 0 0 1", "expected 'move CREATURE FX FY TX TY'"),
    ("place TURTLE a b", "'a' is not a coordinate"), ("place 9LIVES 0 0", "not a creature"),
    ("place DRAGON 0 0", "no creature DRAGON in this game"),
])
def test_unreadable_moves_raise_move_parse_error(text: str, why: str) -> None:
    state = hexkit.load_game("hexaround").new_state()
    with pytest.raises(MoveParseError, match=why):
        state.parse_move(text)


def test_illegal_push_raises_the_facades_reason_and_changes_nothing(tmp_path: Path) -> None:
    state = hexkit.load_game("hexaround").new_state(seed=1)
    state.push("place BUTTERFLY 0 0")
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="must be placed next to"):
        state.push("place BUTTERFLY 3 3")
    assert state.to_dict() == before and len(state.move_stack) == 1


def test_first_placement_is_listed_at_the_origin_but_allowed_anywhere() -> None:
    game = hexkit.load_game("hexaround", config="level1")
    state = game.new_state()
    assert {str(m) for m in state.legal_moves()} == {
        "place BUTTERFLY 0 0", "place CRAB 0 0", "place DOVE 0 0", "place HUMMINGBIRD 0 0"}
    state.push("place CRAB 7 -4")
    assert {str(m) for m in state.legal_moves()} >= {"place BUTTERFLY 7 -3"}


def test_push_and_pop_restore_the_position_exactly() -> None:
    game = hexkit.load_game("hexaround", config="menagerie")
    state = game.new_state(seed=4)
    snapshots = []
    for _ in range(30):
        if state.is_over():
            break
        snapshots.append(state.to_dict())
        legal = state.legal_moves()
        state.push(legal[len(snapshots) * 7 % len(legal)])
    assert len(snapshots) >= 10
    while state.move_stack:
        state.pop()
        assert state.to_dict() == snapshots.pop()


def test_saved_positions_restore_and_corrupt_ones_are_refused() -> None:
    game = hexkit.load_game("hexaround", config="level1")
    state = game.new_state(seed=2)
    for text in ("place BUTTERFLY 0 0", "place BUTTERFLY 0 1", "place CRAB 0 -1"):
        state.push(text)
    data = state.to_dict()
    assert game.state_from_dict(data).to_dict() == data
    broken = [
        {**data, "board": data["board"] + [[5, 5, [["CRAB", "BLUE"]]]]},
        {**data, "board": [[0, 0, [["UNICORN", "BLUE"]]]]},
        {**data, "hands": {"BLUE": {}, "RED": {"CRAB": -1}}},
        {**data, "result": "SOMEBODY_WON"},
        {**data, "actions": [1]},
        {key: value for key, value in data.items() if key != "board"},
    ]
    for bad in broken:
        with pytest.raises(RecordError):
            game.state_from_dict(bad)


def test_text_picture_shows_owner_creature_stack_and_coordinates(tmp_path: Path) -> None:
    board = {(0, 0): [("BUTTERFLY", "BLUE"), ("TURTLE", "RED")], (1, 0): [("BUTTERFLY", "RED")],
             (-1, 0): [("CRAB", "BLUE")]}
    gm = position(tmp_path, board)
    text = gm.render()
    assert "R-TUR^2" in text and "B-CRA" in text and "R-BUT" in text
    assert "0,0" in text and "-1,0" in text and "1,0" in text
    assert "(0, 0): BLUE BUTTERFLY, RED TURTLE" in text
    assert max(len(line) for line in text.splitlines()) <= 80


def test_text_picture_of_a_long_colony_stays_within_80_columns() -> None:
    state = hexkit.load_game("hexaround", config="hivelike").new_state()
    state.push("place BUTTERFLY 0 0")
    state.push("place BUTTERFLY 1 0")
    x_blue, x_red = 0, 1
    for name in ("ANT", "ANT", "ANT", "SPIDER", "SPIDER", "GRASSHOPPER", "GRASSHOPPER"):
        x_blue -= 1
        state.push(f"place {name} {x_blue} 0")
        x_red += 1
        state.push(f"place {name} {x_red} 0")
    lines = state.render().splitlines()
    assert max(len(line) for line in lines) <= 80
    assert any("[part 2 of" in line for line in lines)
    assert "-7,0" in state.render() and "8,0" in state.render()


def test_view_lists_the_stacks_for_renderers() -> None:
    state = hexkit.load_game("hexaround", config="level1").new_state()
    state.push("place BUTTERFLY 0 0")
    state.push("place DOVE 1 0")
    view = state.view()
    assert view.topology == "hex"
    cells = {c.at: [(p.owner, p.text) for p in c.pieces] for c in view.cells if c.pieces}
    assert cells == {(0, 0): [(0, "BUT")], (1, 0): [(1, "DOV")]}
    assert view.highlight == ((1, 0),)
    # The empty hexes around the colony are cells too: where a click puts a creature.
    empty = {c.at for c in view.cells if not c.pieces}
    assert empty == {(0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1), (2, -1), (2, 0), (1, 1)}
    assert view.y_up


def _hexkit(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "HEXKIT_PLUGINS_DIR"}
    return subprocess.run([sys.executable, "-m", "hexkit", *args], input=stdin,
                          capture_output=True, text=True, env=env, timeout=120)


def test_hexkit_play_picks_a_variant_by_name_and_reads_moves() -> None:
    r = _hexkit("play", "hexaround", "-o", "config=level1", "--seed", "1",
                stdin="place butterfly 0 0\nplace CRAB 5 5\nplace DOVE 1 0\nquit\n")
    assert r.returncode == 0, r.stderr
    assert "illegal move" in r.stdout and "next to the creature" in r.stdout
    assert "R-DOV" in r.stdout


def test_hexkit_play_with_a_broken_file_prints_file_line_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("creatures:\n  BUTTERFLY: {properties: [FLYING]}\nplayers: {}\n")
    r = _hexkit("play", "hexaround", "-o", f"config={bad}")
    assert r.returncode != 0
    assert f"{bad}:2: creature BUTTERFLY" in r.stderr
    assert "Traceback" not in r.stderr
