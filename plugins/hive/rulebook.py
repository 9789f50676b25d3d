"""Hive's rules in words for ``hexkit rules hive`` and ``help`` in ``hexkit play``: the
summary of spec hive.md §1-§5 for the chosen game type."""

from __future__ import annotations

import textwrap
from typing import Any

from hive.engine import BUG_NAMES, COUNTS, LETTERS, expansion_types
from hive.notation import game_type_string

MOVE_HELP = """\
Moves are UHP MoveStrings: the piece, a space, then where it goes next to a piece on the board.
  wS1            the first move of the game: the piece alone (it goes on the origin)
  bA1 wS1-       bA1 to the east of wS1 ('wS1/' north-east, 'wS1\\' south-east)
  wG1 -bA1       wG1 to the west of bA1 ('/bA1' south-west, '\\bA1' north-west)
  wB1 bQ         wB1 on top of bQ (Beetles, and Mosquitoes copying them)
  pass           only when nothing else is legal
Pieces: w/b + Q (Queen Bee), S1-S2 (Spider), B1-B2 (Beetle), G1-G3 (Grasshopper),
A1-A3 (Soldier Ant), M (Mosquito), L (Ladybug), P (Pillbug). A Pillbug's throw is written
as a move of the thrown piece. Any reference piece that names the hex is accepted."""



PIECES = {
    "Q": "Queen Bee: slides one hex.",
    "S": "Spider: slides exactly three hexes, never visiting a hex twice.",
    "B": "Beetle: moves one hex, also onto the hive, across its top and down into any "
         "empty hex; a piece under it cannot move, and the stack takes the Beetle's colour.",
    "G": "Grasshopper: jumps in a straight line over at least one piece to the first "
         "empty hex.",
    "A": "Soldier Ant: slides any number of hexes around the hive.",
    "M": "Mosquito: moves as any bug it touches (the top piece of each neighbouring "
         "stack); touching only Mosquitoes it cannot move; on top of the hive it moves "
         "as a Beetle; it may use a touched Pillbug's ability.",
    "L": "Ladybug: moves exactly three hexes: two on top of the hive, then one down into "
         "an empty hex.",
    "P": "Pillbug: slides one hex, or instead lifts an adjacent piece (either colour) "
         "over itself to an empty hex beside it: not the piece moved last turn, not a "
         "piece in a stack, not a piece the hive needs, not through a gate of two stacks "
         "of two or more. It may do so even when it may not move itself, but not from "
         "under a Beetle.",
}

GENERAL = """\
Surround the opponent's Queen Bee: a Queen whose six neighbours are all occupied (either
colour) loses; both surrounded by the same move is a draw. White moves first; a turn is
one action: place a piece from your hand, move one of yours, or pass.
Placing: White's first piece goes on the origin, Black's first next to it. Afterwards a
piece goes on an empty hex touching your colour and not the opponent's (a stack counts as
its top piece's colour). Neither Queen may be placed on its owner's first turn
(tournament opening); your Queen must be down by your 4th turn. Pieces of one kind are
placed in number order (S1 before S2).
Moving: no piece moves before its owner's Queen is placed. The hive must stay one group
during the whole move, so a piece the hive needs cannot move. A piece under another
cannot move. A slide passes through a gap only if exactly one of the two hexes beside it
is occupied (two: the gate is shut; none: the piece would leave the hive). At height, a
step is blocked only if both hexes beside it are higher than both its ends. A piece moved
or thrown on a turn cannot move, be thrown or use an ability on the next turn. A player
with no legal action passes; pass is legal only then."""


def describe(game: Any) -> str:
    """The rules of this game type: pieces with counts and how each moves, the general
    rules, the notation and the options in force."""
    lines = [f"Hive, game type {game_type_string(game.expansions)} "
             f"(expansions: {game.expansions or 'none'}).", "", "Pieces (each player):"]
    for t in expansion_types(game.expansions):
        n = COUNTS[t]
        names = LETTERS[t] if n == 1 else " ".join(f"{LETTERS[t]}{i}" for i in
                                                   range(1, n + 1))
        lines.extend(textwrap.wrap(f"{n} x {BUG_NAMES[t]} ({names}) - {PIECES[LETTERS[t]]}",
                                   88, initial_indent="  ", subsequent_indent="    "))
    lines += ["", GENERAL, ""]
    if game.repetition_draw:
        lines.append("repetition_draw=true: the third occurrence of the same position (same "
                     "player to move) is a draw.")
    else:
        lines.append("repetition_draw=false (as Mzinga): repeating positions never ends the "
                     "game.")
    lines += ["", "Moves are UHP MoveStrings ('wA1 -bG2', 'wB1 wQ', 'pass'); 'help' in "
              "hexkit play shows how to write them."]
    return "\n".join(lines)
