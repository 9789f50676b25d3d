"""The core grouped by concern keeps its documented import paths: ``hexkit.undo``,
``hexkit.records``, ``hexkit.boards``... still import, as the very modules of
``hexkit.kit``, ``hexkit.files`` and ``hexkit.geometry`` (hexkit/_moved.py), and
docs/core.md lists every one of them."""

from __future__ import annotations

import importlib
import pickle
import subprocess
import sys
from pathlib import Path

import pytest

from hexkit._moved import MOVED
from hexkit.suggest import hint

DOCS = Path(__file__).resolve().parents[2] / "docs" / "core.md"


@pytest.mark.parametrize("old", sorted(MOVED))
def test_an_old_path_imports_the_moved_module_itself(old):
    assert importlib.import_module(old) is importlib.import_module(MOVED[old])


def test_names_from_old_and_new_paths_are_the_same_objects():
    from hexkit.boards.square import SquareBoard as Old
    from hexkit.records import GameRecord
    from hexkit.turns import TurnOrder

    from hexkit.geometry.boards.square import SquareBoard as New

    assert Old is New
    assert GameRecord.__module__ == "hexkit.files.records"
    order = TurnOrder(3)
    assert pickle.loads(pickle.dumps(order)) == order
    assert type(pickle.loads(pickle.dumps(order))) is importlib.import_module(
        "hexkit.kit.turns").TurnOrder


def test_a_moved_module_keeps_its_own_name_and_spec():
    old = importlib.import_module("hexkit.undo")
    assert old.__name__ == old.__spec__.name == "hexkit.kit.undo"


def test_old_paths_work_in_a_fresh_interpreter_first_of_all():
    # Before anything else of hexkit is imported, as a student's plugin would.
    code = ("from hexkit.view import BoardView\nfrom hexkit.gestures import Gesture\n"
            "import hexkit.kit.view as v\nassert BoardView is v.BoardView\nprint('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.stdout.strip() == "ok", out.stderr


def test_only_the_documented_paths_are_kept():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("hexkit.statepickle")  # internal: now hexkit.kit.statepickle


def test_the_architecture_section_lists_every_kept_path():
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("## Architecture"):]
    missing = [old for old in MOVED if f"`{old}`" not in section]
    assert missing == []


def test_did_you_mean_hint_names_the_closest_known_word():
    assert hint("dpeth", ["depth", "time"]) == " (did you mean 'depth'?)"
    assert hint("Depth", ["depth"]) == " (did you mean 'depth'?)"
    assert hint("zzz", ["depth", "time"]) == ""
