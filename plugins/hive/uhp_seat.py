"""The ``uhp:COMMAND`` bot: any external Universal Hive Protocol engine in a seat of
``hexkit play`` and ``hexkit match`` for Hive.

    --p2 'uhp:/path/to/mzingacpp'          (bestmove time 00:00:01)
    --p2 'uhp:time=0.5:hexkit uhp'         (half a second a move)
    --p2 'uhp:depth=3:hexkit uhp'          (bestmove depth 3)

Before each move the engine is given the whole game (``newgame GameString``), so it never
drifts from hexkit's position (undo, loaded games); its ``bestmove`` answer is checked
against hexkit's own legal moves.
"""

from __future__ import annotations

import weakref
from typing import Any

from hexkit.errors import HexkitError, OptionError

from .bot import BUDGET_KEYS, parse_budget
from .uhp_client import UhpEngine, UhpEngineError, clock_command

#: Seconds a move may take when the spec says neither time nor depth.
DEFAULT_SECONDS = 1.0


def parse_seat_spec(arg: str | None) -> tuple[str, float | None, int | None]:
    """``[time=S:|depth=N:]COMMAND`` -> (command, seconds, depth)."""
    text = (arg or "").strip()
    seconds: float | None = None
    depth: int | None = None
    while True:
        head, sep, rest = text.partition(":")
        key, eq, value = head.partition("=")
        key = key.strip().lower()
        if not sep or not eq or key not in BUDGET_KEYS:
            break
        if key == "time":
            seconds = float(parse_budget("uhp bot", key, value))
        else:
            depth = int(parse_budget("uhp bot", key, value))
        text = rest.strip()
    if not text:
        raise OptionError("the uhp bot needs the engine's command: uhp:COMMAND, e.g. "
                          "'uhp:/path/to/mzingacpp' or 'uhp:time=0.5:hexkit uhp'")
    if seconds is None and depth is None:
        seconds = DEFAULT_SECONDS
    return text, seconds, depth


def bestmove_command(seconds: float | None, depth: int | None) -> str:
    """``bestmove depth N`` or ``bestmove time hh:mm:ss`` (``ss.fff`` below whole seconds)."""
    if depth is not None:
        return f"bestmove depth {depth}"
    return clock_command(seconds or DEFAULT_SECONDS)


class UhpSeat:
    """A seat played by an external UHP engine (started on the first move, stopped by
    :meth:`close` or when the seat is dropped)."""

    def __init__(self, game: Any, command: str, *, seconds: float | None = DEFAULT_SECONDS,
                 depth: int | None = None):
        if getattr(game, "name", None) != "hive":
            raise OptionError(f"the uhp bot plays Hive only, not {getattr(game, 'name', game)}")
        self.game = game
        self.command = command
        self.seconds = seconds
        self.depth = depth
        self._engine: UhpEngine | None = None
        self._finalizer: weakref.finalize[[], Any] | None = None

    def _started(self) -> UhpEngine:
        if self._engine is None:
            self._engine = UhpEngine(self.command)
            self._finalizer = weakref.finalize(self, self._engine.close)
        return self._engine

    def choose(self, state: Any) -> Any:
        """Ask the engine for its move in ``state`` (which is not changed)."""
        if state.is_over():
            raise HexkitError("the game is over: there is no move to choose")
        engine = self._started()
        engine.ask_line(f"newgame {state.game_string()}")
        answer = engine.bestmove(self.seconds, self.depth)
        try:
            move = state.parse_move(answer)
        except ValueError as e:
            raise UhpEngineError(f"{engine.name} answered bestmove with {answer!r}: {e}") from None
        for legal in state.legal_moves():
            if legal == move:
                return legal
        raise UhpEngineError(f"{engine.name} chose {answer!r}, which is not a legal move here")

    def close(self) -> None:
        """Stop the engine process."""
        if self._finalizer is not None:
            self._finalizer()
        self._engine = None


def uhp_seat_factory(game: Any, arg: str | None, seed: int | None) -> UhpSeat:
    """``uhp:[time=S:|depth=N:]COMMAND`` as a bot (the seed is the engine's business)."""
    command, seconds, depth = parse_seat_spec(arg)
    return UhpSeat(game, command, seconds=seconds, depth=depth)
