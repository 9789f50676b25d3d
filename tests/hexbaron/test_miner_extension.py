"""Extending Hex Baron from another plugin: the worked example in examples/hexbaron-miner
(loaded from its folder, not installed), and what the extension hooks guarantee."""

from __future__ import annotations

import io
import random
import types

import pytest
from hexbaron.catalogue import PieceType, Terrain
from hexbaron.classic import run_classic
from hexbaron.commands import CommandType
from hexbaron.game import HexBaronState
from hexbaron.setup import parse_data_file, write_data_file

from hexkit import hookimpl
from hexkit.errors import IllegalMoveError, OptionError, PluginError
from hexkit.testing import check_game
from tests.example_plugins import import_example, registry_with

from .conftest import MINER_DIR


@pytest.fixture(scope="module")
def miner():
    return import_example(MINER_DIR, "hexbaron_miner.plugin")


@pytest.fixture(scope="module")
def registry(miner):
    return registry_with("hexbaron_miner", miner)


def miner_state(registry, seed=0, **options):
    return registry.load_game("hexbaron", setup="miner", **options).new_state(seed)


def push_all(state, *commands):
    for c in commands:
        state.push(c)
    return state


def test_the_miner_extension_registers_without_problems(registry):
    assert [p for p in registry.problems if "miner" in str(p)] == []
    game = registry.load_game("hexbaron")
    assert "@" in game.catalogue.terrains and "Miner" in game.catalogue.pieces
    assert "mine" in game.catalogue.commands and "ore" in game.catalogue.resources


def test_the_miner_set_up_draws_its_ore_seams(registry):
    state = miner_state(registry)
    assert [t for t, s in enumerate(state.pos.terrain) if s == "@"] == [3, 14, 17, 29]
    assert " / B 0\\____/#  1\\____/#  2\\____/@  3\\____" in state.render()
    assert "ore 0" in state.render()


def test_upgrade_miner_turns_a_serf_into_a_miner_for_three_lumber_and_two_fuel(registry):
    state = push_all(miner_state(registry), "upgrade miner 8")
    assert state.pos.pieces[8].kind == "Miner"
    assert state.pos.resources[0] == {"fuel": 8, "lumber": 7, "supply": 5, "ore": 0}
    assert "M 8" in state.render()


def test_a_miner_moves_for_one_fuel_but_never_into_a_peat_bog(registry):
    state = push_all(miner_state(registry), "upgrade miner 8", "move 8 12")
    assert state.pos.resources[0]["fuel"] == 7  # into a forest: 1
    with pytest.raises(IllegalMoveError, match="a Miner is too heavy to move into a peat bog"):
        state.push("move 12 9")
    assert "move 12 9" not in [str(m) for m in state.legal_moves()]


def test_mine_on_an_ore_seam_gives_one_ore(registry):
    state = push_all(miner_state(registry), "upgrade miner 8", "move 8 12", "pass",
                     "pass", "pass", "pass", "move 12 17")
    assert "mine 17" in [str(m) for m in state.legal_moves()]
    state.push("mine 17")
    assert state.pos.resources[0]["ore"] == 1


def test_mine_is_refused_off_an_ore_seam_or_by_another_piece(registry):
    state = push_all(miner_state(registry), "upgrade miner 8")
    with pytest.raises(IllegalMoveError, match="tile 8 is not an ore seam"):
        state.push("mine 8")
    with pytest.raises(IllegalMoveError, match="a Baron cannot mine \\(only a Miner can\\)"):
        state.push("mine 0")
    assert [str(m) for m in state.legal_moves() if m.verb == "mine"] == []


def test_a_miner_is_destroyed_like_any_piece_and_scores_two(registry):
    state = push_all(miner_state(registry), "upgrade miner 8", "spawn 4", "pass")
    assert state.pos.pieces[8] is None
    assert state.pos.vps[1] == 1 + 10 + 2 + 1  # baron, miner, new serf


def test_ore_is_saved_on_the_player_lines_and_loads_back(registry):
    state = push_all(miner_state(registry), "upgrade miner 8", "move 8 12", "pass",
                     "pass", "pass", "pass", "move 12 17", "mine 17")
    catalogue = state.catalogue
    text = write_data_file(state.to_setup(), catalogue)
    assert text.startswith("Player One,0,6,7,5,ore=1\nPlayer Two,1,10,10,5,ore=0\n")
    assert "1,Miner,17" in text
    loaded = HexBaronState(state.game, parse_data_file(text, "m.txt", catalogue),
                           random.Random())
    loaded.pos.rng.setstate(state.rng.getstate())
    assert loaded.to_dict() == state.to_dict()


def test_help_describes_the_miner_and_the_mine_command(registry):
    text = " ".join(miner_state(registry).move_help().split())
    assert "mine TILE your Miner on TILE digs 1 ore" in text
    assert "M Miner: moves one tile for 1 fuel but never into a peat bog" in text
    assert "made with 'upgrade miner' from a serf (3 lumber, 2 fuel)" in text


def test_hexbaron_with_the_miner_passes_the_conformance_kit(registry):
    report = check_game("hexbaron", registry=registry, games=2, max_moves=200, setup="miner")
    assert report.moves > 0


def test_extensions_none_plays_the_plain_aqa_game(registry):
    game = registry.load_game("hexbaron", extensions="none")
    assert "Miner" not in game.catalogue.pieces and "mine" not in game.catalogue.commands
    with pytest.raises(OptionError, match="no set-up called 'miner'"):
        registry.load_game("hexbaron", extensions="none", setup="miner")


