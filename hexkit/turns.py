"""Players and turn order for 2 to 4 seats.

Covers the three course games: several actions per turn (Hex Baron: 3), per-player turn
counters (HexAround's butterfly deadline), refused actions that do not pass the turn (just
do not call :meth:`TurnOrder.act`), a free choice of who starts (Focus: ``first=None``) and
players who drop out and are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class TurnOrder:
    """Whose turn it is. ``current`` is a seat index, or None while anyone may start."""

    players: int
    actions_per_turn: int = 1
    current: int | None = 0
    action: int = 0
    turns_taken: list[int] = field(default_factory=list)
    active: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not 1 <= self.players <= 4:
            raise ValueError(f"hexkit games have 1 to 4 players, not {self.players}")
        if self.actions_per_turn < 1:
            raise ValueError("a turn needs at least one action")
        if not self.turns_taken:
            self.turns_taken = [0] * self.players
        if not self.active:
            self.active = [True] * self.players

    def may_act(self, seat: int) -> bool:
        """True if ``seat`` may make the next action."""
        if not (0 <= seat < self.players) or not self.active[seat]:
            return False
        return self.current is None or self.current == seat

    def turn_number(self, seat: int) -> int:
        """1 + the number of turns ``seat`` has completed."""
        return self.turns_taken[seat] + 1

    def act(self, seat: int) -> bool:
        """Record one successful action by ``seat``; returns True if it ended the turn."""
        if self.current is None:
            self.current = seat
        self.action += 1
        if self.action < self.actions_per_turn:
            return False
        self.end_turn()
        return True

    def end_turn(self) -> None:
        """Finish the current player's turn early and pass to the next active player."""
        seat = self.current if self.current is not None else 0
        self.turns_taken[seat] += 1
        self.action = 0
        self.current = self.next_active(seat)

    def next_active(self, seat: int) -> int:
        """The next active seat after ``seat`` (``seat`` itself if it is the only one)."""
        for k in range(1, self.players + 1):
            s = (seat + k) % self.players
            if self.active[s]:
                return s
        return seat

    def drop(self, seat: int) -> None:
        """Mark a seat as out of the game; it is skipped from now on."""
        self.active[seat] = False

    def copy(self) -> TurnOrder:
        """An independent copy."""
        return TurnOrder(
            self.players, self.actions_per_turn, self.current, self.action,
            list(self.turns_taken), list(self.active),
        )

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
        return cls(
            int(d["players"]), int(d["actions_per_turn"]), d["current"], int(d["action"]),
            [int(x) for x in d["turns_taken"]], [bool(x) for x in d["active"]],
        )
