"""The referee: plays one game between bots from plain data and adjudicates it.

A :class:`GameTask` holds everything a game needs (game name and options, one bot spec and
seed per seat, the state's seed, limits), so any process on any machine with the same
plugins installed rebuilds the game and its bots by name and plays the same moves.
:func:`play_game` returns a :class:`GameReport` in terms of seats:

* the game ends by its rules: its outcome;
* ``max_moves`` moves are played: a draw ("stopped after N moves");
* a bot raises (or fails to start), returns something that is not a legal move, or takes
  longer than ``time_per_move`` seconds for one move: that bot loses, the others share the
  win, and the report says which bot and why (``fault``);
* the rules themselves fail (a plugin bug), or one call into them runs longer than
  ``time_limit`` seconds (a loop in a plugin's ``apply``): the game is an ``error`` and
  counts for no one.

The per-move time limit is a ``SIGALRM`` timer in the thread that plays (the main thread of
a worker process, a Ray worker or the command line), so it stops a bot stuck in Python code
or waiting on an engine's pipe. It raises :class:`MoveTimeout`, a ``BaseException``, so a
bot's ``except Exception`` cannot swallow it. Where no timer is available (another
thread), a move that returns late is still judged late.
"""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from typing import Any

from hexkit import plugins
from hexkit.bots import make_bot
from hexkit.errors import HexkitError
from hexkit.game import Game, Move
from hexkit.loading.deadline import CallTimeout, PluginExit, call_deadline, guarded, timeout_message

#: Fault kinds: why a bot lost a game it did not finish.
TIME, ILLEGAL, CRASH = "time", "illegal", "crash"


class MoveTimeout(BaseException):
    """A bot's move ran over the time limit (raised inside ``choose``)."""


@dataclass(frozen=True)
class GameTask:
    """One game as plain data (JSON-safe): what a worker needs to play it."""

    key: str  # the game's id in its match or tournament
    game: str
    options_json: str  # the game's non-default options, JSON with sorted keys
    specs: tuple[str, ...]  # bot spec per seat
    state_seed: int
    bot_seeds: tuple[int, ...]  # per seat
    max_moves: int
    time_per_move: float = 0.0  # seconds; 0: no limit
    keep_moves: bool = False  # return the moves (to save a record)
    plugin_dirs: tuple[str, ...] = ()
    time_limit: float = 0.0  # seconds for one call into the rules; 0: no limit

    def to_dict(self) -> dict[str, Any]:
        """Plain data for another process or machine."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameTask:
        """The task :meth:`to_dict` described."""
        data = dict(data)
        for name in ("specs", "bot_seeds", "plugin_dirs"):
            data[name] = tuple(data[name])
        return cls(**data)


@dataclass(frozen=True)
class Fault:
    """Why a bot lost: ``kind`` is time, illegal or crash; ``detail`` says what happened."""

    seat: int
    kind: str
    detail: str


@dataclass(frozen=True)
class GameReport:
    """How one game went, in terms of seats."""

    key: str
    winners: tuple[int, ...] = ()  # seats; empty for a draw
    reason: str = ""
    moves: int = 0
    unfinished: bool = False  # stopped at the move cap: a draw
    fault: Fault | None = None  # a bot lost by adjudication
    error: str = ""  # the game could not be played (rules bug, worker lost): no result
    move_list: tuple[str, ...] = ()  # only when the task asked to keep them
    outcome: dict[str, Any] | None = None  # the game's own Outcome.to_dict(), if it ended
    game_version: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """Plain data for another process or machine."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameReport:
        """The report :meth:`to_dict` described."""
        data = dict(data)
        data["winners"] = tuple(data["winners"])
        data["move_list"] = tuple(data["move_list"])
        if data.get("fault") is not None:
            data["fault"] = Fault(**data["fault"])
        return cls(**data)


