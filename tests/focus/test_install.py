"""What a course autograder and a terminal user see after installing hexkit."""

from __future__ import annotations

import subprocess
import sys


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True,
                          text=True, timeout=120)


def test_course_autograder_import_from_focusgame_module_works():
    code = ("from FocusGame import FocusGame\n"
            "g = FocusGame(('PlayerA', 'R'), ('PlayerB', 'G'))\n"
            "print(g.move_piece('PlayerA', (0, 0), (0, 1), 1), g.show_pieces((0, 1)))\n")
    result = run("-c", code)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "successfully moved ['R', 'R']"


def test_hexkit_play_cross_board_for_three_players_at_the_terminal():
    result = run("-m", "hexkit", "play", "focus", "-o", "board=cross", "-o", "players=3",
                 stdin="b2-b3x1\nr:a3\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "first turn you must enter your reserve piece on an empty square" in result.stdout
    red = [line.split() for line in result.stdout.splitlines() if line.startswith("R Red")]
    assert red[-1] == ["R", "Red", "reserve", "0", "captured", "0", "stacks", "13"]
    assert "To move: Green (G)." in result.stdout


def test_hexkit_play_course_game_between_random_bots_ends_with_a_winner():
    result = run("-m", "hexkit", "play", "focus", "--p1", "random", "--p2", "random",
                 "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert "Game over: " in result.stdout and " wins (" in result.stdout


def test_hexkit_rules_lists_the_focus_options():
    result = run("-m", "hexkit", "rules", "focus")
    assert result.returncode == 0, result.stderr
    for word in ("board=course", "players=2", "distance=auto", "win=auto", "layout="):
        assert word in result.stdout


def test_bad_focus_option_on_the_command_line_is_one_line():
    result = run("-m", "hexkit", "play", "focus", "-o", "players=3")
    assert result.returncode != 0
    assert result.stderr.strip().count("\n") == 0
    assert "no layout for 3 players" in result.stderr
