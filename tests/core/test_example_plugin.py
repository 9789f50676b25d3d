"""The example third-party plugin (examples/hex-connection): installing it adds its game.

The install test builds and installs the example with pip into a private folder, then runs
hexkit in a subprocess with that folder on PYTHONPATH: nothing is installed into the test
environment itself.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hexkit.plugins import build_registry
from hexkit.testing import check_game

from .conftest import run_hexkit

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "hex-connection"


def _can_build_without_isolation() -> bool:
    """setuptools is installed and can make wheels (before 70.1 it needs `wheel` for that).

    Looked up on disk: importing setuptools here would patch distutils in the test process.
    """
    spec = importlib.util.find_spec("setuptools")
    if spec is None or spec.origin is None:
        return False
    if importlib.util.find_spec("wheel") is not None:
        return True
    return (Path(spec.origin).parent / "command" / "bdist_wheel.py").is_file()


def _pip_install(source: Path, target: Path) -> None:
    base = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
            "--disable-pip-version-check", "--target", str(target)]
    attempts = []
    if _can_build_without_isolation():
        attempts.append([*base, "--no-build-isolation", str(source)])
    # Build isolation fetches setuptools from the package index: slower, but always works.
    attempts.append([*base, str(source)])
    errors = []
    for command in attempts:
        done = subprocess.run(command, capture_output=True, text=True, timeout=300)
        if done.returncode == 0:
            return
        errors.append(f"$ {' '.join(command)}\n{done.stdout}{done.stderr}")
    pytest.fail("pip could not install the example plugin:\n" + "\n".join(errors))


@pytest.fixture(scope="module")
def installed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding the example plugin as pip installed it (package and dist-info)."""
    tmp = tmp_path_factory.mktemp("hex-plugin")
    # Build from a copy so that setuptools' build/ and egg-info/ never land in the checkout.
    source = tmp / "src"
    shutil.copytree(EXAMPLE, source,
                    ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    site = tmp / "site"
    _pip_install(source, site)
    return site


def _with_site(site: Path) -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(filter(None, [str(site),
                                                         os.environ.get("PYTHONPATH", "")]))}


def test_pip_installing_the_example_plugin_makes_hex_appear_in_hexkit_games(installed_site):
    assert (installed_site / "hexconnection" / "plugin.py").is_file()
    [dist_info] = installed_site.glob("hexkit_hex_connection-*.dist-info")
    assert "hexconnection = hexconnection.plugin" in (dist_info / "entry_points.txt").read_text()

    before = run_hexkit("games", "--json")
    assert before.returncode == 0, before.stderr
    assert "hex" not in {row["name"] for row in json.loads(before.stdout)}, (
        "the example plugin is already installed in this environment "
        "(pip uninstall hexkit-hex-connection): this test shows that installing it adds hex"
    )

    after = run_hexkit("games", "--json", env_extra=_with_site(installed_site))
    assert after.returncode == 0, after.stderr
    rows = {row["name"]: row for row in json.loads(after.stdout)}
    assert rows["hex"]["plugin"] == "hexconnection"
    assert rows["hex"]["version"] == "1.0.0"
    assert rows["hex"]["options"] == {"size": 11, "swap": False}
    assert "hexconnection" not in after.stderr  # no warning about the new plugin


def test_installed_hex_is_played_through_load_game(installed_site):
    script = (
        "import random, hexkit\n"
        "state = hexkit.load_game('hex', size=5).new_state(seed=1)\n"
        "chooser = random.Random(1)\n"
        "while not state.is_over():\n"
        "    state.push(chooser.choice(state.legal_moves()))\n"
        "print(type(state).__module__, state.players[state.outcome().winners[0]],\n"
        "      len(state.move_stack))\n"
    )
    env = {**os.environ, **_with_site(installed_site)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    module, winner, moves = done.stdout.split()
    assert module == "hexconnection.rules"
    assert winner in ("Red", "Blue")
    assert 9 <= int(moves) <= 25


def test_installed_hex_plays_to_the_end_with_hexkit_play(installed_site):
    done = run_hexkit("play", "hex", "-o", "size=5", "--p1", "random", "--p2", "random",
                      "--seed", "4", env_extra=_with_site(installed_site))
    assert done.returncode == 0, done.stderr
    assert "Red (random) plays " in done.stdout
    last = done.stdout.strip().splitlines()[-1]
    assert last in ("Game over: Red wins (connected top and bottom).",
                    "Game over: Blue wins (connected left and right).")


def test_installed_hex_takes_a_human_move_and_refuses_a_taken_cell(installed_site):
    done = run_hexkit("play", "hex", "-o", "size=3", "--p2", "random", "--seed", "2",
                      input="b2\nb2\nquit\n", env_extra=_with_site(installed_site))
    assert done.returncode == 0, done.stderr
    assert "illegal move: b2 is taken by Red" in done.stdout
    assert "Blue (random) plays " in done.stdout


def test_installed_hex_passes_the_example_scenario_file(installed_site):
    done = run_hexkit("check", str(EXAMPLE / "scenarios"), env_extra=_with_site(installed_site))
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip().splitlines()[-1] == "5 passed, 0 failed"


def test_installed_hex_passes_check_game_by_name(installed_site):
    script = (
        "from hexkit.testing import check_game\n"
        "print(check_game('hex', size=5, swap=True, games=3).finished)\n"
    )
    env = {**os.environ, **_with_site(installed_site)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "3"


def test_installed_hex_shows_its_rules_and_options(installed_site):
    done = run_hexkit("rules", "hex", env_extra=_with_site(installed_site))
    assert done.returncode == 0, done.stderr
    assert "no draws" in done.stdout
    assert "size=11" in done.stdout and "swap=False" in done.stdout


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
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(EXAMPLE), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(EXAMPLE)],
        capture_output=True, text=True, env=env, cwd=EXAMPLE, timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and "failed" not in done.stdout


# -- the tutorial quotes the example exactly ----------------------------------------------------
TUTORIAL = EXAMPLE.parents[1] / "docs" / "tutorial.md"
QUOTE = re.compile(r"<!-- quote: (?P<path>\S+) -->\n```[a-z]*\n(?P<code>.*?)\n```", re.DOTALL)


def test_every_code_quote_in_the_tutorial_is_copied_exactly_from_the_example():
    text = TUTORIAL.read_text(encoding="utf-8")
    quotes = list(QUOTE.finditer(text))
    assert len(quotes) >= 20
    assert len(quotes) == text.count("<!-- quote:"), "a quote marker is not followed by code"
    for quote in quotes:
        source = EXAMPLE / quote["path"]
        assert source.is_file(), f"the tutorial quotes {quote['path']}, which does not exist"
        code = quote["code"]
        line = text.count("\n", 0, quote.start()) + 1
        assert code in source.read_text(encoding="utf-8"), (
            f"tutorial line {line}: the quote of {quote['path']} no longer matches the file; "
            f"it begins {code.splitlines()[0]!r}"
        )


def test_tutorial_quotes_every_method_of_the_state():
    quoted = "\n".join(q["code"] for q in QUOTE.finditer(TUTORIAL.read_text(encoding="utf-8")))
    for name in ("players", "current_player", "legal_moves", "parse_move", "apply", "undo",
                 "is_over", "outcome", "to_dict", "state_from_dict", "render", "view",
                 "move_help", "new_state", "hexkit_register_games"):
        assert f"def {name}(" in quoted, name
