"""The hexkit command line as a user runs it: ``python -m hexkit`` in a real subprocess
for the help, every other command through its main in this process (tests/inprocess.py)."""

from __future__ import annotations

import json

from .conftest import PLUGIN_FILES, run_hexkit

WITH_TOY = ("--plugins-dir", str(PLUGIN_FILES))


def test_help_lists_the_core_commands():
    r = run_hexkit("--help", real=True)
    assert r.returncode == 0
    for command in ("games", "plugins", "rules", "play"):
        assert command in r.stdout


def test_no_command_prints_help_and_fails():
    r = run_hexkit()
    assert r.returncode == 2 and "usage: hexkit" in r.stdout


def test_unknown_game_suggests_the_closest_name_and_exits_non_zero():
    r = run_hexkit(*WITH_TOY, "play", "tictactoo")
    assert r.returncode != 0
    assert "unknown game 'tictactoo'; did you mean 'tictactoe'?" in r.stderr
    assert "Traceback" not in r.stderr


def test_unknown_builtin_game_name_suggests_hexbaron():
    r = run_hexkit("play", "hexbarron")
    assert r.returncode != 0
    assert "unknown game 'hexbarron'; did you mean 'hexbaron'?" in r.stderr


def test_games_lists_name_description_plugin_and_version():
    r = run_hexkit(*WITH_TOY, "games")
    assert r.returncode == 0
    line = next(x for x in r.stdout.splitlines() if x.startswith("tictactoe"))
    assert "three in a row" in line and "[tictactoe" in line


def test_games_json_is_machine_readable():
    r = run_hexkit(*WITH_TOY, "games", "--json")
    rows = {row["name"]: row for row in json.loads(r.stdout)}
    assert rows["tictactoe"]["plugin"] == "tictactoe"
    assert rows["tictactoe"]["options"] == {"size": 3}


def test_plugins_json_lists_plugins_and_problems(tmp_path):
    (tmp_path / "broken.py").write_text("raise ImportError('half-written plugin')\n")
    r = run_hexkit("--plugins-dir", str(tmp_path), "plugins", "--json")
    data = json.loads(r.stdout)
    assert any(p["name"] == "hexkit.builtins" for p in data["plugins"])
    [problem] = [p for p in data["problems"] if p["plugin"] == "broken"]
    assert "half-written plugin" in problem["problem"]


def test_broken_plugin_is_one_warning_line_and_other_games_still_play(tmp_path):
    (tmp_path / "broken.py").write_text("import definitely_not_installed\n")
    (tmp_path / "tictactoe.py").write_text((PLUGIN_FILES / "tictactoe.py").read_text())
    r = run_hexkit("--plugins-dir", str(tmp_path), "play", "tictactoe", input="quit\n")
    assert r.returncode == 0
    warnings = [x for x in r.stderr.splitlines() if "broken" in x]
    assert len(warnings) == 1 and "definitely_not_installed" in warnings[0]
    assert "Traceback" not in r.stderr


def test_rules_shows_summary_and_options():
    r = run_hexkit(*WITH_TOY, "rules", "tictactoe")
    assert r.returncode == 0
    assert "full row, column or diagonal wins" in r.stdout
    assert "size=3" in r.stdout


def test_bad_option_value_is_one_line_error():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "-o", "size=huge")
    assert r.returncode == 1
    errors = [x for x in r.stderr.splitlines() if not x.startswith("hexkit: warning:")]
    assert errors == ["hexkit: error: option size: 'huge' is not a valid int"]


def test_unknown_option_names_the_valid_ones():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "-o", "colour=red")
    assert r.returncode == 1
    assert "has no option 'colour' (options: size)" in r.stderr


def test_malformed_option_flag_is_one_line_error():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "-o", "size")
    assert r.returncode == 1 and "expected key=value" in r.stderr


def test_unknown_bot_is_one_line_error():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "--p2", "deepblue")
    assert r.returncode == 1 and "unknown bot 'deepblue'" in r.stderr


def test_classic_flag_on_a_game_without_classic_front_end_is_refused():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "--classic")
    assert r.returncode == 1 and "has no classic front-end" in r.stderr


def test_two_humans_play_a_game_to_the_end():
    moves = "a1\nb1\na2\nb2\na3\n"
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", input=moves)
    assert r.returncode == 0
    assert "Game over: X wins (three in a row)." in r.stdout


def test_help_and_empty_line_list_the_legal_moves():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", input="a1\n\nhelp\nquit\n")
    assert r.stdout.count("8 legal moves:") == 2
    assert "column letter and row number" in r.stdout
    assert "undo" in r.stdout


def test_refused_and_unreadable_moves_say_why_and_keep_the_turn():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", input="a1\na1\nzz\nquit\n")
    assert "illegal move: a1 is already taken" in r.stdout
    assert "cannot read that move" in r.stdout
    assert r.stdout.count("O> ") == 3


def test_undo_takes_back_the_last_move():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", input="a1\nundo\nmoves\nquit\n")
    assert "9 legal moves:" in r.stdout


def test_undo_against_a_bot_takes_back_the_bots_reply_too():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "--p2", "random", "--seed", "3",
                   input="a1\nundo\nmoves\nquit\n")
    assert "O (random) plays" in r.stdout
    assert "9 legal moves:" in r.stdout


def test_bots_play_each_other_to_the_end():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "--p1", "random", "--p2", "random",
                   "--seed", "1")
    assert r.returncode == 0 and "Game over:" in r.stdout


def test_end_of_input_mid_game_abandons_it_with_one_line_on_stderr():
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", input="a1\n")
    assert r.returncode == 1
    assert "end of input: the game was abandoned unfinished" in r.stderr
    assert "Traceback" not in r.stderr


def test_abandoned_game_keeps_every_move_in_its_saved_record(tmp_path):
    r = run_hexkit(*WITH_TOY, "play", "tictactoe", "--seed", "2", "--save", "g.json",
                   input="a1\nb2\n", cwd=tmp_path)
    assert r.returncode == 1
    data = json.loads((tmp_path / "g.json").read_text())
    assert data["moves"] == ["a1", "b2"]
