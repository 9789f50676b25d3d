"""Refusals that already held on main, kept by tests: extra seats in play, plugin names
that are paths, bytes that are not UTF-8 on standard input, a NUL in a typed file name."""

from __future__ import annotations

import subprocess
import sys

from .conftest import run_hexkit


def test_play_refuses_a_third_seat_on_a_two_player_game_as_match_does():
    play = run_hexkit("play", "focus", "--p3", "random")
    match = run_hexkit("match", "focus", "--p3", "random", "--games", "1")
    assert play.returncode != 0 and match.returncode != 0
    assert play.stderr.strip() == match.stderr.strip() == (
        "hexkit: error: focus has 2 seats; --p3 cannot play")


def test_new_plugin_refuses_a_name_that_is_a_path(tmp_path):
    r = run_hexkit("new-plugin", "../../x", cwd=tmp_path)
    assert r.returncode != 0 and "plugin name '../../x' must be lower case" in r.stderr
    assert list(tmp_path.iterdir()) == [] and not (tmp_path.parent.parent / "x").exists()


def _play(stdin: bytes) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "hexkit", "play", "focus"], input=stdin,
                          capture_output=True, timeout=60,
                          env={"PYTHONIOENCODING": "utf-8:strict", "PATH": "/usr/bin:/bin",
                               "LANG": "C.UTF-8"})


def test_non_utf8_bytes_on_standard_input_are_refused_and_the_game_goes_on():
    r = _play(b"a1-a2x1 \xff\xfe\nmoves\nquit\n")
    out = r.stdout.decode()
    assert "that line is not UTF-8 text" in out
    assert "Traceback" not in r.stderr.decode()
    assert out.count("Red>") >= 2  # the game asked again after the refusal


def test_a_nul_byte_in_a_typed_file_name_is_refused_and_the_game_goes_on(tmp_path):
    r = _play(b"save a\x00b.json\nmoves\nquit\n")
    out = r.stdout.decode()
    assert "holds a NUL byte" in out and "Traceback" not in r.stderr.decode()
    assert out.count("Red>") >= 2
