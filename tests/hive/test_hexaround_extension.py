"""Hive is HexAround extended through its hooks: HexAround's own engine, given Hive's rule
options and the abilities hive registers (hive.abilities), lists exactly the actions of the
Hive generator, position after position of random games of every game type."""

from __future__ import annotations

import random

import pytest
from hexaround.engine import Engine
from hexaround.extensions import installed_extensions
from hexaround.position import PASS as HEXAROUND_PASS
from hive.abilities import ABILITIES, EXTENSIONS
from hive.engine import PASS, HiveEngine


def _as_hive(engine: Engine, action):
    kind, src, dst = action
    if kind < 0:
        return PASS
    if src is None:
        return (kind * 2 + engine.to_move, None, dst)
    return (engine.stacks[src][-1], src, dst)


def _as_hexaround(action):
    code, src, dst = action
    return HEXAROUND_PASS if code < 0 else (code >> 1, src, dst)


@pytest.mark.parametrize("expansions", ["", "M", "L", "P", "ML", "MP", "LP", "MLP"])
def test_hexaround_with_hives_abilities_lists_the_same_actions(expansions):
    fast = HiveEngine(expansions)
    plain = Engine(fast.config, EXTENSIONS)
    rng = random.Random(len(expansions) * 31 + 7)
    checked = 0
    for _ in range(2):
        played = 0
        while played < 45 and fast.result == plain.result == 0:
            mine = fast.legal_actions()
            theirs = {_as_hive(plain, a) for a in plain.legal_actions()}
            assert set(mine) == theirs, f"after {[fast.history[i][0] for i in range(played)]}"
            checked += 1
            action = rng.choice(sorted(mine, key=repr))
            fast.apply(action)
            plain.apply(_as_hexaround(action))
            played += 1
        assert fast.result == plain.result
        for _ in range(played):
            fast.undo()
            plain.undo()
    assert checked > 40


def test_hive_registers_its_abilities_through_hexarounds_hooks():
    found = installed_extensions()
    assert {a.name for a in ABILITIES} <= set(found.abilities)
    assert any(r.name == "number order" for r in found.placement_rules)
