"""Pickling games and states at about the cost of :meth:`State.copy`.

A **game** pickles as its spec (pickled once per game object and kept as bytes) and the
options that differ from the defaults. Unpickling builds the game once per process: later
states of the same game, in that process, share it (building a game can cost milliseconds:
HexAround compiles its configuration).

A **state** pickles as its class, its game and one blob of its own attributes, the same
ones :meth:`State.copy` copies (:meth:`State.__getstate__`): moves are values, the random
generator is its 625 words in one bytes object (read back once per process), an attribute
that holds the very object the game holds under the same name (Focus's rule tables) is a
reference to the game's, and the objects of an engine pickle their own data (their
``__getstate__``/``__setstate__`` leave caches and compiled move generators behind).
Histories, the lists whose entries :meth:`State.copy` shares (the move stack, the undo
journal, a game's undo records), pickle as a :class:`History`: whole chunks written and
read once per process, so that pickling a state again, or a later state of the same game,
costs little more than its last few entries. The unpickled state can pop every move it
had.

A state whose class writes its position flat (``_kit_pack``/``_kit_unpack``: the built-in
games) pickles in a smaller, *compact* layout instead (:func:`reduce_compact`): that
position, its moves as action numbers and a header shared by every state of its game (its
class, its game and the position its moves start from, read once per process); the
unpickled state's earlier history is made by replaying the moves when first needed
(:func:`materialize`). A state that keeps all its undo data in the kit's journal (a
plugin's, by default) pickles the same way with no code of its own, in the *plain* layout
(:func:`reduce_plain`): its attributes as plain data, their names in the header.

A state that holds something pickle cannot write (a lambda, a generator, an open file)
falls back to its saved form (:meth:`State.to_dict`) before the moves on its stack, plus
those moves, replayed when it is unpickled; one without a saved form raises a one-line
TypeError naming the attribute.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import importlib
import io
import operator
import pickle
import random
import sys
import threading
from array import array
from collections.abc import Callable, Mapping
from itertools import chain
from typing import Any

from hexkit.kit.actions import ActionSpace, ActionSpaceError
from hexkit.kit.rng import KitRandom, pack_rng_state, rng_from_packed, unpack_rng_state
from hexkit.kit.rng import keep_bounded as _keep
from hexkit.kit.turns import TurnOrder, turn_fields, turn_order_of
from hexkit.kit.undo import Journal, pack_entry, unpack_entries, unpack_entry

#: Guards the tables of games and shared objects built by unpickling.
_LOCK = threading.Lock()

# -- the one function a pickle names ---------------------------------------------------
# Every function or class a pickle names costs about a microsecond to write and another to
# read (pickle imports its module to check it, then looks it up again when loading): more
# than the rest of a small state. So the kit's objects all unpickle through one function,
# :func:`kit`, with a small tag, and classes are named by strings resolved once per
# process (:func:`class_ref`, :func:`class_of`).

_RNG, _HISTORY, _MOVES_TAG, _SHARED, _LIST = range(5)


def kit(tag: int, *args: Any) -> Any:
    """Unpickle one of the kit's objects (``tag`` says which: a generator, a history, moves,
    a shared object, a list)."""
    return _MAKERS[tag](*args)


#: class -> (its name, its module); name -> (the module, the class): both checked against
#: ``sys.modules`` on every use (a module imported again makes new classes), as pickle
#: itself finds a class by name.
_CLASS_NAMES: dict[type, tuple[tuple[str, str] | None, Any]] = {}
_CLASSES: dict[tuple[str, str], tuple[Any, type]] = {}
#: How many classes each table keeps (state and move classes of the games in use).
CLASSES_KEPT = 256


def class_ref(cls: type) -> tuple[str, str] | None:
    """The class's module and qualified name, as a pickle of the kit holds a class; None
    for a class that cannot be found by its name (pickle then names it its own way, and
    says why it cannot)."""
    found = _CLASS_NAMES.get(cls)
    if found is not None and (found[0] is None or sys.modules.get(found[0][0]) is found[1]):
        return found[0]
    ref: tuple[str, str] | None = (cls.__module__, cls.__qualname__)
    module = sys.modules.get(cls.__module__)
    try:
        if _resolve(module, cls.__qualname__) is not cls:
            ref = None
    except AttributeError:
        ref = None
    with _LOCK:
        _keep(_CLASS_NAMES, cls, (ref, module), CLASSES_KEPT)
        if ref is not None:
            _keep(_CLASSES, ref, (module, cls), CLASSES_KEPT)
    return ref


def class_of(ref: tuple[str, str]) -> Any:
    """The class :func:`class_ref` named (its module imported if need be, as pickle
    would)."""
    found = _CLASSES.get(ref)
    module_name, qualname = ref
    if found is not None and sys.modules.get(module_name) is found[0]:
        return found[1]
    module = importlib.import_module(module_name)
    cls = _resolve(module, qualname)
    if not isinstance(cls, type):
        raise pickle.UnpicklingError(f"{module_name}.{qualname} is not a class")
    with _LOCK:
        _keep(_CLASSES, ref, (module, cls), CLASSES_KEPT)
    return cls


def _resolve(module: Any, qualname: str) -> Any:
    found = module
    for part in qualname.split("."):
        found = getattr(found, part)
    return found


# -- games -------------------------------------------------------------------------------

#: Games built by unpickling, by (spec bytes, options, shown values): a process builds each
#: game once, however many of its states it unpickles (a state unpickled and dropped at
#: once, as a worker does, must not drop its game with it).
_GAMES: dict[tuple[Any, ...], Any] = {}
#: How many games :data:`_GAMES` keeps.
GAMES_KEPT = 16


def reduce_game(game: Any) -> tuple[Any, ...]:
    """``Game.__reduce__``: the spec as bytes (pickled once per game), the options that
    differ from the defaults and how the game string shows private paths."""
    shown = getattr(game, "shown_values", {})
    found: tuple[Any, ...] | None = game.__dict__.get("_kit_reduce")
    if found is None or found[1][2] != shown:  # made once (shown is set once, if ever)
        spec_bytes = game.__dict__.get("_kit_spec_bytes")
        if spec_bytes is None:
            spec_bytes = game._kit_spec_bytes = pickle.dumps(game.spec,
                                                             pickle.HIGHEST_PROTOCOL)
        # The digest names the spec in the table of built games: hashing the spec's bytes
        # themselves, new in every pickle read, costs a microsecond per state.
        digest = _digest(spec_bytes)
        found = game._kit_reduce = (rebuild_game, (spec_bytes, game.non_default_options(),
                                                   dict(shown), digest))
    return found


def rebuild_game(spec_bytes: bytes, options: dict[str, Any], shown: dict[str, str],
                 digest: bytes | None = None) -> Any:
    """Unpickle a game: the one this process already built from the same spec (named by
    its ``digest``) and options, or a new one (what a game compiles or loads is never
    pickled)."""
    try:
        key: tuple[Any, ...] | None = (spec_bytes if digest is None else digest,
                                       tuple(options.items()), tuple(shown.items()))
        hash(key)
    except TypeError:  # an unhashable option value: build it every time
        key = None
    game = _GAMES.get(key) if key is not None else None
    if game is None:
        spec = pickle.loads(spec_bytes)
        game = spec.make_game(options)
        game.shown_values = dict(shown)
        game._kit_spec_bytes = spec_bytes
        if key is not None:
            with _LOCK:
                _keep(_GAMES, key, game, GAMES_KEPT)
    return game


# -- objects many states share -----------------------------------------------------------

class Shared:
    """A reference to an object many pickled objects share (an engine's template: its
    configuration and the tables derived from it). It pickles as the bytes of the object's
    own pickle, made once per object; unpickling makes the object once per process and per
    those bytes (and in the process that pickled it, it is the object itself)."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __reduce__(self) -> tuple[Any, ...]:
        return (kit, (_SHARED, *_shared_bytes(self.value)))


#: id(object) -> (object, its pickle, the pickle's digest), and digest -> object: both
#: kept, bounded. (The digest names the object when it is read: hashing the pickle itself,
#: new in every pickle read, would cost microseconds per state.)
_SHARED_BYTES: dict[int, tuple[Any, bytes, bytes]] = {}
_SHARED_VALUES: dict[bytes, Any] = {}
#: How many shared objects each table keeps (a few per game in use).
SHARED_KEPT = 64


def _shared_bytes(value: Any) -> tuple[bytes, bytes]:
    found = _SHARED_BYTES.get(id(value))
    if found is not None and found[0] is value:
        return found[1], found[2]
    blob = dumps(value)
    digest = _digest(blob)
    with _LOCK:
        _keep(_SHARED_BYTES, id(value), (value, blob, digest), SHARED_KEPT)
        _keep(_SHARED_VALUES, digest, value, SHARED_KEPT)
    return blob, digest