def faulted(task: GameTask, seat: int, kind: str, detail: str, moves: int,
            move_list: tuple[str, ...] = (), seconds: float = 0.0,
            game_version: str = "") -> GameReport:
    """The report of a game that ``seat``'s bot lost by ``kind``: the others share the win."""
    bot = task.specs[seat]
    reason = {
        TIME: f"{bot} (seat {seat + 1}) ran out of time: {detail}",
        ILLEGAL: f"{bot} (seat {seat + 1}) played an illegal move: {detail}",
        CRASH: f"{bot} (seat {seat + 1}) crashed: {detail}",
    }[kind]
    others = tuple(s for s in range(len(task.specs)) if s != seat)
    return GameReport(task.key, others, reason, moves, fault=Fault(seat, kind, detail),
                      move_list=move_list, game_version=game_version, seconds=seconds)


# -- the clock ---------------------------------------------------------------------------------
class _Alarm:
    """A one-shot ``SIGALRM`` timer that raises :class:`MoveTimeout` while armed for a
    bot's move, or :class:`~hexkit.loading.deadline.CallTimeout` while armed for calls into the
    rules. (A bot or game that ends its process is left to do so: a worker process that
    dies is replaced and its game played again.)"""

    def __init__(self) -> None:
        self.armed = False
        self.usable = False
        self._rules: tuple[float, Callable[[], str]] | None = None

    def _fire(self, signum: int, frame: Any) -> None:
        if self._rules is not None:
            seconds, what = self._rules
            self._rules = None
            raise CallTimeout(timeout_message(what(), seconds))
        if self.armed:
            self.armed = False
            raise MoveTimeout()

    @contextmanager
    def installed(self) -> Iterator[bool]:
        """Install the handler for one game; yields whether timers are available here."""
        with guarded(self._fire, lambda: "the game", exits=False) as usable:
            self.usable = usable
            try:
                yield usable
            finally:
                self.armed = False
                self._rules = None
                self.usable = False

    def start(self, seconds: float) -> None:
        self.armed = True
        self._rules = None
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def rules(self, seconds: float, what: Callable[[], str]) -> None:
        """Arm for calls into the rules (no limit: stop); ``what()`` names the call."""
        if seconds and self.usable:
            self.armed = False
            self._rules = (seconds, what)
            signal.setitimer(signal.ITIMER_REAL, seconds)
        else:
            self.stop()

    def stop(self) -> None:
        if self.armed or self._rules is not None:
            self.armed = False
            self._rules = None
            signal.setitimer(signal.ITIMER_REAL, 0)


# -- playing ------------------------------------------------------------------------------------
_games: dict[tuple[str, str], Game] = {}


def game_for(task: GameTask) -> Game:
    """The task's game, built once per process (workers rebuild the plugin registry from the
    task's plugin folders the first time)."""
    key = (task.game, task.options_json)
    if key not in _games:
        if task.plugin_dirs and list(task.plugin_dirs) != plugins._plugin_dirs:
            plugins.configure(task.plugin_dirs)
        _games[key] = plugins.load_game(task.game, **json.loads(task.options_json))
    return _games[key]


def remember_game(game: Game, options_json: str) -> None:
    """Use ``game`` in this process for tasks naming it with these options (the driver's own
    game object, which may come from a registry other than the process-wide one)."""
    _games[(game.name, options_json)] = game


#: Called before each bot move (seat, moves so far) and after it (moves so far).
MoveWatch = Callable[[int, int], None]


