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
from hexkit.game import Move
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


def may_win(state: Any) -> list[Move]:
    """The moves of the player to act that might win at once (a superset of those that do,
    for the bots' tactical layer): onto a free hex next to the enemy butterfly when five of
    its six neighbours are taken, or moving the enemy butterfly itself (a Hive Pillbug's
    throw) when some empty hex is closed in on all six sides. Anything else leaves every
    butterfly with a free neighbour. Serves HexAround and every game on its engine (Hive).

    Not covered: a win by leaving the other player with no action at all (HexAround's
    stuck rule), which the search finds when it happens."""
    engine = state.engine
    where = engine.butterfly_at(1 - state.current_player)
    if where is None:
        return []
    holes = set()
    if engine.crowding(where) >= 5:
        holes = {k for k in engine.neighbours(where) if not engine.is_occupied(k)}
    thrown = any(engine.crowding(k) == 6 for k in engine.border())
    if not holes and not thrown:
        return []
    found = []
    action_of = state.action_of
    for move in state.legal_moves():
        _, src, dst = action_of(move)
        if dst in holes or (thrown and src == where):
            found.append(move)
    return found


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Register the evaluation for the game ``hexaround`` (optional, so HexAround loads
    where the MCTS service is absent)."""
    from hexaround.plugin import LEVELS
    from hexkit.bots.mcts import PlayoutPolicy

    register(PlayoutPolicy("hexaround", evaluate=evaluate, depth=DEPTH, may_win=may_win,
                           levels=LEVELS))