def shared_value(blob: bytes, digest: bytes | None = None) -> Any:
    """Unpickle a :class:`Shared` object: the one this process already has for ``blob``
    (named by its ``digest``)."""
    if digest is None:
        digest = _digest(blob)
    value = _SHARED_VALUES.get(digest)
    if value is None:
        value = pickle.loads(blob)
        with _LOCK:
            _keep(_SHARED_VALUES, digest, value, SHARED_KEPT)
            _keep(_SHARED_BYTES, id(value), (value, blob, digest), SHARED_KEPT)
    return value


def _digest(blob: bytes) -> bytes:
    return hashlib.blake2b(blob, digest_size=16).digest()


# -- random generators -------------------------------------------------------------------

def _reduce_rng(rng: random.Random) -> str | tuple[Any, ...]:
    """A generator as its state, the 625 words in one bytes object, converted once per
    process (:func:`hexkit.kit.rng.pack_rng_state`; pickling the tuple of 625 ints, and
    seeding a new generator from the OS before setting it, cost more than the rest of a
    state)."""
    if type(rng) is not random.Random and type(rng) is not KitRandom:
        return rng.__reduce_ex__(pickle.HIGHEST_PROTOCOL)  # a subclass pickles its own way
    return (kit, (_RNG, *pack_rng_state(rng.getstate(), keep=type(rng) is KitRandom)))


_DISPATCH: dict[type, Callable[[Any], Any]] = {**copyreg.dispatch_table,
                                               random.Random: _reduce_rng,
                                               KitRandom: _reduce_rng}


#: Per thread, a pickler and its buffer not in use (making them costs more than pickling
#: a small state's data; a dumps inside a dumps makes its own).
_FREE = threading.local()
#: A buffer that grew past this is dropped rather than kept for the next state.
_BUFFER_KEPT = 1 << 20


def dumps(value: Any, plain: bool = False) -> bytes:
    """``pickle.dumps`` with the state kit's reductions (random generators); ``plain``:
    of plain data only (:class:`NotPlainError` for anything but None, bools, ints, floats,
    strs, bytes and lists, tuples, sets, frozensets and dicts of them)."""
    slot = _FREE.__dict__
    key = "plain" if plain else "pair"
    pair = slot.pop(key, None)
    if pair is None:
        buffer = io.BytesIO()
        pickler = (_PlainPickler if plain else pickle.Pickler)(buffer, pickle.HIGHEST_PROTOCOL)
        pickler.dispatch_table = _DISPATCH
    else:
        buffer, pickler = pair
    pickler.dump(value)  # (after a failure, both are dropped)
    blob = buffer.getvalue()
    pickler.clear_memo()
    if len(blob) <= _BUFFER_KEPT:
        buffer.seek(0)
        buffer.truncate()
        slot[key] = (buffer, pickler)
    return blob


class NotPlainError(pickle.PicklingError):
    """A value :func:`dumps` was to write as plain data holds something else."""


class _PlainPickler(pickle.Pickler):
    """A pickler of plain data: pickle calls :meth:`reducer_override` for every object but
    None, bools and exact ints, floats, strs, bytes, lists, tuples, sets, frozensets and
    dicts, so this checks a value's every element at C speed while writing it."""

    def reducer_override(self, obj: Any) -> Any:
        raise NotPlainError(f"{type(obj).__name__} is not plain data")


# -- moves -------------------------------------------------------------------------------

class MoveList:
    """Moves in a pickle (a move stack past its whole chunks): each move as its class and
    values (its own ``__reduce_ex__``), unpickled through a table of the moves this process
    already made (a move is an immutable value, and making one, a dataclass's ``__init__``,
    costs more than finding it)."""

    __slots__ = ("moves",)

    def __init__(self, moves: list[Any]) -> None:
        self.moves = moves

    def __reduce__(self) -> tuple[Any, ...]:
        classes: dict[type, int] = {}
        values = []
        for move in self.moves:
            found = _reduced(move)
            if found is None:
                return (kit, (_LIST, self.moves))  # a move pickled some other way
            cls = found[1]
            index = classes.get(cls)
            if index is None:
                index = classes[cls] = len(classes)
            values.append((index, found[2]))
        refs = tuple(class_ref(c) for c in classes)
        if None in refs:  # a class pickle finds its own way (or says why it cannot)
            return (kit, (_LIST, self.moves))
        return (kit, (_MOVES_TAG, refs, values))


#: id(move) -> (move, class, values) of the moves pickled; bounded (cleared when full).
_REDUCED: dict[int, tuple[Any, type, Any]] = {}
#: The names of some move classes, as a pickle lists them -> (their modules, the moves this
#: process made of them by (class index, values)); bounded. A move is an immutable value,
#: and making one (a dataclass's ``__init__``) costs more than finding it: the moves a
#: pickle names are found at C speed, one dict lookup each, and only the new ones made.
_MOVES: dict[Any, tuple[tuple[Any, ...], _MadeMoves]] = {}
#: How many moves :data:`_MOVES` holds (all tables) before it starts again.
MOVES_KEPT = 100_000


class _MadeMoves(dict[Any, Any]):
    """(class index, values) -> the move made of them, for one list of classes; a move not
    made yet is made on lookup."""

    def __init__(self, classes: list[type]) -> None:
        super().__init__()
        self.classes = classes
        #: The moves by their bytes in a pickle (:func:`_move_values`): the class index
        #: byte and the values' pickle -> the move.
        self.by_piece = _MadeByPiece(classes)

    def __missing__(self, key: tuple[int, tuple[Any, ...]]) -> Any:
        index, args = key
        return _remember(self, key, self.classes[index](*args), MOVES_KEPT)


class _MadeByPiece(dict[bytes, Any]):
    """A move's bytes in a pickle (its class index, one byte, and its values' pickle) ->
    the move made of them, for one list of classes; a move not made yet is made on
    lookup."""

    def __init__(self, classes: list[type]) -> None:
        super().__init__()
        self.classes = classes

    def __missing__(self, key: bytes) -> Any:
        return _remember(self, key, self.classes[key[0]](*pickle.loads(key[1:])), MOVES_KEPT)


def _remember(table: dict[Any, Any], key: Any, value: Any, limit: int) -> Any:
    """``table[key] = value``, the table emptied first when it holds ``limit`` entries (a
    cache of values made once per process, bounded); gives ``value``."""
    if len(table) >= limit:
        table.clear()
    table[key] = value
    return value


def _made_moves(refs: Any) -> _MadeMoves:
    """The table of the moves this process made of the classes ``refs`` names."""
    try:
        found = _MOVES.get(refs)
    except TypeError:  # (names in a list: a pickle of another writer)
        refs = tuple(refs)
        found = _MOVES.get(refs)
    # (A module imported again makes new classes.)
    if found is not None and all(map(operator.is_, map(sys.modules.get, map(_FIRST, refs)),
                                     found[0])):
        return found[1]
    made = _MadeMoves([class_of(ref) for ref in refs])
    with _LOCK:
        if len(_MOVES) >= CLASSES_KEPT or sum(map(len, map(_SECOND, _MOVES.values()))) \
                >= MOVES_KEPT:
            _MOVES.clear()
        _MOVES[refs] = (tuple(sys.modules.get(ref[0]) for ref in refs), made)
    return made


def moves_of_pieces(refs: Any, blob: bytes, start: int = 0) -> list[Any]:
    """The moves :func:`_move_values` wrote as bytes (from byte ``start``, a move's first),
    their classes named by ``refs``, each move made once per process."""
    made = _made_moves(refs).by_piece
    out = []
    at, end = start, len(blob)
    try:
        while at < end:
            after = at + 1 + blob[at]
            out.append(made[blob[at + 1:after]])
            at = after
    except Exception as exc:  # (damaged bytes: a wrong index, a cut pickle)
        raise pickle.UnpicklingError(f"the moves in this pickle are damaged ({exc})") from None
    if at != end:
        raise pickle.UnpicklingError("the moves in this pickle are damaged (cut short)")
    return out


def moves_named(refs: Any, values: Any) -> list[Any]:
    """The moves of ``(class index, values)`` pairs, their classes named by ``refs``
    (module, qualified name), each move made once per process."""
    made = _made_moves(refs)
    try:
        return list(map(made.__getitem__, values))
    except TypeError:  # values that are not hashable: those moves made every time
        classes = made.classes
        return [classes[index](*args) for index, args in values]


_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)


# -- histories -----------------------------------------------------------------------------

