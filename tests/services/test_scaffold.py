"""hexkit new-plugin: a package that installs and passes its own tests straight away."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.fresh_env import PLAIN_PYTEST

from .conftest import error_lines, run_hexkit


def test_new_plugin_writes_a_package_with_entry_point_rules_tests_and_scenarios(tmp_path):
    out = run_hexkit("new-plugin", "trio", cwd=tmp_path, toy=False)
    assert out.returncode == 0, out.stderr
    root = tmp_path / "trio"
    files = sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())
    assert files == ["README.md", "pyproject.toml", "scenarios/trio.yaml",
                     "tests/test_trio.py", "trio/__init__.py", "trio/game.py", "trio/plugin.py"]
    pyproject = (root / "pyproject.toml").read_text()
    assert '[project.entry-points.hexkit]\ntrio = "trio.plugin"' in pyproject
    assert 'check_game("trio"' in (root / "tests" / "test_trio.py").read_text()
    assert "pip install -e trio" in out.stdout


def test_the_generated_game_works_as_a_plugins_folder_file(tmp_path):
    """The rules pass hexkit's conformance kit and the scenario file, before installing."""
    run_hexkit("new-plugin", "quad", cwd=tmp_path, toy=False)
    env = {"PYTHONPATH": str(tmp_path / "quad")}
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "quad_plugin.py").write_text("from quad.plugin import *  # noqa\n")
    check = run_hexkit("--plugins-dir", str(folder), "check", "quad/scenarios", cwd=tmp_path,
                       toy=False, env_extra=env)
    assert check.stdout.splitlines()[-1] == "2 passed, 0 failed", check.stdout + check.stderr
    code = "from hexkit.testing import check_game; print(check_game('quad', games=4))"
    conformance = subprocess.run(
        [sys.executable, "-c", f"from hexkit import plugins; plugins.configure(['{folder}']); "
         + code],
        capture_output=True, text=True, env={**os.environ, **env}, timeout=60,
    )
    assert conformance.returncode == 0, conformance.stderr
    assert "4 games" in conformance.stdout


def test_bad_or_taken_names_are_refused_with_one_line(tmp_path):
    cases = {
        "My-Game": "plugin name 'My-Game' must be lower case letters, digits and _",
        "json": "plugin name 'json' is taken by Python itself",
        "class": "plugin name 'class' is taken by Python itself",
        "toyline": "a game named 'toyline' is already installed",
        "pytest": "a Python package named 'pytest' is already installed",
    }
    for name, message in cases.items():
        out = run_hexkit("new-plugin", name, cwd=tmp_path)
        assert out.returncode == 1
        [line] = error_lines(out)
        assert line.startswith(f"hexkit: error: {message}"), line
    (tmp_path / "here").mkdir()
    out = run_hexkit("new-plugin", "here", cwd=tmp_path)
    assert error_lines(out) == [
        "hexkit: error: here already exists; remove it or choose another name"]


def test_generated_plugin_installs_and_passes_its_own_tests(fresh_install):
    """pip install -e into a new virtual environment that sees this hexkit, then pytest.

    The session's fresh environment (tests/fresh_env.py) wrote ``hexrow`` with
    ``hexkit new-plugin`` and installed it there with ``pip install -e``."""
    env = fresh_install.env
    games = env.hexkit("games")
    assert games.returncode == 0, games.stderr
    assert "hexrow" in games.stdout
    tests = env.pytest(fresh_install.hexrow)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert "3 passed" in tests.stdout


def test_the_printed_next_steps_work_when_typed_in_order(tmp_path):
    """Every step new-plugin prints, run one after another in one shell from where it was
    typed (the package loaded from a plugins folder, $HEXKIT_PLUGINS_DIR, instead of pip
    install; the server left out: it runs until Ctrl-C)."""
    out = run_hexkit("new-plugin", "stepwise", cwd=tmp_path, toy=False)
    steps = [line.split("#")[0].strip() for line in out.stdout.splitlines()
             if line.startswith("  ")]
    assert steps[0] == "pip install -e stepwise" and steps[2] == "hexkit serve"
    assert steps[-1] == "cd stepwise && pytest"
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "stepwise_plugin.py").write_text("from stepwise.plugin import *  # noqa\n")
    hexkit = f"{sys.executable} -m hexkit"
    pytest = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    lines = ["set -e"]
    for step in steps:
        if step.startswith(("pip install", "hexkit serve")):
            continue
        if step.startswith("hexkit play "):  # no one at the keyboard: it ends at once
            step = f"{hexkit} {step[len('hexkit '):]} < /dev/null || test $? = 1"
        elif step.startswith("hexkit "):
            step = f"{hexkit} {step[len('hexkit '):]}"
        lines.append(step.removesuffix("&& pytest") + f"&& {pytest}"
                     if step.endswith("&& pytest") else step)
    script = "\n".join(lines)
    env = {**os.environ, "PYTHONPATH": str(tmp_path / "stepwise"),
           "HEXKIT_PLUGINS_DIR": str(folder), **PLAIN_PYTEST}
    done = subprocess.run(["bash", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          env=env, timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed, 0 failed" in done.stdout and "3 passed" in done.stdout


def test_the_template_game_writes_the_seven_members_and_nothing_the_kit_gives(tmp_path):
    out = run_hexkit("new-plugin", "septet", cwd=tmp_path, toy=False)
    assert out.returncode == 0, out.stderr
    code = (
        "import sys, inspect\n"
        f"sys.path.insert(0, {str(tmp_path / 'septet')!r})\n"
        "from septet import game, plugin\n"
        "print(sorted(n for n in vars(game.SeptetState) if not n.startswith('_')))\n"
        "print(sorted(n for n in vars(game.SeptetGame) if not n.startswith('_')))\n"
        "print(plugin.SPEC.factory)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    state, game, factory = done.stdout.splitlines()
    assert state == "['apply', 'legal_moves', 'outcome', 'parse_move', 'view']"
    assert game == "['new_state']"
    assert factory == "septet.game:SeptetGame"
