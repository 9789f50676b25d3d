"""``hexkit check FILE.yaml ...``: game-agnostic scenario files, e.g. a course's grading set.

A scenario names a game and its options, optionally a seed and a starting position, then
lists moves in the game's own notation, each with the result it must have (accepted,
refused, the game over with these winners), and facts about the state (a path into
``to_dict()``, the legal moves, whose turn it is). The checks go through the generic game
API only, so the same files grade any plugin that implements the game. The file format is
documented in ``docs/services.md``.

Output: one line per scenario, then ``N passed, M failed``; the exit code is 1 when
anything failed. A malformed file is one failure, reported as ``file:line: problem``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.errors import ConfigError, HexkitError, IllegalMoveError, MoveParseError
from hexkit.files.datapaths import confine
from hexkit.files.fileio import MAX_DATA_BYTES
from hexkit.files.yamlfile import LineDict, LineList, load_yaml
from hexkit.game import Game, State
from hexkit.suggest import hint

#: What a move may be expected to do.
EXPECT_WORDS = ("accepted", "refused", "illegal", "unreadable", "draw")
#: Comparisons a ``path`` fact may make.
PATH_CHECKS = ("equals", "length", "contains", "exists")
#: Facts that are not about a path.
STATE_FACTS = ("legal", "not_legal", "legal_count", "current_player", "over", "winners")

SCENARIO_KEYS = ("name", "game", "options", "seed", "position", "position_file", "moves",
                 "facts")
FILE_KEYS = (*SCENARIO_KEYS, "scenarios")
STEP_KEYS = ("move", "expect", "player", "facts")


# -- the parsed form ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Expect:
    """A move's expected result. ``kind``: accepted, refused, illegal or unreadable;
    ``message``: text the refusal must contain; ``over``/``winners``: the game after it."""

    kind: str = "accepted"
    message: str | None = None
    over: bool | None = None
    winners: tuple[int | str, ...] | None = None

    def describe(self) -> str:
        if self.kind != "accepted":
            return self.kind + (f" with {self.message!r}" if self.message else "")
        if self.over is None:
            return "accepted"
        if not self.over:
            return "accepted, game not over"
        if self.winners is None:
            return "game over"
        if not self.winners:
            return "game over, a draw"
        return f"game over, won by {_names(self.winners)}"


@dataclass(frozen=True)
class Fact:
    """One assertion about the state (see ``docs/services.md``)."""

    line: int
    kind: str  # "path" or one of STATE_FACTS
    value: Any
    path: tuple[str, ...] = ()
    check: str = ""  # for path facts: one of PATH_CHECKS


@dataclass(frozen=True)
class Step:
    """A move to push, its expected result, and optional checks around it."""

    line: int
    move: str
    expect: Expect
    player: int | str | None = None
    facts: tuple[Fact, ...] = ()


@dataclass
class Scenario:
    """One scenario of a file."""

    name: str
    file: str
    line: int
    game: str
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    position: dict[str, Any] | None = None
    position_file: Path | None = None
    steps: list[Step] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


class ScenarioFailure(Exception):
    """A scenario did not go as expected; ``line`` is where in the file."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