#: Entries per chunk of a history.
CHUNK = 8
#: id(last entry of a chunk) -> (the chunk's entries, its pickle, the decoder it was written
#: for); bounded.
_CHUNK_BYTES: dict[int, tuple[tuple[Any, ...], tuple[bytes, bytes], Any]] = {}
#: A chunk's pickle -> its entries; bounded.
_CHUNK_ENTRIES: dict[bytes, tuple[Any, ...]] = {}  # by the pickle's digest
#: How many chunks each table keeps.
CHUNKS_KEPT = 1024
#: id(last entry of a history's whole chunks) -> (their number, the decoder, their entries,
#: the pickles of their blocks); bounded.
_PREFIXES: dict[int, tuple[int, Any, tuple[Any, ...], tuple[tuple[bytes, bytes], ...]]] = {}
#: How many prefixes :data:`_PREFIXES` keeps.
PREFIXES_KEPT = 256


class History:
    """A list whose entries are never changed in place (an undo history or a move stack:
    the copies of a state share its entries), as a pickle holds it.

    Its entries are cut in blocks of :data:`CHUNK` times a power of two, largest first (41
    entries: 32, 8 and 1 left over), so that a longer history keeps the blocks of a
    shorter one, a few blocks at most. Each block is pickled once per process and kept by
    its entries (found again by identity: the block of the very same entry objects); a
    block read back is made once per process and its entries shared by the states
    unpickled from it, as :meth:`State.copy` shares them. So a state pickled again, or a
    later state of the same game, writes and reads mostly its newest entries: most of a
    long game's pickle is its history. ``encode``/``decode`` (module-level functions)
    change each entry on the way (a random generator's state into bytes, say); ``tail``
    wraps the entries past the last chunk (:class:`MoveList` for moves)."""

    __slots__ = ("entries", "encode", "decode", "tail")

    def __init__(self, entries: list[Any], encode: Callable[[Any], Any] | None = None,
                 decode: Callable[[Any], Any] | None = None,
                 tail: Callable[[list[Any]], Any] = list) -> None:
        self.entries = entries
        self.encode = encode
        self.decode = decode
        self.tail = tail

    def __reduce__(self) -> tuple[Any, ...]:
        entries, encode = self.entries, self.encode
        if not entries:
            return (list, ())
        units = len(entries) // CHUNK
        start = units * CHUNK
        # The blocks of the whole prefix, found at once when it is the very same entries (a
        # later state of the game, or the same state again, has them all).
        found = _PREFIXES.get(id(entries[start - 1])) if start else None
        if (found is not None and found[0] == start and found[1] is self.decode
                and all(map(operator.is_, found[2], entries))):
            blobs: Any = found[3]
        else:
            chunks, blobs = self._blocks(entries, units)
            blobs = tuple(blobs)
            if start:  # (the prefix's own entries, kept with it: their ids stay their own)
                with _LOCK:
                    _keep(_PREFIXES, id(entries[start - 1]),
                          (start, self.decode, tuple(chain.from_iterable(chunks)), blobs),
                          PREFIXES_KEPT)
        rest = entries[start:]
        if encode is not None:
            rest = [encode(e) for e in rest]
        decode = self.decode
        return (kit, (_HISTORY, blobs, self.tail(rest) if rest else [],
                      _DECODERS.get(decode, decode) if decode is not None else None))

    def _blocks(self, entries: list[Any], units: int
                ) -> tuple[list[tuple[Any, ...]], list[tuple[bytes, bytes]]]:
        """The entries and the (digest, pickle) of each block of the first ``units``
        chunks."""
        encode, decode = self.encode, self.decode
        chunks: list[tuple[Any, ...]] = []
        blobs = []
        start = 0
        bit = 1 << units.bit_length() >> 1
        while bit:  # blocks of CHUNK * 2**k, largest first: a block's end gives its size
            if not units & bit:
                bit >>= 1
                continue
            end = start + bit * CHUNK
            bit >>= 1
            chunk = tuple(entries[start:end])
            start = end
            found = _CHUNK_BYTES.get(id(chunk[-1]))
            if found is not None and len(found[0]) == len(chunk) and found[2] is decode and all(
                    map(operator.is_, found[0], chunk)):
                chunks.append(found[0])
                blobs.append(found[1])
                continue
            blob = pickle.dumps(chunk if encode is None else tuple(map(encode, chunk)),
                                pickle.HIGHEST_PROTOCOL)
            pair = (_digest(blob), blob)  # the digest names it when read (see Shared)
            with _LOCK:  # the entries are kept with it: their ids stay their own
                _keep(_CHUNK_BYTES, id(chunk[-1]), (chunk, pair, decode), CHUNKS_KEPT)
            chunks.append(chunk)
            blobs.append(pair)
        return chunks, blobs


def history_from(blobs: list[tuple[bytes, bytes]], rest: list[Any],
                 decode: Callable[[Any], Any] | int | None) -> list[Any]:
    """Unpickle a :class:`History`: its chunks (each made once per process), then the
    rest."""
    decoder = _DECODER_LIST[decode] if isinstance(decode, int) else decode
    out: list[Any] = []
    for pair in blobs:
        digest, blob = pair
        chunk = _CHUNK_ENTRIES.get(digest)
        if chunk is None:
            chunk = pickle.loads(blob)
            if decoder is not None:
                chunk = tuple(map(decoder, chunk))
            with _LOCK:  # pickling the unpickled state finds the chunk again
                _keep(_CHUNK_ENTRIES, digest, chunk, CHUNKS_KEPT)
                _keep(_CHUNK_BYTES, id(chunk[-1]), (chunk, pair, decoder), CHUNKS_KEPT)
        out.extend(chunk)
    out.extend(rest if decoder is None else map(decoder, rest))
    return out


def history(entries: list[Any]) -> History | list[Any]:
    """``entries`` (a list never changed in place) as a pickle best holds them: a
    :class:`History`, or the list itself while it is shorter than a chunk."""
    return entries if len(entries) < CHUNK else History(entries)


def journal_entries(journal: Journal) -> History | list[Any]:
    """An undo journal's entries as a pickle holds them (a generator's state as bytes)."""
    entries = journal.entries
    return History(entries, pack_entry, unpack_entry) if entries else []


#: Decoders a pickle names by number (the kit's own; any other is named as a function).
_DECODER_LIST: tuple[Callable[[Any], Any], ...] = (unpack_entry,)
_DECODERS: dict[Any, int] = {f: i for i, f in enumerate(_DECODER_LIST)}


# -- states ------------------------------------------------------------------------------

#: The key of :func:`state_data` naming the attributes that are the game's own objects.
_FROM_GAME_KEY = "_kit_from_game"

#: Values that hold nothing shared: never replaced by a reference to the game's.
_PLAIN = frozenset({int, float, str, bool, bytes, type(None)})

#: Ids of the states being pickled on this thread (a state that holds itself, other than
#: through its journal, is written by its saved form instead).
_ACTIVE = threading.local()


def state_data(state: Any) -> dict[str, Any]:
    """``State.__getstate__``: the state's attributes, minus its game (pickled once, beside
    them); its own journal as its entries; the game's shared objects as references."""
    if LAZY in state.__dict__:
        materialize(state)
    data = dict(state.__dict__)
    game = data.pop("game", None)
    journal = data.get("journal")
    if type(journal) is Journal and journal.owner is state:
        data["journal"] = journal_entries(journal)  # rebound to the unpickled state
    if "_kit_emitted" in data:
        data["_kit_emitted"] = None
    events = data.get("_kit_events")
    if type(events) is list and len(events) >= CHUNK and any(events):
        data["_kit_events"] = History(events)  # per move, tuples of events (Hex Baron's)
    stack = data.get("move_stack")
    if type(stack) is list and stack:
        data["move_stack"] = History(stack, tail=MoveList) if len(stack) >= CHUNK \
            else MoveList(stack)
    shared = getattr(game, "__dict__", None)
    if shared:
        names = [name for name in shared.keys() & data.keys()
                 if type(data[name]) not in _PLAIN and shared[name] is data[name]]
        if names:  # named once in the data (not one marker object, reduced, per name)
            for name in names:
                del data[name]
            data[_FROM_GAME_KEY] = tuple(names)
    return data


def restore_state(state: Any, data: Mapping[str, Any]) -> None:
    """``State.__setstate__``: the attributes back (``state.game`` is already set)."""
    attributes = state.__dict__
    attributes.update(data)
    names = attributes.pop(_FROM_GAME_KEY, None)
    if names is not None:
        game = state.game
        for name in names:
            attributes[name] = getattr(game, name)
    journal = attributes.get("journal")
    if type(journal) is list:
        state.journal = Journal(state, unpack_entries(journal))