def test_extensions_can_be_chosen_by_plugin_name(registry):
    assert "Miner" in registry.load_game("hexbaron", extensions="hexbaron_miner").catalogue.pieces
    with pytest.raises(OptionError, match="no Hex Baron extension called wizard"):
        registry.load_game("hexbaron", extensions="wizard")


def test_the_classic_console_ignores_extensions(registry):
    out = io.StringIO()
    code = run_classic(registry.load_game("hexbaron"), seed=0,
                       stdin=io.StringIO("1\nupgrade miner 8\nmine 8\npass\n\nQ\n"),
                       stdout=out, stderr=io.StringIO())
    assert "Enter command: Invalid command\nInvalid command\nInvalid command\n" in out.getvalue()
    assert code == 1  # the input ends during Player Two's turn


# -- what the hooks guarantee -------------------------------------------------------------
def plugin_module(name: str, **hooks) -> types.ModuleType:
    module = types.ModuleType(name)
    for hook_name, function in hooks.items():
        setattr(module, hook_name, hookimpl(function))
    return module


def test_a_clashing_extension_is_refused_naming_the_plugin():
    def hexbaron_register_terrains(register):
        register(Terrain("#", "pine", "#00aa00"))

    clash = plugin_module("clash", hexbaron_register_terrains=hexbaron_register_terrains)
    reg = registry_with("clash", clash)
    with pytest.raises(PluginError, match="hexbaron extension 'clash': terrain symbol '#' is "
                                          "already used by hexbaron"):
        reg.load_game("hexbaron")
    assert reg.load_game("hexbaron", extensions="none").catalogue.terrains["#"].name == "forest"


def test_a_failing_extension_hook_is_reported_in_one_line():
    def hexbaron_register_pieces(register):
        raise RuntimeError("boom")

    broken = plugin_module("broken", hexbaron_register_pieces=hexbaron_register_pieces)
    reg = registry_with("broken", broken)
    with pytest.raises(PluginError, match="hexbaron extension 'broken': "
                                          "hexbaron_register_pieces failed: RuntimeError: boom"):
        reg.load_game("hexbaron")


def test_a_badly_defined_piece_is_refused():
    class Knight(PieceType):
        name = "Knight"
        letter = "kn"

    def hexbaron_register_pieces(register):
        register(Knight())

    bad = plugin_module("bad", hexbaron_register_pieces=hexbaron_register_pieces)
    reg = registry_with("bad", bad)
    with pytest.raises(PluginError, match="letter 'kn' must be one upper-case letter"):
        reg.load_game("hexbaron")


def test_extension_hooks_are_called_once_per_game_not_per_move(miner):
    calls = []

    def hexbaron_register_pieces(register):
        calls.append(1)

    counter = plugin_module("counter", hexbaron_register_pieces=hexbaron_register_pieces)
    reg = registry_with("counter", counter)
    state = reg.load_game("hexbaron").new_state(0)
    chooser = random.Random(0)
    for _ in range(100):
        if state.is_over():
            break
        moves = state.legal_moves()
        state.push(moves[chooser.randrange(len(moves))])
    assert calls == [1]


class BuildCommand(CommandType):
    """A second exam-style extension: ``build TILE`` raises a wall next to your baron."""

    verb = "build"
    syntax = "build TILE"
    help = "a wall on an empty TILE next to your baron (2 lumber)"

    def check(self, pos, args):
        (tile,) = args
        if not pos.valid(tile):
            return f"there is no tile {tile}"
        if pos.piece_at(tile) is not None or pos.terrain_at(tile) == "X":
            return f"tile {tile} is taken"
        if pos.resource("lumber") < 2:
            return "not enough lumber"
        if not any(pos.own(j) and pos.type_at(j).is_baron for j in pos.neighbours[tile]):
            return f"tile {tile} is not next to your baron"
        return None

    def candidates(self, pos):
        return ((tile,) for tile in range(pos.n))

    def apply(self, pos, args):
        pos.set_terrain(args[0], "X")
        pos.add_resource("lumber", -2)
        return "a wall stands"


def builder_registry():
    def hexbaron_register_terrains(register):
        register(Terrain("X", "wall", "#444444", "nothing moves onto it", passable=False))

    def hexbaron_register_commands(register):
        register(BuildCommand())

    module = plugin_module("builder", hexbaron_register_terrains=hexbaron_register_terrains,
                           hexbaron_register_commands=hexbaron_register_commands)
    return registry_with("builder", module)


def test_an_impassable_terrain_from_an_extension_blocks_every_piece():
    reg = builder_registry()
    state = reg.load_game("hexbaron").new_state(0)
    assert [str(m) for m in state.legal_moves() if m.verb == "build"] == ["build 4"]
    before = state.to_dict()
    state.push("build 4")
    assert state.pos.terrain[4] == "X" and state.pos.resources[0]["lumber"] == 8
    with pytest.raises(IllegalMoveError, match="tile 4 is wall: no piece can move onto it"):
        state.push("move 0 4")
    assert "move 0 4" not in [str(m) for m in state.legal_moves()]
    state.pop()
    assert state.to_dict() == before


def test_hexbaron_with_a_build_extension_passes_the_conformance_kit():
    assert check_game("hexbaron", registry=builder_registry(), games=2, max_moves=150).moves
