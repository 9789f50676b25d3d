"""hexkit: turn-based board games on hex and square boards, every game a plugin.

The public API::

    import hexkit
    hexkit.game_names()
    game = hexkit.load_game("focus(board=cross,players=4)")
    state = game.new_state(seed=0)
    state.push(state.legal_moves()[0])
"""

from hexkit.boards import BoundedHexBoard, SquareBoard
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
from hexkit.game import (
    ConsoleCommand,
    Game,
    GameSpec,
    Move,
    Option,
    Outcome,
    State,
    rng_from_json,
    rng_to_json,
)
from hexkit.hexes import DIRECTIONS, Hex
from hexkit.hookspecs import hookimpl, hookspec
from hexkit.pieces import Piece
from hexkit.plugins import game_names, load_game, plugin_manager, registry
from hexkit.turns import TurnOrder
from hexkit.view import BoardView, CellView, PieceView

__version__ = "0.1.0"

__all__ = [
    "BoardView", "BoundedHexBoard", "ConsoleCommand", "CellView", "ConfigError", "ConfigErrors",
    "DIRECTIONS",
    "Game", "GameSpec", "Hex", "HexkitError", "IllegalMoveError", "Move", "MoveParseError",
    "Option", "OptionError", "Outcome", "Piece", "PieceView", "PluginError", "RecordError",
    "SquareBoard", "State", "TurnOrder", "UnknownGameError",
    "game_names", "hookimpl", "hookspec", "load_game", "plugin_manager", "registry",
    "rng_from_json", "rng_to_json", "__version__",
]
