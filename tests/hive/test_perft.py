"""Perft from the initial position equals Mzinga's table (spec hive.md §8) for every game
type: depths 1-4 for all eight, depth 5 for Base, Base+M, Base+L and Base+P (about a second
of CPU each; Base+MLP's 5,427,108 takes about four and is left to benchmarks/hive_perft.py)."""

from __future__ import annotations

import pytest

import hexkit

TABLE = {
    "none": (4, 96, 1440, 21600, 516240),
    "M": (5, 150, 2610, 45414, 1252800),
    "L": (5, 150, 2610, 45414, 1252800),
    "P": (5, 150, 2610, 45414, 1255932),
    "ML": (6, 216, 4320, 86400),
    "MP": (6, 216, 4320, 86400),
    "LP": (6, 216, 4320, 86400),
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
