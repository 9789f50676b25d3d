"""The shared course scenarios (../shared/examples/hexaround/*.yaml) through the facade.

Format: ../shared/examples/hexaround/README.md (``hexaround-scenarios/1``): each scenario's
config is written as hexkit YAML with the course tests' rule options, then the setup and
steps run through ``build_game_manager``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hexaround import build_game_manager

from tests.shared_material import example_scenarios

from .conftest import COURSE_RULES


def _scenarios() -> list[Any]:
    return example_scenarios('hexaround', 'hexaround-scenarios/1', with_file=True)


def _check(gm: Any, step: list[Any], where: str) -> None:
    op, *args = step
    if op in ("place", "move"):
        *call, expect = args
        response = (gm.place_creature if op == "place" else gm.move_creature)(*call)
        if expect is not None:
            assert response.move_result.name == expect, (where, step, response.message)
        return
    if op == "creature_at":
        x, y, expect = args
        assert gm.get_creature_at(x, y) == expect, (where, step)
    elif op == "is_occupied":
        x, y, expect = args
        assert gm.is_occupied(x, y) is expect, (where, step)
    elif op == "has_property":
        x, y, prop, expect = args
        assert gm.has_property(x, y, prop) is expect, (where, step)
    elif op == "can_reach":
        x1, y1, x2, y2, expect = args
        assert gm.can_reach(x1, y1, x2, y2) is expect, (where, step)
    elif op == "top_is":
        x, y, creature, player = args
        assert gm.stack_at(x, y)[-1] == (creature, player), (where, step)
    elif op == "empty":
        x, y = args
        assert gm.stack_at(x, y) == [], (where, step)
    elif op == "stack":
        x, y, expect = args
        assert gm.stack_at(x, y) == [tuple(p) for p in expect], (where, step)
    elif op == "stack_size":
        x, y, n = args
        assert len(gm.stack_at(x, y)) == n, (where, step)
    elif op == "in_hand":
        player, creature, n = args
        assert gm.in_hand(player, creature) == n, (where, step)
    else:
        raise AssertionError(f"unknown step {op!r} in {where}")


@pytest.mark.parametrize(("data", "scenario"), _scenarios())
def test_course_scenario_passes_through_the_facade(data: Any, scenario: Any,
                                                   tmp_path: Path) -> None:
    config = dict(data["configs"][scenario["config"]])
    config["rules"] = COURSE_RULES
    path = tmp_path / f"{scenario['config']}.yaml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    gm = build_game_manager(path)
    for step in data.get("setups", {}).get(scenario.get("setup"), []) or []:
        assert step[-1] == "OK", step
        _check(gm, step, f"{scenario['id']} setup")
    for step in scenario["steps"]:
        _check(gm, step, scenario["id"])
