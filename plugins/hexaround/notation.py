"""HexAround's moves as values and as text: place, move and pass, written as a player
types them (``place CRAB 0 1``, ``move CRAB 0 1 1 0``, ``pass``), and the moves' help."""

from __future__ import annotations

import re
from operator import itemgetter

from hexkit.kit.enginestate import TupleMove
from hexkit.kit.gestures import Gesture


class PlaceCreature(TupleMove):
    """Put a creature from the hand on an empty hex: ``place CRAB 0 1`` (creature, x, y)."""

    __slots__ = ()
    creature: str = property(itemgetter(0), doc="creature type, upper case")  # type: ignore
    x: int = property(itemgetter(1), doc="x of the hex")  # type: ignore
    y: int = property(itemgetter(2), doc="y of the hex")  # type: ignore

    def __new__(cls, creature: str, x: int, y: int) -> PlaceCreature:
        return tuple.__new__(cls, (creature, x, y))

    def __repr__(self) -> str:
        return f"PlaceCreature({self[0]!r}, {self[1]}, {self[2]})"

    def __str__(self) -> str:
        return f"place {self[0]} {self[1]} {self[2]}"

    def gesture(self) -> Gesture:
        """Click-to-move: from the creature in the mover's hand to the hex. The seat of a
        placement is whoever is to act, which the move does not hold: see
        :meth:`HexAroundState.gesture`."""
        return Gesture(None, (self[1], self[2]), self[0])


class PassTurn(TupleMove):
    """Pass: the only action of a player who cannot act when the rules say so
    (``no_action: pass``, as in Hive)."""

    __slots__ = ()

    def __new__(cls) -> PassTurn:
        return tuple.__new__(cls, ())

    def __repr__(self) -> str:
        return "PassTurn()"

    def __str__(self) -> str:
        return "pass"


class MoveCreature(TupleMove):
    """Move a creature on the board: ``move CRAB 0 1 1 0`` (from x y, to x y)."""

    __slots__ = ()
    creature: str = property(itemgetter(0), doc="creature type, upper case")  # type: ignore
    from_x: int = property(itemgetter(1), doc="x of the start hex")  # type: ignore
    from_y: int = property(itemgetter(2), doc="y of the start hex")  # type: ignore
    to_x: int = property(itemgetter(3), doc="x of the destination")  # type: ignore
    to_y: int = property(itemgetter(4), doc="y of the destination")  # type: ignore

    def __new__(cls, creature: str, from_x: int, from_y: int, to_x: int,
                to_y: int) -> MoveCreature:
        return tuple.__new__(cls, (creature, from_x, from_y, to_x, to_y))

    def __repr__(self) -> str:
        return f"MoveCreature({self[0]!r}, {self[1]}, {self[2]}, {self[3]}, {self[4]})"

    def __str__(self) -> str:
        return f"move {self[0]} {self[1]} {self[2]} {self[3]} {self[4]}"

    def gesture(self) -> Gesture:
        """Click-to-move: from the creature's hex to its destination."""
        return Gesture((self[1], self[2]), (self[3], self[4]), self[0])


#: A coordinate as a player types it, and a creature name.
INTEGER_WORD = re.compile(r"[+-]?\d{1,12}\Z")
NAME_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")

MOVE_HELP = """\
Moves (creature names in any case; coordinates are axial x y, negatives allowed):
  place CREATURE X Y          put a creature from your hand on hex (X, Y)
  move CREATURE FX FY TX TY   move your creature from (FX, FY) to (TX, TY)
Commas and parentheses are ignored, so 'move crab (0,1) (1,0)' works too; a creature's
code on the board (CRA for CRAB) may stand for its name.
The six neighbours of (x, y): (x,y+1) (x+1,y) (x+1,y-1) (x,y-1) (x-1,y) (x-1,y+1)."""


#: Every HexAround move.
HexAroundMove = PlaceCreature | MoveCreature | PassTurn
