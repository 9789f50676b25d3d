"""HexAround: the WPI CS4233 Hive-like game, as a hexkit plugin.

The course's facade::

    from hexaround import build_game_manager, MoveResult
    gm = build_game_manager("configs/hexaround/level1.yaml")
    gm.place_creature("BUTTERFLY", 0, 0).move_result is MoveResult.OK

The generic API: ``hexkit.load_game("hexaround", config="level3")``.
"""

from hexaround.config import CreatureType, HexAroundConfig, RuleOptions, load_config
from hexaround.game import HexAroundGame, HexAroundState, MoveCreature, PlaceCreature
from hexaround.manager import (
    GameManager,
    MoveResponse,
    MoveResult,
    PlayerName,
    build_game_manager,
)

__all__ = [
    "CreatureType", "GameManager", "HexAroundConfig", "HexAroundGame", "HexAroundState",
    "MoveCreature", "MoveResponse", "MoveResult", "PlaceCreature", "PlayerName",
    "RuleOptions", "build_game_manager", "load_config",
]
