"""Extending HexAround from another plugin: the worked example in examples/hexaround-hopper
(loaded from its folder, not installed) adds the LEAPING ability through the hooks only."""

from __future__ import annotations

from pathlib import Path

import pytest
from hexaround.crosscheck import mismatch, random_positions
from hexaround.engine import PYTHON_GENERATOR, Engine
from hexaround.extensions import collect
from hexaround.hexgrid import key_of

from hexkit.errors import ConfigError, IllegalMoveError
from hexkit.plugins import build_registry
from hexkit.testing import check_game
from tests.example_plugins import import_example, registry_with

HOPPER_DIR = Path(__file__).resolve().parents[2] / "examples" / "hexaround-hopper"
KANGAROO = HOPPER_DIR / "hexaround_hopper" / "kangaroo.yaml"


@pytest.fixture(scope="module")
def hopper():
    return import_example(HOPPER_DIR, "hexaround_hopper.plugin")


@pytest.fixture(scope="module")
def registry(hopper):
    return registry_with("hexaround_hopper", hopper)


def kangaroo_state(registry, seed=0):
    return registry.load_game("hexaround", config=str(KANGAROO)).new_state(seed)


def test_the_ability_registers_and_its_creatures_load_from_yaml(registry):
    assert "LEAPING" in collect(registry.pm).abilities
    game = registry.load_game("hexaround", config=str(KANGAROO))
    assert game.config.creature("KANGAROO").category == "LEAPING"


def test_without_the_extension_the_variant_is_a_clear_config_error():
    plain = build_registry(use_env=False, entry_points=True)
    if "LEAPING" in collect(plain.pm).abilities:
        pytest.skip("hexaround-hopper is installed in this environment")
    with pytest.raises(ConfigError, match="unknown property LEAPING"):
        plain.load_game("hexaround", config=str(KANGAROO))


def test_a_kangaroo_leaps_over_neighbours_and_chains_leaps(registry):
    from hexaround.hexgrid import coords_of

    engine = kangaroo_state(registry).engine
    board = {(0, 0): ("KANGAROO", 0), (1, 0): ("BUTTERFLY", 0), (0, 1): ("BUTTERFLY", 1),
             (2, -1): ("HORSE", 1), (3, -1): ("HORSE", 1), (3, 0): ("TURTLE", 0)}
    for (x, y), (name, owner) in board.items():
        engine.position.set_stack(key_of(x, y), [engine.kind_index[name] * 2 + owner])
        engine.position.hands[owner][engine.kind_index[name]] -= 1
        if name == "BUTTERFLY":
            engine.position.bpos[owner] = key_of(x, y)
    engine.position.actions[:] = [3, 3]
    engine.clear_caches()
    kangaroo = engine.kind_index["KANGAROO"]
    reach = {coords_of(d) for k, s, d in engine.legal_actions()
             if k == kangaroo and s == key_of(0, 0)}
    # One leap over (1,0) or (0,1); a second one from (2,0) over (3,0), (3,-1) or (2,-1).
    assert reach == {(2, 0), (0, 2), (4, 0), (4, -2), (2, -2)}


def test_a_refused_leap_leaves_the_position_unchanged(registry):
    state = kangaroo_state(registry)
    for text in ("place kangaroo 0 0", "place butterfly 0 1"):
        state.push(state.parse_move(text))
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="KANGAROO"):
        state.push(state.parse_move("move kangaroo 0 0 0 3"))
    assert state.to_dict() == before


def test_extension_and_compiled_generator_agree_on_mixed_positions(registry):
    """Kangaroos (the extension's Python search) beside built-in creatures (the compiled
    generator, when built): the engine's list equals the plain rules' list, move for move
    and in order, and the pure-Python generator lists the same."""
    game = registry.load_game("hexaround", config=str(KANGAROO))
    engine = game.new_state().engine
    kangaroo = engine.kind_index["KANGAROO"]
    leaps = checked = 0
    for position in random_positions(engine, games=3, moves=70, seed=3):
        assert mismatch(position) is None
        listed = position.legal_actions()
        twin = position.copy()
        twin.generator = PYTHON_GENERATOR
        twin.clear_caches()
        assert twin.generate(twin.to_move, False) == listed
        leaps += sum(1 for k, s, _ in listed if k == kangaroo and s is not None)
        checked += 1
    assert checked > 100 and leaps > 20


def test_the_kangaroo_variant_passes_the_conformance_kit(registry):
    game = registry.load_game("hexaround", config=str(KANGAROO))
    report = check_game(game, games=1, max_moves=40)
    assert report.games == 1 and report.moves > 20


def test_the_engine_alone_accepts_the_ability(hopper):
    from hexaround.config import load_config
    from hexaround.extensions import Ability, Extensions

    ext = Extensions({"LEAPING": Ability("LEAPING", True, hopper.leaps)})
    engine = Engine(load_config(KANGAROO, ext.kinds()), ext)
    engine.apply((engine.kind_index["KANGAROO"], None, key_of(0, 0)))
    engine.apply((engine.butterfly, None, key_of(1, 0)))
    assert engine.legal_actions()
