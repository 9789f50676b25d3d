"""The compiled move generator (hexaround._movegen) against the Python one: the same moves in
the same order on every configuration and rule option, the switch that turns it off, and the
positions it hands back to Python."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from hexaround import movegen
from hexaround.engine import PYTHON_GENERATOR, Engine
from hexaround.hexgrid import coords_of, in_range

import hexkit

from .conftest import position
from .test_generator import CASES as REFERENCE_CASES

needs_native = pytest.mark.skipif(not movegen.native_generator_available(),
                                  reason="hexaround._movegen not built or switched off")

# The reference cross-check's cases and the remaining shipped configurations.
CASES = REFERENCE_CASES + [
    ("level1", {}),
    ("menagerie", {"kamikaze_survives": True, "stack_limit": 3}),
    ("submission2", {}),
    ("first-configuration", {}),
    ("b23-sample", {}),
]


def python_list(engine: Engine) -> list:
    """The legal list of the engine's position as the Python generator makes it (on a copy
    with its caches cleared)."""
    twin = engine.copy()
    twin.generator = PYTHON_GENERATOR
    twin.clear_caches()
    return twin.generate(twin.to_move, False)


@needs_native
@pytest.mark.parametrize(("config", "options"), CASES,
                         ids=[f"{c}-{'-'.join(o) or 'defaults'}" for c, o in CASES])
def test_compiled_and_python_generators_list_the_same_moves_in_the_same_order(
        config, options) -> None:
    game = hexkit.load_game("hexaround", config=config, **options)
    checked = 0
    for seed in range(3):
        rnd = random.Random(seed)
        engine = game.new_state(seed=seed).engine
        assert isinstance(engine.generator, movegen.CompiledGenerator)
        for _ in range(160):
            if engine.is_over():
                break
            compiled = engine.legal_actions()
            assert compiled == python_list(engine), (config, seed, engine.position.history[-1:])
            checked += 1
            engine.apply(compiled[rnd.randrange(len(compiled))])
    assert checked > 200


def test_the_pure_python_switch_turns_the_compiled_generator_off(monkeypatch) -> None:
    monkeypatch.setenv(movegen.PURE_PYTHON_ENV, "1")
    state = hexkit.load_game("hexaround", config="level3").new_state(seed=1)
    assert state.engine.generator is PYTHON_GENERATOR
    state.push("place BUTTERFLY 0 0")
    assert "place DUCK 0 1" in {str(m) for m in state.legal_moves()}


@needs_native
def test_positions_near_the_coordinate_limit_are_left_to_the_python_generator(
        tmp_path: Path) -> None:
    edge = 2**31 - 1
    board = {(edge, 0): [("BUTTERFLY", "BLUE")], (edge, 1): [("BUTTERFLY", "RED")],
             (edge - 1, 0): [("DOVE", "BLUE")], (edge - 1, 2): [("CRAB", "RED")],
             (edge - 2, 1): [("FROG", "BLUE")], (edge - 1, 1): [("TURTLE", "RED")]}
    engine = position(tmp_path, board).state.engine
    assert engine.generator.moves(engine.position, engine.to_move) is None
    legal = engine.legal_actions()
    assert legal == python_list(engine)
    assert any(src is not None for _, src, _ in legal)
    assert all(in_range(*coords_of(d)) for _, _, d in legal)


@pytest.mark.skipif(not os.environ.get("HEXAROUND_REQUIRE_NATIVE"),
                    reason="only where HEXAROUND_REQUIRE_NATIVE is set (CI)")
def test_the_compiled_generator_is_built_where_it_is_required() -> None:
    assert movegen._movegen is not None, "pip install did not build hexaround._movegen"
    assert movegen.native_generator_available()


ODD_CREATURES = """
creatures:
  BUTTERFLY: {max_distance: 1, properties: [WALKING, QUEEN]}
  MOLE:      {max_distance: 2, properties: [WALKING, KAMIKAZE]}
  FLEA:      {max_distance: 3, properties: [JUMPING, KAMIKAZE]}
  MAGPIE:    {max_distance: 3, properties: [RUNNING, SWAPPING]}
  OTTER:     {max_distance: 2, properties: [WALKING, INTRUDING, SWAPPING]}
  STOAT:     {max_distance: 7, properties: [RUNNING]}
  BOAR:      {max_distance: 3, properties: [RUNNING, INTRUDING, TRAPPING]}
  HAWK:      {max_distance: 40, properties: [FLYING]}
players:
  BLUE: {BUTTERFLY: 1, MOLE: 2, FLEA: 2, MAGPIE: 2, OTTER: 2, STOAT: 2, BOAR: 2, HAWK: 1}
"""


@pytest.mark.parametrize("survives", [False, True])
def test_both_generators_follow_the_reference_on_unusual_creatures(tmp_path: Path,
                                                                   survives: bool) -> None:
    # Kamikaze walkers and jumpers, swapping runners and walkers, a long runner, a trapping
    # runner and a flyer with a huge range: combinations the course's files do not have.
    from .reference import legal_moves

    path = tmp_path / "oddities.yaml"
    path.write_text(ODD_CREATURES + f"rules: {{kamikaze_survives: {str(survives).lower()}}}\n")
    game = hexkit.load_game("hexaround", config=str(path))
    checked = referred = 0
    for seed in range(3):
        rnd = random.Random(seed)
        state = game.new_state(seed=seed)
        engine = state.engine
        for ply in range(70):
            if state.is_over():
                break
            mine = engine.legal_actions()
            assert mine == python_list(engine)
            checked += 1
            if ply % 2 == 0:  # the slow reference (a tenth of a second here) every other ply
                theirs = legal_moves(game.config, state.to_dict())
                assert {str(m) for m in state.legal_moves()} == theirs, state.render()
                referred += 1
            state.push(state.legal_moves()[rnd.randrange(len(mine))])
    assert checked > 100 and referred > 50