# -- reading files -----------------------------------------------------------------------------
def load_scenarios(path: str | Path) -> list[Scenario]:
    """Read a scenario file; ConfigError (``file:line: problem``) if it is malformed."""
    data = load_yaml(path)
    file = str(path)
    if isinstance(data, list):
        if not data:
            raise ConfigError("the file holds no scenarios", file, getattr(data, "line", 1))
        items = [(item, _line(data, i)) for i, item in enumerate(data)]
        defaults: Mapping[str, Any] = {}
    elif isinstance(data, LineDict):
        _check_keys(data, FILE_KEYS, "file", file)
        if "scenarios" in data:
            listing = data["scenarios"]
            if not isinstance(listing, list) or not listing:
                raise ConfigError("'scenarios' must be a non-empty list", file,
                                  data.line_of("scenarios"))
            if "moves" in data or "facts" in data:
                raise ConfigError("put 'moves' and 'facts' inside each scenario when the file "
                                  "has 'scenarios'", file, data.line_of("moves"))
            items = [(item, _line(listing, i)) for i, item in enumerate(listing)]
            defaults = data
        else:
            items = [(data, getattr(data, "line", 1))]
            defaults = {}
    else:
        raise ConfigError("a scenario file is a mapping (one scenario, or 'scenarios: [...]') "
                          "or a list of scenarios", file, 1)
    out = []
    for number, (item, line) in enumerate(items, start=1):
        if not isinstance(item, LineDict):
            raise ConfigError("a scenario must be a mapping", file, line)
        out.append(_scenario(item, defaults, file, line, number, Path(path)))
    return out


def _scenario(item: LineDict, defaults: Mapping[str, Any], file: str, line: int, number: int,
              path: Path) -> Scenario:
    _check_keys(item, SCENARIO_KEYS, "scenario", file)

    def get(key: str) -> tuple[Any, int]:
        if key in item:
            return item[key], item.line_of(key)
        if key in defaults:
            return defaults[key], defaults.line_of(key)  # type: ignore[attr-defined]
        return None, line

    name = item.get("name")
    if name is not None and not isinstance(name, str | int | float):
        raise ConfigError("'name' must be a text", file, item.line_of("name"))
    game, game_line = get("game")
    if not isinstance(game, str) or not game.strip():
        raise ConfigError("'game' is missing: name the game (e.g. game: focus)", file, game_line)
    options, opt_line = get("options")
    if options is None:
        options = LineDict()
    if not isinstance(options, LineDict):
        raise ConfigError("'options' must be a mapping of option names to values", file, opt_line)
    for key, value in options.items():
        if not isinstance(value, str | int | float | bool):
            raise ConfigError(f"option {key!r} must be a plain value", file,
                              options.line_of(key))
    seed, seed_line = get("seed")
    if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
        raise ConfigError("'seed' must be a whole number", file, seed_line)
    position, pos_line = get("position")
    if position is not None and not isinstance(position, dict):
        raise ConfigError("'position' must be a mapping (a state's to_dict())", file, pos_line)
    pos_file, pf_line = get("position_file")
    if pos_file is not None:
        if not isinstance(pos_file, str):
            raise ConfigError("'position_file' must be a file name", file, pf_line)
        if position is not None:
            raise ConfigError("give 'position' or 'position_file', not both", file, pf_line)
        folder = path.parent.resolve()
        if not (folder / pos_file).resolve().is_relative_to(folder):
            raise ConfigError("'position_file' must be a file in the scenario file's own "
                              "folder", file, pf_line)
    moves = item.get("moves", [])
    if moves is None:
        moves = []
    if not isinstance(moves, list):
        raise ConfigError("'moves' must be a list", file, item.line_of("moves"))
    steps = [_step(m, file, _line(moves, i)) for i, m in enumerate(moves)]
    facts = _facts(item.get("facts"), file, item.line_of("facts"))
    return Scenario(
        name=str(name) if name is not None else f"scenario {number}",
        file=file,
        line=line,
        game=game.strip(),
        options={str(k): v for k, v in options.items()},
        seed=seed,
        position=None if position is None else _plain(position),
        position_file=None if pos_file is None else path.parent / pos_file,
        steps=steps,
        facts=facts,
    )


def _step(item: Any, file: str, line: int) -> Step:
    if isinstance(item, str):
        return Step(line, item, Expect())
    if not isinstance(item, LineDict):
        raise ConfigError("a move is a text, or a mapping with 'move' and 'expect'", file, line)
    _check_keys(item, STEP_KEYS, "move", file)
    move = item.get("move")
    if not isinstance(move, str | int):
        raise ConfigError("'move' must be the move's text", file, item.line_of("move"))
    expect = _expect(item.get("expect", "accepted"), file, item.line_of("expect"))
    player = item.get("player")
    if player is not None and not _is_player(player):
        raise ConfigError("'player' must be a seat number (0 first) or a player's name",
                          file, item.line_of("player"))
    facts = _facts(item.get("facts"), file, item.line_of("facts"))
    return Step(line, str(move), expect, player, tuple(facts))


