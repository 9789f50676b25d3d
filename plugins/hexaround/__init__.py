"""HexAround: the WPI CS4233 Hive-like game, as a hexkit plugin.

The course's facade::

    from hexaround import build_game_manager, MoveResult
    gm = build_game_manager("configs/hexaround/level1.yaml")
    gm.place_creature("BUTTERFLY", 0, 0).move_result is MoveResult.OK

The generic API: ``hexkit.load_game("hexaround", config="level3")``.

The names are imported on first use, so that hexkit loading the plugin
(``hexaround.plugin``) does not import the rules.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "CreatureType": "hexaround.config", "HexAroundConfig": "hexaround.config",
    "RuleOptions": "hexaround.config", "load_config": "hexaround.config",
    "HexAroundGame": "hexaround.game", "HexAroundState": "hexaround.game",
    "MoveCreature": "hexaround.game", "PlaceCreature": "hexaround.game",
    "GameManager": "hexaround.manager", "MoveResponse": "hexaround.manager",
    "MoveResult": "hexaround.manager", "PlayerName": "hexaround.manager",
    "build_game_manager": "hexaround.manager",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hexaround' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
