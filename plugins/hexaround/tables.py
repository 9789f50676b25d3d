"""A position's hash tables as one run of int64 words, for pickles (``engine.kit_pack``).

HexAround's and Hive's positions hold sets and dicts of hex keys (ints above 2**31) that
``copy()`` copies as hash tables, and that ``pickle`` writes and reads one opcode and one
long-integer conversion per key: most of a pickled state's cost. ``hexaround._movegen``
writes them as native int64 words and reads them back at C speed (``pack_tables``,
``unpack_tables``); :func:`unpack` reads the same words in Python where the module is not
built or the words have the other byte order. Containers come back as pickle rebuilds them:
a set's keys added in the order they were written (its iteration order), a dict's items in
insertion order.

Words: ``MARK``, the number of containers, then per container its kind (0: a set of ints;
1: a dict of int -> int; 2: a dict of int -> list of ints), its count and its items (keys;
key, value pairs; key, length, items).
"""

from __future__ import annotations

import importlib
from array import array
from typing import Any

try:
    _native: Any = importlib.import_module("hexaround._movegen")
except ImportError:  # built without a C compiler: tables pickle as pickle writes them
    _native = None

#: The first word (its byte order tells the writer's).
MARK = 0x4858544231000001
_SET, _INTS, _LISTS = 0, 1, 2


def pack(tables: tuple[Any, ...]) -> bytes | None:
    """The words of ``tables`` (sets of ints, dicts of int -> int or -> list of ints, every
    int in int64), or None where the C module is not built or a container has another
    shape (the caller pickles the tables as they are)."""
    if _native is None:
        return None
    return _native.pack_tables(tables)


def changed(data: dict[str, Any], base: dict[str, Any], skip: frozenset[str]
            ) -> dict[str, Any]:
    """The items of ``data`` (an object's attributes) that are not ``base``'s objects (its
    template's), but for those named in ``skip``: at C speed where the module is built."""
    if _native is not None:
        return _native.changed_items(data, base, skip)
    return {k: v for k, v in data.items() if k not in skip and base.get(k, _MISSING) is not v}


#: No attribute of that name.
_MISSING = object()


def unpack(words: bytes) -> tuple[Any, ...]:
    """The containers :func:`pack` wrote (ValueError, one line, for damaged words)."""
    if _native is not None:
        try:
            return _native.unpack_tables(words)
        except ValueError:  # (maybe the other byte order: read below)
            pass
    return _unpack_python(words)


def _unpack_python(words: bytes) -> tuple[Any, ...]:
    w = array("q")
    try:
        w.frombytes(words)
    except (ValueError, TypeError):
        raise ValueError("the position's tables in this pickle are damaged") from None
    if len(w) >= 1 and w[0] != MARK:
        w.byteswap()
    try:
        if w[0] != MARK:
            raise IndexError
        out: list[Any] = []
        at = 2
        for _ in range(w[1]):
            kind, count = w[at], w[at + 1]
            at += 2
            if kind == _SET:
                out.append(set(w[at:at + count]))
                at += count
            elif kind == _INTS:
                items = w[at:at + 2 * count]
                out.append(dict(zip(items[::2], items[1::2], strict=True)))
                at += 2 * count
            elif kind == _LISTS:
                table: dict[int, list[int]] = {}
                for _ in range(count):
                    key, length = w[at], w[at + 1]
                    table[key] = w[at + 2:at + 2 + length].tolist()
                    at += 2 + length
                out.append(table)
            else:
                raise IndexError
        if at != len(w) or len(out) != w[1]:
            raise IndexError
    except (IndexError, ValueError):
        raise ValueError("the position's tables in this pickle are damaged") from None
    return tuple(out)