def reduce_state(state: Any) -> tuple[Any, ...]:
    """``State.__reduce__``: the class, the game and the blob of :func:`state_data` (or, for
    a state holding something pickle cannot write, the saved form and the moves)."""
    names = compact_names(type(state))
    if names is not None or plain_class(type(state)):
        found = reduce_compact(state, names) if names is not None else reduce_plain(state)
        if found is not None:
            return found
        if LAZY in state.__dict__:
            materialize(state)
    active = _ACTIVE.__dict__.setdefault("ids", set())
    if id(state) in active:
        raise TypeError(f"a {type(state).__name__} holds itself")
    active.add(id(state))
    try:
        blob = dumps(state.__getstate__())
    except Exception as exc:  # anything pickle refuses: the saved form still works
        return _reduce_by_replay(state, exc)
    finally:
        active.discard(id(state))
    game = state.game
    ref = class_ref(type(state))
    if ref is None or not _core_reduce(type(game)):  # named, or pickling, pickle's own way
        return (rebuild_state, (type(state), game, blob))
    # The class by name and the game's arguments inline: one function named, not three.
    return (rebuild_state, (ref, reduce_game(game)[1], blob))


#: Game class -> whether it pickles by the core's Game.__reduce__ (:func:`reduce_game`).
_CORE_REDUCE: dict[type, bool] = {}


def _core_reduce(cls: type) -> bool:
    found = _CORE_REDUCE.get(cls)
    if found is None:
        method = cls.__reduce__
        found = (getattr(method, "__module__", None) == "hexkit.game"
                 and method.__qualname__ == "Game.__reduce__")
        _keep(_CORE_REDUCE, cls, found, CLASSES_KEPT)
    return found


def rebuild_state(cls: type | tuple[str, str], game: Any, blob: bytes) -> Any:
    """Unpickle a state pickled by its attributes."""
    if type(cls) is tuple:
        cls = class_of(cls)
    if type(game) is tuple:
        game = rebuild_game(*game)
    state: Any = object.__new__(cls)  # type: ignore[arg-type]
    state.game = game
    state.__setstate__(pickle.loads(blob))
    return state


def _reduce_by_replay(state: Any, cause: Exception) -> tuple[Any, ...]:
    """The state's saved form before the moves on its stack, and those moves."""
    moves = [str(m) for m in state.move_stack]
    root = state
    if moves:
        root = state.copy()
        while root.move_stack:
            root.pop()
    try:
        data = root.to_dict()
    except NotImplementedError:
        raise TypeError(f"cannot pickle {type(state).__name__}: {_unpicklable(state, cause)}, "
                        "and it has no saved form (to_dict)") from None
    return (rebuild_by_replay, (state.game, data, moves))


def _unpicklable(state: Any, cause: Exception) -> str:
    """Which attribute pickle refused, in words."""
    try:
        items = list(state.__getstate__().items())
    except Exception:
        items = []
    for name, value in items:
        try:
            dumps(value)
        except Exception as exc:
            return f"its attribute {name!r} cannot be pickled ({_one_line(exc)})"
    return f"it cannot be pickled ({_one_line(cause)})"


def _one_line(exc: Exception) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


def rebuild_by_replay(game: Any, data: dict[str, Any], moves: list[str]) -> Any:
    """Unpickle a state pickled by its saved form: the position, then the moves."""
    state = game.state_from_dict(data)
    for text in moves:
        state.push(text)
    return state


def _as_is(value: Any) -> Any:
    return value


_MAKERS: tuple[Callable[..., Any], ...] = (
    rng_from_packed, history_from, moves_named, shared_value, _as_is)


# -- the compact layout: a position and the actions that led to it -------------------------
# A state whose class can write its position flat (``_kit_pack``/``_kit_unpack``: Focus)
# pickles as that position, the numbers of its moves in the game's action space (two bytes
# a move) and a header: its class, its game and the position its move stack starts from
# (the *root*), one pickle shared by every state of the lineage, named by a digest and read
# once per process (:func:`_header`, :func:`_read_header`). The unpickled state is exact at
# its position at once, with its moves; the entries of its other histories (undo journal
# and records, events, an engine's) from before it was pickled are made on first need by
# replaying the moves from the root, which gives exactly the undo records the original had
# (:func:`materialize`, called by ``State.pop``, ``copy``, ``events``, ``need_history``).

#: The kit's history attributes every state has (made again by replaying the moves).
_KIT_HISTORIES = ("move_stack", "journal", "_kit_marks", "_kit_events")
#: The kit's attributes a compact pickle writes or makes itself.
_KIT_NAMES = frozenset({"game", "rng", "_kit_origin", "_kit_emitted", *_KIT_HISTORIES})
#: The attribute of an unpickled state whose histories are not made yet: (the root and its
#: generator words, the actions, how many moves, the pack, the header).
LAZY = "_kit_lazy"

#: id(first undo record of a lineage) -> (that record, the root's (digest, pickle), the
#: root's generator words); bounded. Every copy of a state, and every later state of its
#: game, shares its first record, so the root is worked out once per game.
_ROOTS: dict[int, tuple[Any, tuple[bytes, bytes], Any]] = {}
#: The pickle of a position with no moves to pop (a new or loaded state: it is its own
#: root) -> (its generator's words and gauss value, the root's (digest, pickle)); bounded.
#: Such a state has no undo record to find it by, and pickling it again, or a copy of it,
#: writes the same root and header.
_START_ROOTS: dict[bytes, tuple[Any, Any, tuple[bytes, bytes]]] = {}
#: The root's digest -> (its packed position, its generator state); bounded.
_ROOT_VALUES: dict[bytes, tuple[Any, tuple[Any, ...]]] = {}
#: How many roots each table keeps.
ROOTS_KEPT = 256
#: id(action space) -> (the space, id(move) -> action) for spaces listed in full.
_ACTION_IDS: dict[int, tuple[Any, dict[int, int] | None, str, bool]] = {}


#: Not worked out yet (a class attribute the kit sets once).
_UNKNOWN: Any = object()


def compact_names(cls: type) -> frozenset[str] | None:
    """The attributes a compact pickle of ``cls`` covers, or None when the class does not
    write its position flat."""
    found = cls.__dict__.get("_kit_compact_names", _UNKNOWN)
    if found is not _UNKNOWN:
        return found  # type: ignore[no-any-return]
    packed = getattr(cls, "_kit_packed_names", None)
    if packed is None or getattr(cls, "_kit_pack", None) is None:
        setattr(cls, "_kit_compact_names", None)  # noqa: B010  (a class attribute, once)
        return None
    names = frozenset({*_KIT_NAMES, *packed, *getattr(cls, "_kit_histories", ()),
                       *getattr(cls, "_kit_transient", ())})
    setattr(cls, "_kit_compact_names", names)  # noqa: B010  (a class attribute, once)
    return names


#: id(undo record) -> (the record, the action bytes of the moves up to its own); bounded.
#: A later state along a game adds one move to the bytes of the one before.
_ENCODED: dict[int, tuple[Any, Any]] = {}
#: How many encoded move stacks :data:`_ENCODED` keeps.
ENCODED_KEPT = 1024


def _encoded(game: Any, moves: list[Any], last: Any, previous: Any,
             encode: Callable[..., Any] | None = None) -> Any:
    """:func:`_actions` of ``moves`` (or ``encode``'s, called alike), found again by
    ``last`` (an object the last move made, shared by the copies of a state: its undo
    record, or the first journal entry it wrote; None for none) when it was worked out for
    this state, or by ``previous`` (the same of the move before) for the one a move before
    it."""
    if encode is None:
        encode = _actions
    if last is None or not moves:
        return encode(game, moves)
    found = _ENCODED.get(id(last))
    if found is not None and found[0] is last:
        return found[1]
    before = _ENCODED.get(id(previous)) if previous is not None else None
    blob = None
    if before is not None and before[0] is previous:
        blob = encode(game, moves[-1:], before[1])
    if blob is None:
        blob = encode(game, moves)
    if blob is not None:
        with _LOCK:  # (the record is kept with it: its id stays its own)
            _keep(_ENCODED, id(last), (last, blob), ENCODED_KEPT)
    return blob


def _actions(game: Any, moves: list[Any], before: Any = b"") -> Any:
    """The moves (after those ``before`` encodes) as the bytes of their action numbers, or
    where the game's action space numbers moves by position (or has no number for one) as
    their classes and values (:func:`_move_values`); None for moves that are neither."""
    if type(before) is not bytes:
        return _move_values(moves, before)
    if not moves:
        return before
    try:
        space = game.action_space()
    except Exception:  # a game without a space: the moves' values
        return _move_values(moves, None) if not before else None
    found = _ACTION_IDS.get(id(space))
    if found is None or found[0] is not space:
        found = _space_numbers(space)
    _space, ids, code, by_value = found
    if ids is None and len(moves) > FEW_MOVES:
        ids = _space_ids(found)
    if ids:
        try:
            return before + array(code, map(ids.__getitem__, map(id, moves))).tobytes()
        except KeyError:  # moves that are not the table's own objects: numbered one by one
            pass
    if by_value:
        try:
            return before + array(code, map(space.action_of, moves)).tobytes()
        except ActionSpaceError:
            pass
    return _move_values(moves, None) if not before else None


