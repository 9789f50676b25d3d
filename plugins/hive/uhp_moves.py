"""MoveStrings read as Mzinga, the Universal Hive Protocol's reference engine, reads them:
the move a string names, the string the GameString records, and why a move is refused in
Mzinga's own words.

Mzinga places pieces in three dimensions (hex and height). A separator names the hex beside
the reference piece *at ground level*; a bare reference piece names the place directly
above it. So in the strict reading (the default of ``hexkit uhp``), ``bB1 -bQ`` where
``-bQ`` is occupied names an occupied place and is refused ("a piece already exists at that
position"), and ``bB1 wQ`` needs ``wQ`` on top of its stack; a climb is written on top of
the piece it climbs onto. The lenient reading (hexkit's own, for people typing moves)
takes any string that names the destination hex.

The GameString records a move as it was sent, normalised as Mzinga's ``BuildMoveString``
writes it (piece names in canonical case, one space), when the strict reading names the
same move; otherwise (a lenient climb) it records the canonical MoveString.
"""

from __future__ import annotations

from dataclasses import dataclass

from hexaround.hexgrid import OFFSETS

from hexkit.errors import MoveParseError
from hive.engine import ONGOING, ORIGIN, PASS, HiveEngine
from hive.notation import MoveText, move_string, parse_move_string, why_illegal
from hive.rules import QUEEN

Action = tuple[int, "int | None", int]

#: Mzinga's messages (Mzinga.Core.Board.Play and Pass), in the order Mzinga checks them.
NOT_YOUR_TURN = "It's not that player's turn."
NOT_ENABLED = "That piece is not enabled in this game."
BACK_IN_HAND = "You can't put a piece back into your hand."
QUEEN_FIRST_TURN = "You can't play your Queen Bee on your first turn."
QUEEN_BY_FOURTH = "You must play your Queen Bee on or before your fourth turn."
QUEEN_BEFORE_MOVING = "You can't move a piece in play until you've played your Queen Bee."
IN_ORDER = ("When there are multiple pieces of the same bug type, you must play the pieces "
            "in order.")
OCCUPIED = "You can't move there because a piece already exists at that position."
COVERED = "You can't move that piece because it has another piece on top of it."
BREAKS_HIVE = "You can't move that piece because it will break the hive."
CANNOT_MOVE_THERE = "You can't move that piece there."
CANNOT_PASS = "You can't pass when you have valid moves."
GAME_OVER_PLAY = "You can't play, the game is over."


class UhpMoveRefused(ValueError):
    """A MoveString that cannot be read, or names no legal move: the message is Mzinga's."""


@dataclass(frozen=True)
class ReadMove:
    """A MoveString read in a position: the engine action and the text the GameString
    records for it."""

    action: Action
    text: str


def read_move(engine: HiveEngine, text: str, *, strict: bool = True) -> ReadMove:
    """The legal move ``text`` names in ``engine``'s position (UhpMoveRefused, with
    Mzinga's reason, if it names none). ``strict``: Mzinga's reading (see the module)."""
    try:
        parsed = parse_move_string(text)
    except MoveParseError as e:
        shown = " ".join(str(text).split())[:40]
        raise UhpMoveRefused(f'Unable to parse move "{shown}": {e}') from None
    if engine.result != ONGOING:
        raise UhpMoveRefused(GAME_OVER_PLAY)
    legal = engine.legal_actions()
    if parsed.is_pass:
        if PASS in legal:
            return ReadMove(PASS, "pass")
        raise UhpMoveRefused(CANNOT_PASS)
    action, occupied, why = _named(engine, parsed, strict)
    if action is not None and not occupied and action in legal:
        as_sent = str(parsed)
        if not strict:
            strict_action, strict_occupied, _ = _named(engine, parsed, True)
            if strict_action != action or strict_occupied:
                as_sent = move_string(engine, action)
        return ReadMove(action, as_sent)
    raise UhpMoveRefused(_refusal(engine, parsed, action, occupied, why))


def _named(engine: HiveEngine, parsed: MoveText,
           strict: bool) -> tuple[Action | None, bool, str]:
    """(the action the string names, or None; True if it names an occupied place in
    Mzinga's reading; why it names no action: ``enabled`` for a mover not in this game
    type, ``hand`` for a reference piece off the board (Mzinga reads that as a move back
    into the hand), ``bare`` for a bare piece after the first move in the lenient reading)."""
    code = engine.code_of.get(parsed.piece)
    if code is None:
        return None, False, "enabled"
    src = engine.where.get(code)
    stacks = engine.stacks
    if not parsed.ref:
        if strict or not stacks:
            return (code, src, ORIGIN), ORIGIN in stacks, ""
        return None, False, "bare"
    ref = engine.code_of.get(parsed.ref)
    at = None if ref is None else engine.where.get(ref)
    if at is None:
        return None, False, "hand"
    if parsed.direction is None:
        return (code, src, at), strict and stacks[at][-1] != ref, ""
    dst = at + OFFSETS[parsed.direction]
    return (code, src, dst), strict and dst in stacks, ""


def _refusal(engine: HiveEngine, parsed: MoveText, action: Action | None,
             occupied: bool, why: str) -> str:
    """Why a named move is refused, checked in Mzinga's order."""
    p = engine.to_move
    if "wb".index(parsed.piece[0]) != p:
        return NOT_YOUR_TURN
    if why == "enabled":
        return NOT_ENABLED
    if why == "hand":
        return BACK_IN_HAND
    if action is None:
        return (f"{CANNOT_MOVE_THERE} ('{parsed.piece}' alone is only the first move of a "
                f"game; say where it goes, e.g. '{parsed.piece} wQ-')")
    code, src, dst = action
    turn = engine.actions[p] + 1
    is_queen = engine.code_type[code] == QUEEN
    if turn == 1 and is_queen:
        return QUEEN_FIRST_TURN
    if engine.bpos[p] is None:
        if turn == 4 and not is_queen:
            return QUEEN_BY_FOURTH
        if src is not None:
            return QUEEN_BEFORE_MOVING
    if src is None:
        kind = code >> 1
        for group in engine.groups:
            if kind in group and any(k < kind and engine.hands[p][k] for k in group):
                return IN_ORDER
    if occupied:
        return OCCUPIED
    if src is not None:
        stack = engine.stacks[src]
        if stack[-1] != code:
            return COVERED
        if len(stack) == 1 and engine.analysis().is_cut(src):
            return BREAKS_HIVE
    where = str(parsed).partition(" ")[2]
    return f"{CANNOT_MOVE_THERE} ({why_illegal(engine, action, where)})"


__all__ = ["ReadMove", "UhpMoveRefused", "read_move"]
