"""The services on the three built-in games: saved games replay exactly, pictures, scenarios."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import hexkit
from hexkit.bots import RandomBot
from hexkit.files.records import GameRecord, load_record, replay, save_record
from hexkit.render import render_svg

from .conftest import run_hexkit

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "scenarios"
GAMES = ["hexbaron", "focus", "focus(board=cross,players=4)", "focus(board=cross,players=3)",
         "hexaround", "hexaround(config=level1)"]


def play(game, seed, limit):
    state = game.new_state(seed=seed)
    bots = [RandomBot(seed * 10 + i) for i in range(len(state.players))]
    while not state.is_over() and len(state.move_stack) < limit:
        state.push(bots[state.current_player].choose(state))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_a_saved_game_replays_to_the_same_final_state(name, tmp_path):
    game = hexkit.load_game(name)
    for seed in (1, 2):
        state = play(game, seed, limit=150)
        record = GameRecord.for_game(game, seed=seed, players=["random"] * len(state.players))
        record.update(state)
        save_record(tmp_path / "g.json", record)
        again = replay(load_record(tmp_path / "g.json"))
        assert again.to_dict() == state.to_dict()
        assert again.outcome() == state.outcome()


@pytest.mark.parametrize("name", ["hexbaron", "focus"])
def test_play_save_then_replay_shows_the_same_final_board(name, tmp_path):
    played = run_hexkit("play", name, "--seed", "5", "--p1", "random", "--p2", "random",
                        "--save", "g.json", cwd=tmp_path, toy=False)
    assert played.returncode == 0, played.stderr
    record = load_record(tmp_path / "g.json")
    assert record.moves and record.result is not None
    replayed = run_hexkit("replay", "g.json", "--final", cwd=tmp_path, toy=False)
    assert replayed.returncode == 0, replayed.stderr
    assert replay(record).render() in replayed.stdout


@pytest.mark.parametrize("name", ["hexbaron", "focus(board=cross,players=4)", "hexaround"])
def test_match_records_replay_on_the_command_line(name, tmp_path):
    out = run_hexkit("match", name, "--games", "1", "--seed", "4", "--max-moves", "120",
                     "--quiet", "--save-dir", "games", cwd=tmp_path, toy=False)
    assert out.returncode == 0, out.stderr
    for path in sorted((tmp_path / "games").iterdir()):
        replayed = run_hexkit("replay", str(path), "--final", cwd=tmp_path, toy=False)
        assert replayed.returncode == 0, replayed.stderr
        assert replay(load_record(path)).render() in replayed.stdout


@pytest.mark.parametrize("name", GAMES)
def test_every_game_draws_as_svg_with_its_cells_and_pieces(name):
    state = play(hexkit.load_game(name), 3, limit=40)
    view = state.view()
    root = ET.fromstring(render_svg(view).encode("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    cells = [p for p in root.iter(f"{ns}polygon") if p.find(f"{ns}title") is not None]
    assert len(cells) == len(view.cells)
    pieces = sum(len(c.pieces) for c in view.cells)
    discs = len(list(root.iter(f"{ns}circle"))) + len(list(root.iter(f"{ns}ellipse")))
    assert pieces == 0 or discs > 0


def test_the_example_scenario_files_pass():
    out = run_hexkit("check", str(EXAMPLES), toy=False)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1].endswith(" passed, 0 failed")
