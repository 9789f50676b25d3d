"""The generic game API that every plugin implements and every service uses.

A plugin describes a game with a :class:`GameSpec` (metadata and options as data) and
implements :class:`Game` (a rules configuration: the spec plus resolved option values) and
:class:`State` (a mutable position with a move stack, python-chess style).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexkit.errors import HexkitError, OptionError
from hexkit.view import BoardView

JSON = Any


def _parse_bool(text: str) -> bool:
    low = text.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"expected true or false, got {text!r}")


@dataclass(frozen=True)
class Option:
    """One game option: name, default, type (int, str, bool or float), allowed values, help."""

    name: str
    default: Any
    help: str = ""
    type: type = str
    choices: tuple[Any, ...] | None = None

    def coerce(self, value: Any) -> Any:
        """Convert a value (often text from the command line) to this option's type."""
        try:
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
                f"option {self.name}: {value!r} is not a valid {self.type.__name__}"
            ) from exc
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name}: {value!r} is not one of {allowed}")
        return value


#: A front-end takes over the terminal for a game (e.g. Hex Baron's classic console).
Frontend = Callable[..., int]


@dataclass(frozen=True)
class ConsoleCommand:
    """An extra word the game adds to ``hexkit play`` (e.g. Hex Baron's ``save FILE``).

    ``run(state, argument_text)`` returns a message to print; it raises HexkitError (or
    OSError) for a user error. It may change the state only through push/pop.
    """

    name: str
    help: str
    run: Callable[[State, str], str]


@dataclass(frozen=True)
class GameSpec:
    """A game's declarative metadata, registered by its plugin.

    ``factory(spec, options)`` builds the :class:`Game`; ``options`` maps every declared
    option name to its coerced value (defaults filled in). A :class:`Game` subclass whose
    ``__init__`` takes ``(spec, options)`` is a valid factory.
    """

    name: str
    description: str
    factory: Callable[[GameSpec, dict[str, Any]], Game]
    options: tuple[Option, ...] = ()
    min_players: int = 2
    max_players: int = 2
    version: str = "1"
    #: Rules summary shown by ``hexkit rules GAME``.
    rules: str = ""
    #: Named front-ends, called as ``frontend(game, seed=, stdin=, stdout=, stderr=) -> int``.
    frontends: Mapping[str, Frontend] = field(default_factory=dict)
    #: Extra words for the ``hexkit play`` loop, beside help/undo/quit.
    console_commands: tuple[ConsoleCommand, ...] = ()
    #: Filled in by the plugin manager: the plugin (distribution or module) that registered it.
    plugin: str = ""
    plugin_version: str = ""

    def option(self, name: str) -> Option:
        """The declared option of that name (OptionError if unknown)."""
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise OptionError(f"game {self.name} has no option {name!r} (options: {known})")

    def resolve(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Defaults overlaid with the given options, each checked and coerced."""
        values = {o.name: o.default for o in self.options}
        for key, value in given.items():
            values[key] = self.option(key).coerce(value)
        return values


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


class Game(ABC):
    """A game with its options fixed. Makes states; is immutable and shareable."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]):
        self.spec = spec
        self.options: dict[str, Any] = dict(options)

    @property
    def name(self) -> str:
        """The registered game name."""
        return self.spec.name

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """The starting position; ``seed`` seeds the state's own random generator."""

    @abstractmethod
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output (its move stack starts empty)."""

    def non_default_options(self) -> dict[str, Any]:
        """Options that differ from the spec's defaults, in declaration order."""
        return {
            o.name: self.options[o.name]
            for o in self.spec.options
            if o.name in self.options and self.options[o.name] != o.default
        }

    def __str__(self) -> str:
        """The canonical game string, e.g. ``focus(board=cross,players=4)``."""
        opts = self.non_default_options()
        if not opts:
            return self.name
        inner = ",".join(f"{k}={_format_value(v)}" for k, v in opts.items())
        return f"{self.name}({inner})"

    def __repr__(self) -> str:
        return f"<Game {self}>"


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class State(ABC):
    """A mutable position with a move stack. Subclasses implement the abstract methods.

    :meth:`push` accepts a :class:`Move` or its text; an illegal move raises
    :class:`~hexkit.errors.IllegalMoveError` and leaves the state exactly as it was.
    """

    game: Game
    #: The state's own random generator: the only source of randomness in rules.
    rng: random.Random
    #: Moves pushed since the state was created, oldest first.
    move_stack: list[Move]

    # -- players -----------------------------------------------------------------------
    @property
    @abstractmethod
    def players(self) -> tuple[str, ...]:
        """Display names of the seats, in seat order."""

    @property
    @abstractmethod
    def current_player(self) -> int:
        """Seat index of the player to act (any seat may act first where the rules allow
        it; then this is the seat the game proposes, usually 0)."""

    # -- moves -------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> Sequence[Move]:
        """Every legal move for the player to act; non-empty unless the game is over."""

    @abstractmethod
    def parse_move(self, text: str) -> Move:
        """Read a move in the game's notation (MoveParseError if it cannot be read).

        Parsing checks syntax only; whether the move is legal is :meth:`push`'s business.
        """

    def push(self, move: Move | str) -> None:
        """Play a move (or its text). IllegalMoveError, state unchanged, if not allowed."""
        if isinstance(move, str):
            move = self.parse_move(move)
        self._push(move)
        self.move_stack.append(move)

    def pop(self) -> Move:
        """Undo the last move pushed and return it."""
        if not self.move_stack:
            raise HexkitError("there is no move to undo")
        self._pop()
        return self.move_stack.pop()

    @abstractmethod
    def _push(self, move: Move) -> None:
        """Check and apply a move, keeping what :meth:`_pop` needs to undo it.

        Raise IllegalMoveError (with a message saying why) before changing anything."""

    @abstractmethod
    def _pop(self) -> None:
        """Undo the most recent :meth:`_push` exactly (random generator state included)."""

    # -- state -------------------------------------------------------------------------
    @abstractmethod
    def copy(self) -> State:
        """An independent copy (move stack included, so it can pop too)."""

    @abstractmethod
    def is_over(self) -> bool:
        """True when the game has ended."""

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    @abstractmethod
    def to_dict(self) -> dict[str, JSON]:
        """The position as JSON-safe data (random generator state included); exact round
        trip through :meth:`Game.state_from_dict`."""

    @abstractmethod
    def render(self) -> str:
        """The position as plain text for a terminal."""

    @abstractmethod
    def view(self) -> BoardView:
        """The position as a game-neutral picture for renderers."""

    # -- optional hooks for services ---------------------------------------------------
    def move_help(self) -> str:
        """How to type a move in this game (shown by ``help`` in ``hexkit play``)."""
        return ""

    def _repr_svg_(self) -> str:
        """SVG picture for Jupyter notebooks."""
        from hexkit.render.svg import render_svg

        return render_svg(self.view())

    def __str__(self) -> str:
        return self.render()


def rng_to_json(rng: random.Random) -> list[Any]:
    """A random generator's full state as JSON-safe data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    """Rebuild a random generator from :func:`rng_to_json` output."""
    rng = random.Random()
    try:
        version, internal, gauss = data
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"invalid random generator state: {exc}") from exc
    return rng

