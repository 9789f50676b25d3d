"""The plugin manager: entry points, plugins folder, and every way a plugin can be broken."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import hexkit
from hexkit.errors import OptionError, UnknownGameError
from hexkit.plugins import build_registry, parse_game_string

from .conftest import PLUGIN_FILES, load_plugin_file

BUILT_IN_GAMES = {"hexbaron", "hexaround", "focus"}


def write_plugin(folder: Path, name: str, body: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return path


def test_built_in_games_are_found_through_entry_points():
    reg = build_registry(use_env=False)
    sources = {p.name: p.source for p in reg.plugins}
    for game in BUILT_IN_GAMES:
        assert game in reg.games, reg.problems
        assert sources[reg.games[game].plugin] == "entry point"


def test_core_never_imports_a_game_package():
    core = Path(hexkit.__file__).parent
    for path in core.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for game in BUILT_IN_GAMES:
            assert f"import {game}" not in text and f"from {game}" not in text, path


def test_plugins_folder_adds_a_game():
    reg = build_registry(entry_points=False, plugin_dirs=[PLUGIN_FILES], use_env=False)
    assert "tictactoe" in reg.games
    assert reg.games["tictactoe"].plugin == "tictactoe"
    assert reg.problems == []


def test_plugins_folder_from_environment_variable(monkeypatch):
    monkeypatch.setenv("HEXKIT_PLUGINS_DIR", str(PLUGIN_FILES))
    reg = build_registry(entry_points=False)
    assert "tictactoe" in reg.games


def test_plugin_that_fails_to_import_is_reported_in_one_line_and_others_work(tmp_path):
    write_plugin(tmp_path, "broken", "import no_such_module_anywhere\n")
    (tmp_path / "tictactoe.py").write_text((PLUGIN_FILES / "tictactoe.py").read_text())
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    assert "tictactoe" in reg.games
    [problem] = reg.problems
    assert problem.plugin == "broken"
    assert "No module named 'no_such_module_anywhere'" in str(problem)
    assert "\n" not in str(problem)


def test_plugin_with_syntax_error_is_reported_and_skipped(tmp_path):
    write_plugin(tmp_path, "typo", "def f(:\n")
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    [problem] = reg.problems
    assert problem.plugin == "typo" and "SyntaxError" in problem.message


def test_misspelt_hook_name_is_an_error_naming_the_hook_and_the_fix(tmp_path):
    write_plugin(tmp_path, "misspelt", """
        from hexkit import hookimpl

        @hookimpl
        def hexkit_register_game(register):
            pass
    """)
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    [problem] = reg.problems
    assert problem.plugin == "misspelt"
    assert "unknown hook 'hexkit_register_game'" in problem.message
    assert "did you mean 'hexkit_register_games'" in problem.message
    assert "misspelt" not in {p.name for p in reg.plugins}


def test_duplicate_game_name_is_an_error_naming_both_plugins(tmp_path):
    (tmp_path / "first.py").write_text((PLUGIN_FILES / "tictactoe.py").read_text())
    (tmp_path / "second.py").write_text((PLUGIN_FILES / "tictactoe.py").read_text())
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    assert reg.games["tictactoe"].plugin == "first"
    [problem] = reg.problems
    assert problem.plugin == "second"
    assert "'tictactoe'" in problem.message
    assert "'first'" in problem.message and "'second'" in problem.message


def test_plugin_whose_register_hook_raises_is_reported_and_dropped(tmp_path):
    write_plugin(tmp_path, "explodes", """
        from hexkit import hookimpl

        @hookimpl
        def hexkit_register_games(register):
            raise RuntimeError("boom")
    """)
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    [problem] = reg.problems
    assert problem.plugin == "explodes" and "RuntimeError: boom" in problem.message


def test_missing_plugins_folder_is_reported(tmp_path):
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path / "nope"], use_env=False)
    assert "does not exist" in reg.problems[0].message


def test_game_plugin_can_declare_hooks_that_another_plugin_implements(tmp_path):
    write_plugin(tmp_path, "a_host", """
        import types
        import pluggy
        from hexkit import hookimpl

        spec = pluggy.HookspecMarker("hexkit")
        specs = types.SimpleNamespace()

        @spec
        def host_register_colours(register):
            "Other plugins add colours to the host game."

        specs.host_register_colours = host_register_colours

        @hookimpl
        def hexkit_add_hookspecs(pluginmanager):
            pluginmanager.add_hookspecs(specs)
    """)
    write_plugin(tmp_path, "b_extension", """
        from hexkit import hookimpl

        @hookimpl
        def host_register_colours(register):
            register("teal")
    """)
    reg = build_registry(entry_points=False, plugin_dirs=[tmp_path], use_env=False)
    assert reg.problems == []
    got: list[str] = []
    reg.pm.hook.host_register_colours(register=got.append)
    assert got == ["teal"]


def test_load_game_takes_options_in_the_name_or_as_keywords(tictactoe_registry):
    game = tictactoe_registry.load_game("tictactoe(size=4)")
    assert game.options["size"] == 4 and str(game) == "tictactoe(size=4)"
    assert tictactoe_registry.load_game("tictactoe", size="5").options["size"] == 5
    assert str(tictactoe_registry.load_game("tictactoe")) == "tictactoe"


def test_unknown_game_suggests_the_closest_name(tictactoe_registry):
    with pytest.raises(UnknownGameError, match="did you mean 'tictactoe'"):
        tictactoe_registry.load_game("tictaktoe")


@pytest.mark.parametrize("bad", ["tictactoe(size=x)", "tictactoe(colour=red)",
                                 "tictactoe(size=12)", "tictactoe(size)"])
def test_bad_game_options_are_one_line_option_errors(tictactoe_registry, bad):
    with pytest.raises(OptionError) as info:
        tictactoe_registry.load_game(bad)
    assert "\n" not in str(info.value)


def test_game_string_parsing():
    assert parse_game_string("focus(board=cross, players=4)") == (
        "focus", {"board": "cross", "players": "4"}
    )
    assert parse_game_string(" hexbaron ") == ("hexbaron", {})
    with pytest.raises(OptionError):
        parse_game_string("focus(board=cross")


def test_tictactoe_module_is_a_valid_single_file_plugin():
    module = load_plugin_file("tictactoe")
    assert module.SPEC.name == "tictactoe"


def test_registering_the_built_in_games_imports_none_of_their_rules():
    """Hex Baron and Focus name their rules by reference: hexkit imports them when a game
    is built, not when the plugins register (HexAround's plugin is being reshaped apart)."""
    code = (
        "import sys\n"
        "from hexkit.plugins import build_registry\n"
        "registry = build_registry(use_env=False)\n"
        "assert {'hexbaron', 'focus'} <= set(registry.games), registry.problems\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('hexbaron', 'focus')))\n"
        "registry.load_game('focus')\n"
        "print('focus.game' in sys.modules, 'hexbaron.game' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    loaded, built = done.stdout.splitlines()
    assert loaded == "['focus', 'focus.plugin', 'hexbaron', 'hexbaron.hookspecs', " \
        "'hexbaron.plugin']"
    assert built == "True False"
