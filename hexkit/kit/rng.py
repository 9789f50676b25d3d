"""Random generators as game state: copied cheaply, saved as JSON and read back."""

from __future__ import annotations

import array
import random
import struct
from collections.abc import Sequence
from typing import Any

#: A generator's state as ``random.Random.getstate`` gives it.
RngState = tuple[int, tuple[int, ...], float | None]


_c_random = random.Random.random
_c_getrandbits = random.Random.getrandbits


class KitRandom(random.Random):
    """The generator a state holds: a ``random.Random`` (the same numbers) that remembers
    the state it was last set to or read, until something is drawn from it. Reading the state of
    a generator nothing has drawn from since (``getstate``: a copy of the state, its pickle,
    an undo journal's entry) then costs nothing, where ``random.Random`` makes 625 ints
    every time, as much as the rest of a game state's copy. A state known to be valid (a
    copy's, a pickle's) is given to the underlying generator only at the first draw
    (:meth:`set_known_state`): most copies and unpickled states of a game never draw.
    Every draw goes through ``random()`` or ``getrandbits()`` (as ``random.Random``'s own
    methods do), which forget the remembered state."""

    #: The words of the state last set, while nothing has been drawn since (else None).
    _kit_words: tuple[int, ...] | None = None
    #: A state set by :meth:`set_known_state` and not given to the generator yet (else None).
    _kit_pending: tuple[Any, ...] | None = None
    gauss_next: float | None  # (set by random.Random; typeshed does not declare it)

    def seed(self, a: Any = None, version: int = 2) -> None:
        self._kit_words = self._kit_pending = None
        super().seed(a, version)

    def setstate(self, state: tuple[Any, ...]) -> None:
        self._kit_words = self._kit_pending = None
        super().setstate(state)
        if state[0] == self.VERSION and type(state[1]) is tuple:
            self._kit_words = state[1]  # exactly the generator's words now

    def set_known_state(self, state: tuple[Any, ...]) -> None:
        """``setstate`` for a state read from a valid generator (``getstate``): kept as it
        is until the first draw, which sets the generator (3 us saved by every copy or
        unpickled state that never draws)."""
        words = state[1] if len(state) == 3 else None
        if (state[0] != self.VERSION or type(words) is not tuple or len(words) != _WORD_COUNT
                or not 0 <= words[-1] <= _WORD_COUNT - 1):
            self.setstate(state)  # (which says what is wrong with it)
            return
        self._kit_pending = state
        self._kit_words = state[1]
        self.gauss_next = state[2]

    def set_checked_state(self, state: tuple[Any, ...]) -> None:
        """:meth:`set_known_state` for a state that went through it before (its checks
        passed: a pickle's start position, read once per process)."""
        self._kit_pending = state
        self._kit_words = state[1]
        self.gauss_next = state[2]

    def _kit_apply(self) -> None:
        state = self._kit_pending
        self._kit_pending = None
        gauss = self.gauss_next  # (gauss() may have used it since)
        super().setstate(state)  # type: ignore[arg-type]
        self.gauss_next = gauss

    def getstate(self) -> tuple[Any, ...]:
        words = self._kit_words
        if words is None:
            state = super().getstate()
            self._kit_words = state[1]  # the state until the next draw
            return state
        return (self.VERSION, words, self.gauss_next)

    def random(self) -> float:
        if self._kit_pending is not None:
            self._kit_apply()
        self._kit_words = None
        return _c_random(self)

    def getrandbits(self, k: int) -> int:
        if self._kit_pending is not None:
            self._kit_apply()
        self._kit_words = None
        return _c_getrandbits(self, k)


def rng_copy(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (without seeding a new one
    from the operating system first, which costs more than the copy)."""
    twin = KitRandom.__new__(KitRandom)
    twin.set_known_state(rng.getstate())
    return twin


def rng_to_json(rng: random.Random) -> list[Any]:
    """A random generator's full state as JSON-safe data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    """Rebuild a random generator from :func:`rng_to_json` output."""
    rng = KitRandom.__new__(KitRandom)  # (not seeded from the operating system first)
    try:
        version, internal, gauss = data
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"invalid random generator state: {exc}") from exc
    return rng



# -- generator states in pickles -----------------------------------------------------------
# A state is 625 words: written as a tuple of ints it costs more to pickle than the rest of
# a game's state, and reading them back one by one more still. A pickle holds them as one
# bytes object; a process reads the same few states again and again (every state of a game
# without chance keeps its seed's), so each is turned back into words once. An undo
# journal's states (shared by the copies of a state) are turned into bytes once, too.

#: id(words) -> (words, bytes) for kept states; bytes -> words. Bounded (oldest dropped).
_BY_ID: dict[int, tuple[tuple[int, ...], bytes]] = {}
_BY_BYTES: dict[bytes, tuple[int, ...]] = {}
#: The state read last, as (bytes, words): most states of a game without chance share it.
_LAST: dict[str, tuple[bytes, tuple[int, ...]]] = {}
#: How many generator states each table keeps.
STATES_KEPT = 32
#: The words of a Mersenne Twister state (624 and the position), packed in one call.
_WORD_COUNT = 625
_WORDS = struct.Struct(f"{_WORD_COUNT}I")


def pack_rng_state(state: RngState, keep: bool = False) -> tuple[int, bytes, float | None]:
    """``(version, words as bytes, gauss)`` of a generator state, for a pickle; ``keep``:
    the state is kept (a journal's), remember its bytes."""
    version, words, gauss = state
    found = _BY_ID.get(id(words))
    if found is not None and found[0] is words:
        return version, found[1], gauss
    blob = _WORDS.pack(*words) if len(words) == _WORD_COUNT else array.array("I", words).tobytes()
    if keep:
        # the table holds words, so its id stays its own
        keep_bounded(_BY_ID, id(words), (words, blob), STATES_KEPT)
    return version, blob, gauss


def unpack_rng_state(version: int, blob: bytes, gauss: float | None) -> RngState:
    """The generator state :func:`pack_rng_state` packed."""
    last = _LAST.get("read")
    if last is not None and last[0] == blob:  # (comparing bytes costs less than hashing them)
        return version, last[1], gauss
    words = _BY_BYTES.get(blob)
    if words is None:
        unpacked = array.array("I")
        unpacked.frombytes(blob)
        words = tuple(unpacked)
        keep_bounded(_BY_BYTES, blob, words, STATES_KEPT)
        keep_bounded(_BY_ID, id(words), (words, blob), STATES_KEPT)  # pickled again
    _LAST["read"] = (blob, words)
    return version, words, gauss


def rng_from_packed(version: int, blob: bytes, gauss: float | None) -> random.Random:
    """A generator in the state :func:`pack_rng_state` packed (not seeded from the
    operating system first)."""
    rng = KitRandom.__new__(KitRandom)
    rng.set_known_state(unpack_rng_state(version, blob, gauss))
    return rng


def keep_bounded(table: dict[Any, Any], key: Any, value: Any, limit: int) -> None:
    """``table[key] = value``, dropping the oldest entry of a table holding ``limit`` (each
    step is one dict operation: threads may race to drop the same entry, never corrupt the
    table)."""
    if key not in table and len(table) >= limit:
        table.pop(next(iter(table)), None)
    table[key] = value
