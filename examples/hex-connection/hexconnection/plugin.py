"""The hexkit plugin: the game Hex for ``hexkit_register_games``, and a playout policy for
the MCTS bot's own hook.

hexkit imports this module because ``pyproject.toml`` names it in the ``hexkit`` entry-point
group; it never imports ``hexconnection`` any other way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit import GameSpec, Option, hookimpl

from hexconnection.rules import MAX_SIZE, MIN_SIZE, HexGame

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
    factory=HexGame,
    options=(
        Option("size", 11, f"cells per side ({MIN_SIZE}..{MAX_SIZE})", int),
        Option("swap", False, "Blue may take over Red's opening stone (pie rule)", bool),
    ),
    min_players=2,
    max_players=2,
    version="1",
    rules=RULES,
)


@hookimpl
def hexkit_register_games(register: Callable[[GameSpec], None]) -> None:
    """Register the game Hex."""
    register(SPEC)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Teach hexkit's MCTS bot to save bridges in its playouts (called once per bot built).

    The hook belongs to the MCTS service, not to hexkit's core: ``optionalhook`` lets this
    plugin load where that service is missing, and the import waits until it is called.
    """
    from hexkit.bots.mcts import PlayoutPolicy

    from hexconnection.playout import PLAYOUT_DEPTH, save_bridge

    register(PlayoutPolicy("hex", choose=save_bridge, depth=PLAYOUT_DEPTH))
