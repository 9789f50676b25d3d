"""What the core gives a game's spec: checked options, lazy references, the registry's
plugin manager, and one place that turns an option's value into a variant file."""

from __future__ import annotations

import pickle

import pytest

from hexkit.errors import OptionError, PluginError
from hexkit.files.configs import resolve_variant
from hexkit.game import ConsoleCommand, GameSpec, Option
from hexkit.hookspecs import hookimpl
from hexkit.plugins import build_registry


def test_a_number_outside_an_options_bounds_is_refused_in_one_line():
    size = Option("size", 11, "cells per side", int, bounds=(3, 19))
    assert size.coerce("19") == 19
    for bad in ("2", 20, -1):
        with pytest.raises(OptionError, match=r"option size: -?\d+ is outside 3\.\.19"):
            size.coerce(bad)


def test_a_console_word_named_by_reference_is_imported_when_first_used():
    word = ConsoleCommand("dump", "print the position as JSON", "json:dumps")
    assert word.run({"a": 1}) == '{"a": 1}'
    broken = ConsoleCommand("nope", "a word whose function is missing", "json:no_such")
    with pytest.raises(PluginError, match="cannot import 'json:no_such'"):
        broken.run({}, "")


def test_a_registered_spec_carries_its_registrys_plugin_manager(tictactoe_registry):
    spec = tictactoe_registry.game_spec("tictactoe")
    assert spec.plugin_manager is tictactoe_registry.pm
    # Sent to another process, the spec leaves the plugin manager (modules) behind.
    copy = pickle.loads(pickle.dumps(spec))
    assert copy.plugin_manager is None and copy == spec


def test_a_spec_made_by_hand_has_no_plugin_manager():
    spec = GameSpec("solo", "a game made outside any registry", "no.such:Factory")
    assert spec.plugin_manager is None


def test_a_lazy_factory_is_imported_only_when_a_game_is_built():
    class Plugin:
        @hookimpl
        def hexkit_register_games(self, register):
            register(GameSpec("later", "built on demand", "no_such_module_anywhere:Game"))

    registry = build_registry(entry_points=False, use_env=False, extra=[("later", Plugin())])
    assert registry.problems == [] and "later" in registry.games
    with pytest.raises(PluginError, match="cannot import 'no_such_module_anywhere:Game'"):
        registry.load_game("later")


@pytest.fixture
def configs(tmp_path, monkeypatch):
    (tmp_path / "toy").mkdir()
    (tmp_path / "toy" / "Small.yaml").write_text("size: 3\n", encoding="utf-8")
    monkeypatch.setenv("HEXKIT_CONFIGS", str(tmp_path))
    return tmp_path


def test_a_variant_name_finds_the_shipped_file_in_any_case(configs):
    found = resolve_variant("toy", "small", option="board")
    assert found == configs / "toy" / "Small.yaml"


def test_a_path_is_taken_as_a_file(configs, tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("size: 4\n", encoding="utf-8")
    assert resolve_variant("toy", str(mine), option="board") == mine
    with pytest.raises(OptionError, match="option board: no variant file 'nowhere/x.yaml'"):
        resolve_variant("toy", "nowhere/x.yaml", option="board")


def test_names_the_game_resolves_itself_give_none(configs):
    assert resolve_variant("toy", "Extra", option="board", also_known=["extra"]) is None


def test_an_unknown_name_lists_the_known_ones_in_the_games_words(configs):
    with pytest.raises(OptionError) as caught:
        resolve_variant("toy", "large", option="board", also_known=["extra"])
    assert str(caught.value) == ("option board: unknown toy variant 'large' (known: Small, "
                                 "extra; or give a file)")
    with pytest.raises(OptionError, match="option setup: no set-up called 'large' "):
        resolve_variant("toy", "large", option="setup", unknown="no set-up called {name!r}")
    with pytest.raises(OptionError, match="option board: give a variant name or a file"):
        resolve_variant("toy", "  ", option="board")
