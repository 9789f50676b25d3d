"""hexkit play --save/--load and hexkit replay, through the real command line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from hexkit.files.records import load_record

from .conftest import PLUGIN_FILES, error_lines, run_hexkit


def test_play_save_writes_the_record_as_the_game_goes(tmp_path):
    out = run_hexkit("play", "toyline", "--seed", "4", "--save", "g.json", input="b2\na1\nquit\n",
                     cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["moves"] == ["b2", "a1"]
    assert data["seed"] == 4
    assert data["players"] == ["human", "human"]
    assert data["result"] is None


def test_play_without_a_seed_records_the_seed_it_picked(tmp_path):
    out = run_hexkit("play", "toyline", "-o", "blockers=true", "--save", "g.json",
                     input="b2\nquit\n", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    record = load_record(tmp_path / "g.json")
    assert isinstance(record.seed, int)
    replayed = run_hexkit("replay", "g.json", "--final", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr


def test_play_load_continues_a_saved_game_and_keeps_saving(tmp_path):
    run_hexkit("play", "toyline", "-o", "blockers=true", "--seed", "8", "--save", "g.json",
               input="b2\n", cwd=tmp_path)
    out = run_hexkit("play", "--load", "g.json", "--p2", "random", input="a1\nquit\n",
                     cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Loaded toyline(blockers=true) after 1 moves" in out.stdout
    record = load_record(tmp_path / "g.json")
    assert record.moves[:1] == ["b2"] and len(record.moves) >= 2
    assert record.players == ["human", "random"]
    assert record.seed == 8


def test_a_finished_saved_game_has_its_result_and_replays_to_the_same_state(tmp_path):
    out = run_hexkit("play", "toyline", "--seed", "1", "--p1", "random", "--p2", "random",
                     "--save", "g.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    record = load_record(tmp_path / "g.json")
    assert record.result is not None
    replayed = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    final_board = out.stdout.split("Game over")[0].rstrip().splitlines()[-4:]
    assert "\n".join(final_board) in replayed.stdout
    assert "Result:" in replayed.stdout


def test_undo_is_saved_too(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json",
               input="b2\na1\nundo\n", cwd=tmp_path)
    assert load_record(tmp_path / "g.json").moves == ["b2"]


def test_ctrl_c_during_a_game_leaves_a_complete_saved_game(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", "--plugins-dir", str(PLUGIN_FILES), "play", "toyline",
         "--seed", "3", "--save", "g.json"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path,
    )
    proc.stdin.write("b2\nc3\n")
    proc.stdin.flush()
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if len(load_record(tmp_path / "g.json").moves) == 2:
                break
        except Exception:
            pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=30)
    assert proc.returncode != 0
    assert load_record(tmp_path / "g.json").moves == ["b2", "c3"]
    assert [p.name for p in tmp_path.iterdir()] == ["g.json"]


def test_load_refuses_options_and_seed_that_the_record_fixes(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\n", cwd=tmp_path)
    out = run_hexkit("play", "--load", "g.json", "--seed", "5", cwd=tmp_path)
    assert out.returncode == 1
    assert error_lines(out) == [
        "hexkit: error: --load takes the game's options and seed from the saved game"]


def test_load_of_a_corrupt_file_is_one_line(tmp_path):
    (tmp_path / "g.json").write_text('{"format": "something-else"}')
    out = run_hexkit("play", "--load", "g.json", cwd=tmp_path)
    assert out.returncode == 1
    assert error_lines(out) == [
        'hexkit: error: g.json: not a hexkit game record (no "format": "hexkit-record")']


def test_replay_shows_every_move_with_the_player_and_the_board(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\na1\nquit\n",
               cwd=tmp_path)
    out = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "toyline, seed 2: 2 moves"
    assert "1. Xavier (human): b2" in lines
    assert "2. Olga (human): a1" in lines
    assert "1 O . ." in lines
    assert lines[-1] == "The game is unfinished."


def test_replay_step_waits_for_enter_and_q_stops(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\na1\nc1\n",
               cwd=tmp_path)
    out = run_hexkit("replay", "g.json", "--step", input="\nq\n", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "1. Xavier (human): b2" in out.stdout
    assert "2. Olga (human): a1" not in out.stdout
    assert out.stdout.count("-- Enter for the next move") == 2


def test_replay_of_a_tampered_record_names_the_first_illegal_move(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\na1\nc1\n",
               cwd=tmp_path)
    data = json.loads((tmp_path / "g.json").read_text())
    data["moves"][2] = "b2"
    (tmp_path / "g.json").write_text(json.dumps(data))
    out = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert out.returncode == 1
    assert error_lines(out) == ["hexkit: error: move 3 'b2' is illegal: b2 is already taken"]


def test_replay_of_a_record_for_an_uninstalled_game_is_one_line(tmp_path):
    (tmp_path / "g.json").write_text(json.dumps(
        {"format": "hexkit-record", "version": 1, "name": "nosuchgame", "moves": []}))
    out = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert out.returncode == 1
    [line] = error_lines(out)
    assert line.startswith(
        "hexkit: error: g.json: cannot rebuild the recorded game: unknown game 'nosuchgame'")


def test_replay_of_a_binary_file_is_one_line(tmp_path):
    (tmp_path / "g.json").write_bytes(bytes(range(256)))
    out = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert out.returncode == 1
    assert error_lines(out) == [
        "hexkit: error: g.json: not a hexkit game record (not a text file)"]


def test_replaying_a_finished_focus_game_says_the_end_once(tmp_path):
    out = run_hexkit("play", "focus", "--seed", "1", "--p1", "random", "--p2", "random",
                     "--save", "g.json", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    replayed = run_hexkit("replay", "g.json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert replayed.stdout.count("Game over") == 1
    assert "Result:" not in replayed.stdout
