"""``hexkit check`` with a plugins folder checks the plugins in it, or refuses in one line;
packages, projects and single files load from --plugins-dir; plugin code has a deadline."""

from __future__ import annotations

import textwrap
from pathlib import Path

from .conftest import run_hexkit

ROOT = Path(__file__).resolve().parents[2]
FOCUS_SCENARIOS = ROOT / "examples" / "scenarios" / "focus.yaml"


def student(folder: Path, name: str, source: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return folder


def test_a_student_plugin_that_takes_the_course_games_name_is_the_one_checked(tmp_path):
    folder = student(tmp_path / "alice", "alice_focus", """
        from dataclasses import replace

        from focus.game import Focus
        from focus.plugin import SPEC
        from hexkit import hookimpl

        class Mine(Focus):
            def new_state(self, seed=None):
                raise RuntimeError("the student's rules ran")

        # the tutorial's form: the factory named "module:Class", in this very file
        MINE = replace(SPEC, factory="alice_focus:Mine")

        @hookimpl
        def hexkit_register_games(register):
            register(MINE)
        """)
    r = run_hexkit("--plugins-dir", str(folder), "check", str(FOCUS_SCENARIOS))
    assert r.returncode == 1
    lines = r.stdout.splitlines()
    assert lines[-1] == "0 passed, 4 failed"
    assert all("RuntimeError: the student's rules ran" in line for line in lines[:-1])


def test_a_broken_student_plugin_stops_the_check_instead_of_passing_the_built_in_game(
        tmp_path):
    folder = student(tmp_path / "bob", "bob_focus", "import not_installed_anywhere\n")
    r = run_hexkit("--plugins-dir", str(folder), "check", str(FOCUS_SCENARIOS))
    assert r.returncode != 0 and r.stdout == ""
    [error] = [line for line in r.stderr.splitlines() if line.startswith("hexkit: error:")]
    assert "game 'focus' would come from the installed plugin 'focus', not from the plugins " \
           "under test" in error
    assert "No module named 'not_installed_anywhere'" in error


def test_a_plugin_package_made_by_new_plugin_loads_from_plugins_dir(tmp_path):
    assert run_hexkit("new-plugin", "dave", cwd=tmp_path).returncode == 0
    for folder in ("dave", "dave/dave"):  # the project, or its package
        r = run_hexkit("--plugins-dir", folder, "check", "dave/scenarios", cwd=tmp_path)
        assert r.stdout.splitlines()[-1] == "2 passed, 0 failed", r.stdout + r.stderr


def test_a_loop_in_a_plugins_apply_fails_its_scenario_at_the_deadline(tmp_path):
    source = (ROOT / "tests" / "services" / "plugin_files" / "toyline.py").read_text()
    looping = source.replace('"toyline",', '"loopline",').replace(
        "    def legal_moves(self) -> list[Mark]:\n",
        "    def legal_moves(self) -> list[Mark]:\n        while True:\n            pass\n")
    folder = tmp_path / "student"
    folder.mkdir()
    (folder / "loopline.py").write_text(looping, encoding="utf-8")
    (tmp_path / "s.yaml").write_text("game: loopline\nmoves: [a1]\nfacts: [{legal_count: 8}]\n")
    r = run_hexkit("--plugins-dir", str(folder), "check", "s.yaml", "--time-limit", "0.5",
                   cwd=tmp_path, timeout=60)
    assert r.stdout.splitlines() == [
        "FAIL s.yaml:3 scenario 1: the facts at the end: the plugin's code did not return "
        "within 0.5 s (an endless loop?)",
        "0 passed, 1 failed",
    ]


def test_os_exit_at_import_is_a_broken_plugin_not_a_silent_end(tmp_path):
    folder = student(tmp_path / "eve", "eve", "import os\nos._exit(0)\n")
    r = run_hexkit("--plugins-dir", str(folder), "games")
    assert r.returncode == 0 and "focus" in r.stdout
    assert "plugin eve: failed to import" in r.stderr and "os._exit(0)" in r.stderr