def _expect(value: Any, file: str, line: int) -> Expect:
    if isinstance(value, str):
        word = value.strip().lower()
        if word == "draw":
            return Expect("accepted", over=True, winners=())
        if word not in EXPECT_WORDS:
            raise ConfigError(f"expect: {value!r} is not one of {', '.join(EXPECT_WORDS)} "
                              "(or a mapping such as {over: true, winners: [0]})", file, line)
        return Expect(word)
    if not isinstance(value, LineDict) or not value:
        raise ConfigError("'expect' must be a word (accepted, refused, illegal, unreadable, "
                          "draw) or a mapping", file, line)
    refusals = [k for k in ("refused", "illegal", "unreadable") if k in value]
    if refusals:
        if len(value) != 1:
            raise ConfigError(f"'{refusals[0]}' cannot be combined with other keys", file,
                              value.line_of(refusals[0]))
        message = value[refusals[0]]
        if message is not None and message is not True and not isinstance(message, str):
            raise ConfigError(f"'{refusals[0]}' takes the text the refusal must contain", file,
                              value.line_of(refusals[0]))
        return Expect(refusals[0], message if isinstance(message, str) else None)
    _check_keys(value, ("over", "winners"), "expect", file)
    over = value.get("over")
    if over is not None and not isinstance(over, bool):
        raise ConfigError("'over' must be true or false", file, value.line_of("over"))
    winners = value.get("winners")
    if winners is not None:
        if not isinstance(winners, list) or not all(_is_player(w) for w in winners):
            raise ConfigError("'winners' must be a list of seat numbers (0 first) or player "
                              "names ([] for a draw)", file, value.line_of("winners"))
        if over is False:
            raise ConfigError("'winners' needs the game over", file, value.line_of("winners"))
        over = True
    return Expect("accepted", over=over, winners=None if winners is None else tuple(winners))


def _facts(value: Any, file: str, line: int) -> list[Fact]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise ConfigError("'facts' must be a list", file, line)
    return [_fact(item, file, _line(value, i)) for i, item in enumerate(value)]


def _fact(item: Any, file: str, line: int) -> Fact:
    if not isinstance(item, LineDict):
        raise ConfigError("a fact is a mapping such as {path: a.b, equals: 3}", file, line)
    if "path" in item:
        _check_keys(item, ("path", *PATH_CHECKS), "fact", file)
        raw = item["path"]
        if isinstance(raw, list):
            path = tuple(str(p) for p in raw)
        elif isinstance(raw, str | int):
            path = tuple(p for p in str(raw).split(".") if p != "")
        else:
            raise ConfigError("'path' must be a dotted path (a.b.0) or a list of keys", file,
                              item.line_of("path"))
        checks = [k for k in PATH_CHECKS if k in item]
        if len(checks) != 1:
            raise ConfigError(f"a path fact needs exactly one of {', '.join(PATH_CHECKS)}", file,
                              line)
        check = checks[0]
        value = _plain(item[check])
        if check == "length" and (not isinstance(value, int) or isinstance(value, bool)):
            raise ConfigError("'length' must be a whole number", file, item.line_of(check))
        if check == "exists" and not isinstance(value, bool):
            raise ConfigError("'exists' must be true or false", file, item.line_of(check))
        return Fact(line, "path", value, path, check)
    keys = [k for k in STATE_FACTS if k in item]
    if len(keys) != 1 or len(item) != 1:
        _check_keys(item, ("path", *PATH_CHECKS, *STATE_FACTS), "fact", file)
        raise ConfigError(f"a fact has one of path, {', '.join(STATE_FACTS)}", file, line)
    kind = keys[0]
    value = _plain(item[kind])
    bad = {
        "legal": not isinstance(value, str | int),
        "not_legal": not isinstance(value, str | int),
        "legal_count": not isinstance(value, int) or isinstance(value, bool),
        "current_player": not _is_player(value),
        "over": not isinstance(value, bool),
        "winners": not isinstance(value, list) or not all(_is_player(w) for w in value),
    }[kind]
    if bad:
        raise ConfigError(f"'{kind}' has a value of the wrong kind: {value!r}", file, line)
    if kind in ("legal", "not_legal"):
        value = str(value)
    return Fact(line, kind, value)


