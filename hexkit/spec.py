"""What a plugin declares, as plain data: a game's options and console words, the values
every game plays with (:class:`Move`, :class:`Outcome`), and its bots' playout policy and
named levels (:class:`PlayoutPolicy`, :class:`Level`).

:class:`~hexkit.game.GameSpec`, which also builds its :class:`~hexkit.game.Game`, is in
:mod:`hexkit.game`; ``hexkit.game`` and ``hexkit`` re-export every name here. Nothing here
imports a game, the state kit or the bots, so the plugin loader checks what a plugin
registers without importing them.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, TypeVar

from hexkit.errors import OptionError, PluginError

JSON = Any


def _parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


def _shown(value: Any) -> str:
    """A value as an error message quotes it: cut short (an option of thousands of digits
    still gets a one-line message a person can read)."""
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:30]}... ({len(text)} characters)"


@dataclass(frozen=True)
class Option:
    """One game option: name, default, help, type (int, str, bool or float), and the values
    it may take: a tuple of ``choices``, or ``bounds`` ``(lowest, highest)`` for numbers.

    ``names_file`` marks an option whose value may be a file path (a variant, set-up or
    config file): a path is accepted only from the operator's own command line; from a web
    request or an uploaded record only installed variant names are."""

    name: str
    default: Any
    help: str = ""
    type: type = str
    choices: tuple[Any, ...] | None = None
    bounds: tuple[Any, Any] | None = None
    names_file: bool = False

    def coerce(self, value: Any) -> Any:
        """Convert a value (often text from the command line) to this option's type."""
        try:
            if isinstance(value, str) and self.type in (int, float) and not value.isascii():
                raise ValueError(f"not ASCII digits: {value!r}")  # int("٣") is 3 to Python
            if self.type is int and isinstance(value, float):
                if not value.is_integer():  # 3.5 is not 3
                    raise ValueError(f"not a whole number: {value!r}")
                value = int(value)
            if isinstance(value, str) and self.type is not str:
                value = _parse_bool(value) if self.type is bool else self.type(value.strip())
            elif self.type is bool and not isinstance(value, bool):
                raise ValueError(f"expected true or false, got {value!r}")
            elif self.type in (int, float) and isinstance(value, bool):
                raise ValueError(f"expected a number, got {value!r}")
            elif not isinstance(value, self.type):
                value = self.type(value)
        except (TypeError, ValueError) as exc:
            raise OptionError(
                f"option {self.name}: {_shown(value)} is not a valid {self.type.__name__}"
            ) from exc
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {_shown(value)} is not one of {allowed}")
        if self.bounds is not None and value is not None:
            low, high = self.bounds
            if not low <= value <= high:
                raise OptionError(f"option {self.name}: {value!r} is outside {low}..{high}")
        return value


#: A front-end takes over the terminal for a game (e.g. Hex Baron's classic console).
Frontend = Callable[..., int]


@dataclass(frozen=True)
class ConsoleCommand:
    """An extra word the game adds to ``hexkit play`` (e.g. Hex Baron's ``ids``).

    ``run(state, argument_text)`` returns a message to print; it raises HexkitError (or
    OSError) for a user error. It may change the state only through push/pop. ``run`` may
    be given as ``"package.module:function"``: it is imported when the word is first used.
    """

    name: str
    help: str
    #: The state is the game's own (a HexBaronState...): typed Any, because a Callable's
    #: parameter cannot be narrower than the type it is given as.
    run: Callable[[Any, str], str]

    if TYPE_CHECKING:  # the constructor also takes a reference, made a function below
        def __init__(self, name: str, help: str,
                     run: Callable[[Any, str], str] | str) -> None: ...

    def __post_init__(self) -> None:
        if isinstance(self.run, str):
            object.__setattr__(self, "run", _LazyFunction(self.run))


