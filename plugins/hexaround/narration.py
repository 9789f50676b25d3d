"""What a HexAround action did, as game events (:mod:`hexkit.kit.events`) for front-ends to say.

The move itself is said by its notation; the events are its consequences: a kamikaze sending
a creature back to its owner's hand (and the attacker lost), a swap, a creature climbing onto
another (a stack) and pinning it, a creature set free, a butterfly one hex from being surrounded, a
butterfly surrounded or a player who cannot act (eliminated), a pass.

They are made when asked for, by comparing the saved form (``to_dict``) of the positions
before and after the action, so that bots and playouts pay nothing for narration and the
narration does not depend on the engine's insides.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from hexkit.kit import events as ev
from hexkit.kit.events import GameEvent

if TYPE_CHECKING:
    # hexaround.game's HexAroundState; that module imports this one, so the kit's name.
    from hexkit.game import State as HexAroundState

Cell = tuple[int, int]
Board = dict[Cell, list[tuple[str, str]]]

#: Event kinds of HexAround beyond the standard ones.
SWAPPED = "swapped"
RELEASED = "released"
CROWDED = "crowded"

#: The six neighbours of (x, y), as offsets (docs/hexaround.md).
NEIGHBOURS = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))


def _board(data: Mapping[str, Any]) -> Board:
    return {(x, y): [(name, owner) for name, owner in stack] for x, y, stack in data["board"]}


def _on_board(board: Board) -> Counter[tuple[str, str]]:
    return Counter(piece for stack in board.values() for piece in stack)


def _where(cell: Cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _butterflies(board: Board) -> dict[str, Cell]:
    found = {}
    for cell, stack in board.items():
        for name, owner in stack:
            if name == "BUTTERFLY":
                found[owner] = cell
    return found


def _crowd(board: Board, cell: Cell) -> int:
    x, y = cell
    return sum((x + dx, y + dy) in board for dx, dy in NEIGHBOURS)


def _traps(state: HexAroundState, name: str) -> bool:
    config = state.game.config  # type: ignore[attr-defined]
    creature = config.creature(name)
    return creature is not None and "TRAPPING" in creature.effective_properties(config.rules)


def action_events(before: HexAroundState, after: HexAroundState) -> list[GameEvent]:
    """The consequences of the last action of ``after``; ``before`` is the position it was
    played in."""
    move = after.move_stack[-1]
    old, new = before.to_dict(), after.to_dict()
    b0, b1 = _board(old), _board(new)
    players = after.players
    seat = before.current_player
    me = players[seat]
    told: list[GameEvent] = []
    if str(move) == "pass":
        told.append(GameEvent(ev.PASSED, f"{me} can neither place nor move, and passes", seat))
    name = getattr(move, "creature", None)
    is_move = hasattr(move, "from_x")
    if is_move and name is not None:
        told += _move_events(after, move, name, seat, me, b0, b1, old, new)
    told += _end_events(after, b0, b1, new)
    return told


def _move_events(state: HexAroundState, move: Any, name: str, seat: int, me: str,
                 b0: Board, b1: Board, old: Mapping[str, Any],
                 new: Mapping[str, Any]) -> list[GameEvent]:
    src: Cell = (move.from_x, move.from_y)
    dst: Cell = (move.to_x, move.to_y)
    target = b0.get(dst, [])
    # The creature moved is the mover's own, unless an extension's ability moves another's.
    owners = [owner for n, owner in b0.get(src, []) if n == name]
    if owners and me not in owners:
        me = owners[-1]
    told: list[GameEvent] = []
    returned = [(owner, kind, n - old["hands"][owner].get(kind, 0))
                for owner, hand in new["hands"].items() for kind, n in hand.items()
                if n > old["hands"][owner].get(kind, 0)]
    for owner, kind, count in returned:
        told.append(GameEvent(
            ev.RETURNED, f"{me}'s {name} strikes {owner}'s {kind} at {_where(dst)}: the "
            f"{kind} goes back to {owner}'s hand", seat, (dst,),
            {"creature": kind, "owner": owner, "count": count}))
    if returned and _on_board(b1)[(name, me)] < _on_board(b0)[(name, me)]:
        told.append(GameEvent(ev.DESTROYED, f"{me}'s {name} is lost in the attack", seat,
                              (dst,), {"creature": name, "owner": me}))
    if returned or not target:
        return told + _released(state, name, src, b0, b1)
    top_name, top_owner = target[-1]
    moved_back = b1.get(src, [])
    if moved_back and moved_back[-1] == (top_name, top_owner) and \
            len(b1.get(dst, [])) == len(target):
        told.append(GameEvent(
            SWAPPED, f"{me}'s {name} swaps places with {top_owner}'s {top_name}: the "
            f"{top_name} goes to {_where(src)}", seat, (dst, src),
            {"creature": top_name, "owner": top_owner}))
        return told
    height = len(b1.get(dst, []))
    told.append(GameEvent(
        ev.STACKED, f"{me}'s {name} climbs onto {top_owner}'s {top_name} at {_where(dst)} "
        f"(a stack of {height})", seat, (dst,), {"height": height}))
    if _traps(state, name):
        told.append(GameEvent(
            ev.TRAPPED, f"{top_owner}'s {top_name} at {_where(dst)} is trapped under the "
            f"{name}: it cannot move while the {name} stays", players_index(state, top_owner),
            (dst,), {"creature": top_name, "owner": top_owner, "by": name}))
    return told + _released(state, name, src, b0, b1)


def players_index(state: HexAroundState, player: str) -> int | None:
    """The seat of a player named in a position's saved form."""
    return state.players.index(player) if player in state.players else None


def _released(state: HexAroundState, name: str, src: Cell, b0: Board,
              b1: Board) -> list[GameEvent]:
    """A trapping creature that leaves a stack sets the creature below it free."""
    left = b1.get(src, [])
    if len(b0.get(src, [])) < 2 or not left or not _traps(state, name):
        return []
    below_name, below_owner = left[-1]
    return [GameEvent(RELEASED, f"{below_owner}'s {below_name} at {_where(src)} is free "
                      f"again", players_index(state, below_owner), (src,),
                      {"creature": below_name, "owner": below_owner})]


def _end_events(state: HexAroundState, b0: Board, b1: Board,
                new: Mapping[str, Any]) -> list[GameEvent]:
    """A butterfly newly one hex from being surrounded, or surrounded; a player who loses."""
    told: list[GameEvent] = []
    before = _butterflies(b0)
    for owner, cell in sorted(_butterflies(b1).items()):
        crowd = _crowd(b1, cell)
        was = _crowd(b0, before[owner]) if owner in before else 0
        seat = players_index(state, owner)
        if crowd == 6:
            told.append(GameEvent(
                ev.ELIMINATED, f"{owner}'s BUTTERFLY at {_where(cell)} is surrounded: "
                f"{owner} loses", seat, (cell,), {"reason": "surrounded"}))
        elif crowd == 5 and was < 5 and new["result"] == "ONGOING":
            told.append(GameEvent(
                CROWDED, f"{owner}'s BUTTERFLY at {_where(cell)} has 5 of its 6 neighbours "
                f"occupied: one more and {owner} loses", seat, (cell,), {"occupied": crowd}))
    if new["result"] != "ONGOING" and "neither place nor move" in str(new["reason"]):
        for loser in state.players:
            if str(new["reason"]).startswith(loser):
                told.append(GameEvent(
                    ev.ELIMINATED, f"{loser} is out: no empty hex next to their colour to "
                    "place on, and no creature of theirs can move", players_index(state, loser),
                    (), {"reason": "cannot act"}))
    return told