def _check_keys(mapping: LineDict, allowed: Sequence[str], what: str, file: str) -> None:
    for key in mapping:
        if key not in allowed:
            raise ConfigError(f"unknown {what} key {key!r}{hint(str(key), allowed)}", file,
                              mapping.line_of(key))


def _line(items: Any, i: int) -> int:
    lines = getattr(items, "lines", None)
    return lines[i] if lines and i < len(lines) else getattr(items, "line", 1)


def _is_player(value: Any) -> bool:
    return (isinstance(value, int) and not isinstance(value, bool)) or isinstance(value, str)


def _plain(value: Any) -> Any:
    """YAML's line-tracking containers as plain dicts and lists."""
    if isinstance(value, LineDict | dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, LineList | list):
        return [_plain(v) for v in value]
    return value


def _names(players: Sequence[int | str]) -> str:
    return ", ".join(str(p) for p in players)


# -- running -----------------------------------------------------------------------------------
def run_scenario(scenario: Scenario, registry: Any = None,
                 time_limit: float | None = None) -> None:
    """Play a scenario; ScenarioFailure says what went differently (and on which line).
    ``time_limit``: the deadline of each call into the game's code (its start, each move
    with its facts, the final facts), reported as a failure of that line."""
    if registry is None:
        registry = plugins.registry()
    try:
        # Files named by the scenario's options must lie beside it (or be installed
        # variants): a scenario file handed over by someone else reads nothing else.
        # The options written in the game string (``hexbaron(setup=...)``) are confined
        # with the others: they come from the same file.
        base_name, inline = plugins.parse_game_string(scenario.game)
        options = confine(base_name, {**inline, **scenario.options},
                          Path(scenario.file).parent, "scenario file")
        game = registry.load_game(base_name, **options)
    except HexkitError as exc:
        raise ScenarioFailure(f"cannot load game {scenario.game}: {exc}", scenario.line) from None
    with _guarded(time_limit, "the starting position", scenario.line):
        state = _start(scenario, game)
    for number, step in enumerate(scenario.steps, start=1):
        with _guarded(time_limit, f"move {number} {step.move!r}", step.line):
            _run_step(state, step, number)
    for fact in scenario.facts:
        with _guarded(time_limit, "the facts at the end", fact.line):
            _check_fact(state, fact, "at the end")


@contextmanager
def _guarded(time_limit: float | None, what: str, line: int) -> Iterator[None]:
    """The game's code under a deadline; a timeout or an attempt to end the process fails
    the scenario at ``line``."""
    from hexkit.loading.deadline import CallTimeout, PluginExit, call_deadline

    try:
        with call_deadline(time_limit, what):
            yield
    except (CallTimeout, PluginExit) as exc:
        raise ScenarioFailure(str(exc), line) from None


def _start(scenario: Scenario, game: Game) -> State:
    if scenario.position_file is not None:
        data = _read_position_file(scenario.position_file, scenario.line)
        if isinstance(data, dict) and data.get("format") == "hexkit-record":
            from hexkit.files.records import GameRecord, replay

            try:
                return replay(GameRecord.from_dict(data, str(scenario.position_file)), game=game)
            except HexkitError as exc:
                raise ScenarioFailure(f"position_file: {exc}", scenario.line) from None
        position: dict[str, Any] | None = data
    else:
        position = scenario.position
    if position is None:
        return game.new_state(seed=scenario.seed)
    try:
        return game.state_from_dict(position)
    except Exception as exc:
        raise ScenarioFailure(
            f"the starting position cannot be loaded: {type(exc).__name__}: {exc}",
            scenario.line,
        ) from None


