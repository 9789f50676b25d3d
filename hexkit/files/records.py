"""Saved games: a versioned JSON game record, atomic saving, loading and re-validating replay.

A record holds what it takes to rebuild a game exactly: the game's name and options, the
seed of the state's random generator (so Hex Baron's digs come out the same), an optional
starting position (``State.to_dict()``) for games set up from a file or scenario, who played
each seat, the moves in the game's own notation, and the result. Replaying pushes every
move again through the game's rules, so a tampered record is caught at its first bad move.

The file format (``"format": "hexkit-record"``, ``"version": 1``) is described in
``docs/services.md``.
"""

from __future__ import annotations

import json
import operator
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from hexkit.errors import (
    ConfigError,
    HexkitError,
    IllegalMoveError,
    MoveParseError,
    RecordError,
)
from hexkit.files.datapaths import carried_files, confine, embed, variants_only
from hexkit.files.fileio import MAX_DATA_BYTES, remove_stray_temporaries, write_text_atomic
from hexkit.files.jsonfile import load_json
from hexkit.files.recordlock import check_free
from hexkit.files.recordlock import hold as hold_record
from hexkit.game import Game, Outcome, State

#: The value of the ``format`` field of every record.
RECORD_FORMAT = "hexkit-record"
#: The newest record version this hexkit reads and the one it writes.
RECORD_VERSION = 1


def _is_whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _texts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _options_problem(options: Any) -> str | None:
    if not isinstance(options, Mapping) or not all(isinstance(k, str) for k in options):
        return "'options' must map option names to values"
    for key, value in options.items():
        if value is not None and not isinstance(value, str | int | float | bool):
            return f"option {key!r} must be a plain value"
    return None


def _result_problem(result: Any) -> str | None:
    if result is not None:
        try:
            Outcome.from_dict(result)
        except (KeyError, TypeError, ValueError):
            return "'result' must be {\"winners\": [seats], \"reason\": text}"
    return None


def _files_ok(files: Any) -> bool:
    return isinstance(files, Mapping) and all(
        isinstance(k, str) and isinstance(v, Mapping)
        and isinstance(v.get("name"), str) and isinstance(v.get("text"), str)
        and len(v["text"]) <= MAX_DATA_BYTES for k, v in files.items())


def _check(ok: Callable[[Any], bool], problem: str) -> Callable[[Any], str | None]:
    return lambda value: None if ok(value) else problem


#: A record's fields after its format and version, in the order they are checked: the key,
#: its value when absent, and what is wrong with a value (None: nothing).
_FIELDS: tuple[tuple[str, Any, Callable[[Any], str | None]], ...] = (
    ("name", None, _check(lambda v: isinstance(v, str) and bool(v),
                          "'name' must be the game's name")),
    ("options", {}, _options_problem),
    ("seed", None, _check(lambda v: v is None or _is_whole(v),
                          "'seed' must be a whole number or null")),
    ("players", [], _check(_texts, "'players' must be a list of texts")),
    ("moves", None, _check(_texts, "'moves' must be a list of move texts")),
    ("start", None, _check(lambda v: v is None or isinstance(v, Mapping),
                           "'start' must be a position (an object) or null")),
    ("result", None, _result_problem),
    ("files", {}, _check(_files_ok,
                         "'files' must map options to {\"name\": text, \"text\": text}")),
)


