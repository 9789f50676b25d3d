"""Helpers for the hostile-input tests: crafted files and the real command line."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.core.conftest import run_hexkit  # noqa: F401  (re-exported for the tests here)


def alias_bomb(levels: int = 9, width: int = 9) -> str:
    """A "billion laughs" YAML document: ``width ** levels`` values once aliases expand."""
    lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    for i in range(1, levels):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * width)}]")
    return "\n".join(lines) + "\n"


def deep_yaml(depth: int = 5000) -> str:
    return "[" * depth + "]" * depth + "\n"


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text) -> path of a new file in the test's folder."""

    def _write(name: str, text: str | bytes) -> Path:
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    return _write


class _OverBudget(BaseException):
    """Raised inside a call that exceeds its work budget: a BaseException, so the code under
    test, which turns Exceptions into one-line errors, lets it through."""


def within_work_budget(call: Callable[..., Any], *args: Any, budget: int,
                       **kwargs: Any) -> Any:
    """``call(*args, **kwargs)``, failing the test if it makes more than ``budget`` function calls
    (Python and C, counted by a profile hook): the bound on work is what matters, not the
    time it takes on a loaded machine. The unbounded work is stopped as soon as it passes
    the budget."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call" or event == "c_call":
            calls += 1
            if calls > budget:
                raise _OverBudget

    previous = sys.getprofile()
    sys.setprofile(count)
    try:
        return call(*args, **kwargs)
    except _OverBudget:
        pytest.fail(f"{getattr(call, '__name__', call)} did more than {budget} calls of "
                    "work: its input is not bounded", pytrace=False)
    finally:
        sys.setprofile(previous)
