"""The shared course scenarios (../shared/examples/focus/*.yaml) run through FocusGame.

Format: ../shared/examples/focus/README.md (``hexkit-focus-scenarios/1``). Strings compare
case-insensitively after stripping, lists element by element without case, counts exactly.
"""

from __future__ import annotations

from typing import Any

import pytest
from focus import FocusGame

from tests.shared_material import example_scenarios


def _scenarios() -> list[Any]:
    return example_scenarios('focus', 'hexkit-focus-scenarios/1')


def _square(text: str) -> tuple[int, int]:
    r, c = (int(x) for x in str(text).split(","))
    return (r, c)


def _build(scenario: dict[str, Any]) -> FocusGame:
    p1, p2 = (tuple(p) for p in scenario["players"])
    kwargs = {k: v for k, v in scenario.get("requires", {}).items()
              if k in ("distance", "layout")}
    setup = scenario.get("setup")
    if not setup:
        return FocusGame(p1, p2, **kwargs)
    board = {(r, c): ["R" if (r + c // 2) % 2 == 0 else "G"]
             for r in range(6) for c in range(6)}
    for key, pieces in setup.get("board", {}).items():
        board[_square(key)] = list(pieces)
    board = {sq: pieces for sq, pieces in board.items() if pieces}
    return FocusGame.from_position(
        p1, p2, board=board, reserve=setup.get("reserve", {}),
        captured=setup.get("captured", {}), turn=setup.get("turn"), **kwargs,
    )


def _norm(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, list):
        return [_norm(v) for v in value]
    return value


def _same(got: Any, expected: Any) -> bool:
    if isinstance(expected, bool) or isinstance(expected, int):
        return type(got) is int and got == expected
    return _norm(got) == _norm(expected)


@pytest.mark.parametrize("scenario", _scenarios())
def test_course_scenario_gives_the_expected_results(scenario: dict[str, Any]) -> None:
    game = _build(scenario)
    for n, step in enumerate(scenario["steps"]):
        args = [tuple(a) if isinstance(a, list) else a for a in step.get("args", [])]
        got = getattr(game, step["call"])(*args)
        where = f"{scenario['id']} step {n}: {step['call']}{tuple(args)} -> {got!r}"
        if "expect" in step:
            assert _same(got, step["expect"]), f"{where}, expected {step['expect']!r}"
        if "expect_one_of" in step:
            assert any(_same(got, e) for e in step["expect_one_of"]), where
        if "expect_not" in step:
            assert not _same(got, step["expect_not"]), where
        if "recommended" in step:
            assert _same(got, step["recommended"]), f"{where}, spec gives {step['recommended']!r}"