#: How many moves :func:`_actions` numbers one by one rather than by a table of the ids of
#: every move of the space (made once per space: 100 us for Focus's 1,356).
FEW_MOVES = 64


def _space_numbers(space: Any) -> tuple[Any, dict[int, int] | None, str, bool]:
    """How :func:`_actions` numbers the moves of ``space``: (the space, its table of move
    ids if made yet (empty: none to make), the array code of its numbers, whether a
    move's number is found by its value whatever the position), kept once per space."""
    table = table_of(space)
    listed = type(table) is tuple
    ids: dict[int, int] | None = None if listed else {}
    found = (space, ids, _number_code(space.num_actions),
             listed and type(space).action_in is ActionSpace.action_in)
    with _LOCK:
        _keep(_ACTION_IDS, id(space), found, GAMES_KEPT)
    return found


def _number_code(count: int) -> str:
    """The array code of move numbers below ``count`` (two bytes a move for most games)."""
    return "H" if count <= 1 << 16 else "I"


def _space_ids(found: tuple[Any, Any, str, bool]) -> dict[int, int]:
    """The table of move ids of a space listed in full, made once (for many moves)."""
    space, _ids, code, by_value = found
    table = table_of(space)
    ids = {id(m): i for i, m in enumerate(table)} if type(table) is tuple else {}
    with _LOCK:
        _keep(_ACTION_IDS, id(space), (space, ids, code, by_value), GAMES_KEPT)
    return ids


def table_of(space: Any) -> Any:
    """The tuple of every move of an action space listed in full (its ``moves``: action
    ``i`` is ``moves[i]`` whatever the position), else None."""
    table = getattr(space, "moves", None)
    return table if type(table) is tuple and len(table) == space.num_actions else None


def _numbers_table(game: Any) -> tuple[tuple[Any, ...], str]:
    """The game's table of actions and the array code of their numbers in a pickle."""
    space = game.action_space()
    table = getattr(space, "moves", None)
    if type(table) is not tuple:
        raise pickle.UnpicklingError(f"{game} has no table of actions to read moves from")
    return table, _number_code(space.num_actions)


def _decode_moves(game: Any, actions: Any, decoder: list[Any]) -> list[Any]:
    """The moves :func:`_actions` encoded (``decoder``: a header's slots for the game's table
    of actions, made once per process, and the numbers read last with their moves: a later
    state of the same game, or the same state again, reads only the numbers past them)."""
    if type(actions) is not bytes:
        refs, blob = actions
        if type(blob) is not bytes:  # (moves as values in tuples: an older writer's)
            return moves_named(refs, blob)
        last = decoder[2]
        if last is not None and last[0] == refs and blob.startswith(last[1]):
            known = len(last[1])  # (a whole number of moves: each names its length)
            if known == len(blob):
                return list(last[2])
            moves = [*last[2], *moves_of_pieces(refs, blob, known)]
        else:
            moves = moves_of_pieces(refs, blob)
        decoder[2] = (refs, blob, tuple(moves))
        return moves
    if decoder[0] is None:  # action numbers, read through the game's table
        decoder[0] = _numbers_table(game)
    table, code = decoder[0]
    last = decoder[1]
    if last is not None and actions.startswith(last[0]):  # (whole numbers: both are)
        known = len(last[0])
        if known == len(actions):
            return list(last[1])
        moves = [*last[1], *_numbered(table, code, actions[known:])]
    else:
        moves = _numbered(table, code, actions)
    decoder[1] = (actions, tuple(moves))
    return moves


def _numbered(table: tuple[Any, ...], code: str, actions: bytes) -> list[Any]:
    numbers = array(code)
    numbers.frombytes(actions)
    return list(map(table.__getitem__, numbers))


def _move_values(moves: list[Any], before: tuple[tuple[Any, ...], Any] | None
                 ) -> tuple[tuple[Any, ...], Any] | None:
    """The moves (after ``before``'s) as (the names of their classes, their bytes: per
    move, its length, its class index and the pickle of its values), each move reduced
    and its values pickled once per process; or, for a move whose bytes do not fit, (the
    names, (class index, values) per move). None: a move pickle writes its own way, or
    ``before`` is bytes the moves do not fit after."""
    if before is not None and type(before[1]) is not bytes:
        return _move_tuples(moves, before)
    refs = list(before[0]) if before else []
    parts = [before[1]] if before else []
    pieces = _PIECES
    for move in moves:
        found = pieces.get(id(move))
        if found is None or found[0] is not move:
            reduced = _reduced(move)
            if reduced is None:
                return None
            values = pickle.dumps(reduced[2], pickle.HIGHEST_PROTOCOL)
            if values[2:3] == _FRAME:  # (one frame: the opcode and its length left out)
                values = values[:2] + values[11:]
            # (The move is kept with it: its id stays its own.)
            found = _remember(pieces, id(move), (move, class_ref(reduced[1]), values),
                              MOVES_KEPT)
        ref = found[1]
        if ref is None:
            return None
        index = _class_index(refs, ref)
        values = found[2]
        if index > 255 or len(values) > 254:  # (a length and an index in one byte each)
            return None if before else _move_tuples(moves, None)
        parts.append(bytes((len(values) + 1, index)))
        parts.append(values)
    return tuple(refs), b"".join(parts)


_FRAME = pickle.FRAME
#: id(move) -> (move, its class's name, the pickle of its values) for the bytes of
#: :func:`_move_values`; bounded (cleared when full).
_PIECES: dict[int, tuple[Any, Any, bytes]] = {}


def _reduced(move: Any) -> tuple[Any, type, Any] | None:
    """(move, class, values) of a move that reduces to its class and values, found once
    per process (None: a move pickle writes its own way)."""
    known = _REDUCED
    found = known.get(id(move))
    if found is None or found[0] is not move:
        reduced = move.__reduce_ex__(pickle.HIGHEST_PROTOCOL)
        if len(reduced) != 2 or type(reduced[0]) is not type:
            return None
        # (The move is kept with it: its id stays its own.)
        found = _remember(known, id(move), (move, reduced[0], reduced[1]), MOVES_KEPT)
    return found


def _move_tuples(moves: list[Any], before: tuple[tuple[Any, ...], tuple[Any, ...]] | None
                 ) -> tuple[tuple[Any, ...], tuple[Any, ...]] | None:
    """The moves (after ``before``'s) as (the names of their classes, (class index, values)
    per move), each move reduced once per process (None: a move pickle writes its own
    way)."""
    refs = list(before[0]) if before else []
    values = list(before[1]) if before else []
    for move in moves:
        found = _reduced(move)
        if found is None:
            return None
        ref = class_ref(found[1])
        if ref is None:
            return None
        values.append((_class_index(refs, ref), found[2]))
    return tuple(refs), tuple(values)


def _class_index(refs: list[Any], ref: Any) -> int:
    """The index of a class's name in ``refs``, added at the end if it is not there."""
    try:
        return refs.index(ref)
    except ValueError:
        refs.append(ref)
        return len(refs) - 1


def _root(state: Any, first: Any, pack: Callable[[Any], Any], journal_only: bool = False,
          packed: Any = None) -> tuple[tuple[bytes, bytes], Any] | None:
    """The (digest, pickle) of the position ``state``'s move stack starts from (packed by
    ``pack``), and its generator's words; worked out once per lineage (``first``: its
    first undo record) and, for a state with no moves (its own root), once per position
    and generator state (``packed``: the state's pack, when the caller made it). None when
    the position cannot be packed. ``journal_only``: every change of the state is in its
    journal (the plain layout), rolled back at once rather than move by move."""
    found = _ROOTS.get(id(first)) if first is not None else None
    if found is not None and found[0] is first:
        return found[1], found[2]
    if not state.move_stack:
        return _start_root(state, pack, packed)
    root = state.copy()
    if journal_only:
        root.journal.rollback(0)
        root.move_stack.clear()
        root._kit_marks.clear()
        root._kit_events.clear()
    while root.move_stack:
        root.pop()
    packed = pack(root)
    if packed is None:
        return None
    rng_state = root.rng.getstate()
    blob = dumps((packed, pack_rng_state(rng_state)))
    pair = (_digest(blob), blob)
    if first is not None:
        with _LOCK:  # (the record is kept with it: its id stays its own)
            _keep(_ROOTS, id(first), (first, pair, rng_state[1]), ROOTS_KEPT)
    return pair, rng_state[1]


