"""Board topologies behind one protocol: bounded hex and square (with a shape mask).

Every board answers the same questions (``cells``, ``in``, ``len``, ``neighbours``,
``distance``), numbers its cells (``index``) and precomputes neighbour tables over those
numbers, which is what hot rule code should use. Pieces live in the games' own state (a
list per cell index, a dict...), where their undo is the game's business.
"""

from hexkit.geometry.boards.base import Board
from hexkit.geometry.boards.hexboards import BoundedHexBoard
from hexkit.geometry.boards.square import ORTHOGONAL, SquareBoard

__all__ = ["Board", "BoundedHexBoard", "SquareBoard", "ORTHOGONAL"]
