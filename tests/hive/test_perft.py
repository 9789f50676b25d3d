"""Perft from the initial position equals Mzinga's table (spec hive.md §8) and MzingaCpp's
counts for every game type: depths 1-4 for all eight, depth 5 for Base, Base+M, Base+L and
Base+P whichever counter runs; with the compiled module, depth 5 for all eight and depth 6
for Base (benchmarks/hive_perft.py runs every type to depth 6 beside MzingaCpp). The
counter in C (hive._hivegen, its own board kept across apply and undo) counts what walking
the engine counts: on random positions of every game type, to the end of games, and where
the only move is the pass."""

from __future__ import annotations

import random

import pytest
from hexaround.movegen import PURE_PYTHON_ENV
from hive.engine import perft_by_walk
from hive.generator import PYTHON_HIVE_GENERATOR, native_hive_generator_available
from hive.notation import EXPANSION_CHOICES

import hexkit

from .positions import position

needs_native = pytest.mark.skipif(not native_hive_generator_available(),
                                  reason="hive._hivegen not built or switched off")

#: Spec §8 to depth 5 where it goes; ML, MP and LP at depth 5 are MzingaCpp's counts.
TABLE = {
    "none": (4, 96, 1440, 21600, 516240),
    "M": (5, 150, 2610, 45414, 1252800),
    "L": (5, 150, 2610, 45414, 1252800),
    "P": (5, 150, 2610, 45414, 1255932),
    "ML": (6, 216, 4320, 86400, 2725920),
    "MP": (6, 216, 4320, 86400, 2730888),
    "LP": (6, 216, 4320, 86400, 2730240),
    "MLP": (7, 294, 6678, 151686, 5427108),
}


@pytest.mark.parametrize("expansions", list(TABLE))
def test_perft_to_depth_4_matches_mzinga(expansions):
    state = hexkit.load_game("hive", expansions=expansions).new_state(0)
    assert [state.perft(d) for d in (1, 2, 3, 4)] == list(TABLE[expansions][:4])


@pytest.mark.parametrize("expansions", ["none", "M", "L", "P"])
def test_perft_5_matches_mzinga(expansions):
    state = hexkit.load_game("hive", expansions=expansions).new_state(0)
    assert state.perft(5) == TABLE[expansions][4]


def test_perft_through_push_and_pop_counts_the_same():
    state = hexkit.load_game("hive", expansions="MLP").new_state(0)

    def walk(depth):
        if depth == 0:
            return 1
        total = 0
        for move in state.legal_moves():
            state.push(move)
            total += walk(depth - 1)
            state.pop()
        return total

    assert walk(3) == TABLE["MLP"][2] == state.perft(3)


@needs_native
@pytest.mark.parametrize("expansions", ["ML", "MP", "LP", "MLP"])
def test_compiled_perft_5_matches_mzingacpp(expansions):
    state = hexkit.load_game("hive", expansions=expansions).new_state(0)
    assert state.perft(5) == TABLE[expansions][4]


@needs_native
def test_compiled_perft_6_of_base_matches_mzingacpp():
    state = hexkit.load_game("hive", expansions="none").new_state(0)
    assert state.perft(6) == 12_219_480


def finished_game(game, seed):
    """A random game of ``game`` played to its end (a surrounded Queen), from the first seed
    at or after ``seed`` whose game ends within 400 plies."""
    for s in range(seed, seed + 50):
        rng = random.Random(s)
        engine = game.new_engine()
        for _ in range(400):
            if engine.is_over():
                return engine
            legal = engine.legal_actions()
            engine.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no random game ended")


@needs_native
@pytest.mark.parametrize("expansions", EXPANSION_CHOICES)
def test_compiled_perft_counts_what_walking_the_engine_counts(expansions):
    # Along a random game played to its end: every 12th position, and the last three
    # before the end (where some lines finish the game inside the count).
    engine = finished_game(hexkit.load_game("hive", expansions=expansions), 11)
    assert engine.perft(1) == engine.perft(2) == 0
    plies = len(engine.history)
    checked = 0
    for back in range(1, plies + 1):
        engine.undo()
        if back <= 3 or back % 12 == 0:
            assert engine.perft(2) == perft_by_walk(engine, 2), engine.position_key()
            checked += 1
    assert checked >= 5


@needs_native
def test_compiled_perft_counts_the_pass_when_nothing_else_is_legal():
    # White's only piece is its Queen, under a black Beetle: White's one move is the pass.
    state = position({(0, 0): "wQ bB1", (1, 0): "bQ", (2, 0): "bA1"})
    assert state.perft(1) == 1
    assert [state.perft(d) for d in (2, 3)] == [perft_by_walk(state.engine, d) for d in (2, 3)]


def test_pure_python_and_the_repetition_rule_count_by_walking_the_engine(monkeypatch):
    ruled = hexkit.load_game("hive", expansions="MLP", repetition_draw=True).new_state(0)
    assert ruled.perft(3) == TABLE["MLP"][2]
    monkeypatch.setenv(PURE_PYTHON_ENV, "1")
    state = hexkit.load_game("hive", expansions="MLP").new_state(0)
    assert state.engine.generator is PYTHON_HIVE_GENERATOR
    assert state.perft(3) == TABLE["MLP"][2]


#: Two back-and-forth cycles (wP and bQ) after a random opening: one more wP move makes a
#: position's third occurrence, a draw under the repetition rule.
TWO_CYCLES = ("wL;bB1 \\wL;wP /wL;bQ -bB1;wQ wL\\;bB2 /bQ;wS1 wQ\\;bM bB1/;wS2 /wP;bA1 \\bQ;"
              "wM /wS1;bA1 -bQ;wB1 wS2\\;bB2 /bA1;wP \\wS2;bG1 \\bQ;wB2 wS1-;bS1 -bM;"
              "wA1 wB2-;bL \\bM;wG1 wA1-;bP bL/;wP /wL;bQ bA1\\;wP bQ\\;bQ bG1\\;wP /wL;"
              "bQ bA1\\;wP bQ\\;bQ bG1\\")


@needs_native
def test_compiled_perft_ends_a_game_at_a_third_repetition_under_the_rule():
    ruled = hexkit.load_game("hive", repetition_draw=True).new_state(0)
    plain = hexkit.load_game("hive").new_state(0)
    for text in TWO_CYCLES.split(";"):
        ruled.push(text)
        plain.push(text)
    engine = ruled.engine
    counted_in_c = engine.generator.perft(engine, 2, engine._repetition_keys(engine.generator))
    assert ruled.perft(2) == counted_in_c == perft_by_walk(engine.clone(), 2) == 2267
    assert plain.perft(2) == 2335  # without the rule the repeated position plays on
