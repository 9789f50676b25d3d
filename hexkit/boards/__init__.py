"""Board topologies behind one protocol: bounded hex, unbounded hex, square (with a shape mask).

Every board answers the same questions (``cells``, ``in``, ``neighbours``, ``distance``)
and keeps a stack of pieces per cell. Bounded boards also number their cells (``index``)
and precompute neighbour tables over those numbers, which is what hot rule code should use.
"""

from hexkit.boards.base import Board, StackStore
from hexkit.boards.hexboards import BoundedHexBoard, UnboundedHexBoard
from hexkit.boards.square import ORTHOGONAL, SquareBoard

__all__ = [
    "Board",
    "StackStore",
    "BoundedHexBoard",
    "UnboundedHexBoard",
    "SquareBoard",
    "ORTHOGONAL",
]
