"""Hive's compiled generator (hive._hivegen) against its Python twin (hive.generator): the
same actions in the same order, and the same MoveStrings, on random positions of every game
type (the reference positions: test_reference_positions.py); the switch that turns it off;
and a failed build is a failure where the compiled generators are required (CI)."""

from __future__ import annotations

import os
import random

import pytest
from hexaround.movegen import PURE_PYTHON_ENV
from hive import generator as hive_generator
from hive.directions import move_string
from hive.engine import HiveEngine
from hive.generator import PYTHON_HIVE_GENERATOR, CompiledHiveGenerator
from hive.notation import EXPANSION_CHOICES

import hexkit

needs_native = pytest.mark.skipif(not hive_generator.native_hive_generator_available(),
                                  reason="hive._hivegen not built or switched off")


def assert_generators_agree(engine: HiveEngine) -> int:
    """Both generators' lists and MoveStrings in this position; how many moves it has."""
    compiled = engine.generator
    assert isinstance(compiled, CompiledHiveGenerator)
    p = engine.to_move
    mine = compiled.moves(engine, p)
    assert mine == PYTHON_HIVE_GENERATOR.moves(engine, p), engine.position_key()
    listed = list(engine.legal_actions())
    assert compiled.move_strings(engine.stacks, listed) == [move_string(engine, a)
                                                             for a in listed]
    return len(mine or ())


@needs_native
@pytest.mark.parametrize("expansions", EXPANSION_CHOICES)
def test_compiled_and_python_generators_list_the_same_moves_in_every_game_type(
        expansions: str) -> None:
    game = hexkit.load_game("hive", expansions=expansions)
    checked = moves = 0
    for seed in range(2):
        rng = random.Random(seed)
        engine = game.new_engine()
        for _ in range(110):
            if engine.is_over():
                break
            if engine.bpos[engine.to_move] is not None:
                moves += assert_generators_agree(engine)
                checked += 1
            legal = engine.legal_actions()
            engine.apply(legal[rng.randrange(len(legal))])
    assert checked > 100 and moves > 1000


def test_the_pure_python_switch_turns_hives_compiled_generator_off(monkeypatch) -> None:
    opening = ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 wQ\\", "bP bQ-")
    default = hexkit.load_game("hive").new_state(seed=1)
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    state = hexkit.load_game("hive").new_state(seed=1)
    assert state.engine.generator is PYTHON_HIVE_GENERATOR
    for move in opening:
        state.push(move)
        default.push(move)
    assert [str(m) for m in state.legal_moves()] == [str(m) for m in default.legal_moves()]
    assert "wA1 bP-" in {str(m) for m in state.legal_moves()}


def test_a_compiled_generator_is_rebuilt_not_pickled() -> None:
    import pickle

    engine = hexkit.load_game("hive").new_engine()
    if isinstance(engine.generator, CompiledHiveGenerator):
        with pytest.raises(TypeError):
            pickle.dumps(engine.generator)
    engine.apply(engine.legal_actions()[0])
    twin = pickle.loads(pickle.dumps(engine))
    assert twin.legal_actions() == engine.legal_actions()
    assert type(twin.generator) is type(engine.generator)


@pytest.mark.skipif(not os.environ.get("HEXAROUND_REQUIRE_NATIVE"),
                    reason="only where HEXAROUND_REQUIRE_NATIVE is set (CI)")
def test_hives_compiled_generator_is_built_where_it_is_required() -> None:
    assert hive_generator._hivegen is not None, "pip install did not build hive._hivegen"
    assert hive_generator.native_hive_generator_available()
