"""Old import paths of modules that moved into hexkit's packages, kept working.

hexkit's modules were grouped by concern (``hexkit.kit``, ``hexkit.geometry``,
``hexkit.files``); the paths the documentation used to name (``hexkit.undo``,
``hexkit.records``, ``hexkit.boards``...) still import, as the same module objects:
``import hexkit.undo`` gives ``hexkit.kit.undo`` itself, so classes, ``isinstance`` and
pickles are shared. Only these paths are kept (the Architecture section of docs/core.md lists them);
type checkers see the new paths only, so new code imports those.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import sys
from collections.abc import Sequence
from types import ModuleType

#: Old path (``hexkit.NAME``) -> new path; a package's old path covers its submodules too.
MOVED = {
    "hexkit.undo": "hexkit.kit.undo",
    "hexkit.turns": "hexkit.kit.turns",
    "hexkit.events": "hexkit.kit.events",
    "hexkit.gestures": "hexkit.kit.gestures",
    "hexkit.view": "hexkit.kit.view",
    "hexkit.pieces": "hexkit.kit.pieces",
    "hexkit.enginestate": "hexkit.kit.enginestate",
    "hexkit.hexes": "hexkit.geometry.hexes",
    "hexkit.boards": "hexkit.geometry.boards",
    "hexkit.fileio": "hexkit.files.fileio",
    "hexkit.jsonfile": "hexkit.files.jsonfile",
    "hexkit.yamlfile": "hexkit.files.yamlfile",
    "hexkit.records": "hexkit.files.records",
    "hexkit.datapaths": "hexkit.files.datapaths",
    "hexkit.configs": "hexkit.files.configs",
    "hexkit.session": "hexkit.terminal.session",
}


def new_path(name: str) -> str | None:
    """The module an old path names now (None if ``name`` is not an old path). Called for
    every import the process makes, so it is one dictionary look-up."""
    if not name.startswith("hexkit."):
        return None
    top, dot, rest = name[7:].partition(".")
    new = MOVED.get("hexkit." + top)
    return None if new is None else new + dot + rest


class _Alias:
    """Loads an old path as the module of its new path."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.own_spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        module = importlib.import_module(self.target)
        self.own_spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # The module ran under its own name; the import system has just given it the old
        # path's spec: it keeps its own.
        module.__spec__ = self.own_spec


class MovedFinder:
    """Finds an old path's module by importing it under its new path."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        new = new_path(fullname)
        if new is None:
            return None
        return importlib.machinery.ModuleSpec(fullname, _Alias(new))  # type: ignore[arg-type]


def install() -> None:
    """Put the finder on ``sys.meta_path`` (once)."""
    if not any(isinstance(f, MovedFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
