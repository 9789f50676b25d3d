"""The generic hexkit game ``focus``: :class:`Focus` (the options resolved into rules) and
:class:`FocusState`, the position: stacks per square (seat numbers, bottom first),
reserves, captures, whose turn it is, who is out, and an undo record per move.

One engine serves the generic API (:class:`FocusState` through ``push``/``pop``) and the
course facade (:class:`focus.course.FocusGame`, which runs the course's checks itself and
then calls :meth:`FocusState.play`). The state keeps its own compact undo record per move
rather than the core journal: the course facade's ``move_piece`` is timed against student
programs, and one tuple per move is cheaper than a journal entry per change.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from focus.narration import narrate
from focus.notation import MOVE_HELP, FocusMove, ReserveMove, StackMove, parse_move, square_name
from focus.render import board_view, render_styled, render_text
from focus.rulebook import describe
from focus.rules import FocusRules, resolve_settings
from focus.variant import load_variant
from hexkit.errors import IllegalMoveError, RecordError
from hexkit.game import Game, GameSpec, Move, Outcome, State, rng_from_json, rng_to_json
from hexkit.kit.actions import ActionSpace
from hexkit.kit.events import GameEvent
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.rng import KitRandom
from hexkit.kit.statepickle import history
from hexkit.kit.view import BoardView
from hexkit.render.text import StyledText


class Focus(Game):
    """Focus with its options fixed: the variant, the rules tables and the seats."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any], *,
                 names: Sequence[str] | None = None, drop_stuck: bool = True):
        super().__init__(spec, options)
        self.variant = load_variant(str(self.options["board"]))
        self.settings = resolve_settings(self.variant, self.options)
        self.rules = FocusRules(self.variant, self.settings, names=names, drop_stuck=drop_stuck)

    def new_state(self, seed: int | None = None) -> FocusState:
        """The starting layout; the first seat moves first."""
        return FocusState.initial(self, self.rules, KitRandom(seed))

    def describe(self) -> str:
        """This variant in words: board, seats, how stacks move and overflow, the reserve,
        how it is won, the notation of moves and of the drawing."""
        return describe(self.rules)

    def _state_from_dict(self, data: Mapping[str, Any]) -> FocusState:
        """Rebuild a position from ``to_dict()`` output."""
        return _StateReader(self.rules).read(self, data)

    @property
    def max_plies(self) -> int:  # type: ignore[override]
        """The adapters' bound (Focus has no draw): 400 plies per player."""
        return 400 * self.rules.players

    def make_action_space(self) -> ActionSpace:
        """Every stack move and reserve entry, from the rules' tables (focus.actions)."""
        from focus.actions import action_space

        return action_space(self)



