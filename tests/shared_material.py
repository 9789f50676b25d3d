"""Where the course's shared material lives for the tests: ``../shared`` beside the project
(as in CI's clone), and the example scenario files in it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

SHARED = Path(__file__).resolve().parents[1].parent / "shared"


def example_scenarios(game: str, format_name: str, *, with_file: bool = False) -> list[Any]:
    """pytest params, one per scenario of ``shared/examples/<game>/*.yaml``.

    Each param is ``(scenario,)``, or ``(file_data, scenario)`` with ``with_file``; one
    skipped param says where the folder was looked for if it is absent.
    """
    folder = SHARED / "examples" / game
    width = 2 if with_file else 1
    if not folder.is_dir():
        reason = f"shared examples not found at {folder}"
        return [pytest.param(*([None] * width), marks=pytest.mark.skip(reason=reason))]
    out = []
    for path in sorted(folder.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert data["format"] == format_name, path
        for scenario in data["scenarios"]:
            values = (data, scenario) if with_file else (scenario,)
            out.append(pytest.param(*values, id=f"{path.stem}:{scenario['id']}"))
    return out
