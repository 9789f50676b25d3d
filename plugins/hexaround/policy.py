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
from hexaround.hexgrid import coords_of
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


def quick_win(state: Any) -> list[Move]:
    """The moves of the player to act that might surround the enemy butterfly at once (a
    superset of those that do): onto a free hex next to it when five of its six neighbours
    are taken, or moving it (a Hive Pillbug's throw) when some empty hex is closed in on
    all six sides. Cheap enough for every node of a search; :func:`may_win` adds the wins
    by leaving the other player no action."""
    engine = state.engine
    where = engine.butterfly_at(1 - state.current_player)
    found: list[Move] = []
    if where is None:
        return found
    holes = set()
    if engine.crowding(where) >= 5:
        holes = {k for k in engine.neighbours(where) if not engine.is_occupied(k)}
    thrown = any(engine.crowding(k) == 6 for k in engine.border())
    if holes or thrown:
        action_of = state.action_of
        for move in state.legal_moves():
            _, src, dst = action_of(move)
            if dst in holes or (thrown and src == where):
                found.append(move)
    return found


def may_win(state: Any) -> list[Move]:
    """The moves of the player to act that might win at once (a superset of those that do,
    for the bots' tactical layer): those of :func:`quick_win`; and, where a player with no
    action loses (HexAround's stuck rule), every move after which the other player has
    none, checked move by move only when no placement of theirs is sure to survive (see
    :func:`may_be_stranded`). Anything else leaves every butterfly with a free neighbour and
    the other player an action. Serves HexAround and every game on its engine (Hive).

    Checking every move costs as much as a hundred positions, so the bots call this only
    at the root and for the move they are about to play (``quick_win`` elsewhere)."""
    found = quick_win(state)
    engine = state.engine
    other = 1 - state.current_player
    if may_be_stranded(engine, other):
        named = set(found)
        for move in state.legal_moves():
            if move in named:
                continue
            state.push(move)
            try:
                stranded = not engine.has_action(other)
            finally:
                state.pop()
            if stranded:
                found.append(move)
    return found


def hex_distance(a: int, b: int) -> int:
    """Steps between two hexes."""
    (xa, ya), (xb, yb) = coords_of(a), coords_of(b)
    dx, dy = xa - xb, ya - yb
    return max(abs(dx), abs(dy), abs(dx + dy))


def may_be_stranded(engine: Any, player: int) -> bool:
    """False when ``player`` surely keeps an action whatever one action the other player
    takes next; True when it might be left with none (then the bot checks each move).

    A player never runs out where a stuck player passes (Hive). Otherwise a player with a
    creature it may place keeps a placement: one action of the other player only takes
    away placement hexes within one step of where it lands (occupied, next to an enemy
    creature, or the own creature beside them covered), so two placement hexes more than
    two steps apart cannot both go. Extension moves and placement rules may do more: then
    it might."""
    if engine.pass_when_stuck:
        return False
    if engine.has_extension_moves or engine.placement_rules:
        return True
    hand = engine.hands[player]
    if engine.actions[player] >= 3 and engine.bpos[player] is None:
        placeable = hand[engine.butterfly] > 0
    else:
        placeable = any(hand) and not (engine.rules.butterfly_not_first
                                       and engine.actions[player] == 0)
    if not placeable:
        return True
    spots = engine.placement_hexes(player)
    if not spots:
        return True
    first = spots[0]
    return all(hex_distance(first, k) <= 2 for k in spots) and \
        _diameter(spots) <= 2


def _diameter(spots: list[int]) -> int:
    """The largest distance between two of a few hexes (only called when all lie within two
    steps of the first, so there are at most 19)."""
    return max((hex_distance(a, b) for i, a in enumerate(spots) for b in spots[i + 1:]),
               default=0)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Register the evaluation for the game ``hexaround`` (optional, so HexAround loads
    where the MCTS service is absent)."""
    from hexaround.plugin import LEVELS
    from hexkit.bots.mcts import PlayoutPolicy

    register(PlayoutPolicy("hexaround", evaluate=evaluate, depth=DEPTH, may_win=may_win,
                           quick_win=quick_win, levels=LEVELS))