class FocusState(State[Focus, FocusMove]):
    """A Focus position with a move stack (python-chess style push/pop)."""

    def __init__(
        self,
        game: Focus,
        rules: FocusRules,
        stacks: Sequence[Sequence[int]],
        *,
        reserve: Sequence[int],
        captured: Sequence[int],
        turn: int | None,
        turns_taken: Sequence[int] | None = None,
        active: Sequence[bool] | None = None,
        winner: int | None = None,
        reason: str = "",
        rng: random.Random | None = None,
    ):
        super().__init__(game, rng if rng is not None else KitRandom())
        n = rules.players
        self.rules = rules
        self._stacks: list[list[int]] = [list(s) for s in stacks]
        self._reserve = list(reserve)
        self._captured = list(captured)
        self._turn = turn
        self._turns_taken = list(turns_taken) if turns_taken is not None else [0] * n
        self._active = list(active) if active is not None else [True] * n
        self._winner = winner
        self._reason = reason
        self._tops = [0] * n
        for s in self._stacks:
            if s:
                self._tops[s[-1]] += 1
        self._undo: list[tuple[Any, ...]] = []

    @classmethod
    def initial(cls, game: Focus, rules: FocusRules, rng: random.Random,
                turn: int | None = 0) -> FocusState:
        """The variant's starting layout."""
        n = rules.players
        return cls(game, rules, rules.initial, reserve=[rules.start_reserve] * n,
                   captured=[0] * n, turn=turn, rng=rng)

    # -- players -----------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        """Display names per seat."""
        return self.rules.names

    @property
    def current_player(self) -> int:
        """The seat to act (seat 0 while anyone may start, as in the course game)."""
        return self._turn if self._turn is not None else 0

    @property
    def turn(self) -> int | None:
        """The seat to act, or None while nobody has moved and anyone may start."""
        return self._turn

    # -- queries used by the facade and the renderers -------------------------------------
    def stack(self, i: int) -> list[int]:
        """The seats of the pieces on square number ``i``, bottom first (a copy)."""
        return list(self._stacks[i])

    def reserve(self, seat: int) -> int:
        """Pieces in ``seat``'s reserve."""
        return self._reserve[seat]

    def captured(self, seat: int) -> int:
        """Pieces ``seat`` has captured."""
        return self._captured[seat]

    def controls(self, seat: int) -> int:
        """How many stacks have ``seat``'s piece on top."""
        return self._tops[seat]

    def is_active(self, seat: int) -> bool:
        """False once ``seat`` is out (no stack, no reserve)."""
        return self._active[seat]

    @property
    def winner(self) -> int | None:
        """The winning seat, or None while the game goes on."""
        return self._winner

    def last_move(self) -> Move | None:
        """The most recent move pushed, if any."""
        return self.move_stack[-1] if self.move_stack else None

    # -- moves -------------------------------------------------------------------------
    def legal_moves(self) -> list[FocusMove]:
        """Every legal move of the player to act (empty once the game is over)."""
        if self._winner is not None:
            return []
        rules = self.rules
        seat = self._turn if self._turn is not None else 0
        stacks = self._stacks
        if self._must_enter_on_empty(seat):
            drops = rules.drop_moves
            return [drops[i] for i, s in enumerate(stacks) if not s]
        out: list[StackMove | ReserveMove] = []
        table = rules.stack_moves
        limit = rules.max_height
        for i, s in enumerate(stacks):
            if s and s[-1] == seat:
                h = len(s)
                out += table[i][h] if h <= limit else rules.moves_from(i, h)
        if self._reserve[seat]:
            out += rules.drop_moves
        return out

    def _must_enter_on_empty(self, seat: int) -> bool:
        """Three-player Domination: a first turn with a reserve piece enters it on an empty
        square (while there is one)."""
        return (self.rules.first_turn_on_empty and not self._turns_taken[seat]
                and self._reserve[seat] > 0 and any(not s for s in self._stacks))

    def parse_move(self, text: str) -> FocusMove:
        """Read ``a1-a3x2``, ``move 0,0 2,0 2``, ``r:c4`` or ``reserve 3,2``."""
        move = parse_move(text)
        # Squares written row,col are named so if the move is refused (see apply).
        low = text.lower()
        squares = (move.frm, move.to) if type(move) is StackMove else (move.to,)
        typed = {square_name(sq): f"{sq[0]},{sq[1]}" for sq in squares
                 if not re.search(rf"\b{square_name(sq)}\b", low)}
        self._typed = (move, typed) if typed else None
        return move

    def move_help(self) -> str:
        """How to type a move."""
        return MOVE_HELP

    def apply(self, move: Move) -> None:
        if self._winner is not None:
            raise IllegalMoveError(f"the game is over: {self._reason}")
        seat = self._turn if self._turn is not None else 0
        cls = type(move)
        try:
            if cls is StackMove:
                i, j = self._check_stack_move(seat, move)  # type: ignore[arg-type]
            elif cls is ReserveMove:
                i, j = -1, self._check_reserve_move(seat, move)  # type: ignore[arg-type]
            else:
                raise IllegalMoveError(f"{move!r} is not a Focus move")
        except IllegalMoveError as exc:
            typed = self.__dict__.get("_typed")
            if typed is None or typed[0] is not move:
                raise
            # Name the squares as the player wrote them (2,2, not c3).
            names = typed[1]
            said = re.sub(r"\b[a-z]\d+\b", lambda m: names.get(m[0], m[0]), str(exc))
            raise IllegalMoveError(said) from None
        self.play(seat, i, j, move.count if i >= 0 else 1)  # type: ignore[attr-defined]

    def events(self, ply: int = -1) -> tuple[GameEvent, ...]:
        """What move number ``ply`` did (see :meth:`hexkit.State.events`): pieces captured
        from the bottom of an overflowing stack, the mover's own sent to reserve, players
        put out. Made when asked for, from the move's undo record, so that playouts pay
        nothing for narration."""
        found = super().events(ply)
        log = self._undo
        index = ply + len(log) if ply < 0 else ply
        if not 0 <= index < len(log) or len(log) != len(self.move_stack):
            return found
        return (*narrate(self.rules, log[index]), *found)

    def gesture(self, move: Move) -> Gesture | None:
        """A stack move starts at its stack's square (every count of that stack starts
        there, so a user interface asks how many pieces); a reserve move starts in the
        mover's reserve, ``Hand(seat, "")``."""
        if type(move) is StackMove:
            return Gesture(move.frm, move.to)
        if type(move) is ReserveMove:
            return Gesture(Hand(self.current_player), move.to)
        return None

    def _square(self, square: Any) -> int:
        try:
            i = self.rules.index.get(square)
        except TypeError:  # an unhashable value in a hand-built move
            i = None
        if i is None:
            raise IllegalMoveError(f"{_name(square)} is not a square of this board")
        return i

    def _check_stack_move(self, seat: int, move: StackMove) -> tuple[int, int]:
        i, j = self._square(move.frm), self._square(move.to)
        if self._must_enter_on_empty(seat):
            raise IllegalMoveError(
                "on your first turn you must enter your reserve piece on an empty square"
            )
        stack = self._stacks[i]
        count = move.count
        if isinstance(count, bool) or not isinstance(count, int):
            raise IllegalMoveError(f"the number of pieces must be a whole number, not {count!r}")
        if not stack or stack[-1] != seat or not 1 <= count <= len(stack) or i == j:
            raise IllegalMoveError(self._why_not(seat, move, stack))
        d = self.rules.ray_distance[i].get(j)
        if d is None:
            raise IllegalMoveError(
                f"{square_name(move.frm)} to {square_name(move.to)} is not a straight "
                "orthogonal line"
            )
        if self.rules.exact and d != count:
            raise IllegalMoveError(f"{_pieces(count)} must move exactly {_squares(count)}, not {d}")
        if d > count:
            raise IllegalMoveError(f"{_pieces(count)} may move at most {_squares(count)}, not {d}")
        return i, j

    def _why_not(self, seat: int, move: StackMove, stack: list[int]) -> str:
        where = square_name(move.frm)
        if not stack:
            return f"there is no stack on {where}"
        if stack[-1] != seat:
            return f"the stack on {where} is not yours: {self.rules.names[stack[-1]]} is on top"
        if not 1 <= move.count <= len(stack):
            if len(stack) == 1:
                return f"{where} holds 1 piece, so you can move only 1, not {move.count}"
            return f"you can move 1 to {len(stack)} pieces from {where}, not {move.count}"
        return "a move must leave its square"

    def _check_reserve_move(self, seat: int, move: ReserveMove) -> int:
        j = self._square(move.to)
        if not self._reserve[seat]:
            raise IllegalMoveError(f"{self.rules.names[seat]} has no pieces in reserve")
        if self._stacks[j] and self._must_enter_on_empty(seat):
            raise IllegalMoveError(
                "on your first turn you must enter your reserve piece on an empty square"
            )
        return j

    def play(self, seat: int, i: int, j: int, count: int, record: bool = True) -> None:
        """Apply a move that the caller has checked: ``count`` pieces from square number
        ``i`` to ``j``, or a reserve piece onto ``j`` when ``i`` is -1. Overflow, captures,
        who is out, the win and the turn follow. Records the undo information unless
        ``record`` is False (the course facade, which never undoes)."""
        stacks, tops = self._stacks, self._tops
        tops_before = tops[:] if record else tops
        turn, winner, reason = self._turn, self._winner, self._reason
        dst = stacks[j]
        if i >= 0:
            src = stacks[i]
            moved = src[-count:]
            del src[-count:]
            if src:
                tops[src[-1]] += 1
            tops[seat] -= 1
        else:
            moved = [seat]
            self._reserve[seat] -= 1
        if dst:
            tops[dst[-1]] -= 1
        tops[seat] += 1
        dst += moved
        excess = len(dst) - self.rules.max_height
        removed = None
        own = 0
        if excess > 0:
            removed = dst[:excess]
            del dst[:excess]
            own = removed.count(seat)
            self._reserve[seat] += own
            self._captured[seat] += excess - own
        dropped = self._finish(seat)
        if record:
            self._undo.append((seat, i, j, count, removed, own, tops_before, turn, winner,
                               reason, dropped))

    def _finish(self, seat: int) -> tuple[int, ...]:
        """Who is out, the win, and the next turn after ``seat`` moved; returns the seats
        that dropped out (for undo)."""
        rules = self.rules
        self._turns_taken[seat] += 1
        active = self._active
        dropped: tuple[int, ...] = ()
        if rules.drop_stuck:
            tops, reserve = self._tops, self._reserve
            dropped = tuple(s for s in range(rules.players)
                            if s != seat and active[s] and not tops[s] and not reserve[s])
            for s in dropped:
                active[s] = False
        if rules.win_by_captures and self._captured[seat] >= rules.captures_to_win:
            self._winner = seat
            self._reason = f"{rules.names[seat]} captured {self._captured[seat]} pieces"
        elif dropped and active.count(True) == 1:
            self._winner = seat
            self._reason = f"{rules.names[seat]} is the last player able to move"
        n = rules.players
        nxt = (seat + 1) % n
        while not active[nxt] and nxt != seat:
            nxt = (nxt + 1) % n
        self._turn = nxt
        return dropped

    def undo(self, move: Move) -> None:
        (seat, i, j, count, removed, own, tops_before, turn, winner, reason,
         dropped) = self._undo.pop()
        dst = self._stacks[j]
        if removed:
            dst[:0] = removed
            self._reserve[seat] -= own
            self._captured[seat] -= len(removed) - own
        if i >= 0:
            self._stacks[i] += dst[-count:]
        else:
            self._reserve[seat] += 1
        del dst[-count:]
        self._tops = tops_before
        self._turns_taken[seat] -= 1
        for s in dropped:
            self._active[s] = True
        self._turn, self._winner, self._reason = turn, winner, reason

    # -- state -------------------------------------------------------------------------
    def copy_data(self, twin: State) -> None:
        """The copy gets its own stacks, counters and undo records."""
        assert isinstance(twin, FocusState)
        twin._stacks = [list(s) for s in self._stacks]
        twin._reserve = list(self._reserve)
        twin._captured = list(self._captured)
        twin._turns_taken = list(self._turns_taken)
        twin._active = list(self._active)
        twin._tops = list(self._tops)
        twin._undo = list(self._undo)

    # -- the compact pickle (hexkit.kit.statepickle: the position flat, the moves as
    # action numbers, the undo records made again by replaying them when first needed) --
    _kit_histories = ("_undo",)
    _kit_packed_names = ("rules", "_stacks", "_reserve", "_captured", "_turn",
                         "_turns_taken", "_active", "_winner", "_reason", "_tops")
    _kit_transient = ("_typed",)  # (the squares of the move parsed last, for messages)

    def _kit_pack(self) -> tuple[Any, ...] | None:
        """The position as tuples of small ints (None: rules other than the game's)."""
        if self.rules is not self.game.rules:
            return None
        return (tuple(map(tuple, self._stacks)), tuple(self._reserve), tuple(self._captured),
                self._turn, tuple(self._turns_taken), tuple(self._active), self._winner,
                self._reason, tuple(self._tops))

    def _kit_unpack(self, packed: tuple[Any, ...]) -> None:
        """The position :meth:`_kit_pack` gave, set on a state made without ``__init__``."""
        (stacks, reserve, captured, turn, turns_taken, active, winner, reason,
         tops) = packed
        data = self.__dict__
        data["rules"] = self.game.rules
        data["_stacks"] = list(map(list, stacks))
        data["_reserve"] = list(reserve)
        data["_captured"] = list(captured)
        data["_turn"] = turn
        data["_turns_taken"] = list(turns_taken)
        data["_active"] = list(active)
        data["_winner"] = winner
        data["_reason"] = reason
        data["_tops"] = list(tops)

    def __getstate__(self) -> dict[str, Any]:
        """The kit's data; the undo records as a history (shared by copies, like the
        moves: hexkit.kit.statepickle.History)."""
        data = super().__getstate__()
        data["_undo"] = history(self._undo)
        return data

    def is_over(self) -> bool:
        """True once somebody has won."""
        return self._winner is not None

    def outcome(self) -> Outcome | None:
        """The winner and why, once the game is over."""
        if self._winner is None:
            return None
        return Outcome((self._winner,), self._reason)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe position; squares as ``[row, col, [seat, ...]]`` bottom first."""
        return {
            "board": [[r, c, list(s)] for (r, c), s in zip(self.rules.squares, self._stacks,
                                                           strict=True) if s],
            "reserve": list(self._reserve),
            "captured": list(self._captured),
            "turn": self._turn,
            "turns_taken": list(self._turns_taken),
            "out": [s for s, a in enumerate(self._active) if not a],
            "winner": self._winner,
            "reason": self._reason,
            "rng": rng_to_json(self.rng),
        }

    def render(self) -> str:
        """The board as text: each square's stack bottom to top with its height."""
        return render_text(self)

    def render_styled(self, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
        """The text picture with owners, the last move and ``targets`` marked, for colour."""
        return render_styled(self, targets)

    def view(self) -> BoardView:
        """A game-neutral picture for the SVG renderer, the reserves as the players' hands."""
        return board_view(self)

    def observation(self, seat: int | None = None) -> Any:
        """Numpy planes read from the stacks (focus.observation)."""
        from focus.observation import observe

        return observe(self, self.current_player if seat is None else seat)


def _name(square: Any) -> str:
    if (isinstance(square, tuple) and len(square) == 2
            and all(isinstance(x, int) for x in square)):
        return square_name(square)
    return repr(square)


class _StateReader:
    """Checks a to_dict() mapping field by field, so a corrupt file gives one clear line."""

    def __init__(self, rules: FocusRules):
        self.rules = rules

    def fail(self, message: str) -> RecordError:
        return RecordError(f"not a Focus position for this game: {message}")

    def seat(self, value: Any, what: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) \
                or not 0 <= value < self.rules.players:
            raise self.fail(f"{what} {value!r} is not a seat (0..{self.rules.players - 1})")
        return value

    def counts(self, value: Any, what: str) -> list[int]:
        if not isinstance(value, list) or len(value) != self.rules.players or any(
            isinstance(x, bool) or not isinstance(x, int) or x < 0 for x in value
        ):
            raise self.fail(f"{what} must list {self.rules.players} whole numbers >= 0")
        return list(value)

    def read(self, game: Focus, data: Mapping[str, Any]) -> FocusState:
        rules = self.rules
        if not isinstance(data, Mapping):
            raise self.fail("expected a mapping")
        missing = [k for k in ("board", "reserve", "captured", "turn", "rng") if k not in data]
        if missing:
            raise self.fail(f"missing {', '.join(missing)}")
        stacks: list[list[int]] = [[] for _ in rules.squares]
        if not isinstance(data["board"], list):
            raise self.fail("board must be a list of [row, col, [seats]]")
        for entry in data["board"]:
            if not (isinstance(entry, list) and len(entry) == 3 and isinstance(entry[2], list)):
                raise self.fail(f"board entry {entry!r} is not [row, col, [seats]]")
            i = rules.index.get((entry[0], entry[1]))
            if i is None or stacks[i]:
                raise self.fail(f"board entry {entry!r} is off the board or repeated")
            stacks[i] = [self.seat(s, "piece owner") for s in entry[2]]
        turn = None if data["turn"] is None else self.seat(data["turn"], "turn")
        active = [True] * rules.players
        for s in data.get("out", []):
            active[self.seat(s, "player out")] = False
        winner = data.get("winner")
        if winner is not None:
            winner = self.seat(winner, "winner")
        reason = data.get("reason", "")
        if not isinstance(reason, str):
            raise self.fail("reason must be text")
        turns = self.counts(data.get("turns_taken", [0] * rules.players), "turns_taken")
        return FocusState(
            game, rules, stacks, reserve=self.counts(data["reserve"], "reserve"),
            captured=self.counts(data["captured"], "captured"), turn=turn, turns_taken=turns,
            active=active, winner=winner, reason=reason, rng=rng_from_json(data["rng"]),
        )


def _pieces(n: int) -> str:
    return "1 piece" if n == 1 else f"{n} pieces"


def _squares(n: int) -> str:
    return "1 square" if n == 1 else f"{n} squares"
