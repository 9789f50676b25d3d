"""What a command and a turn did, in words: the events Hex Baron emits while a turn is
carried out (in the AQA turn order) and the end of turn's ``Last:`` note.

The rules (``hexbaron.rules``) change the position; these functions say what changed,
through :meth:`~hexbaron.position.Position.emit`, which the state passes on to hexkit's
event log after each command.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexbaron.catalogue import FUEL
from hexkit.kit import events

if TYPE_CHECKING:
    from hexbaron.position import Position
    from hexkit.kit.pieces import Piece

#: Event kind: a baron was destroyed, so the game ends once both players have had as many
#: turns (besides the ``destroyed`` event of the baron itself).
BARON_LOST = "baron_lost"


def _vps(n: int) -> str:
    return f"{n} VP{'s' if n != 1 else ''}"


def rich_seam(pos: Position, tile: int, fuel: int) -> None:
    """A dig's big find: ``fuel`` more, and the bog on ``tile`` is now a field."""
    pos.emit(events.RESOURCE, f"{pos.names[pos.seat]} struck a rich seam: +{fuel} fuel, and "
             f"the bog on tile {tile} is now a field", pos.seat, [tile], resource=FUEL,
             change=fuel)


def fuel_ran_out(pos: Position, mover: int, before: int) -> None:
    """The event of a command that used the mover's last fuel (``before`` it: some)."""
    if before > 0 >= pos.resources[mover].get(FUEL, 0):
        pos.emit(events.RESOURCE, f"{pos.names[mover]} has no fuel left: no piece can "
                 "move until some is dug", mover, resource=FUEL, amount=pos.resource(FUEL))


def turn_ended(pos: Position, mover: int, doomed: list[tuple[int, Piece]],
               first_baron: bool) -> str:
    """The events of the end of ``mover``'s turn (each piece destroyed, the VPs scored, a
    baron lost) and its note: ``end of P's turn: destroyed L3 s4 (P +2 VPs)``."""
    names = pos.names
    if not doomed:
        return f"end of {names[mover]}'s turn: nothing destroyed"
    types = pos.catalogue.pieces
    gains = [0, 0]
    shown = []
    for tile, p in doomed:
        ptype = types[p.kind]
        gains[1 - p.owner] += ptype.vp_value
        letter = ptype.letter if p.owner == 0 else ptype.letter.lower()
        shown.append(f"{letter}{tile}")
        pos.emit(events.DESTROYED,
                 f"{names[p.owner]}'s {ptype.name} on tile {tile} was destroyed "
                 f"({names[1 - p.owner]} +{_vps(ptype.vp_value)})", p.owner, [tile],
                 piece=ptype.name, tile=tile, vps=ptype.vp_value)
    for seat, gain in enumerate(gains):
        if gain:
            pos.emit(events.SCORE, f"{names[seat]} scores {_vps(gain)} (now {pos.vps[seat]})",
                     seat, points=gain, total=pos.vps[seat])
    if first_baron:
        barons = [(t, p.owner) for t, p in doomed if types[p.kind].is_baron]
        lost = sorted({seat for _, seat in barons})
        whose = " and ".join(f"{names[s]}'s" for s in lost)
        when = "the game ends now" if mover == 1 else \
            f"{names[1]} has one last turn, then the game ends"
        pos.emit(BARON_LOST, f"{whose} baron is lost: {when}",
                 barons[0][1] if len(lost) == 1 else None, [t for t, _ in barons])
    scores = ", ".join(f"{names[s]} +{g} VPs" for s, g in enumerate(gains) if g)
    return f"end of {names[mover]}'s turn: destroyed {' '.join(shown)} ({scores})"
