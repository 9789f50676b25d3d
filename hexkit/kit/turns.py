"""Players and turn order for 1 to 4 seats, as an immutable value.

For a new game's turns (the template and the example plugin use it; the built-in games keep
their turns in their own positions, for speed): several actions per turn (as Hex Baron's 3),
per-player turn counters (as HexAround's butterfly deadline), refused actions that do not
pass the turn (just do not call :meth:`TurnOrder.act`), a free choice of who starts
(``current=None``, as Focus) and players who drop out and are skipped.

Every change returns a new :class:`TurnOrder`, so a state keeps its turn in one attribute
(the state kit's ``turn_order``) and changes it through its undo journal
(``self.journal.set("turn_order", order.act(seat))``, or the kit's ``advance_turn()``):
undo then restores the turn exactly.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any


@dataclass(frozen=True)
class TurnOrder:
    """Whose turn it is. ``current`` is a seat index, or None while anyone may start."""

    players: int
    actions_per_turn: int = 1
    current: int | None = 0
    action: int = 0
    turns_taken: tuple[int, ...] = ()
    active: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 4:
            raise ValueError(f"hexkit games have 1 to 4 players, not {self.players}")
        if self.actions_per_turn < 1:
            raise ValueError("a turn needs at least one action")
        if not self.turns_taken:
            object.__setattr__(self, "turns_taken", (0,) * self.players)
        if not self.active:
            object.__setattr__(self, "active", (True,) * self.players)
        object.__setattr__(self, "turns_taken", tuple(self.turns_taken))
        object.__setattr__(self, "active", tuple(self.active))

    @property
    def seat(self) -> int:
        """The seat to act (seat 0 while anyone may start)."""
        return 0 if self.current is None else self.current

    def may_act(self, seat: int) -> bool:
        """True if ``seat`` may make the next action."""
        if not (0 <= seat < self.players) or not self.active[seat]:
            return False
        return self.current is None or self.current == seat

    def turn_number(self, seat: int) -> int:
        """1 + the number of turns ``seat`` has completed."""
        return self.turns_taken[seat] + 1

    @property
    def ends_turn(self) -> bool:
        """True if the next action completes the current player's turn."""
        return self.action + 1 >= self.actions_per_turn

    def act(self, seat: int | None = None) -> TurnOrder:
        """The turn after one action by ``seat`` (the current seat by default): the same
        player's next action, or the next player's turn after the last action of a turn."""
        who = self.seat if seat is None else seat
        if self.action + 1 < self.actions_per_turn:
            return self._evolve(current=who, action=self.action + 1)
        taken = list(self.turns_taken)
        taken[who] += 1
        return self._evolve(current=self.next_active(who), action=0, turns_taken=tuple(taken))

    def end_turn(self) -> TurnOrder:
        """The turn passed to the next active player, ending the current one early."""
        seat = self.seat
        taken = list(self.turns_taken)
        taken[seat] += 1
        return self._evolve(current=self.next_active(seat), action=0, turns_taken=tuple(taken))

    def _evolve(self, **changes: Any) -> TurnOrder:
        # dataclasses.replace() runs __init__ and __post_init__ again: this is the hot path
        # of every kit game's move (advance_turn), and the fields are already normalised.
        twin = object.__new__(TurnOrder)
        fields = twin.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        return twin

    def next_active(self, seat: int) -> int:
        """The next active seat after ``seat`` (``seat`` itself if it is the only one)."""
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if self.active[s]:
                return s
        return seat

    def drop(self, seat: int) -> TurnOrder:
        """The turn order with ``seat`` out of the game (skipped from now on)."""
        active = list(self.active)
        active[seat] = False
        return self._evolve(active=tuple(active))

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its fields, read back without ``__init__`` (they are normalised
        already): a third of the default's cost, and a state's journal holds one per
        move."""
        return (_turn_order, turn_fields(self))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {
            "players": self.players,
            "actions_per_turn": self.actions_per_turn,
            "current": self.current,
            "action": self.action,
            "turns_taken": list(self.turns_taken),
            "active": list(self.active),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> TurnOrder:
        """Inverse of :meth:`to_dict`."""
        current = d["current"]
        return cls(
            int(d["players"]), int(d["actions_per_turn"]),
            None if current is None else int(current), int(d["action"]),
            tuple(int(x) for x in d["turns_taken"]), tuple(bool(x) for x in d["active"]),
        )


#: A TurnOrder's fields, in the order its pickle writes them.
TURN_FIELDS = ("players", "actions_per_turn", "current", "action", "turns_taken", "active")
#: A TurnOrder's fields as a tuple (in :data:`TURN_FIELDS` order).
turn_fields = attrgetter(*TURN_FIELDS)


def turn_order_of(fields: tuple[Any, ...]) -> TurnOrder:
    """The :class:`TurnOrder` of these fields (:func:`turn_fields`), made without
    ``__init__``: they are normalised already."""
    twin = object.__new__(TurnOrder)
    twin.__dict__.update(zip(TURN_FIELDS, fields, strict=True))
    return twin


def _turn_order(*fields: Any) -> TurnOrder:
    """Unpickle a :class:`TurnOrder` (its fields as :meth:`TurnOrder.__reduce__` wrote
    them)."""
    return turn_order_of(fields)
