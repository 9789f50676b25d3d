"""``hexkit perft hive``: spec §8's counts from the command line, and Hive's own fast
counter (``state.perft``) agreeing with hexkit's generic walk of every leaf."""

from __future__ import annotations

import os
import subprocess

import pytest

import hexkit
from hexkit.tools.perft import divide, perft
from tests.inprocess import run_in_process


def run_hexkit(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line, run in this process (tests/inprocess.py)."""
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    return run_in_process(args, env=env)


def counts(stdout: str) -> list[int]:
    return [int(line.split(" = ")[1].split()[0].replace(",", ""))
            for line in stdout.splitlines() if line.startswith("perft(")]


def test_perft_command_gives_the_spec_counts_for_base_and_all_expansions():
    base = run_hexkit("perft", "hive", "-o", "expansions=none", "3")
    assert base.returncode == 0, base.stderr
    assert counts(base.stdout) == [4, 96, 1440]
    full = run_hexkit("perft", "hive(expansions=MLP)", "2")
    assert counts(full.stdout) == [7, 294]


def test_perft_divide_splits_the_count_by_first_move():
    r = run_hexkit("perft", "hive", "-o", "expansions=none", "3", "--divide")
    assert r.returncode == 0, r.stderr
    assert r.stdout.rstrip().endswith("perft(3) = 1,440 (4 moves)")
    rows = [line.split() for line in r.stdout.splitlines() if line.startswith("  ")]
    assert sorted(row[0] for row in rows) == ["wA1", "wB1", "wG1", "wS1"]
    assert all(row[1] == "360" for row in rows)


def test_perft_from_a_position_reached_by_moves():
    r = run_hexkit("perft", "hive", "-o", "expansions=none", "1", "--moves", "wS1;bS1 wS1-")
    assert r.returncode == 0, r.stderr
    assert "2 moves played" in r.stdout


@pytest.mark.parametrize("expansions", ["none", "MLP"])
def test_hives_fast_counter_equals_the_generic_walk_mid_game(expansions):
    state = hexkit.load_game("hive", expansions=expansions).new_state(seed=0)
    for text in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-", "wA1 -wQ", "bA1 bQ-"):
        state.push(text)
    before = state.to_dict()
    for depth in (1, 2):
        assert perft(state, depth) == perft(state, depth, naive=True)
    assert sum(n for _, n in divide(state, 2)) == perft(state, 2)
    assert state.to_dict() == before
