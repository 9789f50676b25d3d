"""Helpers for the hostile-input tests: crafted files and the real command line."""

from __future__ import annotations

from pathlib import Path

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
