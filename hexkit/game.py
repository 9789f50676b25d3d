"""The generic game API that every plugin implements and every service uses.

A plugin describes a game with a :class:`GameSpec` (metadata and options as data) and
implements :class:`Game` (a rules configuration: the spec plus resolved option values) and
:class:`State` (a mutable position with a move stack, python-chess style).
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Generic, Self, final

from hexkit.errors import HexkitError, OptionError, RecordError
from hexkit.kit.rng import KitRandom
from hexkit.kit.rng import rng_copy as rng_copy
from hexkit.kit.rng import rng_from_json as rng_from_json
from hexkit.kit.rng import rng_to_json as rng_to_json
from hexkit.spec import ConsoleCommand as ConsoleCommand
from hexkit.spec import Frontend as Frontend
from hexkit.spec import Move as Move
from hexkit.spec import Option as Option
from hexkit.spec import Outcome as Outcome
from hexkit.spec import describe_outcome as describe_outcome
from hexkit.spec import import_object as import_object

# The state kit's parts are imported when a state is made, not with the game specs: every
# ``hexkit`` command imports this module, and most never make a state.
if TYPE_CHECKING:
    import numpy

    from hexkit.kit.actions import ActionSpace
    from hexkit.kit.events import GameEvent
    from hexkit.kit.gestures import Gesture, Origin
    from hexkit.kit.observation import ViewPlanes
    from hexkit.kit.turns import TurnOrder
    from hexkit.kit.undo import Journal
    from hexkit.kit.view import BoardView
    from hexkit.render.text import StyledText

JSON = Any

# A state is generic in its game and its move type, ``State[MyGame, MyMove]``; plain
# ``State`` means any game's state (``State[Game, Move]``). Both parameters are covariant,
# so a function written for ``State`` takes every game's state: a state's moves come from
# its own legal_moves() or parse_move(), and apply() refuses any other (IllegalMoveError).
# Type-parameter defaults (PEP 696) are in ``typing`` from Python 3.13; type checkers read
# them from typing_extensions, which hexkit does not need at run time.
if TYPE_CHECKING:
    from typing_extensions import TypeVar

    G = TypeVar("G", bound="Game", covariant=True, default="Game")
    M = TypeVar("M", bound="Move", covariant=True, default="Move")
else:
    from typing import TypeVar

    G = TypeVar("G", bound="Game", covariant=True)
    M = TypeVar("M", bound="Move", covariant=True)


@dataclass(frozen=True)
class GameSpec:
    """A game's declarative metadata, registered by its plugin.

    ``factory(spec, options)`` builds the :class:`Game`; ``options`` maps every declared
    option name to its coerced value (defaults filled in). A :class:`Game` subclass whose
    ``__init__`` takes ``(spec, options)`` is a valid factory.
    """

    name: str
    description: str
    #: ``factory(spec, options) -> Game``, or ``"package.module:GameClass"`` to import the
    #: game's rules only when a game is built (plugins load faster).
    factory: Callable[[GameSpec, dict[str, Any]], Game] | str
    options: tuple[Option, ...] = ()
    min_players: int = 2
    max_players: int = 2
    version: str = "1"
    #: Display names of the seats (default ``Player 1``, ``Player 2``...).
    player_names: tuple[str, ...] = ()
    #: Rules summary shown by ``hexkit rules GAME``.
    rules: str = ""
    #: Named front-ends (``hexkit play --frontend NAME``), each a function or a
    #: ``"package.module:function"`` reference, called as
    #: ``frontend(game, seed=, stdin=, stdout=, stderr=) -> int``.
    frontends: Mapping[str, Frontend | str] = field(default_factory=dict)
    #: Extra words for the ``hexkit play`` loop, beside help/undo/quit.
    console_commands: tuple[ConsoleCommand, ...] = ()
    #: Filled in by the plugin manager: the plugin (distribution or module) that registered it.
    plugin: str = ""
    plugin_version: str = ""
    #: Filled in by the plugin manager: the pluggy manager of the registry that holds the
    #: spec, for games that call hooks of their own once when a game is built (Hex Baron's
    #: extensions). None for a spec used outside a registry.
    plugin_manager: Any = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        # A plugin manager holds modules: a pickled spec (sent to another process) leaves it
        # behind, and the game there uses that process's own plugins.
        state = dict(self.__dict__)
        state["plugin_manager"] = None
        return state

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

    def make_game(self, given: Mapping[str, Any] | None = None) -> Game:
        """Build the game with the given options (checked and coerced, defaults filled)."""
        factory = self.factory
        if isinstance(factory, str):
            factory = import_object(factory)
        return factory(self, self.resolve(given or {}))

    def frontend(self, name: str) -> Frontend:
        """The named front-end (OptionError, listing the others, if there is none)."""
        found = self.frontends.get(name)
        if found is None:
            known = ", ".join(sorted(self.frontends)) or "none"
            raise OptionError(f"game {self.name} has no {name} front-end (front-ends: {known})")
        return import_object(found) if isinstance(found, str) else found


class Game(ABC):
    """A game with its options fixed. Makes states; is immutable and shareable."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any]):
        self.spec = spec
        self.options: dict[str, Any] = dict(options)
        #: How the game string names option values that are private paths: a file carried
        #: by a record is read from a temporary copy, but shown by the name it was saved as.
        self.shown_values: dict[str, str] = {}

    @property
    def name(self) -> str:
        """The registered game name."""
        return self.spec.name

    @property
    def player_names(self) -> tuple[str, ...]:
        """Display names of the seats: the spec's names for as many seats as the game has
        (the option ``players`` if it has one, else the spec's ``min_players``), or
        ``Player 1``, ``Player 2``... where the spec names none."""
        count = self.options.get("players") or self.spec.min_players
        names = self.spec.player_names
        return tuple(names[i] if i < len(names) else f"Player {i + 1}" for i in range(count))

    @abstractmethod
    def new_state(self, seed: int | None = None) -> State:
        """The starting position; ``seed`` seeds the state's own random generator."""

    @final
    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output (its move stack starts empty).

        Anything wrong with the data is a :class:`~hexkit.errors.RecordError` naming the
        game: games implement :meth:`_state_from_dict` and need not catch errors."""
        if not isinstance(data, Mapping):
            raise RecordError(f"not a {self.name} position: expected an object")
        try:
            return self._state_from_dict(data)
        except RecordError:
            raise
        except HexkitError as exc:
            raise RecordError(f"not a {self.name} position: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError,
                RecursionError) as exc:
            raise RecordError(
                f"not a {self.name} position: {type(exc).__name__}: {exc}"
            ) from None

    def _state_from_dict(self, data: Mapping[str, Any]) -> State:
        """Rebuild a state from its saved data. Default: the state kit's form (a seed and
        the moves played), replayed through the rules."""
        seed, moves = data["seed"], data["moves"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"not a {self.name} position: 'seed' must be a whole number")
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise RecordError(f"not a {self.name} position: 'moves' must be a list of moves")
        state = self.new_state(seed)
        for text in moves:
            state.push(text)
        # The replayed moves become the starting point: nothing to pop, same to_dict().
        state._kit_origin = {"seed": seed, "moves": list(moves)}
        state.move_stack.clear()
        state.journal.clear()
        state._kit_marks.clear()
        state._kit_events.clear()
        return state

    # -- for reinforcement learning (hexkit.adapters) -------------------------------------
    #: Plies after which the adapters (PettingZoo, Gymnasium, OpenSpiel) call a game that
    #: is still going a draw. Never part of the rules: ``hexkit play`` and tournaments
    #: ignore it. Games where it matters give their own bound.
    max_plies: int = 1000

    def action_space(self) -> ActionSpace:
        """The game's fixed, ordered move universe (see :mod:`hexkit.kit.actions`), made once
        by :meth:`make_action_space`."""
        found = self.__dict__.get("_kit_action_space")
        if found is None:
            found = self._kit_action_space = self.make_action_space()
        return found

    def make_action_space(self) -> ActionSpace:
        """Build the action space. Default: :class:`hexkit.kit.actions.GestureActionSpace`,
        numbering moves by where they start and end on the starting position's cells."""
        from hexkit.kit.actions import GestureActionSpace

        return GestureActionSpace(self)

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """The shape of :meth:`State.observation` (numpy planes), found once from a new
        state."""
        found = self.__dict__.get("_kit_observation_shape")
        if found is None:
            found = self._kit_observation_shape = tuple(self.new_state(seed=0).observation(0).shape)
        return found

    def view_planes(self) -> ViewPlanes:
        """The default observation's layout (:class:`hexkit.kit.observation.ViewPlanes`), made
        once."""
        found = self.__dict__.get("_kit_view_planes")
        if found is None:
            from hexkit.kit.observation import ViewPlanes

            found = self._kit_view_planes = ViewPlanes(self)
        return found

    # -- copies and pickles -------------------------------------------------------------
    def __copy__(self) -> Game:
        return self  # games are immutable and shared

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A game pickles as its spec and the options that differ from the defaults, and is
        built again where it is unpickled, once per process (what it compiled or loaded is
        never pickled; see :mod:`hexkit.kit.statepickle`)."""
        return _pickling().reduce_game(self)  # type: ignore[no-any-return]

    def describe(self) -> str:
        """This variant's rules in words, for people learning it: every piece kind with its
        movement and abilities (and costs), how moves are written, and the legend of the
        drawings. Shown by ``hexkit rules GAME -o ...`` and by ``help`` in ``hexkit play``.
        Default: the spec's rules summary."""
        return self.spec.rules

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
        shown = getattr(self, "shown_values", {})
        inner = ",".join(f"{k}={shown[k] if k in shown else _format_value(v)}"
                         for k, v in opts.items())
        return f"{self.name}({inner})"

    def __repr__(self) -> str:
        return f"<Game {self}>"


def _format_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


class State(ABC, Generic[G, M]):
    """A mutable position with a move stack (python-chess style), and the state kit.

    ``class MyState(State[MyGame, MyMove])`` types ``self.game`` as ``MyGame`` and the moves
    as ``MyMove`` (plain ``State`` is a state of any game). A game implements
    :meth:`legal_moves`, :meth:`parse_move`, :meth:`apply`, :meth:`outcome` and
    :meth:`render` or :meth:`view`; everything else has a working default:

    - ``State.__init__(game, rng)`` sets up the game, the random generator (a seed or a
      ``random.Random``), the move stack and the undo journal;
    - :meth:`push` runs :meth:`apply` and rolls the journal back if it raises, so a refused
      move leaves the state exactly as it was; :meth:`pop` rolls back to before the move
      (a game that keeps its own undo data, as a fast path, also overrides :meth:`undo`);
    - ``players`` come from the game (:attr:`Game.player_names`), ``current_player`` from
      ``self.turn_order`` (a :class:`~hexkit.kit.turns.TurnOrder`, made on first use; call
      :meth:`advance_turn` in ``apply``);
    - :meth:`copy` copies the kit's data and calls :meth:`copy_data` for the game's own;
    - :meth:`is_over` is ``outcome() is not None``;
    - :meth:`to_dict` / :meth:`Game.state_from_dict` default to the seed and the moves
      played (exact, by replaying them), for states made from a seed;
    - :meth:`events` lists what the last move did (:meth:`emit` in ``apply``);
    - :meth:`gesture` and :meth:`moves_from` serve click-to-move user interfaces.
    """

    game: G
    #: The state's own random generator: the only source of randomness in rules.
    rng: random.Random
    #: Moves pushed since the state was created, oldest first.
    move_stack: list[M]
    #: The undo journal of the moves on the stack (see :mod:`hexkit.kit.undo`).
    journal: Journal

    def __init__(self, game: G, rng: random.Random | int | None = None):
        from hexkit.kit.undo import Journal

        self.game = game
        if isinstance(rng, random.Random):
            self.rng = rng
            self._kit_origin: dict[str, Any] | None = None
        else:
            seed = random.SystemRandom().randrange(2**62) if rng is None else int(rng)
            self.rng = KitRandom(seed)
            self._kit_origin = {"seed": seed, "moves": []}
        self.move_stack = []
        self.journal = Journal(self)
        self._kit_marks: list[int] = []
        self._kit_events: list[tuple[GameEvent, ...]] = []
        self._kit_emitted: list[GameEvent] | None = None

    # -- players -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Display names of the seats, in seat order (default: the game's)."""
        return self.game.player_names

    @property
    def current_player(self) -> int:
        """Seat index of the player to act (any seat may act first where the rules allow
        it; then this is the seat the game proposes, usually 0). Default: ``self.turn_order``."""
        return self.turn_order.seat

    @cached_property
    def turn_order(self) -> TurnOrder:
        """Whose turn it is (a :class:`~hexkit.kit.turns.TurnOrder` value; change it with
        :meth:`advance_turn` or ``self.journal.set("turn_order", ...)``). Made on first use,
        one action per turn for the game's seats: states that keep their own turn (every
        built-in game) never pay for it."""
        from hexkit.kit.turns import TurnOrder

        return TurnOrder(len(self.game.player_names))

    def advance_turn(self) -> None:
        """Record one action of the current player in ``self.turn_order`` (journaled): the turn
        passes on after the last action of a turn."""
        self.journal.set("turn_order", self.turn_order.act())

    # -- moves -------------------------------------------------------------------------
    @abstractmethod
    def legal_moves(self) -> Sequence[M]:
        """Every legal move for the player to act; non-empty unless the game is over."""

    @abstractmethod
    def parse_move(self, text: str) -> M:
        """Read a move in the game's notation (MoveParseError if it cannot be read).

        Parsing checks syntax only; whether the move is legal is :meth:`push`'s business.
        """

    # The parameters typed M below are where the covariance of M is unsound (a caller
    # holding a plain State may pass another game's move): apply() refuses such a move.
    def apply(self, move: M) -> None:  # type: ignore[misc]
        """Check a move and play it: IllegalMoveError (with a message saying why) if it is
        not allowed here.

        Undo is the journal's: change the state through ``self.journal`` (or
        :meth:`advance_turn`) and, if this raises or when the move is popped, the journal is
        rolled back to before it. A game whose data a journal would slow down may change
        it directly, as a fast path: it then checks the move before changing anything and
        overrides :meth:`undo`."""
        raise NotImplementedError(f"{type(self).__name__} must implement apply()")

    def undo(self, move: M) -> None:  # type: ignore[misc]
        """The fast path of undo: reverse what :meth:`apply` changed outside the journal,
        when ``move`` (the last move pushed) is popped; the journal is rolled back after.
        Default: nothing (everything went through the journal)."""
        return None

    def push(self, move: M | str) -> None:
        """Play a move (or its text). IllegalMoveError, state unchanged, if not allowed."""
        if isinstance(move, str):
            move = self.parse_move(move)
        self._kit_emitted = None
        journal = self.journal
        mark = len(journal.entries)
        try:
            self.apply(move)
        except BaseException:
            journal.rollback(mark)
            self._kit_emitted = None
            raise
        self._kit_marks.append(mark)
        self.move_stack.append(move)
        emitted = self._kit_emitted
        self._kit_events.append(() if emitted is None else tuple(emitted))

    def pop(self) -> M:
        """Undo the last move pushed and return it."""
        if not self.move_stack:
            raise HexkitError("there is no move to undo")
        if "_kit_lazy" in self.__dict__:
            _pickling().materialize(self)
        move = self.move_stack[-1]
        self.undo(move)
        self.journal.rollback(self._kit_marks.pop())
        self.move_stack.pop()
        self._kit_events.pop()
        return move

    # -- events ------------------------------------------------------------------------
    def emit(self, kind: str, text: str, seat: int | None = None,
             cells: Iterable[tuple[int, int]] = (), **data: Any) -> None:
        """Record an event of the move being applied (call it from :meth:`apply`)."""
        from hexkit.kit.events import GameEvent

        event = GameEvent(kind, text, seat, tuple(cells), data)
        if self._kit_emitted is None:
            self._kit_emitted = [event]
        else:
            self._kit_emitted.append(event)

    def events(self, ply: int = -1) -> tuple[GameEvent, ...]:
        """What move number ``ply`` of the move stack did (default: the last one), with a
        ``game_over`` event after the move that ended the game."""
        self.need_history()
        log = self._kit_events
        count = len(log)
        index = ply + count if ply < 0 else ply
        if not 0 <= index < count:
            return ()
        found = log[index]
        if index == count - 1:
            outcome = self.outcome()
            if outcome is not None:
                from hexkit.kit.events import GAME_OVER, GameEvent

                found = (*found, GameEvent(
                    GAME_OVER, describe_outcome(self.players, outcome),
                    data={"winners": list(outcome.winners), "reason": outcome.reason},
                ))
        return found

    def move_note(self, ply: int = -1) -> str:
        """What move number ``ply`` did, in one line, when its notation and events do not
        say it all (Hex Baron: ``Serf moved from tile 12 to tile 17 (-1 fuel)``); "" by
        default. The terminal shows it for the moves whose board a player does not see
        (a bot's, and the last before a bot plays)."""
        return ""

    # -- gestures ----------------------------------------------------------------------
    def gesture(self, move: M) -> Gesture | None:  # type: ignore[misc]
        """Where ``move`` starts and ends, for click-to-move (default: ``move.gesture()``
        when the move type has one, else None: the move is typed or picked from a list)."""
        method = getattr(move, "gesture", None)
        return method() if method is not None else None

    def moves_from(self, origin: Origin) -> list[M]:
        """The legal moves that start at ``origin`` (a cell, a :class:`Hand` piece, or None
        for moves without a place)."""
        gesture = self.gesture
        out = []
        for move in self.legal_moves():
            g = gesture(move)
            if (g.origin if g is not None else None) == origin:
                out.append(move)
        return out

    # -- state -------------------------------------------------------------------------
    def copy(self) -> Self:
        """An independent copy (move stack and undo journal included, so it can pop too).

        The kit copies its own data and calls :meth:`copy_data` for the game's."""
        if "_kit_lazy" in self.__dict__:  # unpickled, its earlier histories not made yet
            return _pickling().copy_lazy(self)  # type: ignore[no-any-return]
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin.rng = rng_copy(self.rng)
        twin.move_stack = list(self.move_stack)
        twin.journal = self.journal.bound_to(twin)
        twin._kit_marks = list(self._kit_marks)
        twin._kit_events = list(self._kit_events)
        twin._kit_emitted = None
        self.copy_data(twin)
        return twin

    def need_history(self) -> None:
        """Make the histories of a state unpickled in the compact layout whole (its undo
        records, events and journal from before it was pickled are made on first need, by
        replaying its moves: :mod:`hexkit.kit.statepickle`). The kit calls it before it
        reads them (:meth:`pop`, :meth:`copy`, :meth:`events`); a game's method that reads
        its own undo records for something else calls it first."""
        if "_kit_lazy" in self.__dict__:
            _pickling().materialize(self)

    #: The state's own histories beside the kit's (lists of undo records a game keeps
    #: itself: Focus's ``_undo``), made again by replaying moves (compact pickles).
    _kit_histories: tuple[str, ...] = ()
    #: Those of :attr:`_kit_histories` whose last entry a compact pickle holds (read
    #: without :meth:`need_history`: Hex Baron's pictures show the last note).
    _kit_last_kept: tuple[str, ...] = ()

    def _kit_canonical(self, packed: Any) -> Any:
        """A packed position (``_kit_pack``) in a form equal for equal positions: what a
        replay of the moves is checked against (default: as it is)."""
        return packed

    def _kit_records(self) -> list[Any] | None:
        """A list of one object per move on the stack, each made by its move and shared by
        the copies of the state (a compact pickle finds the moves it encoded by them).
        Default: the first of :attr:`_kit_histories`."""
        for name in self._kit_histories:
            return getattr(self, name)  # type: ignore[no-any-return]
        return None

    def _kit_copying(self, twin: State | None) -> None:
        """Called before (``twin`` None) and after a state unpickled in the compact layout,
        its histories not made yet, is copied: the copy makes them itself when needed. A
        game whose objects make their state's histories when copied (an engine's) holds
        that off here, and points the copy's at the copy."""

    def _kit_histories_made(self, replay: State | None) -> None:
        """Called once the histories of a state unpickled in the compact layout are made
        (``self.journal`` owned by the state), from ``replay`` (the state the moves were
        replayed on, None for none): a game moves there the histories its own objects hold
        (an engine's) and binds the journal to the object that owns it (Hex Baron's
        position)."""

    def copy_data(self, twin: Self) -> None:
        """Give ``twin`` (a copy being made, holding this state's attributes) its own
        copies of the game's data. Default: a deep copy of every attribute the kit does not
        own (moves and the game are shared: they are immutable). Override it to copy only
        what changes."""
        memo: dict[int, Any] = {id(self.game): self.game, id(self): twin}
        for name, value in self.__dict__.items():
            if name not in _KIT_ATTRIBUTES:
                setattr(twin, name, _copied(value, memo))

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """``copy.deepcopy(state)`` is :meth:`copy` (the game and the moves are shared)."""
        twin = self.copy()
        memo[id(self)] = twin
        return twin

    def __copy__(self) -> State:
        """``copy.copy(state)`` is :meth:`copy` too."""
        return self.copy()

    def __reduce__(self) -> tuple[Any, ...]:
        """A state pickles as its class, its game and its own data
        (:meth:`__getstate__`), at about the cost of :meth:`copy`; the unpickled state can
        pop every move. A state holding something pickle cannot write pickles as its saved
        form and the moves on its stack instead (see :mod:`hexkit.kit.statepickle`)."""
        return _pickling().reduce_state(self)  # type: ignore[no-any-return]

    def __getstate__(self) -> dict[str, Any]:
        """The attributes a pickle of this state holds: those :meth:`copy` copies, minus the
        game (pickled beside them). Override it (calling ``super()``) to leave caches
        behind, and :meth:`__setstate__` to make them again."""
        return _pickling().state_data(self)  # type: ignore[no-any-return]

    def __setstate__(self, data: Mapping[str, Any]) -> None:
        """Restore what :meth:`__getstate__` gave (``self.game`` is set already)."""
        _pickling().restore_state(self, data)

    def observation(self, seat: int | None = None) -> numpy.ndarray:
        """The position as float32 numpy planes of shape ``game.observation_shape``, seen by
        ``seat`` (default: the player to act). Default: read from :meth:`view` (see
        :mod:`hexkit.kit.observation`); games override it where that is slow or says too
        little. Needs numpy (``pip install 'hexkit-games[rl]'``)."""
        planes = self.game.view_planes()
        return planes.planes(self, self.current_player if seat is None else seat)

    def is_over(self) -> bool:
        """True when the game has ended (default: when :meth:`outcome` is not None)."""
        return self.outcome() is not None

    @abstractmethod
    def outcome(self) -> Outcome | None:
        """The result once the game is over, else None."""

    def to_dict(self) -> dict[str, JSON]:
        """The position as JSON-safe data (random generator state included); exact round
        trip through :meth:`Game.state_from_dict`.

        Default: the seed the state was made from and the moves played since, which
        :meth:`Game.state_from_dict` replays. Games whose states are not made from a seed
        (or that want a compact position) override it and ``Game._state_from_dict``."""
        if self._kit_origin is None:
            raise NotImplementedError(
                f"{type(self).__name__} was not made from a seed: implement to_dict()"
            )
        return {
            "seed": self._kit_origin["seed"],
            "moves": [*self._kit_origin["moves"], *(str(m) for m in self.move_stack)],
        }

    def render(self) -> str:
        """The position as plain text for a terminal (default: drawn from :meth:`view`,
        with the cells' labels, then whose turn it is or the result)."""
        if type(self).view is State.view:
            raise NotImplementedError(f"{type(self).__name__} must implement render() or view()")
        return str(self.render_styled())

    def render_styled(self, targets: Iterable[tuple[int, int]] = ()) -> StyledText | None:
        """:meth:`render` with its runs marked (pieces by owner, the last move, ``targets``:
        view cells a player asked about), for a terminal with colour; ``str()`` of it is
        :meth:`render`. None for a game that draws its own text and not this (it is then
        shown without colour)."""
        if type(self).render is not State.render:
            return None
        from hexkit.render.text import render_view_styled

        view = self.view()
        last = view.highlight
        if not last and self.move_stack:  # the view marks no move: where its gesture went
            gesture = self.gesture(self.move_stack[-1])
            if gesture is not None:
                last = tuple(c for c in (gesture.origin, gesture.target)
                             if isinstance(c, tuple))
        styled = render_view_styled(view, targets, last)
        result = result_text(self)
        if result:
            if not any(line.startswith("Game over") for line in view.caption):
                styled.add(result)
        else:
            name = self.players[self.current_player]
            if not any(f"{name} to " in line for line in view.caption):
                styled.add(f"{name} to move.")
        return styled

    def view(self) -> BoardView:
        """The position as a game-neutral picture for renderers (default: no cells, the
        text rendering as its caption)."""
        if type(self).render is State.render:
            raise NotImplementedError(f"{type(self).__name__} must implement render() or view()")
        from hexkit.kit.view import BoardView

        return BoardView("hex", (), tuple(self.players), caption=tuple(self.render().splitlines()))

    # -- optional hooks for services ---------------------------------------------------
    def move_help(self) -> str:
        """How to type a move in this game (shown by ``help`` in ``hexkit play``)."""
        return ""

    def _repr_svg_(self) -> str:
        """SVG picture for Jupyter notebooks (a finished game says who won and why)."""
        from hexkit.render.svg import render_svg

        return render_svg(self.view(), result=result_text(self))

    def __str__(self) -> str:
        return self.render()


#: Attributes the state kit owns and copies itself.
_KIT_ATTRIBUTES = frozenset(
    {"game", "rng", "move_stack", "journal", "turn_order", "_kit_marks", "_kit_events",
     "_kit_emitted", "_kit_origin"}
)


#: Values that are immutable and hold nothing mutable: copies share them.
_ATOMIC = frozenset({int, float, str, bool, bytes, type(None)})


def _copied(value: Any, memo: dict[int, Any]) -> Any:
    """A deep copy of ``value``; a flat list, dict or set of plain values (the usual board
    and counters) is copied in one step, many times faster than ``copy.deepcopy``."""
    kind = type(value)
    if kind in _ATOMIC:
        return value
    atomic = _ATOMIC.issuperset
    if kind is list and atomic(map(type, value)):
        return list(value)
    if kind is tuple and atomic(map(type, value)):
        return value
    if kind is dict and atomic(map(type, value)) and atomic(map(type, value.values())):
        return dict(value)
    if kind is set and atomic(map(type, value)):
        return set(value)
    return copy.deepcopy(value, memo)


def result_text(state: State) -> str:
    """The sentence for a finished game (see :func:`describe_outcome`); "" while it goes on."""
    outcome = state.outcome()
    return "" if outcome is None else describe_outcome(state.players, outcome)


_PICKLING: Any = None


def _pickling() -> Any:
    """:mod:`hexkit.kit.statepickle`, imported when first used (not when a command starts;
    and looked up once, not by an import statement per state)."""
    global _PICKLING
    if _PICKLING is None:
        from hexkit.kit import statepickle

        _PICKLING = statepickle
    return _PICKLING