class _LazyFunction:
    """A function named ``"package.module:function"``, imported on the first call."""

    __slots__ = ("reference", "_function")

    def __init__(self, reference: str):
        self.reference = reference
        self._function: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._function is None:
            self._function = import_object(self.reference)
        return self._function(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<function {self.reference}>"


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seats (empty for a draw) and a short reason."""

    winners: tuple[int, ...]
    reason: str

    @property
    def is_draw(self) -> bool:
        """True when nobody won."""
        return not self.winners

    def to_dict(self) -> dict[str, JSON]:
        """JSON-safe form."""
        return {"winners": list(self.winners), "reason": self.reason}

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Outcome:
        """Inverse of :meth:`to_dict`."""
        return cls(tuple(int(w) for w in d["winners"]), str(d["reason"]))


class Move:
    """Base of every game's move type. Subclasses are small frozen dataclasses.

    ``str(move)`` is the notation a person types and round-trips through
    :meth:`State.parse_move`; moves compare by value and hash.
    """

    __slots__ = ()

    # Moves are immutable values: copies of a state share them.
    def __copy__(self) -> Move:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Move:
        return self

    def __reduce_ex__(self, protocol: Any) -> str | tuple[Any, ...]:
        # A dataclass move pickles as its class and its fields' values: for a frozen one,
        # several times faster to write and to read than pickle's generic way (a long move
        # stack is most of a state's pickle). Other moves are pickled the generic way.
        values = _MOVE_VALUES.get(type(self))
        if values is None:
            values = _MOVE_VALUES[type(self)] = _field_values(type(self))
        if values is _GENERIC:
            return super().__reduce_ex__(protocol)
        return (type(self), values(self))


def _GENERIC(move: Move) -> tuple[Any, ...]:
    """Marks a move class pickled pickle's generic way."""
    raise AssertionError("not called")


#: Per move class: a function giving the values its constructor takes, in order, or
#: _GENERIC when the class is not a plain dataclass.
_MOVE_VALUES: dict[type, Callable[[Any], tuple[Any, ...]]] = {}


def _field_values(cls: type) -> Callable[[Any], tuple[Any, ...]]:
    """``attrgetter`` of the fields ``cls(*values)`` takes, for a dataclass whose
    constructor only stores them (no ``__post_init__``, no keyword-only or excluded
    field); else _GENERIC."""
    import dataclasses
    from operator import attrgetter

    params = getattr(cls, "__dataclass_params__", None)
    if not dataclasses.is_dataclass(cls) or hasattr(cls, "__post_init__") \
            or params is None or not params.init:
        return _GENERIC
    fields = dataclasses.fields(cls)
    if not all(f.init and not f.kw_only for f in fields):
        return _GENERIC
    if len(fields) == 1:
        one = attrgetter(fields[0].name)
        return lambda move: (one(move),)
    if not fields:
        return lambda move: ()
    return attrgetter(*(f.name for f in fields))


def describe_outcome(players: Sequence[str], outcome: Outcome) -> str:
    """``Game over: BLUE wins (RED's butterfly is surrounded).`` or ``...: a draw (...).``"""
    if outcome.is_draw:
        return f"Game over: a draw ({outcome.reason})."
    names = " and ".join(players[w] for w in outcome.winners)
    verb = "wins" if len(outcome.winners) == 1 else "win"
    return f"Game over: {names} {verb} ({outcome.reason})."


def import_object(reference: str) -> Any:
    """The object named ``"package.module:name"`` (imported on first use, so that a plugin
    can name its game's classes without importing its rules at start-up)."""
    module_name, _, attribute = reference.partition(":")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise PluginError(f"cannot import {reference!r}: {type(exc).__name__}: {exc}") from None


# A game's functions take its own state and moves (a HexAroundState, a Sequence[Place]):
# they are typed Any below, because a Callable's parameters cannot be narrower than the
# type it is given as (State, Sequence[Move]).

#: ``choose(state, legal_moves, rng) -> move`` picks a playout move.
PlayoutChooser = Callable[[Any, Any, random.Random], Move]
#: ``evaluate(state) -> per-seat rewards in 0..1`` scores an unfinished playout.
Evaluator = Callable[[Any], Sequence[float]]
#: ``may_win(state) -> moves or None``: the moves of the player to act that might win at
#: once, a superset of those that do (None: any move might; the bot tries them all).
WinFilter = Callable[[Any], "Iterable[Move] | None"]
#: ``shortlist(state, legal_moves) -> moves``: the moves worth searching here, by the game's
#: own tactics (a non-empty subset of ``legal_moves``, or all of them).
Shortlist = Callable[[Any, Any], Sequence[Move]]

F = TypeVar("F", bound=Callable[..., Any])


#: The bot that plays a game's named levels: ``bot:easy`` (:mod:`hexkit.bots.levels`).
LEVEL_BOT = "bot"
#: The most levels a game may register.
MAX_LEVELS = 9


@dataclass(frozen=True)
class Level:
    """A named strength of a game's bot: ``bot`` is the seat spec that plays it (e.g.
    ``mcts:400`` or ``hive:depth=2``), ``about`` says in a few words what it is."""

    bot: str
    about: str = ""


@dataclass(frozen=True)
class PlayoutPolicy:
    """A game's help for its bots, registered by the game's plugin.

    ``game`` is the registered game name it applies to. Every field is optional:

    * ``choose`` replaces the uniform random playout move;
    * ``evaluate`` scores a position when a playout stops at ``depth`` moves (per seat,
      0..1, e.g. a material estimate) instead of calling it a draw; ``depth`` overrides the
      default playout length;
    * ``may_win`` makes the tactical layer cheap where trying every move is slow: it names
      the moves of the player to act that *might* win at once (a superset of those that do:
      the bot plays each to check), e.g. the moves onto the last free hex around a Queen;
      it may return None when it cannot tell;
    * ``quick_win``, where ``may_win`` itself is costly, names some of those moves cheaply
      (a position at a time may miss a win): searches and playouts use it at every node,
      the tactical layer narrows the root's moves by it, and ``may_win`` then confirms only
      the move the bot is about to play (HexAround's win by leaving the other player no
      action, which ``may_win`` finds by playing every move);
    * ``shortlist`` is the game's own tactics beyond one move (Hex Baron's defence of a
      threatened baron over a three-command turn): the moves the bot should choose among;
    * ``levels`` are the game's named bot strengths, weakest first (1..5; easy, medium and
      hard are the first, middle and last): see :mod:`hexkit.bots.levels`.

    ``choose``, ``evaluate``, ``may_win``, ``quick_win`` and ``shortlist`` may be
    ``"package.module:function"`` references.
    """

    game: str
    choose: PlayoutChooser | str | None = None
    evaluate: Evaluator | str | None = None
    depth: int | None = None
    plugin: str = ""
    may_win: WinFilter | str | None = None
    shortlist: Shortlist | str | None = None
    levels: tuple[Level, ...] = ()
    quick_win: WinFilter | str | None = None

    def resolved(self) -> PlayoutPolicy:
        """This policy with its function references imported."""
        changes = {}
        for name in ("choose", "evaluate", "may_win", "quick_win", "shortlist"):
            value = getattr(self, name)
            if isinstance(value, str):
                changes[name] = import_object(value)
        return replace(self, **changes) if changes else self


def function(value: F | str | None) -> F | None:
    """A policy's function: ``value`` itself, or the function a ``"package.module:function"``
    reference names (imported now), or None."""
    return import_object(value) if isinstance(value, str) else value


def check_levels(levels: Any) -> str | None:
    """Why a registered ``levels`` value cannot be used (None if it can)."""
    if not isinstance(levels, tuple):
        return f"levels must be a tuple of Level, not {type(levels).__name__}"
    if len(levels) > MAX_LEVELS:
        return f"at most {MAX_LEVELS} levels, not {len(levels)}"
    for i, level in enumerate(levels, 1):
        if not isinstance(level, Level) or not isinstance(level.bot, str) or not level.bot:
            return f"level {i} is not a Level with a bot spec"
        if level.bot.partition(":")[0].strip().lower() == LEVEL_BOT:
            return f"level {i} names the level bot itself ({level.bot!r})"
    return None
