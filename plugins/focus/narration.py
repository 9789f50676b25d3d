"""What a Focus move did, in words and as data (:mod:`hexkit.kit.events`): pieces captured
from the bottom of an overflowing stack, the mover's own sent to reserve, players put out."""

from __future__ import annotations

from typing import Any

from focus.notation import square_name
from focus.rules import FocusRules
from hexkit.kit import events
from hexkit.kit.events import GameEvent


def narrate(rules: FocusRules, record: Any) -> tuple[GameEvent, ...]:
    """The events of one move, from its undo record (``FocusState._undo``): made when
    asked for, so that playouts pay nothing for narration."""
    seat, _i, j, _count, removed, own, *_rest, dropped = record
    if removed is None and not dropped:
        return ()
    names = rules.names
    square = rules.squares[j]
    where = square_name(square)
    told = []
    taken = [s for s in (removed or ()) if s != seat]
    lost = len(removed or ())
    why = (f"the stack on {where} grew taller than {rules.max_height}"
           + (" and lost its bottom piece" if lost == 1 else
              f" and lost its bottom {lost} pieces"))
    if taken:
        owners = " and ".join(f"{taken.count(s)} of {names[s]}'s" for s in sorted(set(taken)))
        told.append(GameEvent(
            events.CAPTURED, f"{names[seat]} captures {owners} pieces: {why}",
            seat, (square,), {"count": len(taken), "owners": sorted(taken)}))
    if own:
        mine = (f"{names[seat]}'s own piece" if own == 1
                else f"{own} of {names[seat]}'s own pieces")
        mine += (" from the bottom" if taken else "") + (" goes" if own == 1 else " go")
        told.append(GameEvent(
            events.RESERVED,  # the reason, when pieces were captured too, is said there
            f"{mine} to {names[seat]}'s reserve" + ("" if taken else f": {why}"),
            seat, (square,), {"count": own}))
    for s in dropped:
        told.append(GameEvent(events.ELIMINATED, f"{names[s]} is out: no stack on top and "
                              "no piece in reserve", s))
    return tuple(told)
