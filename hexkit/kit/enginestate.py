"""A kit for states backed by a fast rules engine (HexAround and Hive use it).

Such an engine lists its legal actions as plain tuples, many per position, while a caller of
the generic API usually looks at one of them (a random player, a bot's sampling). The kit
keeps the two worlds apart and cheap:

- :class:`TupleMove`: moves as small immutable tuples (hashable, equal by value and only to
  moves of the same type, cheap to build and to copy);
- :class:`ActionMap`: one engine legal list as a sequence of Moves, each made when it is
  looked at, and the action behind every Move it handed out (pushing one needs no search);
- :func:`game_memo`: a bounded per-game table that lets positions share their Move objects
  (moves are immutable, and late positions share most of their moves with earlier ones);
- :class:`ResultNames`: the table between an engine's result codes and the words a saved
  position uses, with the one error for a word it does not know;
- :class:`ListedMovesPickling`: pickling for a state that keeps an :class:`ActionMap`
  (``_listed``) and its game's move table (``_made``): both are made again, never pickled.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from typing import Any, Generic, TypeVar, overload

from hexkit.errors import RecordError
from hexkit.game import Game, Move
from hexkit.kit.rng import keep_bounded

A = TypeVar("A")
M = TypeVar("M", bound=Move)


class TupleMove(Move, tuple[Any, ...]):
    """Base of moves that are tuples: ``class PlaceCreature(TupleMove)`` with a ``__new__``
    that calls ``tuple.__new__(cls, values)``. Equal by value, and only to moves of the
    same type; hashable; pickles and copies as its values."""

    __slots__ = ()

    def __getnewargs__(self) -> tuple[Any, ...]:
        return tuple(self)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # The class and the values (a third faster than pickle's generic way, which a
        # state's pickle meets once per move on its stack).
        return (type(self), tuple(self))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and tuple.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = tuple.__hash__


class Memo(dict[Hashable, Any]):
    """A dict that forgets everything when it grows past ``limit`` entries (bounded memory
    for a long-running server; the entries are cheap to make again)."""

    __slots__ = ("limit",)

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = limit

    def keep(self, key: Hashable, value: Any) -> Any:
        """Store and return ``value`` (clearing the table first when it is full)."""
        if len(self) >= self.limit:
            self.clear()
        self[key] = value
        return value


_MEMOS: weakref.WeakKeyDictionary[Game, dict[str, Memo]] = weakref.WeakKeyDictionary()
#: (id(game), name) -> (the game, its memo) of the memos found last: a lookup in
#: :data:`_MEMOS` makes a weak reference, which costs more than the rest of an unpickled
#: state (the few games kept here live a little longer).
_RECENT: dict[tuple[int, str], tuple[Game, Memo]] = {}


def game_memo(game: Game, name: str, limit: int = 200_000) -> Memo:
    """The game's memo called ``name`` (made on first use, shared by every state of that
    game object, gone with the game)."""
    key = (id(game), name)
    found = _RECENT.get(key)
    if found is not None and found[0] is game:
        return found[1]
    memos = _MEMOS.get(game)
    if memos is None:
        memos = _MEMOS[game] = {}
    memo = memos.get(name)
    if memo is None:
        memo = memos[name] = Memo(limit)
    keep_bounded(_RECENT, key, (game, memo), 16)  # (the game is kept: its id stays its own)
    return memo


class ActionMap(Sequence[M], Generic[A, M]):
    """The Moves of one engine legal list (``actions``, recognised by identity), made when
    they are looked at.

    ``keys[i]`` names the Move of ``actions[i]`` in the game's ``memo`` (by default the
    action itself, for games whose moves do not depend on the position); ``make(key)``
    makes a Move the memo does not hold. :meth:`action_of` gives back the action of a Move
    this map handed out."""

    __slots__ = ("actions", "_keys", "_make", "_memo", "_handed", "_by_key")

    def __init__(self, actions: Sequence[A], make: Callable[[Any], M], memo: Memo,
                 keys: Sequence[Hashable] | None = None) -> None:
        #: The engine's legal list this sequence stands for.
        self.actions = actions
        self._keys: Sequence[Any] = actions if keys is None else keys
        self._make = make
        self._memo = memo
        #: id(move) -> (move, action) for every Move handed out (the move is kept so that
        #: its id cannot be reused by another object while the entry lives).
        self._handed: dict[int, tuple[M, A]] = {}
        self._by_key: dict[Any, A] | None = None

    def __len__(self) -> int:
        return len(self.actions)

    def _move(self, i: int) -> M:
        key = self._keys[i]
        move = self._memo.get(key)
        if move is None:
            move = self._memo.keep(key, self._make(key))
        self._handed[id(move)] = (move, self.actions[i])
        return move  # type: ignore[no-any-return]

    @overload
    def __getitem__(self, index: int) -> M: ...

    @overload
    def __getitem__(self, index: slice) -> list[M]: ...

    def __getitem__(self, index: int | slice) -> M | list[M]:
        if isinstance(index, slice):
            return [self._move(i) for i in range(*index.indices(len(self.actions)))]
        if index < 0:
            index += len(self.actions)
            if index < 0:
                raise IndexError("move index out of range")
        elif index >= len(self.actions):
            raise IndexError("move index out of range")
        return self._move(index)

    def __iter__(self) -> Iterator[M]:
        for i in range(len(self.actions)):
            yield self._move(i)

    def action_of(self, move: object) -> A | None:
        """The action of a Move this map handed out (None for any other object)."""
        entry = self._handed.get(id(move))
        if entry is None or entry[0] is not move:
            return None
        return entry[1]

    def action_for_key(self, key: Hashable) -> A | None:
        """The action whose Move has memo key ``key`` (a MoveString...), or None."""
        by_key = self._by_key
        if by_key is None:
            by_key = self._by_key = dict(zip(self._keys, self.actions, strict=True))
        return by_key.get(key)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, str):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


class ResultNames(Generic[A]):
    """An engine's result codes and the words a saved position writes for them
    (``ONGOING``, ``BLUE_WON``... or ``InProgress``, ``WhiteWins``...)."""

    __slots__ = ("_names", "_codes", "default")

    def __init__(self, names: Mapping[A, str]) -> None:
        self._names = dict(names)
        self._codes = {v: k for k, v in names.items()}
        #: The word of the first code (the game going on), read when a save has none.
        self.default = next(iter(self._names.values()))

    def name(self, code: A) -> str:
        """The word for a result code."""
        return self._names[code]

    def code(self, name: object) -> A:
        """The result code of a saved word (RecordError, one line, for anything else)."""
        if isinstance(name, str) and name in self._codes:
            return self._codes[name]
        known = ", ".join(self._codes)
        raise RecordError(f"bad result {name!r} (one of {known})")


class ListedMovesPickling:
    """Mixed into a :class:`~hexkit.game.State` (before it) that keeps its legal list in
    ``_listed`` and its game's :func:`game_memo` of moves in ``_made``: a pickle holds the
    engine's data, not the legal list's moves or the game's move table (both made again when
    asked for)."""

    game: Any
    _made: Memo

    def __getstate__(self) -> dict[str, Any]:
        data: dict[str, Any] = super().__getstate__()  # type: ignore[assignment]
        data["_listed"] = None
        del data["_made"]
        return data

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        super().__setstate__(data)  # type: ignore[misc]
        self._made = game_memo(self.game, "moves")
