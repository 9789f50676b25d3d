"""One statement of the rules: the fast generator (compiled where built, else its Python
twin) lists exactly the moves of the plain rules of hexaround.rules, in the same order, on
random positions of every shipped configuration (benchmarks/hexaround_rules_check.py runs
many more)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hexaround.config import load_config
from hexaround.crosscheck import mismatch, random_positions
from hexaround.engine import Engine

CONFIGS = sorted((Path(__file__).resolve().parents[2] / "configs" / "hexaround").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS, ids=[p.stem for p in CONFIGS])
def test_fast_generator_lists_the_plain_rules_moves_in_the_same_order(path: Path) -> None:
    engine = Engine(load_config(path))
    checked = 0
    for position in random_positions(engine, games=2, moves=60, seed=7):
        problem = mismatch(position)
        assert problem is None, (path.stem, position.history[-1:], problem)
        checked += 1
    assert checked >= 60
