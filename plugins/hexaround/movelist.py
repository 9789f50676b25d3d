"""The legal moves of one position as a sequence that makes its Move objects only when they
are looked at.

The engine lists actions (plain tuples); a position has about 240 of them, and a random
playout or a bot's sampling looks at one. Making every Move up front cost the generic API
two thirds of its time; here indexing makes (or reuses) one, and the sequence remembers
which action each handed-out Move stands for, so pushing it needs no search.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, overload

from hexkit.game import Move

Action = tuple[int, int | None, int]


class MoveList(Sequence[Move]):
    """An immutable sequence of the Moves for ``actions`` (one engine legal list)."""

    __slots__ = ("actions", "_made", "_make", "_handed")

    def __init__(self, actions: Sequence[Action], made: dict[Action, Move],
                 make: Callable[[Action], Move]) -> None:
        #: The engine's legal list this sequence stands for (compared by identity).
        self.actions = actions
        self._made = made
        self._make = make
        self._handed: dict[int, Action] = {}

    def __len__(self) -> int:
        return len(self.actions)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self.actions)))]
        action = self.actions[index]
        move = self._made.get(action)
        if move is None:
            move = self._make(action)
        self._handed[id(move)] = action
        return move

    def __iter__(self) -> Iterator[Move]:
        get, make, handed = self._made.get, self._make, self._handed
        for action in self.actions:
            move = get(action)
            if move is None:
                move = make(action)
            handed[id(move)] = action
            yield move

    def action_of(self, move: Move) -> Action | None:
        """The action of a Move this sequence handed out (None for any other object)."""
        action = self._handed.get(id(move))
        if action is None or self._made.get(action) is not move:
            return None
        return action

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))