@dataclass
class GameRecord:
    """One game: what was played, from where, by whom, and how it ended.

    ``name`` and ``options`` (every option, defaults included) rebuild the game; ``game``
    is the canonical game string (``focus(board=cross,players=4)``) kept for people reading
    the file. ``players`` are seat specs (``human``, ``random``, ``mcts:2000``).
    """

    name: str
    options: dict[str, Any] = field(default_factory=dict)
    game: str = ""
    game_version: str = ""
    seed: int | None = None
    players: list[str] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None
    start: dict[str, Any] | None = None
    #: The text of the files the game's options name (``{option: {"name", "text"}}``), so
    #: that the record replays on a machine without them.
    files: dict[str, dict[str, str]] = field(default_factory=dict)
    #: Where the record was read from (for messages; not saved).
    source: str = field(default="", compare=False)
    #: The moves list :meth:`update` last made and the very move objects it named.
    _named: tuple[list[str], list[Any]] = field(default_factory=lambda: ([], []),
                                                 init=False, compare=False, repr=False)

    # -- building ------------------------------------------------------------------------
    @classmethod
    def for_game(
        cls,
        game: Game,
        *,
        seed: int | None,
        players: Sequence[str] = (),
        start: State | None = None,
    ) -> GameRecord:
        """An empty record for a game about to be played from ``new_state(seed)``, or from
        the position ``start`` when given (a loaded or scenario set-up)."""
        return cls(
            name=game.name,
            options=dict(game.options),
            game=str(game),
            game_version=game.spec.version,
            seed=seed,
            players=list(players),
            start=None if start is None else start.to_dict(),
            files=embed(game.options),
        )

    def update(self, state: State) -> None:
        """Copy the moves and result of ``state`` (a state made by :meth:`initial_state`,
        with every move since then on its move stack) into the record."""
        stack = state.move_stack
        moves, named = self._named
        if moves is self.moves and len(moves) == len(named) <= len(stack) and \
                all(map(operator.is_, named, stack)):
            # The same game a move or two on (a server saving after every move): only
            # the new moves are named.
            new = stack[len(named):]
            moves.extend(str(m) for m in new)
            named.extend(new)
        else:
            self.moves = [str(m) for m in stack]
            self._named = (self.moves, list(stack))
        outcome = state.outcome()
        self.result = None if outcome is None else outcome.to_dict()

    @property
    def outcome(self) -> Outcome | None:
        """The recorded result."""
        return None if self.result is None else Outcome.from_dict(self.result)

    # -- using ---------------------------------------------------------------------------
    def load_game(self, registry: Any = None, *, untrusted: bool = False) -> Game:
        """Build the recorded game (UnknownGameError/OptionError if it cannot be).

        Files the options name are read, in this order of trust: the record's carried
        files (from a private folder of their own, removed once the game is built), files
        beside the record's own file (``source``), and, for a record that comes from
        someone else with no file of its own (``untrusted``: a web upload), no file at all:
        its options take installed variant names only."""
        if registry is None:
            from hexkit import plugins

            registry = plugins.registry()
        try:
            spec = registry.game_spec(self.name)
            # Options left at their default are not passed: some defaults (None: "decided by
            # the variant") cannot be given explicitly.
            defaults = {o.name: o.default for o in spec.options}
            given = {k: v for k, v in self.options.items()
                     if k not in defaults or v != defaults[k]}
            if untrusted:
                file_options = frozenset(o.name for o in spec.options if o.names_file)
                variants_only(self.name, {k: v for k, v in given.items()
                                          if k not in self.files},
                              "a record sent to this server", file_options)
            elif self.source:
                rest = {k: v for k, v in given.items() if k not in self.files}
                given.update(confine(self.name, rest, Path(self.source).parent, "record"))
            with carried_files(self.files, self.options) as (carried, shown):
                given.update(carried)
                try:
                    game: Game = registry.load_game(self.name, **given)
                except HexkitError as exc:
                    message = str(exc)
                    for path in sorted(shown, key=len, reverse=True):
                        message = message.replace(path, shown[path])
                    raise RecordError(message) from None
            for key in self.files:
                if key in self.options and isinstance(self.options[key], str):
                    game.shown_values[key] = self.options[key]
            return game
        except HexkitError as exc:
            where = f"{self.source}: " if self.source else ""
            raise RecordError(f"{where}cannot rebuild the recorded game: {exc}") from None

    def initial_state(self, game: Game) -> State:
        """The position the recorded game started from."""
        if self.start is None:
            return game.new_state(seed=self.seed)
        try:
            return game.state_from_dict(self.start)
        except HexkitError as exc:
            raise RecordError(f"the record's starting position cannot be loaded: {exc}") from None
        except Exception as exc:
            raise RecordError(
                f"the record's starting position cannot be loaded: {type(exc).__name__}: {exc}"
            ) from None

    # -- JSON ----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see ``docs/services.md``)."""
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "game": self.game or self.name,
            "name": self.name,
            "options": dict(self.options),
            "game_version": self.game_version,
            "seed": self.seed,
            "players": list(self.players),
            "start": self.start,
            "moves": list(self.moves),
            "result": self.result,
            **({"files": self.files} if self.files else {}),
        }

    @classmethod
    def from_dict(cls, data: Any, source: str = "record") -> GameRecord:
        """Check and read the JSON form; RecordError (one line) if it is not a valid record."""
        if not isinstance(data, Mapping) or data.get("format") != RECORD_FORMAT:
            raise RecordError(f"{source}: not a hexkit game record (no \"format\": "
                              f"\"{RECORD_FORMAT}\")")
        version = data.get("version")
        if not _is_whole(version):
            raise RecordError(f"{source}: corrupt record: 'version' must be a whole number")
        if version > RECORD_VERSION or version < 1:
            raise RecordError(
                f"{source}: record version {version} is not supported "
                f"(this hexkit reads version {RECORD_VERSION})"
            )

        for key, default, problem_of in _FIELDS:
            problem = problem_of(data.get(key, default))
            if problem:
                raise RecordError(f"{source}: corrupt record: {problem}")
        name = data["name"]
        options, seed, players = data.get("options", {}), data.get("seed"), data.get("players", [])
        moves, start, result = data["moves"], data.get("start"), data.get("result")
        files = data.get("files", {})
        game, game_version = data.get("game", name), data.get("game_version", "")
        if not isinstance(game, str) or not isinstance(game_version, str):
            raise RecordError(f"{source}: corrupt record: 'game' and 'game_version' must be "
                              "texts")
        return cls(
            name=name,
            options=dict(options),
            game=game,
            game_version=game_version,
            seed=seed,
            players=list(players),
            moves=list(moves),
            result=None if result is None else Outcome.from_dict(result).to_dict(),
            start=None if start is None else dict(start),
            files={k: {"name": v["name"], "text": v["text"]} for k, v in files.items()},
        )