def _start_root(state: Any, pack: Callable[[Any], Any], packed: Any
                ) -> tuple[tuple[bytes, bytes], Any] | None:
    """:func:`_root` of a state with no moves: its own position. Found again by the
    position's pickle (equal bytes: the same values, of the same types) and the very words
    of its generator (a copy's, or an unpickled state's, are the same words)."""
    if packed is None:
        packed = pack(state)
        if packed is None:
            return None
    rng_state = state.rng.getstate()
    words = rng_state[1]
    position = dumps(packed)
    found = _START_ROOTS.get(position)
    if found is not None and found[0] is words and found[1] == rng_state[2]:
        return found[2], words
    blob = dumps((packed, pack_rng_state(rng_state)))
    pair = (_digest(blob), blob)
    with _LOCK:  # (the words are kept with it: their id stays their own)
        _keep(_START_ROOTS, position, (words, rng_state[2], pair), ROOTS_KEPT)
    return pair, words


def _writable(state: Any) -> tuple[Any, Any, tuple[str, str]] | None:
    """The state's game, generator and class name, or None when the kit's layouts cannot
    write them (a class or game pickle finds its own way, a generator of another kind)."""
    game = state.game
    rng = state.__dict__["rng"]
    ref = class_ref(type(state))
    if ref is None or not _core_reduce(type(game)) or (
            type(rng) is not KitRandom and type(rng) is not random.Random):
        return None
    return game, rng, ref


def _as_unpickled(lazy: tuple[Any, ...]) -> tuple[Any, Any, Any, Any]:
    """The root's pair and words, the actions and the header a state was unpickled with
    (no move pushed since: pickled again as they were)."""
    (pair, words), actions, header = lazy[0], lazy[1], lazy[4]
    if type(actions) is list:  # (many moves by their values, as they were read)
        actions = History(actions, tail=MoveList)
    return pair, words, actions, header


def _rng_past(rng: random.Random, words: Any) -> tuple[Any, ...] | None:
    """The generator's packed state, or None while it is the root's (the root's words are
    not written again; a gauss value pending is, to be exact)."""
    rng_state = rng.getstate()
    if (rng_state[1] is words or rng_state[1] == words) and rng_state[2] is None:
        return None
    return pack_rng_state(rng_state, keep=True)


def reduce_compact(state: Any, names: frozenset[str]) -> tuple[Any, ...] | None:
    """``State.__reduce__`` in the compact layout, or None when the state does not fit it
    (an attribute the layout does not know, a move outside the action space, a generator
    of another kind, a class or game pickle finds its own way)."""
    data = state.__dict__
    lazy = data.get(LAZY)
    if not data.keys() <= names and (lazy is None or not data.keys() - {LAZY} <= names):
        return None
    found = _writable(state)
    if found is None:
        return None
    game, rng, ref = found
    packed = None
    if lazy is not None and len(data["move_stack"]) != lazy[2]:
        materialize(state)  # moves pushed since it was unpickled: encoded again
        lazy = None
    header = None
    if lazy is not None:  # unpickled, no move pushed since: the same root and actions
        pair, words, actions, header = _as_unpickled(lazy)
    else:
        stack = data["move_stack"]
        records = state._kit_records()
        if records is not None and len(records) != len(stack):
            records = None
        actions = _encoded(game, stack, records[-1] if records else None,
                           records[-2] if records and len(records) > 1 else None)
        if actions is None:
            return None
        if type(actions) is not bytes and len(stack) >= VALUE_BLOCKS:
            # Many moves by their values: as a history of them, whose whole blocks are
            # written and read once per process (a later state adds its last moves).
            actions = History(stack, tail=MoveList)
        first = None
        if actions:
            if records:
                first = records[0]
            elif state.journal.entries:
                first = state.journal.entries[0]
            else:
                return None
        packed = None if stack else state._kit_pack()  # (no moves: its own root)
        root = _root(state, first, type(state)._kit_pack, packed=packed)
        if root is None:
            return None
        pair, words = root
    packed_rng = _rng_past(rng, words)
    if packed is None:
        packed = state._kit_pack()
        if packed is None:
            return None
    kept = type(state)._kit_last_kept
    lasts = tuple(data[name][-1:] for name in kept) if kept and actions else ()
    if header is None:  # (a state with no moves: its lineage known by its root's pair)
        header = _header(pair if first is None else first, ref, reduce_game(game)[1], pair)
    return (rebuild_compact, (header, packed, actions, packed_rng, data.get("_kit_origin"),
                              lasts))


#: id(first undo record of a lineage) -> (that record, the class's name, the game's
#: reduction, the root's pair, the layout, the table of moves, the header); bounded.
_HEADERS_WRITTEN: dict[int, tuple[Any, Any, Any, Any, Any, Any, tuple[bytes, bytes]]] = {}
#: A header's digest -> (the class's module, the class, the game, the root's pair, its
#: value, the slot of the table of actions, the layout); bounded.
_HEADERS: dict[bytes, tuple[Any, Any, Any, tuple[bytes, bytes], Any, list[Any], Any]] = {}


def _header(first: Any, ref: tuple[str, str], game_args: tuple[Any, ...],
            pair: tuple[bytes, bytes], layout: Any = None,
            table: tuple[bytes, bytes] | None = None) -> tuple[bytes, bytes]:
    """What every compact pickle of a lineage shares (its class, its game, its root and,
    in the plain layout, the names of its attributes, its origin and the table its moves
    are numbered by, with its digest) as one pickle named by its digest: written once per
    lineage (``first``: its first undo record), read once per process
    (:func:`rebuild_compact`, :func:`rebuild_plain`)."""
    found = _HEADERS_WRITTEN.get(id(first)) if first is not None else None
    if (found is not None and found[0] is first and found[1] == ref
            and found[2] is game_args and found[3] is pair and found[4] == layout
            and found[5] is table):
        return found[6]
    blob = dumps((ref, game_args, pair, layout, table))
    # (Named by a digest of the digests it holds, not of its kilobytes of spec and root.)
    header = (_digest(dumps((ref, game_args[1:], pair[0], layout, table and table[0]))),
              blob)
    if first is not None:
        with _LOCK:  # (the record is kept with it: its id stays its own)
            _keep(_HEADERS_WRITTEN, id(first),
                  (first, ref, game_args, pair, layout, table, header), ROOTS_KEPT)
    return header


def _read_header(header: tuple[bytes, bytes]
                 ) -> tuple[Any, Any, Any, tuple[bytes, bytes], Any, list[Any], Any]:
    """The class, game and root of a compact pickle's header, the slots of
    :func:`_decode_moves` (the game's table of actions, made once per process) and the
    plain layout's names and origin."""
    ref, game_args, pair, layout, table = pickle.loads(header[1])
    cls = class_of(ref)
    root_value = _root_value(pair)
    KitRandom.__new__(KitRandom).set_known_state(root_value[1])  # (its checks, once)
    # (A plain layout's own table of moves, read by _decode_moves as a game's table.)
    decoder = [None if table is None else _table_read(table), None, None]
    found = (sys.modules.get(ref[0]), cls, rebuild_game(*game_args), pair, root_value, decoder,
             layout)
    with _LOCK:
        _keep(_HEADERS, header[0], found, ROOTS_KEPT)
    return found


#: From how many moves a compact pickle holds moves by their values as a :class:`History`
#: (whole blocks written and read once per process: less per state along a long game, more
#: along a short one, whose blocks are new every few moves).
VALUE_BLOCKS = 8 * CHUNK


def _root_value(pair: tuple[bytes, bytes]) -> tuple[Any, tuple[Any, ...]]:
    digest, blob = pair
    found = _ROOT_VALUES.get(digest)
    if found is None:
        packed, packed_rng = pickle.loads(blob)
        found = (packed, unpack_rng_state(*packed_rng))
        with _LOCK:
            _keep(_ROOT_VALUES, digest, found, ROOTS_KEPT)
    return found


def rebuild_compact(header: tuple[bytes, bytes], packed: Any, actions: Any,
                    packed_rng: tuple[Any, ...] | None, origin: Any,
                    lasts: tuple[list[Any], ...] = ()) -> Any:
    """Unpickle a state of the compact layout: its position now, its histories on first
    need (:func:`materialize`)."""
    found = _HEADERS.get(header[0])
    if found is None or sys.modules.get(found[1].__module__) is not found[0]:
        found = _read_header(header)  # (a module imported again makes new classes)
    _module, cls, game, root, root_value, decoder, _layout = found
    # Every history empty but the moves: what is pushed from here on goes in them, and
    # materialize() puts the earlier entries before it.
    state = _bare_state(cls, game, _rng_at(root_value, packed_rng), packed, origin)
    data = state.__dict__
    if actions:
        _lazy_moves(data, game, actions, decoder, root, root_value, packed, header)
        for name, last in zip(cls._kit_last_kept, lasts, strict=True):  # (pictures)
            data[name] = list(last)
    state._kit_histories_made(None)
    return state


