"""``--time-limit`` of ``hexkit play``, ``match`` and ``perft``: a plugin whose move loops
ends the command with one line naming the call, instead of hanging it."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hexkit import plugins
from hexkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = "the plugin's code did not return within 0.5 s (an endless loop?)"

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture(scope="module")
def loop_dir(tmp_path_factory) -> Path:
    """A plugins folder with ``loopline``: 3-in-a-row whose move to c3 never returns (a
    loop that waits, so that the test costs no CPU time)."""
    source = (ROOT / "tests" / "services" / "plugin_files" / "toyline.py").read_text()
    looping = source.replace('"toyline",', '"loopline",').replace(
        "    def apply(self, move: Move) -> None:\n",
        "    def apply(self, move: Move) -> None:\n"
        "        while str(move) == 'c3':\n            __import__('time').sleep(0.01)\n")
    assert looping.count("while str(move)") == 1
    folder = tmp_path_factory.mktemp("loop")
    (folder / "loopline.py").write_text(looping, encoding="utf-8")
    return folder


@pytest.fixture
def hexkit(loop_dir, monkeypatch, capsys) -> Iterator[Run]:
    """``hexkit(*args, typed="")``: the command line run in this process with the plugins
    folder, returning (status, stdout, stderr)."""
    saved = list(plugins._plugin_dirs)

    def run(*args: str, typed: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
        status = main(["--plugins-dir", str(loop_dir), *args])
        out, err = capsys.readouterr()
        return status, out, err

    try:
        yield run
    finally:
        plugins.configure(saved)


def test_perft_stops_at_a_move_that_does_not_return_and_names_it(hexkit):
    status, out, err = hexkit("perft", "loopline", "2", "--time-limit", "0.5")
    assert status == 1
    assert "perft(1) = 9" in out
    assert err.splitlines() == [f"hexkit: error: push('c3') from the start: {TIMEOUT}"]
    status, out, err = hexkit("perft", "loopline", "1", "--divide", "--moves", "a1;b2",
                              "--time-limit", "0.5")
    assert err.splitlines() == [f"hexkit: error: push('c3') after a1 b2: {TIMEOUT}"]


def test_play_ends_on_a_move_that_does_not_return_with_the_game_saved_before_it(
        hexkit, loop_dir, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    status, out, err = hexkit("play", "loopline", "--save", "g.json", "--time-limit", "0.5",
                              typed="a1\nb1\nc3\n")
    assert status == 1
    assert err.splitlines() == [
        f"hexkit: error: after 'c3': {TIMEOUT}",
        f"hexkit: the game is saved in g.json as it was before that; resume it with: "
        f"hexkit --plugins-dir {loop_dir} play --load g.json",
    ]
    assert json.loads((tmp_path / "g.json").read_text())["moves"] == ["a1", "b1"]


def test_play_ends_on_a_bots_move_that_does_not_return(hexkit):
    status, out, err = hexkit("play", "loopline", "--p2", "random", "--seed", "3",
                              "--time-limit", "0.5", typed="a1\nb1\nc1\nb2\na2\n")
    assert status == 1
    assert err.splitlines() == [f"hexkit: error: random's move 'c3': {TIMEOUT}"]


def test_match_counts_a_game_whose_rules_do_not_return_as_an_error(hexkit):
    status, out, err = hexkit("match", "loopline", "--games", "2", "--seed", "1",
                              "--time-limit", "0.5", "--quiet")
    assert status == 1
    assert "2 games" in out
    assert err.splitlines() == [
        f"hexkit: error: 1 game(s) stopped on an error; game 1: rules failed: move 2 'c3': "
        f"{TIMEOUT}"]
