"""hexkit: turn-based board games on hex and square boards, every game a plugin.

The public API::

    import hexkit
    hexkit.game_names()
    game = hexkit.load_game("focus(board=cross,players=4)")
    state = game.new_state(seed=0)
    state.push(state.legal_moves()[0])

The names below are imported on first use (``import hexkit`` alone imports only the small
finder of moved module paths, :mod:`hexkit._moved`), so that every ``hexkit`` command and
every plugin pays only for what it uses.
"""

from __future__ import annotations

import importlib

from hexkit import _moved

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing

__version__ = "0.1.0"

#: Public name -> the module that defines it.
_EXPORTS = {
    "BoundedHexBoard": "hexkit.geometry.boards", "SquareBoard": "hexkit.geometry.boards",
    "ConfigError": "hexkit.errors", "ConfigErrors": "hexkit.errors",
    "HexkitError": "hexkit.errors", "IllegalMoveError": "hexkit.errors",
    "MoveParseError": "hexkit.errors", "OptionError": "hexkit.errors",
    "PluginError": "hexkit.errors", "RecordError": "hexkit.errors",
    "UnknownGameError": "hexkit.errors",
    "ConsoleCommand": "hexkit.spec", "Game": "hexkit.game", "GameSpec": "hexkit.game",
    "Move": "hexkit.spec", "Option": "hexkit.spec", "Outcome": "hexkit.spec",
    "State": "hexkit.game", "rng_from_json": "hexkit.kit.rng", "rng_to_json": "hexkit.kit.rng",
    "DIRECTIONS": "hexkit.geometry.hexes", "Hex": "hexkit.geometry.hexes",
    "hookimpl": "hexkit.hookspecs", "hookspec": "hexkit.hookspecs",
    "Piece": "hexkit.kit.pieces",
    "game_names": "hexkit.plugins", "load_game": "hexkit.plugins",
    "plugin_manager": "hexkit.plugins", "registry": "hexkit.plugins",
    "TurnOrder": "hexkit.kit.turns",
    "BoardView": "hexkit.kit.view", "CellView": "hexkit.kit.view", "PieceView": "hexkit.kit.view",
}

__all__ = [
    "BoardView", "BoundedHexBoard", "ConsoleCommand", "CellView", "ConfigError", "ConfigErrors",
    "DIRECTIONS",
    "Game", "GameSpec", "Hex", "HexkitError", "IllegalMoveError", "Move", "MoveParseError",
    "Option", "OptionError", "Outcome", "Piece", "PieceView", "PluginError", "RecordError",
    "SquareBoard", "State", "TurnOrder", "UnknownGameError",
    "game_names", "hookimpl", "hookspec", "load_game", "plugin_manager", "registry",
    "rng_from_json", "rng_to_json", "__version__",
]


_moved.install()  # the old paths of moved modules (hexkit.undo, hexkit.records...) still import


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'hexkit' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


if TYPE_CHECKING:
    from hexkit.errors import (
        ConfigError,
        ConfigErrors,
        HexkitError,
        IllegalMoveError,
        MoveParseError,
        OptionError,
        PluginError,
        RecordError,
        UnknownGameError,
    )
    from hexkit.game import Game, GameSpec, State
    from hexkit.geometry.boards import BoundedHexBoard, SquareBoard
    from hexkit.geometry.hexes import DIRECTIONS, Hex
    from hexkit.hookspecs import hookimpl, hookspec
    from hexkit.kit.pieces import Piece
    from hexkit.kit.rng import rng_from_json, rng_to_json
    from hexkit.kit.turns import TurnOrder
    from hexkit.kit.view import BoardView, CellView, PieceView
    from hexkit.plugins import game_names, load_game, plugin_manager, registry
    from hexkit.spec import ConsoleCommand, Move, Option, Outcome
