"""Help for hexkit's MCTS bot: a Hex playout policy that saves bridges.

Two stones of one colour that share two empty neighbours form a *bridge*: if the opponent
takes one of the shared cells, taking the other keeps the stones connected. Random
playouts never notice this, so they lose connections a real player keeps; answering every
intrusion into a bridge makes the playouts, and so the bot's judgement, more realistic.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence

from hexkit import BoundedHexBoard, Move, State

from hexconnection.game import EMPTY, HexState, Place


@functools.cache
def bridge_table(size: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For each cell c of a size x size board, the bridges that run through it:
    ``(a, b, d)`` where stones on a and b share exactly the two neighbours c and d."""
    near = [set(cells) for cells in BoundedHexBoard.rhombus(size, size).neighbour_index]
    table = []
    for c, around in enumerate(near):
        bridges = []
        for a in sorted(around):
            for b in sorted(around):
                if a < b and b not in near[a]:
                    shared = (near[a] & near[b]) - {c}
                    if len(shared) == 1:
                        bridges.append((a, b, shared.pop()))
        table.append(tuple(bridges))
    return tuple(table)


def save_bridge(state: State, moves: Sequence[Move], rng: random.Random) -> Move:
    """The playout move: complete a bridge the opponent just cut into, else a random move."""
    last = state.move_stack[-1] if state.move_stack else None
    if isinstance(state, HexState) and isinstance(last, Place):
        game = state.game
        cell: int = last.r * game.size + last.q
        me = state.current_player
        stones = state.stones
        for a, b, d in bridge_table(game.size)[cell]:
            if stones[d] == EMPTY and stones[a] == me and stones[b] == me:
                return game.places[d]
    return moves[rng.randrange(len(moves))]