def _read_position_file(path: Path, line: int) -> Any:
    # Bounded reads: only a regular file (never /dev/zero or a pipe) of limited size.
    try:
        if path.suffix.lower() == ".json":
            from hexkit.files.jsonfile import load_json

            return load_json(path, MAX_DATA_BYTES)
        from hexkit.files.yamlfile import load_yaml

        return _plain(load_yaml(path))
    except ConfigError as exc:
        raise ScenarioFailure(f"position_file {exc}", line) from None


def _run_step(state: State, step: Step, number: int) -> None:
    what = f"move {number} {step.move!r}"

    def fail(message: str) -> ScenarioFailure:
        return ScenarioFailure(f"{what}: {message}", step.line)

    if step.player is not None:
        if state.is_over():
            raise fail(f"expected {_player_text(state, step.player)} to move, "
                       "but the game is over")
        seat = _seat(state, step.player)
        if seat is None:
            raise fail(f"no player {step.player!r} in this game (players: "
                       f"{', '.join(state.players)})")
        if state.current_player != seat:
            raise fail(f"expected {_player_text(state, seat)} to move, but it is "
                       f"{_player_text(state, state.current_player)}'s turn")
    before = state.to_dict()
    expect = step.expect
    try:
        state.push(step.move)
    except (MoveParseError, IllegalMoveError) as exc:
        kind = "unreadable" if isinstance(exc, MoveParseError) else "illegal"
        if state.to_dict() != before:
            raise fail(f"it was refused ({exc}) but refusing it changed the state") from None
        if expect.kind == "accepted":
            raise fail(f"expected {expect.describe()}, but it was refused as {kind}: "
                       f"{exc}") from None
        if expect.kind in ("illegal", "unreadable") and expect.kind != kind:
            raise fail(f"expected {expect.kind}, but it was refused as {kind}: {exc}") from None
        if expect.message and expect.message.lower() not in str(exc).lower():
            raise fail(f"refused as expected, but the reason {str(exc)!r} does not contain "
                       f"{expect.message!r}") from None
    else:
        if expect.kind != "accepted":
            raise fail(f"expected {expect.describe()}, but it was accepted")
        if expect.over is not None and state.is_over() != expect.over:
            actual = _result_text(state)
            raise fail(f"expected {expect.describe()}, but {actual}")
        if expect.winners is not None:
            outcome = state.outcome()
            wanted = _seats(state, expect.winners)
            if outcome is None or set(outcome.winners) != wanted:
                raise fail(f"expected {expect.describe()}, but {_result_text(state)}")
    for fact in step.facts:
        _check_fact(state, fact, f"after {what}")


def _check_fact(state: State, fact: Fact, when: str) -> None:
    def fail(message: str) -> ScenarioFailure:
        return ScenarioFailure(f"{when}: {message}", fact.line)

    kind, value = fact.kind, fact.value
    if kind == "path":
        _check_path(state.to_dict(), fact, fail)
    elif kind in ("legal", "not_legal"):
        try:
            move = state.parse_move(value)
        except MoveParseError as exc:
            raise fail(f"{value!r} cannot be read as a move: {exc}") from None
        legal = move in set(state.legal_moves())
        if kind == "legal" and not legal:
            raise fail(f"{value!r} should be a legal move but is not")
        if kind == "not_legal" and legal:
            raise fail(f"{value!r} should not be a legal move but is")
    elif kind == "legal_count":
        count = len(state.legal_moves())
        if count != value:
            raise fail(f"expected {value} legal moves, found {count}")
    elif kind == "current_player":
        seat = _seat(state, value)
        if state.is_over():
            raise fail(f"expected {_player_text(state, value)} to move, but the game is over")
        if seat != state.current_player:
            raise fail(f"expected {_player_text(state, value)} to move, but it is "
                       f"{_player_text(state, state.current_player)}'s turn")
    elif kind == "over":
        if state.is_over() != value:
            raise fail(f"expected the game {'over' if value else 'not over'}, but "
                       f"{_result_text(state)}")
    elif kind == "winners":
        outcome = state.outcome()
        if outcome is None or set(outcome.winners) != _seats(state, value):
            wanted = "a draw" if not value else f"won by {_names(value)}"
            raise fail(f"expected the game {wanted}, but {_result_text(state)}")


