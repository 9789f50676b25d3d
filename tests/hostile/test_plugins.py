"""Hostile plugins: whatever a plugin raises at import or while registering, a command
whose argument set-up fails, a malformed GameSpec, or a plugin claiming a built-in game's
name is one warning line naming that plugin; everything else keeps working."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .conftest import run_hexkit

HEADER = """
from hexkit import hookimpl
from hexkit.commands import Command
from hexkit.game import GameSpec, Option
"""


def plugin_dir(tmp_path: Path, name: str, body: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(HEADER + textwrap.dedent(body))
    return folder


def games_with(folder: Path):
    r = run_hexkit("--plugins-dir", str(folder), "games")
    assert r.returncode == 0, r.stderr
    names = {line.split()[0] for line in r.stdout.splitlines() if line.strip()}
    assert {"focus", "hexbaron", "hexaround"} <= names
    warnings = [x for x in r.stderr.splitlines() if x.strip()]
    assert "Traceback" not in r.stderr
    return names, warnings


@pytest.mark.parametrize("raise_it", ["raise SystemExit(3)", "raise KeyboardInterrupt",
                                      "import sys; sys.exit('bye')"])
def test_a_plugin_ending_the_program_at_import_is_a_broken_plugin(tmp_path, raise_it):
    folder = plugin_dir(tmp_path, "quitter", raise_it + "\n")
    _names, warnings = games_with(folder)
    assert len(warnings) == 1 and warnings[0].startswith("hexkit: warning: plugin quitter:")
    assert "failed to import" in warnings[0]


@pytest.mark.parametrize("raise_it", ["raise SystemExit(3)", "raise KeyboardInterrupt"])
def test_a_registration_hook_ending_the_program_is_a_broken_plugin(tmp_path, raise_it):
    folder = plugin_dir(tmp_path, "hooky", f"""
        @hookimpl
        def hexkit_register_games(register):
            {raise_it}
    """)
    _names, warnings = games_with(folder)
    assert len(warnings) == 1 and "hooky" in warnings[0]
    assert "hexkit_register_games failed" in warnings[0]
    assert not warnings[0].endswith(": ")  # a silent KeyboardInterrupt is named, no ": "


@pytest.mark.parametrize("body", [
    "parser.add_argument('--help')",   # clashes with argparse's own -h/--help
    "raise RuntimeError('half written')",
    "raise SystemExit(1)",
])
def test_a_command_whose_argument_set_up_fails_is_one_line_and_others_work(tmp_path, body):
    folder = plugin_dir(tmp_path, "cmdbad", f"""
        def configure(parser):
            {body}

        @hookimpl
        def hexkit_register_commands(register):
            register(Command("oops", "a broken command", configure, lambda args: 0))
    """)
    r = run_hexkit("--plugins-dir", str(folder), "oops")
    assert r.returncode == 1
    [line] = [x for x in r.stderr.splitlines() if x.strip()]
    assert line.startswith("hexkit: error: plugin cmdbad: command 'oops' cannot set up its "
                           "arguments")
    games_with(folder)
    r = run_hexkit("--plugins-dir", str(folder), "--help")
    assert r.returncode == 0 and "oops" in r.stdout


@pytest.mark.parametrize("option", [
    "Option('size', 'big', 'a size', int)",          # default is not an int
    "Option('size', 3, 'a size', list)",             # type hexkit cannot read
    "Option('bad name', 3, 'x', int)",
    "'not an option'",
    "Option('size', 3, 'a size', int, choices=5)",
])
def test_a_gamespec_with_a_malformed_option_is_a_broken_plugin(tmp_path, option):
    folder = plugin_dir(tmp_path, "badspec", f"""
        SPEC = GameSpec("badgame", "a game", "nowhere:Game", options=({option},))

        @hookimpl
        def hexkit_register_games(register):
            register(SPEC)
    """)
    names, warnings = games_with(folder)
    assert "badgame" not in names
    assert len(warnings) == 1 and warnings[0].startswith("hexkit: warning: plugin badspec:")
    r = run_hexkit("--plugins-dir", str(folder), "rules", "focus")
    assert r.returncode == 0


@pytest.mark.parametrize("marker", ["@hookimpl", "@hookimpl(trylast=True)",
                                    "@hookimpl(tryfirst=True)"])
def test_a_plugin_cannot_take_a_builtin_games_name(tmp_path, marker):
    folder = plugin_dir(tmp_path, "intruder", f"""
        SPEC = GameSpec("focus", "a fake focus", "nowhere:Game")

        {marker}
        def hexkit_register_games(register):
            register(SPEC)
    """)
    r = run_hexkit("--plugins-dir", str(folder), "games", "--json")
    assert r.returncode == 0
    import json

    rows = {row["name"]: row for row in json.loads(r.stdout)}
    assert rows["focus"]["plugin"] == "focus" and "fake" not in rows["focus"]["description"]
    [line] = [x for x in r.stderr.splitlines() if x.strip()]
    assert line.startswith("hexkit: warning: plugin intruder:")
    assert "plugin 'intruder' cannot register it again" in line