def _rng_at(root_value: tuple[Any, tuple[Any, ...]], packed_rng: tuple[Any, ...] | None
            ) -> random.Random:
    """The generator of a state unpickled in a compact layout: the root's (None) or the
    packed one."""
    if packed_rng is not None:
        return rng_from_packed(*packed_rng)
    rng = KitRandom.__new__(KitRandom)
    rng.set_checked_state(root_value[1])  # (the root's state, checked when it was read)
    return rng


def _lazy_moves(data: dict[str, Any], game: Any, actions: Any, decoder: list[Any],
                root: tuple[bytes, bytes], root_value: tuple[Any, tuple[Any, ...]],
                packed: Any, header: tuple[bytes, bytes]) -> None:
    """The move stack of a state unpickled in a compact layout, and what makes its other
    histories on first need (:data:`LAZY`)."""
    if type(actions) is list:  # many moves by their values (a History read back)
        moves = actions
        data["move_stack"] = list(moves)
    else:
        moves = data["move_stack"] = _decode_moves(game, actions, decoder)
    data[LAZY] = ((root, root_value[1][1]), actions, len(moves), packed, header)


def _bare_state(cls: type, game: Any, rng: random.Random, packed: Any, origin: Any,
                plain: bool = False) -> Any:
    """A state of ``cls`` at the packed position (``plain``: packed by
    :func:`plain_pack`), with ``rng`` and empty histories."""
    state: Any = object.__new__(cls)
    data = state.__dict__
    data["game"] = game
    data["rng"] = rng
    if plain:
        _plain_unpack(data, packed)
    else:
        state._kit_unpack(packed)
    data["_kit_origin"] = origin
    data["_kit_emitted"] = None
    data["move_stack"] = []
    data["journal"] = Journal(state)
    data["_kit_marks"] = []
    data["_kit_events"] = []
    for name in cls._kit_histories:  # type: ignore[attr-defined]
        data[name] = []
    return state


def materialize(state: Any) -> None:
    """Make whole the histories of a state unpickled in the compact layout: the moves it
    was unpickled with replayed from its root, whose undo records, events and journal (the
    very ones the original had) go before those of the moves pushed since."""
    data = state.__dict__
    (pair, _words), _actions, count, _packed, _header = data[LAZY]
    game = state.game
    packed, packed_rng = pickle.loads(pair[1])  # (its own objects: the replay changes them)
    plain = compact_names(type(state)) is None
    replay = _bare_state(type(state), game, rng_from_packed(*packed_rng), packed, None, plain)
    mine = replay.__dict__
    replay._kit_histories_made(None)
    kind = type(state).__name__
    for ply, move in enumerate(data["move_stack"][:count], 1):
        try:
            replay.push(move)
        except Exception as exc:  # a game whose moves do not replay alike
            raise pickle.UnpicklingError(
                f"replaying the moves of a pickled {kind} failed at move {ply} ({move}): "
                f"{_one_line(exc)}") from None
    # (Checked while the state is at the position it was unpickled at: the pack it was
    # unpickled from may share tables the moves pushed since have changed.)
    if len(data["move_stack"]) == count and (
            _plain_values(replay) != _plain_values(state) if plain else
            replay._kit_canonical(replay._kit_pack()) != state._kit_canonical(state._kit_pack())):
        raise pickle.UnpicklingError(
            f"replaying the moves of a pickled {kind} did not reach its position (its "
            "moves do not give the same position every time they are played)")
    kept = type(state)._kit_last_kept
    for name in ("_kit_events", *type(state)._kit_histories):
        data[name][:1 if name in kept else 0] = mine[name]
    entries = mine["journal"].entries
    shift = len(entries)
    data["_kit_marks"][:] = [*mine["_kit_marks"], *(m + shift for m in data["_kit_marks"])]
    state.journal.entries[:0] = entries
    del data[LAZY]
    state._kit_histories_made(replay)


def copy_lazy(state: Any) -> Any:
    """``State.copy`` of a state whose histories are not made yet: a copy that makes its
    own when needed (from the same moves), without making the state's first."""
    data = state.__dict__
    lazy = data.pop(LAZY)
    state._kit_copying(None)
    try:
        twin = state.copy()
    finally:
        data[LAZY] = lazy
    twin.__dict__[LAZY] = lazy
    state._kit_copying(twin)
    return twin


# -- the plain layout: the compact layout for states whose undo data is all in the journal --
# A plugin's state (the example plugin's, a ``hexkit new-plugin`` game's) usually keeps
# every change in the kit's journal (``undo`` and ``_kit_histories`` left alone) and its
# position in a few attributes of plain data: a list of cells, a winner, a TurnOrder. Such
# a state needs no ``_kit_pack`` of its own: it pickles as those attributes' values (their
# names, and the position its moves start from, go in the lineage's header), its moves as
# the compact layout writes them, and the journal, marks and events made on first need by
# replaying the moves from the root (:func:`materialize`, which checks that the replay
# reaches the position). Whether a class fits is decided once (:func:`plain_class`);
# whether a state fits, at each pickle (:func:`plain_pack`): one that does not (an
# attribute holding an object, say) pickles by its attributes as before.

#: The state's attributes the plain layout does not write as values (the kit's own).
_NOT_PLAIN = frozenset({*_KIT_NAMES, LAZY})
#: What a class may not have of its own to pickle in the plain layout: every one is how a
#: state keeps, reads or makes its histories besides the journal.
_PLAIN_HOOKS = ("undo", "push", "pop", "copy", "events", "need_history", "__reduce__",
                "__getstate__", "__setstate__", "_kit_records", "_kit_copying",
                "_kit_histories_made", "_kit_canonical")


def plain_class(cls: type) -> bool:
    """Whether states of ``cls`` may pickle in the plain layout: a state class that keeps
    all its undo data in the kit's journal (none of :data:`_PLAIN_HOOKS` of its own, no
    ``_kit_histories``, no ``__slots__``, no ``_kit_pack``), decided once per class."""
    found = cls.__dict__.get("_kit_plain")
    if found is not None:
        return found  # type: ignore[no-any-return]
    # (hexkit.game's State, found in the class's bases: that module imports this one.)
    mro = cls.__mro__
    state = next((k for k in mro if k.__module__ == "hexkit.game" and k.__qualname__ == "State"),
                 None)
    found = (state is not None and compact_names(cls) is None
             and not getattr(cls, "_kit_histories", ())
             and getattr(cls, "__reduce_ex__", None) is object.__reduce_ex__
             and all(getattr(cls, hook, None) is getattr(state, hook) for hook in _PLAIN_HOOKS)
             and not any("__slots__" in vars(k) for k in mro[:mro.index(state)]))
    setattr(cls, "_kit_plain", found)  # noqa: B010  (a class attribute, once)
    return found


def plain_pack(state: Any) -> tuple[tuple[str, ...], tuple[int, ...], tuple[Any, ...]]:
    """The state's own attributes (all but the kit's) as (their names, the places of those
    holding a :class:`TurnOrder`, their values: each TurnOrder as its fields). Whether
    the values are plain data is checked as they are written (:func:`plain_blob`)."""
    data = state.__dict__
    keys = tuple(data)
    found = _PLAIN_NAMES.get(type(state))
    if found is None or found[0] != keys:  # (the attributes of the class's last state)
        found = _plain_names(type(state), keys)
    names, get = found[1], found[2]
    values = get(data)
    kinds = tuple(map(type, values))
    if TurnOrder not in kinds:
        return names, (), values
    out = list(values)
    if kinds.count(TurnOrder) == 1:  # (the usual: the kit's turn_order)
        orders: tuple[int, ...] = (kinds.index(TurnOrder),)
    else:
        orders = tuple(i for i, kind in enumerate(kinds) if kind is TurnOrder)
    for index in orders:
        out[index] = turn_fields(out[index])
    return names, orders, tuple(out)


def plain_blob(values: Any) -> bytes | None:
    """The pickle of ``values`` if they are plain data (None, bools, ints, floats, strs,
    bytes, and lists, tuples, sets, frozensets and dicts of them), else None."""
    try:
        return dumps(values, plain=True)
    except NotPlainError:
        return None


def _plain_root(root: Any) -> Any:
    """The pack of a plain state's root (None if it holds more than plain data)."""
    packed = plain_pack(root)
    return packed if plain_blob(packed[2]) is not None else None


#: State class -> (the names of a state's attributes, those :func:`plain_pack` writes, a
#: function reading their values as a tuple); bounded.
_PLAIN_NAMES: dict[type, tuple[tuple[str, ...], tuple[str, ...], Callable[[Any], Any]]] = {}