_MISSING = object()


def _check_path(data: Any, fact: Fact, fail: Any) -> None:
    node: Any = data
    shown = ".".join(fact.path) or "(the whole state)"
    for i, key in enumerate(fact.path):
        node = _step_into(node, key)
        if node is _MISSING:
            if fact.check == "exists" and fact.value is False:
                return
            where = ".".join(fact.path[: i + 1])
            raise fail(f"path {shown}: {where} is not in to_dict()")
    if fact.check == "exists":
        if not fact.value:
            raise fail(f"path {shown} should not exist, but is {_short(node)}")
    elif fact.check == "equals":
        if not _same(node, fact.value):
            raise fail(f"path {shown} is {_short(node)}, expected {_short(fact.value)}")
    elif fact.check == "length":
        try:
            size = len(node)
        except TypeError:
            raise fail(f"path {shown} is {_short(node)}, which has no length") from None
        if size != fact.value:
            raise fail(f"path {shown} has length {size}, expected {fact.value}")
    elif fact.check == "contains":
        if isinstance(node, str):
            found = isinstance(fact.value, str) and fact.value in node
        elif isinstance(node, dict):
            found = fact.value in node
        elif isinstance(node, list):
            found = any(_same(item, fact.value) for item in node)
        else:
            raise fail(f"path {shown} is {_short(node)}, which cannot contain anything")
        if not found:
            raise fail(f"path {shown} is {_short(node)}, which does not contain "
                       f"{_short(fact.value)}")


def _step_into(node: Any, key: str) -> Any:
    if isinstance(node, dict):
        if key in node:
            return node[key]
        return _MISSING
    if isinstance(node, list):
        try:
            index = int(key)
        except ValueError:
            return _MISSING
        if -len(node) <= index < len(node):
            return node[index]
    return _MISSING


def _same(a: Any, b: Any) -> bool:
    # JSON has no tuples; a game's to_dict may still hand them out.
    if isinstance(a, tuple | list) and isinstance(b, tuple | list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b if isinstance(a, bool) and isinstance(b, bool) else False
    return bool(a == b)


def _short(value: Any) -> str:
    text = json.dumps(value, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def _seat(state: State, player: int | str) -> int | None:
    if isinstance(player, int):
        return player if 0 <= player < len(state.players) else None
    low = player.strip().lower()
    for seat, name in enumerate(state.players):
        if name.lower() == low:
            return seat
    return None


def _seats(state: State, players: Sequence[int | str]) -> set[int | None]:
    return {_seat(state, p) for p in players}


def _player_text(state: State, player: int | str) -> str:
    seat = _seat(state, player)
    return f"{state.players[seat]} (seat {seat})" if seat is not None else repr(player)


def _result_text(state: State) -> str:
    if not state.is_over():
        return "the game is not over"
    outcome = state.outcome()
    if outcome is None:
        return "the game is over without an outcome"
    if outcome.is_draw:
        return f"it is a draw ({outcome.reason})"
    names = ", ".join(f"{state.players[w]} (seat {w})" for w in outcome.winners)
    return f"it was won by {names} ({outcome.reason})"


# -- the command -------------------------------------------------------------------------------