# -- files ---------------------------------------------------------------------------------
def save_record(path: str | os.PathLike[str], record: GameRecord, *,
                hold: bool = False, clean: bool = True) -> None:
    """Write a record atomically: a crash or Ctrl-C leaves either the old file or the new
    one, never a half-written file (temporary file in the same folder, fsync, rename).

    A file that another process holds (:mod:`hexkit.files.recordlock`) is refused with a
    RecordError naming the game it holds, instead of one game being silently lost. With
    ``hold`` (a session that saves after every move) this process holds the saved file
    until it exits or saves elsewhere. Temporary files left by a killed save are removed
    first (unless ``clean`` is False: a server cleans its whole folder once, at start-up,
    instead of at every save)."""
    check_free(path)
    if clean:
        remove_stray_temporaries(path)
    text = json.dumps(record.to_dict(), indent=1, ensure_ascii=False) + "\n"
    write_text_atomic(path, text)
    if hold:
        hold_record(path)


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file; RecordError (one line naming the file) if it cannot be used.

    Only a regular file of at most :data:`hexkit.files.fileio.MAX_RECORD_BYTES` is read, with
    bounded nesting and numbers (:mod:`hexkit.files.jsonfile`)."""
    source = str(path)
    try:
        data = load_json(path)
    except ConfigError as exc:
        if exc.problem.startswith("not a text file"):
            raise RecordError(f"{source}: not a hexkit game record (not a text file)") from None
        if exc.problem.startswith("invalid JSON"):
            where = f"{source}:{exc.line}" if exc.line else source
            raise RecordError(f"{where}: not a hexkit game record ({exc.problem})") from None
        raise RecordError(str(exc)) from None
    record = GameRecord.from_dict(data, source)
    record.source = source
    return record


# -- replay --------------------------------------------------------------------------------
def replay_steps(
    record: GameRecord, game: Game | None = None, registry: Any = None
) -> Iterator[tuple[int, str, State]]:
    """Replay a record move by move, yielding ``(0, "", start)`` and then
    ``(n, move_text, state)`` after move ``n`` (1-based). The same state object is yielded
    each time and changes as replay goes on. Every move is re-validated by the rules:
    RecordError names the first one that cannot be read or is illegal."""
    if game is None:
        game = record.load_game(registry)
    state = record.initial_state(game)
    yield 0, "", state
    for number, text in enumerate(record.moves, start=1):
        if state.is_over():
            raise RecordError(
                f"move {number} {text!r} is illegal: the game was already over "
                f"after move {number - 1}"
            )
        try:
            state.push(text)
        except MoveParseError as exc:
            raise RecordError(f"move {number} {text!r} cannot be read: {exc}") from None
        except IllegalMoveError as exc:
            raise RecordError(f"move {number} {text!r} is illegal: {exc}") from None
        yield number, text, state


def replay(
    record: GameRecord, upto: int | None = None, game: Game | None = None, registry: Any = None
) -> State:
    """The state after the first ``upto`` moves (all of them if None), every move
    re-validated. With every move replayed, the recorded result must match the rules'."""
    total = len(record.moves)
    if upto is not None and not 0 <= upto <= total:
        raise RecordError(f"move {upto} is out of range: the record has {total} moves")
    limit = total if upto is None else upto
    steps = replay_steps(record, game, registry)
    number, _text, state = next(steps)
    while number < limit:
        number, _text, state = next(steps)
    if limit == total:
        check_result(record, state)
    return state


def check_result(record: GameRecord, state: State) -> None:
    """RecordError if the recorded result disagrees with the replayed final state."""
    actual = state.outcome()
    recorded = record.outcome
    if recorded is None:
        return
    if actual is None:
        raise RecordError(
            f"the record says the game ended ({_describe(recorded)}) but after its "
            f"{len(record.moves)} moves the game is not over"
        )
    if set(actual.winners) != set(recorded.winners):
        raise RecordError(
            f"the record says {_describe(recorded)} but replaying gives {_describe(actual)}"
        )


def _describe(outcome: Outcome) -> str:
    if outcome.is_draw:
        return "a draw"
    seats = ", ".join(str(w + 1) for w in outcome.winners)
    return f"a win for player {seats}"
