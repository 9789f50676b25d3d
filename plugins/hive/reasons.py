"""Why an action is not legal in a Hive position: one line a player can act on. Called
only for refused actions, so it may search plainly (the generator is the authority: an
action is legal exactly when :meth:`HiveEngine.legal_actions` lists it)."""

from __future__ import annotations

from hive.directions import destination_text
from hive.engine import BUG_NAMES, LETTERS, ONGOING, HiveEngine
from hive.rules import PILLBUG


def _at(engine: HiveEngine, action: tuple[int, int | None, int], where: str = "") -> str:
    """The destination as a MoveString would name it: ``the hex bA1/`` (``where``: as the
    player wrote it, if they did)."""
    where = where or destination_text(engine, action)
    return where if where == "the origin" else f"the hex {where}"


def reason_for(engine: HiveEngine, action: tuple[int, int | None, int], where: str = "") -> str:
    """The reason ``action`` is not among the legal actions (assumed not to be);
    ``where`` is its destination as the player wrote it (``-bQ``), to name it so."""
    code, src, dst = action
    p = engine.to_move
    me = "White" if p == 0 else "Black"
    if engine.result != ONGOING:
        return "the game is over"
    if code < 0:
        return "pass is legal only when no other move is"
    name = engine.code_name[code]
    bug = BUG_NAMES[engine.code_type[code]]
    if src is None:
        return _placement_reason(engine, action, p, me, name, bug, where)
    if engine.actions[p] == 3 and engine.bpos[p] is None:
        return f"{me} must place the Queen Bee on this turn (the 4th)"
    if engine.bpos[p] is None:
        return f"no piece may move before its owner's Queen Bee is placed ({me}'s is in hand)"
    if code == engine.last:
        return f"{name} was moved on the last turn and cannot move or be moved on this one"
    if dst == src:
        return f"{name} must end its move on another hex"
    stack = engine.stacks[src]
    if stack[-1] != code:
        above = engine.code_name[stack[-1]]
        return f"{name} is pinned under {above} and cannot move"
    if code & 1 != p:
        return (f"{name} is {('White' if p else 'Black')}'s; it can only be moved by {me}'s "
                f"Pillbug ability (or a Mosquito next to a Pillbug), and none can throw it "
                f"to {_at(engine, action, where)}")
    if len(stack) == 1 and engine.analysis().is_cut(src):
        return f"moving {name} would split the hive (one-hive rule)"
    if engine.code_type[code] == PILLBUG:
        return f"the Pillbug {name} cannot reach {_at(engine, action, where)}: it slides one hex"
    how = {
        "Queen Bee": "slides one hex through a free gap (exactly one of the two hexes "
                     "beside the gap occupied)",
        "Spider": "slides exactly three hexes, never back where it was",
        "Beetle": "moves one hex, onto or off the hive too, unless both hexes beside the "
                  "gap are higher than both ends",
        "Grasshopper": "jumps in a straight line over at least one piece to the first empty "
                       "hex",
        "Soldier Ant": "slides any distance around the hive through free gaps",
        "Mosquito": "moves as a bug it touches (as a Beetle when on top)",
        "Ladybug": "moves two hexes on top of the hive and one down",
    }[bug]
    return f"{name} cannot reach {_at(engine, action, where)}: a {bug} {how}"


def _placement_reason(engine: HiveEngine, action: tuple[int, int | None, int], p: int,
                      me: str, name: str, bug: str, where: str) -> str:
    code, _, dst = action
    if code & 1 != p:
        return f"{me} cannot place {name}: it is the other player's piece"
    if not engine.in_hand(code):
        return f"{name} is already on the board"
    kind = code >> 1
    for group in engine.groups:
        if kind in group:
            lower = [k for k in group if k < kind and engine.hands[p][k]]
            if lower:
                first = engine.code_name[lower[0] * 2 + p]
                return f"pieces of one kind go down in number order: place {first} first"
    if engine.actions[p] == 0 and kind == 0:
        return "the Queen Bee may not be placed on a player's first turn (tournament opening)"
    if engine.actions[p] == 3 and engine.bpos[p] is None and kind != 0:
        return f"{me} must place the Queen Bee on this turn (the 4th)"
    if dst in engine.stacks:
        return f"{_at(engine, action, where)} is occupied; pieces are placed on empty hexes only"
    if engine.actions[p] == 0:
        if not engine.occ:
            return "the first piece goes on the origin"
        return f"{me}'s first piece goes next to the piece on the board"
    if not engine.cadj[p].get(dst):
        return f"{_at(engine, action, where)} does not touch any of {me}'s pieces"
    if engine.cadj[1 - p].get(dst):
        return f"{_at(engine, action, where)} touches a piece of the opponent"
    return f"{name} cannot be placed on {_at(engine, action, where)}"


__all__ = ["LETTERS", "reason_for"]