def play_game(task: GameTask, watch: MoveWatch | None = None,
              on_moved: Callable[[str], None] | None = None) -> GameReport:
    """Play ``task`` to its end or adjudication. Never raises for a bot's or the rules'
    failure (they are in the report); ``KeyboardInterrupt`` passes through. ``on_moved``
    gets each move's text as it is played (a worker tells its driver, so that a game whose
    process is stopped from outside still has its moves)."""
    started = time.perf_counter()
    moves: list[Move] = []
    try:
        game = game_for(task)
        with call_deadline(task.time_limit, "the game's start"):
            state = game.new_state(seed=task.state_seed)
        if len(state.players) != len(task.specs):
            raise HexkitError(f"{game} has {len(state.players)} seats but "
                              f"{len(task.specs)} bots were given")
    except Exception as exc:
        return GameReport(task.key, error=f"{type(exc).__name__}: {exc}")
    version = game.spec.version
    bots: list[Any] = []
    alarm = _Alarm()

    def report(**kw: Any) -> GameReport:
        listed = tuple(str(m) for m in moves) if task.keep_moves else ()
        return GameReport(task.key, move_list=listed, game_version=version,
                          seconds=time.perf_counter() - started, **kw)

    def lost(seat: int, kind: str, detail: str) -> GameReport:
        listed = tuple(str(m) for m in moves) if task.keep_moves else ()
        return faulted(task, seat, kind, detail, len(moves), listed,
                       time.perf_counter() - started, version)

    rules = task.time_limit
    playing: list[Move] = []  # the move being played, while it is

    def calling() -> str:
        if playing:
            return f"move {len(moves) + 1} {str(playing[0])!r}"
        return f"after move {len(moves)}" if moves else "at the start"

    try:
        with alarm.installed() as timed:
            for seat, spec in enumerate(task.specs):
                try:
                    # The specs were checked where they entered (the command line, or a
                    # resumed database re-checked against it: Tournament.prepare).
                    bots.append(make_bot(game, spec, task.bot_seeds[seat],
                                         from_operator=True))
                except Exception as exc:
                    return lost(seat, CRASH, f"could not start: {_describe(exc)}")
            limit = task.time_per_move
            # The rules' deadline runs from here to each bot's move and again from its end
            # (one timer: a bot's own clock, or none, replaces it while the bot thinks).
            alarm.rules(rules, calling)
            while len(moves) < task.max_moves:
                try:
                    if state.is_over():
                        break
                    seat = state.current_player
                except Exception as exc:
                    return report(error=f"rules failed: {_describe(exc)}")
                if watch:
                    watch(seat, len(moves))
                move_started = time.perf_counter()
                try:
                    if limit and timed:
                        alarm.start(limit)
                    else:
                        alarm.stop()
                    move = bots[seat].choose(state)
                    alarm.rules(rules, calling)
                except MoveTimeout:
                    return lost(seat, TIME, f"no move within {limit:g} s")
                except Exception as exc:
                    alarm.stop()
                    return lost(seat, CRASH, _describe(exc))
                took = time.perf_counter() - move_started
                if limit and took > limit:
                    return lost(seat, TIME, f"took {took:.1f} s for one move "
                                            f"(limit {limit:g} s)")
                playing[:] = [move]
                try:
                    problem = _push(state, move)
                except CallTimeout as exc:
                    return report(error=f"rules failed: {exc}")
                playing.clear()
                if problem is not None:
                    kind, detail = problem
                    if kind == "rules":
                        return report(error=f"rules failed: {detail}")
                    return lost(seat, ILLEGAL, detail)
                moves.append(move)
                if on_moved:
                    on_moved(str(move))
                if watch:
                    watch(-1, len(moves))
            try:
                outcome = state.outcome()
            except Exception as exc:
                return report(error=f"rules failed: {_describe(exc)}")
            finally:
                alarm.stop()
            if outcome is None:
                return report(reason=f"stopped after {len(moves)} moves", moves=len(moves),
                              unfinished=True)
            return report(winners=tuple(sorted(outcome.winners)), reason=outcome.reason,
                          moves=len(moves), outcome=outcome.to_dict())
    finally:
        for bot in bots:
            _close(bot)


def _push(state: Any, move: Any) -> tuple[str, str] | None:
    """Play a bot's move; ("illegal", why) if it is not a legal move here, ("rules", why) if
    the rules failed on it, None if it was played."""
    if isinstance(move, str):
        try:
            move = state.parse_move(move)
        except (CallTimeout, PluginExit):
            raise
        except HexkitError as exc:
            return "illegal", f"{move!r}: {exc}"
        except Exception as exc:
            return "rules", _describe(exc)
    if not isinstance(move, Move):
        return "illegal", f"returned {_short(move)}, not a move"
    try:
        state.push(move)
    except (CallTimeout, PluginExit):
        raise
    except HexkitError as exc:
        return "illegal", f"{move}: {exc}"
    except Exception as exc:
        return "rules", _describe(exc)
    return None


def _describe(exc: BaseException) -> str:
    if isinstance(exc, CallTimeout):
        return str(exc)  # it names the call
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _close(bot: Any) -> None:
    """Release what a bot holds (an engine process); a failure here changes no result."""
    close = getattr(bot, "close", None)
    if callable(close):
        try:
            close()
        except Exception:
            pass


