"""Hive's fixed action space: OpenSpiel's, number for number.

An action is a tile, the tile it is placed next to (or on top of) and the direction from
that tile: ``(tile * 28 + reference) * 7 + direction``, 28 tiles (``wQ wA1 wA2 wA3 wG1 wG2
wG3 wS1 wS2 wB1 wB2 wM wL wP``, then the same for black) and 7 directions (the 6 sides
NE, E, SE, SW, W, NW as UHP writes them: ``ref/``, ``ref-``, ``ref\\``, ``/ref``,
``-ref``, ``\\ref``; and on top: ``ref``); the first move of a game (a tile alone) is the
tile on top of itself; ``pass`` is the last action, 5,488. 5,489 actions for every game type
(a Base game never uses the expansion tiles). Moves are numbered as the game writes them
(its canonical MoveStrings); the board needs no window, as the numbers are relative.
"""

from __future__ import annotations

from hexkit.game import Move
from hexkit.kit.actions import ActionSpace, ActionSpaceError

#: Tiles of one colour, in OpenSpiel's order.
TILES = ("Q", "A1", "A2", "A3", "G1", "G2", "G3", "S1", "S2", "B1", "B2", "M", "L", "P")
TILE_COUNT = 2 * len(TILES)
#: Suffix and prefix marks, in OpenSpiel's direction order (NE, E, SE; SW, W, NW); 6: above.
AFTER, BEFORE = "/-\\", "/-\\"
ABOVE = 6
DIRECTIONS = 7
PASS_ACTION = TILE_COUNT * TILE_COUNT * DIRECTIONS


def tile_index(name: str) -> int:
    """``wQ`` -> 0, ``bA2`` -> 16 (ValueError for no such tile)."""
    colour = "wb".index(name[0]) if name[:1] in ("w", "b") else -1
    if colour < 0:
        raise ValueError(name)
    return colour * len(TILES) + TILES.index(name[1:])


class HiveActions(ActionSpace):
    """OpenSpiel's Hive action numbers for hexkit's MoveStrings."""

    num_actions = PASS_ACTION + 1

    def __init__(self) -> None:
        self._known: dict[str, int] = {}

    def action_of(self, move: Move) -> int:
        text = str(move)
        found = self._known.get(text)
        if found is None:
            found = self._number(text)
            if len(self._known) > 100_000:
                self._known.clear()
            self._known[text] = found
        return found

    def _number(self, text: str) -> int:
        words = text.split()
        try:
            if words == ["pass"]:
                return PASS_ACTION
            tile = tile_index(words[0])
            if len(words) == 1:
                return (tile * TILE_COUNT + tile) * DIRECTIONS + ABOVE
            (where,) = words[1:]
            if where[0] in BEFORE:
                direction, ref = 3 + BEFORE.index(where[0]), where[1:]
            elif where[-1] in AFTER:
                direction, ref = AFTER.index(where[-1]), where[:-1]
            else:
                direction, ref = ABOVE, where
            return (tile * TILE_COUNT + tile_index(ref)) * DIRECTIONS + direction
        except (ValueError, IndexError):
            raise ActionSpaceError(f"{text!r} is not a Hive MoveString") from None

    def describe(self) -> str:
        return (
            f"{self.num_actions} actions, as OpenSpiel's hive: (tile * 28 + reference tile) "
            "* 7 + direction (NE, E, SE, SW, W, NW, on top), tiles wQ wA1-3 wG1-3 wS1-2 "
            f"wB1-2 wM wL wP then black; a first move is a tile on top of itself; "
            f"{PASS_ACTION} is pass."
        )
