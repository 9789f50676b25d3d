"""Hex Baron: the AQA A-level 2021 game, as a hexkit plugin.

What extension plugins build on (see ``docs/hexbaron.md``)::

    from hexbaron import PieceType, Terrain, Resource, CommandType, PieceActionCommand

The names are imported on first use, so that hexkit loading the plugin
(``hexbaron.plugin``) does not import the rules.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BOG": "hexbaron.catalogue", "FIELD": "hexbaron.catalogue",
    "FOREST": "hexbaron.catalogue", "FUEL": "hexbaron.catalogue",
    "LUMBER": "hexbaron.catalogue", "SUPPLY": "hexbaron.catalogue",
    "PieceType": "hexbaron.catalogue", "Resource": "hexbaron.catalogue",
    "Terrain": "hexbaron.catalogue", "CommandType": "hexbaron.verbs",
    "Command": "hexbaron.notation", "PieceActionCommand": "hexbaron.rules",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hexbaron' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
