"""What hexkit sees of the game: its spec, and help for hexkit's MCTS bot.

hexkit imports this module because ``pyproject.toml`` names it in the ``hexkit`` entry-point
group. It names the rules by reference (``"hexconnection.game:HexGame"``), so hexkit
imports them only when a game of Hex is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit import GameSpec, Option, hookimpl
from hexkit.bots.policy import PlayoutPolicy

RULES = """\
Hex is played on a rhombus of hexagonal cells, 11 by 11 unless the size option says
otherwise. Red owns the top and bottom rows, Blue the left and right columns; the four
corner cells belong to both sides.

Red moves first. On your turn put one stone of your colour on any empty cell. Stones never
move and are never taken.

The first player to join their two edges with an unbroken chain of their own stones wins.
The board cannot fill up without a chain, so there are no draws.

Swap (pie rule, option swap=true): because moving first is a big advantage, Blue may answer
Red's opening stone with 'swap' instead of a stone. Red's stone is then replaced by a Blue
stone on the cell mirrored in the long diagonal (column and row exchanged: a3 becomes c1),
and Red moves next. So Red should open with a move that is neither too strong nor too weak.

Cells are named by column letter and row number: a1 is the top-left corner, where Red's
top edge meets Blue's left edge."""

SPEC = GameSpec(
    name="hex",
    description="the connection game Hex: join your two sides of the board",
    factory="hexconnection.game:HexGame",
    options=(
        Option("size", 11, "cells per side (3..19)", int, bounds=(3, 19)),
        Option("swap", False, "Blue may take over Red's opening stone (pie rule)", bool),
    ),
    player_names=("Red", "Blue"),
    rules=RULES,
)

#: A playout of Hex ends by the time the board is full: at most 19 x 19 moves.
PLAYOUT_DEPTH = 19 * 19


@hookimpl
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Teach hexkit's MCTS bot to save bridges in its playouts."""
    register(PlayoutPolicy("hex", choose="hexconnection.policy:save_bridge",
                           depth=PLAYOUT_DEPTH))


@hookimpl
def hexkit_register_games(register: Callable[[GameSpec], None]) -> None:
    """Hand the game to hexkit (called once, when hexkit starts)."""
    register(SPEC)
