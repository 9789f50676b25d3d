"""Fixed action spaces: every move a game can ever make, numbered ``0 .. num_actions - 1``.

Reinforcement-learning frameworks (PettingZoo, Gymnasium, OpenSpiel) index moves by a
fixed, ordered integer range and say which are legal with a mask. A game gives its own
through :meth:`hexkit.game.Game.action_space`; the default, :class:`GestureActionSpace`,
serves any game on a fixed set of cells by numbering where each move starts and ends (its
gesture): ``origin_slot * (cells + 1) + target_slot``.

``action_in(state, move)`` numbers a move played in a position; for most spaces that is
``action_of(move)``, which depends on the move alone (HexAround numbers its moves relative
to the creatures, so its numbers need the position). ``move_of(action, state)`` and the
mask depend on the position. A legal move the space cannot number is left out of
:meth:`ActionSpace.legal_actions` and the mask; two legal moves given one number are an
:class:`ActionSpaceError`, never a silent mix-up.
"""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from hexkit.errors import HexkitError

if TYPE_CHECKING:
    import numpy


# hexkit.game imports this module, so its Game, State and Move are named as Any here.
Game: TypeAlias = Any
State: TypeAlias = Any
Move: TypeAlias = Any

#: The one line that tells how to get numpy when it is missing.
NUMPY_HINT = "this needs numpy: pip install 'hexkit-games[rl]'"


class ActionSpaceError(HexkitError):
    """A move the action space cannot number, an action out of range or not legal here, or
    two legal moves given one number."""


def numpy_module() -> Any:
    """numpy, or a one-line HexkitError saying how to install it."""
    try:
        import numpy
    except ImportError:
        raise HexkitError(NUMPY_HINT) from None
    return numpy


class ActionSpace(ABC):
    """A game's fixed, ordered universe of moves.

    Subclasses set :attr:`num_actions` and implement :meth:`action_of`; the rest has
    working defaults built on the state's legal moves. :meth:`describe` says what the
    numbers mean, for people (``docs/ai.md`` shows it for each game)."""

    #: How many actions there are: every action is in ``range(num_actions)``.
    num_actions: int

    @abstractmethod
    def action_of(self, move: Move) -> int:
        """The number of ``move`` (ActionSpaceError if the space has none for it)."""

    def action_in(self, state: State, move: Move) -> int:
        """The number of ``move`` played in ``state``: :meth:`action_of` unless the space
        numbers moves relative to the position (ActionSpaceError if it has none)."""
        return self.action_of(move)

    def describe(self) -> str:
        """What the actions are, in a few lines."""
        return f"{self.num_actions} actions"

    # -- from a position ----------------------------------------------------------------
    def legal_map(self, state: State) -> dict[int, Move]:
        """Action -> legal move, for every legal move the space numbers (one pass over
        ``state.legal_moves()``; ActionSpaceError if two moves share a number)."""
        action_of = self.action_of
        found: dict[int, Move] = {}
        for move in state.legal_moves():
            try:
                action = action_of(move)
            except ActionSpaceError:
                continue  # outside the space (e.g. beyond a window): never offered
            other = found.setdefault(action, move)
            if other is not move and other != move:
                raise ActionSpaceError(
                    f"{state.game}: legal moves {other} and {move} both have action {action}"
                )
        return found

    def legal_actions(self, state: State) -> list[int]:
        """The numbers of the legal moves, ascending."""
        return sorted(self.legal_map(state))

    def action_mask(self, state: State) -> numpy.ndarray:
        """A ``numpy.int8`` vector of ``num_actions``: 1 where the action is legal."""
        np = numpy_module()
        mask: numpy.ndarray = np.zeros(self.num_actions, dtype=np.int8)
        actions = list(self.legal_map(state))
        if actions:
            mask[actions] = 1
        return mask

    def move_of(self, action: int, state: State) -> Move:
        """The legal move of ``state`` numbered ``action`` (ActionSpaceError if the number
        is out of range or not legal here)."""
        self.check_range(action)
        move = self.legal_map(state).get(int(action))
        if move is None:
            raise ActionSpaceError(f"action {action} is not a legal move of {state.game} here")
        return move

    def check_range(self, action: Any) -> None:
        """ActionSpaceError unless ``action`` is a whole number in ``range(num_actions)``."""
        try:
            ok = not isinstance(action, bool) and int(action) == action \
                and 0 <= int(action) < self.num_actions
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            raise ActionSpaceError(
                f"action {action!r} is not a whole number from 0 to {self.num_actions - 1}"
            )


class TableActionSpace(ActionSpace):
    """An action space listed in full: ``moves[i]`` is action ``i``. For games whose every
    possible move can be made up front (Focus's stack and reserve moves)."""

    def __init__(self, moves: Sequence[Move], text: str = ""):
        self.moves = tuple(moves)
        self.num_actions = len(self.moves)
        self.index = {m: i for i, m in enumerate(self.moves)}
        if len(self.index) != self.num_actions:
            raise ActionSpaceError("an action table lists a move twice")
        self.text = text

    def action_of(self, move: Move) -> int:
        found = self.index.get(move)
        if found is None:
            raise ActionSpaceError(f"{move} is not in this game's action space")
        return found

    def move_of(self, action: int, state: State) -> Move:
        """``moves[action]``, legal or not (pushing an illegal one is refused as usual)."""
        self.check_range(action)
        return self.moves[int(action)]

    def describe(self) -> str:
        return self.text or super().describe()


# -- the default: gestures over a fixed set of cells ---------------------------------------
class GestureActionSpace(ActionSpace):
    """The default action space of a game on a fixed set of cells: a move is numbered by
    where it starts (nothing, a piece kind from the mover's hand, or a cell) and where it
    ends (nothing or a cell), read from its gesture (``State.gesture``).

    Origin slots: 0 for none, then one per hand kind, then one per cell; target slots: 0
    for none, then one per cell; ``action = origin * (cells + 1) + target``. The cells are
    those of the starting position's view, in its order; hand kinds are those the starting
    position shows or offers. A move without a gesture is read from its fields: a
    dataclass move holding one cell (``Place(q, r)``) ends there, one holding two cells
    goes from the first to the second. Two legal moves with one gesture (Focus's piece
    counts, say) need the game's own action space: :meth:`legal_map` says so.
    """

    def __init__(self, game: Game):
        from hexkit.kit.gestures import Hand

        probe = game.new_state(seed=0)
        view = probe.view()
        self.game_name = str(game)
        self.cells: tuple[tuple[int, int], ...] = tuple(tuple(c.at) for c in view.cells)
        if not self.cells:
            raise ActionSpaceError(
                f"{game} has no default action space: its view shows no cells (give the "
                "game an action_space())"
            )
        self.cell_slot = {c: i for i, c in enumerate(self.cells)}
        kinds = {h.kind for h in view.hands}
        for move in probe.legal_moves():
            gesture = probe.gesture(move)
            if gesture is not None and isinstance(gesture.origin, Hand):
                kinds.add(gesture.origin.kind)
        self.kinds: tuple[str, ...] = tuple(sorted(kinds))
        self.kind_slot = {k: 1 + i for i, k in enumerate(self.kinds)}
        self.width = len(self.cells) + 1
        self.origins = 1 + len(self.kinds) + len(self.cells)
        self.num_actions = self.origins * self.width
        self._gesture = type(probe).gesture
        self._probe = probe
        self._cache: dict[Any, int] = {}

    def action_of(self, move: Move) -> int:
        try:
            found = self._cache.get(move)
        except TypeError:  # an unhashable hand-made move
            found = None
        if found is not None:
            return found
        origin, target = self._ends(move)
        action = self._origin_slot(origin, move) * self.width + self._target_slot(target, move)
        if len(self._cache) < 100_000:
            self._cache[move] = action
        return action

    def _ends(self, move: Move) -> tuple[Any, Any]:
        gesture = self._gesture(self._probe, move)
        if gesture is not None:
            return gesture.origin, gesture.target
        cells = _cells_in(move, self.cell_slot)
        if len(cells) == 1:
            return None, cells[0]
        if len(cells) == 2:
            return cells[0], cells[1]
        return None, None

    def _origin_slot(self, origin: Any, move: Move) -> int:
        from hexkit.kit.gestures import Hand

        if origin is None:
            return 0
        if isinstance(origin, Hand):
            slot = self.kind_slot.get(origin.kind)
            if slot is None:
                raise ActionSpaceError(f"{move} starts in a hand of kind {origin.kind!r}, which "
                                       f"the starting position of {self.game_name} never shows")
            return slot
        slot = self.cell_slot.get(tuple(origin))
        if slot is None:
            raise ActionSpaceError(f"{move} starts at {origin}, not a cell of the board")
        return 1 + len(self.kinds) + slot

    def _target_slot(self, target: Any, move: Move) -> int:
        if target is None:
            return 0
        slot = self.cell_slot.get(tuple(target))
        if slot is None:
            raise ActionSpaceError(f"{move} ends at {target}, not a cell of the board")
        return 1 + slot

    def describe(self) -> str:
        n, k = len(self.cells), len(self.kinds)
        kinds = f" ({', '.join(repr(x) for x in self.kinds)})" if k else ""
        return (
            f"{self.num_actions} actions = {self.origins} origins x {self.width} targets: "
            f"origin 0 is none, 1..{k} the mover's hand kinds{kinds}, then the {n} cells in "
            f"view order; target 0 is none, then the {n} cells. "
            "action = origin * (cells + 1) + target."
        )


def _cells_in(move: Move, cells: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
    """The cells a gesture-less dataclass move holds: its whole-number fields read in
    pairs (``q, r``), or fields that are pairs themselves; [] if they are not all cells."""
    if not dataclasses.is_dataclass(move):
        return []
    numbers: list[int] = []
    for f in dataclasses.fields(move):
        value = getattr(move, f.name)
        if isinstance(value, bool):
            return []
        if isinstance(value, int):
            numbers.append(value)
        elif isinstance(value, tuple) and len(value) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) for v in value):
            numbers.extend(value)
        else:
            return []
    if len(numbers) not in (2, 4):
        return []
    found = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
    return found if all(c in cells for c in found) else []