def _plain_names(cls: type, keys: tuple[str, ...]
                 ) -> tuple[tuple[str, ...], tuple[str, ...], Callable[[Any], Any]]:
    names = tuple(name for name in keys if name not in _NOT_PLAIN)
    get: Callable[[Any], Any]
    if len(names) == 1:
        one = operator.itemgetter(names[0])
        get = lambda data: (one(data),)  # noqa: E731  (one name: itemgetter gives no tuple)
    else:
        get = operator.itemgetter(*names) if names else (lambda data: ())
    found = (keys, names, get)
    with _LOCK:
        _keep(_PLAIN_NAMES, cls, found, CLASSES_KEPT)
    return found


def _plain_unpack(data: dict[str, Any], packed: tuple[Any, ...]) -> None:
    """The attributes :func:`plain_pack` packed, set in a state's ``__dict__``."""
    names, orders, values = packed
    data.update(zip(names, values, strict=True))
    for index in orders:
        data[names[index]] = _turn_order(values[index])


def _turn_order(fields: tuple[Any, ...]) -> TurnOrder:
    """The TurnOrder of these fields: one per process for equal fields (an immutable
    value, as copies share it)."""
    found = _TURNS.get(fields)
    if found is None:
        found = _remember(_TURNS, fields, turn_order_of(fields), TURNS_KEPT)
    return found


#: The fields of a TurnOrder -> the TurnOrder unpickled for them; bounded (cleared when
#: full).
_TURNS: dict[tuple[Any, ...], TurnOrder] = {}
#: How many TurnOrders :data:`_TURNS` holds.
TURNS_KEPT = 4096


def _plain_values(state: Any) -> dict[str, Any]:
    """The state's own attributes by name (what a replay is checked against)."""
    names, _orders, values = plain_pack(state)
    return dict(zip(names, values, strict=True))


def reduce_plain(state: Any) -> tuple[Any, ...] | None:
    """``State.__reduce__`` in the plain layout, or None when the state does not fit it (an
    attribute that is not plain data, a move without a journal entry at the start, a
    generator of another kind, a class or game pickle finds its own way)."""
    writable = _writable(state)
    if writable is None:
        return None
    game, rng, ref = writable
    names, orders, values = plain_pack(state)
    blob = plain_blob(values)
    if blob is None:
        return None
    data = state.__dict__
    layout = (names, orders, data.get("_kit_origin"))
    lazy = data.get(LAZY)
    if lazy is not None:
        found = _HEADERS.get(lazy[4][0])
        if len(data["move_stack"]) != lazy[2] or found is None or found[6] != layout:
            materialize(state)  # moves pushed (or an attribute set) since it was unpickled
            lazy = None
    header = None
    first = None
    table = None
    if lazy is not None:  # unpickled, no move pushed since: the same root and actions
        pair, words, actions, header = _as_unpickled(lazy)
    else:
        _game, table, encode, ids, code = _game_table(game)
        stack = data["move_stack"]
        if stack:
            # The first journal entry of the last move and of the one before: shared by
            # the copies of the state, so its moves are encoded once along a game.
            entries = data["journal"].entries
            marks = data["_kit_marks"]
            if not entries or len(marks) != len(stack):
                return None
            first = entries[0]
            at = marks[-1]
            last = entries[at] if at < len(entries) else None
            previous = entries[marks[-2]] if len(marks) > 1 and marks[-2] < at else None
            actions = None
            if ids and len(stack) <= FEW_MOVES:  # (numbered at once: less than finding them)
                try:
                    actions = array(code, map(ids.__getitem__, map(id, stack))).tobytes()
                except KeyError:
                    pass
            if actions is None:
                actions = _encoded(game, stack, last, previous, encode)
            if actions is None:
                return None
            if type(actions) is not bytes and len(stack) >= VALUE_BLOCKS:
                actions = History(stack, tail=MoveList)  # (as reduce_compact does)
            if type(actions) is not bytes:
                table = None  # (not numbered by it: the header need not hold it)
        else:
            actions = b""
        root = _root(state, first, _plain_root, journal_only=True,
                     packed=None if stack else (names, orders, values))
        if root is None:
            return None
        pair, words = root
    packed_rng = _rng_past(rng, words)
    if header is None:  # (a state with no moves: its lineage known by its root's pair)
        header = _header(pair if first is None else first, ref, reduce_game(game)[1], pair,
                         layout, table)
    return (rebuild_plain, (header, blob, actions, packed_rng))


#: id(game) -> (the game, the (digest, pickle) of its table of moves for the plain layout
#: (None: none), the function that numbers moves by it, the numbers of its moves by
#: identity, their array code); bounded.
_GAME_TABLES: dict[int, tuple[Any, tuple[bytes, bytes] | None, Callable[..., Any] | None,
                              dict[int, int], str]] = {}
#: A table's digest -> (its moves, the array code of their numbers); bounded.
_TABLES_READ: dict[bytes, tuple[tuple[Any, ...], str]] = {}


def _table_read(table: tuple[bytes, bytes]) -> tuple[tuple[Any, ...], str]:
    """The moves of a plain layout's table (its (digest, pickle)), read once per
    process."""
    found = _TABLES_READ.get(table[0])
    if found is None:
        moves = pickle.loads(table[1])
        found = (moves, _number_code(len(moves)))
        with _LOCK:
            _keep(_TABLES_READ, table[0], found, GAMES_KEPT)
    return found


def _game_table(game: Any) -> tuple[Any, tuple[bytes, bytes] | None,
                                    Callable[..., Any] | None, dict[int, int], str]:
    """How the plain layout numbers a game's moves, worked out once per game: by the
    game's action space where it lists its moves in full (:func:`_actions`), else by a
    table of the moves legal at the game's start (its ``new_state(seed=0)``: every
    placement of a placement game), which the header of a lineage whose moves it numbers
    holds; a move outside both is written by its values."""
    found = _GAME_TABLES.get(id(game))
    if found is not None and found[0] is game:
        return found
    try:
        listed = table_of(game.action_space()) is not None
    except Exception:  # a game without a space
        listed = False
    moves: tuple[Any, ...] = ()
    if not listed:
        try:
            moves = tuple(game.new_state(seed=0).legal_moves())
            blob = dumps(moves)
        except Exception:  # no table: the moves by their values
            moves = ()
    if not moves:
        found = (game, None, None, {}, "H")
    else:
        ids = {id(move): i for i, move in enumerate(moves)}
        index: dict[Any, int] = {}
        try:
            for i, move in enumerate(moves):
                index.setdefault(move, i)
        except TypeError:  # moves that cannot be hashed: found by identity only
            index = {}
        code = _number_code(len(moves))
        encode = functools.partial(_table_actions, ids, index, code)
        digest = _digest(blob)
        found = (game, (digest, blob), encode, ids, code)
        with _LOCK:  # (this process reads it as the very moves it numbers)
            _keep(_TABLES_READ, digest, (moves, code), GAMES_KEPT)
    with _LOCK:  # (the game is kept with it: its id stays its own)
        _keep(_GAME_TABLES, id(game), found, GAMES_KEPT)
    return found


def _table_actions(ids: dict[int, int], index: dict[Any, int], code: str, game: Any,
                   moves: list[Any], before: Any = b"") -> Any:
    """:func:`_actions` by a plain layout's table of moves (``ids``: the numbers of its
    moves by identity, ``index``: by value)."""
    if type(before) is not bytes:
        return _move_values(moves, before)
    try:
        return before + array(code, map(ids.__getitem__, map(id, moves))).tobytes()
    except KeyError:  # moves that are not the table's objects: found by value
        pass
    try:
        return before + array(code, map(index.__getitem__, moves)).tobytes()
    except (KeyError, TypeError):
        pass
    return _move_values(moves, None) if not before else None


def rebuild_plain(header: tuple[bytes, bytes], blob: bytes, actions: Any,
                  packed_rng: tuple[Any, ...] | None) -> Any:
    """Unpickle a state of the plain layout: its attributes now, its histories on first
    need (:func:`materialize`)."""
    found = _HEADERS.get(header[0])
    if found is None or sys.modules.get(found[1].__module__) is not found[0]:
        found = _read_header(header)  # (a module imported again makes new classes)
    _module, cls, game, root, root_value, decoder, (names, orders, origin) = found
    # (The origin shared, as copies share it: never changed in place.)
    state = _bare_state(cls, game, _rng_at(root_value, packed_rng),
                        (names, orders, pickle.loads(blob)), origin, plain=True)
    if actions:
        _lazy_moves(state.__dict__, game, actions, decoder, root, root_value, None, header)
    return state
