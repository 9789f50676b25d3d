"""Hex Baron: the AQA A-level 2021 game, as a hexkit plugin.

What extension plugins build on (see ``docs/hexbaron.md``)::

    from hexbaron import PieceType, Terrain, Resource, CommandType, PieceActionCommand
"""

from hexbaron.catalogue import (
    BOG,
    FIELD,
    FOREST,
    FUEL,
    LUMBER,
    SUPPLY,
    PieceType,
    Resource,
    Terrain,
)
from hexbaron.commands import Command, CommandType, PieceActionCommand

__all__ = [
    "BOG", "FIELD", "FOREST", "FUEL", "LUMBER", "SUPPLY", "Command", "CommandType",
    "PieceActionCommand", "PieceType", "Resource", "Terrain",
]
