"""The tutorial and its example plugin (examples/hex-connection).

The tutorial's code blocks, extracted in order, rebuild the example plugin's files exactly;
the result installs with pip into a fresh virtual environment that sees this hexkit (and
nothing of the example that may be installed here), appears in ``hexkit games``, plays,
and passes the conformance kit there. Nothing is installed into the test environment.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hexkit.plugins import build_registry
from hexkit.testing import check_game
from tests.fresh_env import (
    EXAMPLE,
    FILE_BLOCK,
    PLAIN_PYTEST,
    TUTORIAL,
    FreshEnv,
    tutorial_files,
)


def test_every_file_marker_of_the_tutorial_is_followed_by_a_code_block():
    text = TUTORIAL.read_text(encoding="utf-8")
    assert text.count("<!-- file:") == len(FILE_BLOCK.findall(text)) >= 15


def test_the_tutorials_blocks_rebuild_the_example_plugin_exactly():
    files = tutorial_files(TUTORIAL.read_text(encoding="utf-8"))
    assert set(files) == {
        "pyproject.toml", "hexconnection/__init__.py", "hexconnection/game.py",
        "hexconnection/render.py", "hexconnection/policy.py", "hexconnection/plugin.py",
        "tests/test_hex.py", "scenarios/hex.yaml"}
    for path, code in files.items():
        assert code == (EXAMPLE / path).read_text(encoding="utf-8"), (
            f"the tutorial's blocks for {path} differ from examples/hex-connection/{path}")


def test_the_example_state_leaves_undo_copies_saving_and_turns_to_the_kit(monkeypatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    game = importlib.import_module("hexconnection.game")
    public = {name for name in vars(game.HexState) if not name.startswith("_")}
    assert public == {"legal_moves", "parse_move", "apply", "outcome", "render", "view",
                      "gesture", "move_help"}


# -- a fresh environment (one for the session: tests/fresh_env.py) --------------------------
@pytest.fixture
def fresh(fresh_install) -> tuple[FreshEnv, list[dict], Path]:
    """The fresh environment with the tutorial's plugin installed, the ``hexkit games``
    listing from before it was installed, and the folder the tutorial built."""
    return fresh_install.env, fresh_install.games_before, fresh_install.tutorial


def test_installing_the_tutorials_plugin_makes_hex_appear_in_hexkit_games(fresh):
    env, before, _ = fresh
    assert "hex" not in {row["name"] for row in before}
    after = env.hexkit("games", "--json")
    assert after.returncode == 0, after.stderr
    rows = {row["name"]: row for row in json.loads(after.stdout)}
    assert rows["hex"]["plugin"] == "hexconnection"
    assert rows["hex"]["version"] == "1.0.0"
    assert rows["hex"]["options"] == {"size": 11, "swap": False}
    assert "hexconnection" not in after.stderr  # no warning about the new plugin


def test_the_installed_tutorial_plugin_passes_check_game(fresh):
    env, _, _ = fresh
    done = env.run_python(
        "from hexkit.testing import check_game\n"
        "for options in ({'size': 5}, {'size': 6, 'swap': True}):\n"
        "    print(check_game('hex', games=3, **options).finished)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "3"]


def test_registering_the_plugin_imports_none_of_its_rules(fresh):
    env, _, _ = fresh
    done = env.run_python(
        "import sys, hexkit\n"
        "assert 'hex' in hexkit.game_names()\n"
        "print(sorted(m for m in sys.modules if m.startswith('hexconnection')))\n"
        "hexkit.load_game('hex')\n"
        "print('hexconnection.game' in sys.modules)\n")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["['hexconnection', 'hexconnection.plugin']", "True"]


def test_installed_hex_is_played_through_load_game(fresh):
    env, _, _ = fresh
    done = env.run_python(
        "import random, hexkit\n"
        "state = hexkit.load_game('hex', size=5).new_state(seed=1)\n"
        "chooser = random.Random(1)\n"
        "while not state.is_over():\n"
        "    state.push(chooser.choice(state.legal_moves()))\n"
        "print(type(state).__module__, state.players[state.outcome().winners[0]],\n"
        "      len(state.move_stack))\n")
    assert done.returncode == 0, done.stderr
    module, winner, moves = done.stdout.split()
    assert module == "hexconnection.game"
    assert winner in ("Red", "Blue")
    assert 9 <= int(moves) <= 25


def test_installed_hex_plays_to_the_end_with_hexkit_play(fresh):
    env, _, _ = fresh
    done = env.hexkit("play", "hex", "-o", "size=5", "--p1", "random", "--p2", "random",
                      "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert "Red (random) plays " in done.stdout
    assert ("Game over: Red wins (connected top and bottom)." in done.stdout
            or "Game over: Blue wins (connected left and right)." in done.stdout)


def test_installed_hex_takes_a_human_move_and_refuses_a_taken_cell(fresh):
    env, _, _ = fresh
    done = env.hexkit("play", "hex", "-o", "size=3", "--p2", "random", "--seed", "2",
                      input="b2\nb2\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "b2 is taken by Red" in done.stdout
    assert "Blue (random) plays " in done.stdout


def test_installed_hex_passes_the_tutorials_scenario_file(fresh):
    env, _, built = fresh
    done = env.hexkit("check", str(built / "scenarios"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_installed_hex_shows_its_rules_and_options(fresh):
    env, _, _ = fresh
    done = env.hexkit("rules", "hex")
    assert done.returncode == 0, done.stderr
    assert "no draws" in done.stdout
    assert "size=11" in done.stdout and "swap=False" in done.stdout


def test_the_tutorials_own_tests_pass_in_the_fresh_environment(fresh):
    env, _, built = fresh
    done = env.pytest(built)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "5 passed" in done.stdout


# -- without installing: the module handed to the plugin manager directly -------------------
@pytest.fixture
def hex_registry(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.syspath_prepend(str(EXAMPLE))
    module = importlib.import_module("hexconnection.plugin")
    return build_registry(entry_points=False, use_env=False, extra=[("hexconnection", module)])


def test_registering_the_example_module_adds_hex_without_installing(hex_registry):
    assert hex_registry.problems == []
    spec = hex_registry.game_spec("hex")
    assert spec.plugin == "hexconnection"
    state = hex_registry.load_game("hex(size=5)").new_state(seed=0)
    for text in "a1 e1 a2 e2 a3 e3 a4 e4 a5".split():
        state.push(text)
    assert state.outcome().winners == (0,)


@pytest.mark.parametrize("options", [{"size": 5}, {"size": 6, "swap": True}])
def test_example_hex_passes_check_game(hex_registry, options):
    report = check_game("hex", registry=hex_registry, games=3, **options)
    assert report.finished == 3


def test_example_plugins_own_test_suite_passes():
    env = {**os.environ, **PLAIN_PYTEST}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(EXAMPLE), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE)],
        capture_output=True, text=True, env=env, cwd=EXAMPLE, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout
