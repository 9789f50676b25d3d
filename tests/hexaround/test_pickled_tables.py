"""A position's tables in a pickle as int64 words (hexaround.tables): read back by the C
module or by Python as pickle would rebuild them, damaged words refused in one line, and a
state pickled with them the same game where the C module is not built."""

from __future__ import annotations

import pickle
import random
from array import array

import pytest
from hexaround import tables

import hexkit

needs_native = pytest.mark.skipif(tables._native is None,
                                  reason="hexaround._movegen is not built")


def random_tables(rng: random.Random) -> tuple:
    """A set, a dict of ints and a dict of lists of hex keys, with deletions on the way (the
    order of a set then follows its history)."""
    keys, counts, stacks = set(), {}, {}
    for _ in range(rng.randrange(1, 150)):
        key = rng.randrange(-40, 40) * 2**34 + rng.randrange(-40, 40)
        if rng.random() < 0.3:
            keys.discard(key)
            counts.pop(key, None)
            stacks.pop(key, None)
        else:
            keys.add(key)
            counts[key] = rng.randrange(-2**40, 2**40)
            stacks[key] = [rng.randrange(64) for _ in range(rng.randrange(1, 4))]
    return keys, counts, stacks


def in_order(found: tuple) -> list:
    return [list(c.items()) if isinstance(c, dict) else list(c) for c in found]


@needs_native
def test_tables_read_back_in_the_order_pickle_gives_by_c_and_by_python():
    rng = random.Random(3)
    for _ in range(300):
        written = random_tables(rng)
        words = tables.pack(written)
        assert words is not None
        expected = in_order(pickle.loads(pickle.dumps(written)))
        assert in_order(tables.unpack(words)) == expected
        assert in_order(tables._unpack_python(words)) == expected
        swapped = array("q", words)
        swapped.byteswap()  # (written on a machine of the other byte order)
        assert in_order(tables.unpack(swapped.tobytes())) == expected


@needs_native
def test_tables_of_another_shape_are_left_to_pickle():
    assert tables.pack(({1.5},)) is None
    assert tables.pack(({2**70},)) is None
    assert tables.pack(({1: "one"},)) is None
    assert tables.pack(({1: [True]},)) is None


@needs_native
def test_damaged_words_are_refused_in_one_line_by_c_and_by_python():
    words = tables.pack(random_tables(random.Random(5)))
    rng = random.Random(6)
    damaged = [words[:cut] for cut in range(0, len(words), 8)] + [words + b"\0" * 8]
    for _ in range(300):
        spoilt = bytearray(words)
        spoilt[rng.randrange(len(spoilt))] ^= 1 << rng.randrange(8)
        damaged.append(bytes(spoilt))
    for blob in damaged:
        for reader in (tables.unpack, tables._unpack_python):
            try:
                reader(blob)
            except ValueError as exc:
                assert str(exc) == "the position's tables in this pickle are damaged"


@pytest.mark.parametrize("name", ["hexaround", "hive"])
def test_a_state_pickled_with_its_tables_as_words_is_the_same_game_without_the_c_module(
        name, monkeypatch):
    game = hexkit.load_game(name)
    state = game.new_state(seed=2)
    rng = random.Random(2)
    for _ in range(30):
        state.push(rng.choice(state.legal_moves()))
    blob = pickle.dumps(state)
    monkeypatch.setattr(tables, "_native", None)
    twin = pickle.loads(blob)
    assert [str(m) for m in twin.legal_moves()] == [str(m) for m in state.legal_moves()]
    assert twin.to_dict() == state.to_dict()
    for _ in range(30):
        state.pop()
        twin.pop()
        assert [str(m) for m in twin.legal_moves()] == [str(m) for m in state.legal_moves()]


@pytest.mark.parametrize("name", ["hexaround", "hive"])
def test_a_state_pickled_where_the_c_module_is_not_built_is_the_same_game(name, monkeypatch):
    # (Its tables and changed attributes found in Python, the tables as pickle writes them.)
    game = hexkit.load_game(name)
    state = game.new_state(seed=4)
    rng = random.Random(4)
    for _ in range(20):
        state.push(rng.choice(state.legal_moves()))
    monkeypatch.setattr(tables, "_native", None)
    twin = pickle.loads(pickle.dumps(state))
    assert twin.to_dict() == state.to_dict()
    assert [str(m) for m in twin.legal_moves()] == [str(m) for m in state.legal_moves()]
    assert twin.engine.position.stacks == state.engine.position.stacks


def test_hive_keeps_a_move_string_spelt_otherwise_than_its_move_through_a_pickle():
    # The texts are left out of a pickle when they are the moves' own; a move pushed in
    # another spelling of the same hex is written in the engine's spelling, kept.
    from hive.game import HiveMove

    game = hexkit.load_game("hive")
    state = game.new_state(seed=1)
    for text in ("wB1", "bG1 /wB1", "wS1 \\wB1", "bA1 bG1\\"):
        state.push(state.parse_move(text))
    state.push(HiveMove("wQ wS1-"))
    assert state.move_strings[-1] == "wQ wB1/"
    twin = pickle.loads(pickle.dumps(state))
    assert twin.move_strings == state.move_strings
    assert twin.game_string() == state.game_string()
    twin.pop()
    assert twin.move_strings == state.move_strings[:-1]
