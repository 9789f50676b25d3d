"""HexAround's help for the MCTS bot: an evaluation of positions instead of random playouts.

A random game of HexAround often runs past two thousand actions, so a random playout says
almost nothing about who is winning. A butterfly is lost when its six neighbours are
occupied, so the evaluation is the race between the two butterflies: each occupied hex next
to a player's butterfly (anyone's creature) counts against that player. A butterfly still in
hand counts as free. With ``DEPTH`` 0 the tree search scores each new position directly.

The plugin registers it through :func:`hexkit_register_playout_policies`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexaround.game import HexAroundState
from hexkit.hookspecs import hookimpl

#: Random actions played before a position is scored (none: the evaluation is enough, and
#: generating HexAround's actions is the expensive part of a playout).
DEPTH = 0
#: A pressure difference of this many neighbours would be worth the whole game; the largest
#: possible before the game ends is 5, so the reward never saturates.
SCALE = 12.0


def pressure(state: HexAroundState, seat: int) -> int:
    """How many of the six hexes around ``seat``'s butterfly are occupied (0 in hand)."""
    engine = state.engine
    where = engine.butterfly_at(seat)
    if where is None:
        return 0
    return engine.crowding(where)


def evaluate(state: HexAroundState) -> list[float]:
    """Rewards for (BLUE, RED) in 0..1: even, shifted towards the player whose butterfly is
    less crowded."""
    x = 0.5 + (pressure(state, 1) - pressure(state, 0)) / SCALE
    return [x, 1.0 - x]


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Register the evaluation for the game ``hexaround`` (optional, so HexAround loads
    where the MCTS service is absent)."""
    from hexkit.bots.mcts import PlayoutPolicy

    register(PlayoutPolicy("hexaround", evaluate=evaluate, depth=DEPTH))
