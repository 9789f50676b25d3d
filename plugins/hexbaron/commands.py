"""What an extension of Hex Baron builds a command on, in one import: the :class:`Command`
move, :class:`CommandType` and the built-in command types to subclass
(:class:`PieceActionCommand` for a verb a piece does on its own tile), the checks they
share, the reading of tile numbers and the AQA game's catalogue::

    from hexbaron.commands import PieceActionCommand, own_piece_problem, read_tile

The code lives by role: the move and its text in ``hexbaron.notation``, the command types'
legality and effects in ``hexbaron.rules``, their base in ``hexbaron.verbs``; this module
names them all, so that an extension needs to know none of that layout.
"""

from __future__ import annotations

from hexbaron.notation import Command, read_tile
from hexbaron.rules import (
    BUILTIN_COMMANDS,
    COMMANDS_PER_TURN,
    DIG_BIG,
    DIG_BIG_FIND,
    DIG_SMALL,
    SPAWN_LUMBER,
    SPAWN_TYPE,
    DigCommand,
    MoveCommand,
    PassCommand,
    PieceActionCommand,
    SawCommand,
    SpawnCommand,
    UpgradeCommand,
    builtin_catalogue,
    cost_problem,
    no_tile,
    own_piece_problem,
    own_tiles,
)
from hexbaron.verbs import CommandType

__all__ = [
    "BUILTIN_COMMANDS", "COMMANDS_PER_TURN", "DIG_BIG", "DIG_BIG_FIND", "DIG_SMALL",
    "SPAWN_LUMBER", "SPAWN_TYPE", "Command", "CommandType", "DigCommand", "MoveCommand",
    "PassCommand", "PieceActionCommand", "SawCommand", "SpawnCommand", "UpgradeCommand",
    "builtin_catalogue", "cost_problem", "no_tile", "own_piece_problem", "own_tiles",
    "read_tile",
]
