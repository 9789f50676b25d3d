"""The undo journal a state rolls back with: push/pop for free.

Every change a move makes goes through a journal method that first writes down the old
value; undoing the move rolls the journal back to the mark taken before it. Entries name the
changed attribute of the journal's owner (the state) *by name*, never by holding the
container itself, so a copied state copies its journal as a plain list and the copy's
undo changes the copy's data only.

Values written into the journal must be treated as immutable once replaced (replace a
stack with a new tuple or list rather than mutating the old one in place), as in Hex
Baron's journaled position.
"""

from __future__ import annotations

import copyreg
import weakref
from collections.abc import Callable
from typing import Any

_SET, _ITEM, _NEW_ITEM, _APPEND, _ADD, _DISCARD, _RNG, _CALL = range(8)

#: Marks a dictionary key that did not exist before a change.
_MISSING = object()


class Journal:
    """An undo log over the attributes of ``owner``.

    ``mark()`` before a change, ``rollback(mark)`` to undo everything since. Each method
    applies a change and records how to reverse it.
    """

    __slots__ = ("_owner", "entries")

    def __init__(self, owner: Any, entries: list[tuple[Any, ...]] | None = None):
        self._owner = _reference(owner)
        self.entries: list[tuple[Any, ...]] = [] if entries is None else entries

    @property
    def owner(self) -> Any:
        """The object whose attributes this journal changes (held weakly: a state holds its
        journal, and a strong reference back would make every state a reference cycle,
        which only the garbage collector frees)."""
        return self._owner()

    @owner.setter
    def owner(self, owner: Any) -> None:
        self._owner = _reference(owner)

    def mark(self) -> int:
        """A point to roll back to."""
        return len(self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def bound_to(self, owner: Any) -> Journal:
        """A copy of this journal for a copy of its owner."""
        return Journal(owner, list(self.entries))

    def __reduce__(self) -> tuple[Any, ...]:
        # Made first and filled after (its owner may hold it: the cycle stays one journal).
        newobj = copyreg.__newobj__  # type: ignore[attr-defined]  # typeshed omits it
        return (newobj, (Journal,), (self.owner, pack_entries(self.entries)))

    def __setstate__(self, state: tuple[Any, list[tuple[Any, ...]]]) -> None:
        owner, entries = state
        self._owner = _reference(owner)
        self.entries = unpack_entries(entries)

    def clear(self) -> None:
        """Forget every entry (the current position becomes a starting point)."""
        self.entries.clear()

    # -- changes -----------------------------------------------------------------------
    def set(self, name: str, value: Any) -> None:
        """``owner.name = value``."""
        owner = self._owner()
        self.entries.append((_SET, name, getattr(owner, name)))
        setattr(owner, name, value)

    def set_item(self, name: str, key: Any, value: Any) -> None:
        """``owner.name[key] = value`` (a list or a dict; a new dict key is removed on
        undo)."""
        container = getattr(self._owner(), name)
        if type(container) is not list and key not in container:
            self.entries.append((_NEW_ITEM, name, key))
        else:
            self.entries.append((_ITEM, name, key, container[key]))
        container[key] = value

    def delete_item(self, name: str, key: Any) -> None:
        """``del owner.name[key]`` for a dict."""
        container = getattr(self._owner(), name)
        self.entries.append((_ITEM, name, key, container[key]))
        del container[key]

    def append(self, name: str, value: Any) -> None:
        """``owner.name.append(value)``."""
        self.entries.append((_APPEND, name))
        getattr(self._owner(), name).append(value)

    def add(self, name: str, element: Any) -> None:
        """``owner.name.add(element)`` for a set (no entry if it was already there)."""
        container = getattr(self._owner(), name)
        if element not in container:
            self.entries.append((_ADD, name, element))
            container.add(element)

    def discard(self, name: str, element: Any) -> None:
        """``owner.name.discard(element)`` for a set."""
        container = getattr(self._owner(), name)
        if element in container:
            self.entries.append((_DISCARD, name, element))
            container.discard(element)

    def keep_rng(self) -> None:
        """Record the owner's random generator (``owner.rng``) so that the draws made after
        this are undone too. Call it before the first draw of a move."""
        self.entries.append((_RNG, self._owner().rng.getstate()))

    def on_undo(self, method: str, *args: Any) -> None:
        """On rollback, call ``owner.method(*args)`` (for changes the other entries cannot
        express, such as a union-find link). Arguments must be immutable values."""
        self.entries.append((_CALL, method, args))

    # -- undo --------------------------------------------------------------------------
    def rollback(self, mark: int) -> None:
        """Undo every change made since :meth:`mark` returned ``mark``, newest first."""
        entries = self.entries
        owner = self._owner()
        if owner is None and len(entries) > mark:
            raise ReferenceError("the journal's owner no longer exists")
        while len(entries) > mark:
            entry = entries.pop()
            tag = entry[0]
            if tag == _SET:
                setattr(owner, entry[1], entry[2])
            elif tag == _ITEM:
                getattr(owner, entry[1])[entry[2]] = entry[3]
            elif tag == _NEW_ITEM:
                del getattr(owner, entry[1])[entry[2]]
            elif tag == _APPEND:
                getattr(owner, entry[1]).pop()
            elif tag == _ADD:
                getattr(owner, entry[1]).discard(entry[2])
            elif tag == _DISCARD:
                getattr(owner, entry[1]).add(entry[2])
            elif tag == _RNG:
                owner.rng.setstate(entry[1])
            else:
                getattr(owner, entry[1])(*entry[2])


def _reference(owner: Any) -> Callable[[], Any]:
    """A weak reference to ``owner`` (a strong one for an object that cannot have weak
    references)."""
    try:
        return weakref.ref(owner)
    except TypeError:
        return lambda: owner


# -- pickling ------------------------------------------------------------------------------
# A random generator's state (keep_rng) is a tuple of 625 ints, slower to pickle than the
# rest of a journal: in a pickle it is the 625 words as bytes.

_PACKED_RNG = -1


def pack_entries(entries: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The entries as a pickle holds them (:func:`unpack_entries` reverses it)."""
    if not any(entry[0] == _RNG for entry in entries):
        return entries
    return [pack_entry(entry) for entry in entries]


def pack_entry(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """One entry as a pickle holds it (:func:`unpack_entry` reverses it)."""
    if entry[0] != _RNG:
        return entry
    from hexkit.kit.rng import pack_rng_state

    return (_PACKED_RNG, *pack_rng_state(entry[1], keep=True))


def unpack_entry(entry: tuple[Any, ...]) -> tuple[Any, ...]:
    """The entry :func:`pack_entry` packed."""
    if entry[0] != _PACKED_RNG:
        return entry
    from hexkit.kit.rng import unpack_rng_state

    return (_RNG, unpack_rng_state(*entry[1:]))


def unpack_entries(entries: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The entries :func:`pack_entries` packed, as the journal keeps them."""
    if not any(entry[0] == _PACKED_RNG for entry in entries):
        return entries
    return [unpack_entry(entry) for entry in entries]
