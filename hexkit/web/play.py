"""How a game on the server is played beyond its rules: clocks, resigning, draw offers and
rematches (as on lichess, where it fits a course).

:class:`PlayFlow` is plain data that a :class:`~hexkit.web.rooms.Room` keeps and saves with
its seats (the ``play`` entry of the seats document, through the storage interface), and
the rules of each feature; nothing here knows a game, a room or a web framework:

- a **clock** per seat, chosen at creation (:class:`TimeControl`, ``minutes+increment``):
  it starts with the first move and then runs for the seat to act (a bot's too), the
  increment added when a turn passes; a player whose time runs out loses, decided on the
  server (:meth:`PlayFlow.flag`). The time left and when the running turn started are
  saved with every change, so every process sharing a storage counts the same clocks;
  with a folder (one process), a turn under way when the server stopped starts again when
  it starts (the time it was down is not charged);
- **resigning** gives the game to the other player; a **draw offer** stands until the
  other player answers it or moves;
- an **ending** decided here (resigned, out of time, a draw agreed) is kept beside the
  game record, whose result stays the rules' own (a record replays as the rules say);
- a **rematch** is asked for by a player of a finished game and made when every other
  person in it agrees (at once against bots): the same game and options, seats swapped.

Resigning, draws and clocks are for two-player games (with more players nobody can say
who wins when one leaves).
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from hexkit.errors import HexkitError
from hexkit.game import Outcome, describe_outcome

#: The time controls the lobby offers (minutes + increment in seconds).
PRESETS = ("1+0", "3+2", "5+3", "10+5", "15+10", "30+20")
#: Bounds of a time control: minutes per player, seconds added per turn.
MAX_MINUTES = 180
MAX_INCREMENT = 180
_CONTROL = re.compile(r"\s*(\d{1,3}(?:\.\d{1,2})?)\s*(?:\+\s*(\d{1,3}))?\s*\Z")


class PlayError(HexkitError):
    """A request of play (resign, draw, rematch, a clock) that is refused, in one line;
    ``status`` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 409):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class TimeControl:
    """``minutes`` each player has for the game, ``increment`` seconds added per turn."""

    minutes: float
    increment: int = 0

    def __str__(self) -> str:
        return f"{self.minutes:g}+{self.increment}"

    @property
    def seconds(self) -> float:
        return self.minutes * 60.0

    @classmethod
    def parse(cls, value: Any) -> TimeControl | None:
        """A time control from a request: ``"5+3"``, ``"10"``, ``{"minutes": 5,
        "increment": 3}``; None, ``""`` or ``"none"``: no clock. PlayError (400) else."""
        if value is None or value == "" or value == "none":
            return None
        if isinstance(value, Mapping):
            minutes, increment = value.get("minutes"), value.get("increment", 0)
            if not isinstance(minutes, int | float) or not isinstance(increment, int | float) \
                    or not _number(minutes) or not _number(increment) \
                    or increment != int(increment):
                raise PlayError("'clock' is {\"minutes\": M, \"increment\": S} with numbers",
                                400)
            control = cls(float(minutes), int(increment))
        elif isinstance(value, str) and (m := _CONTROL.match(value)) and value.isascii():
            control = cls(float(m.group(1)), int(m.group(2) or 0))
        else:
            shown = value if isinstance(value, str) and len(value) <= 20 else "?"
            raise PlayError(f"clock {shown!r}: write minutes+increment, e.g. 5+3 "
                            "(or none)", 400)
        if not 0.25 <= control.minutes <= MAX_MINUTES or \
                not 0 <= control.increment <= MAX_INCREMENT:
            raise PlayError(f"clock {control}: from 0.25 to {MAX_MINUTES} minutes, and 0 to "
                            f"{MAX_INCREMENT} seconds a turn", 400)
        return control


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and \
        value == value and abs(value) < 1e6


@dataclass
class Clock:
    """Each seat's time left; ``running`` is the seat whose time is going (None before the
    first move and after the end), since ``since`` (seconds since the epoch)."""

    control: TimeControl
    left: list[float]
    running: int | None = None
    since: float = 0.0

    @classmethod
    def new(cls, control: TimeControl, seats: int) -> Clock:
        return cls(control, [control.seconds] * seats)

    def copy(self) -> Clock:
        return Clock(self.control, list(self.left), self.running, self.since)

    def remaining(self, seat: int, now: float) -> float:
        """Seconds ``seat`` has left at ``now`` (never below 0)."""
        left = self.left[seat]
        if seat == self.running:
            left -= max(0.0, now - self.since)
        return max(0.0, left)

    def flagged(self, now: float) -> int | None:
        """The seat whose time ran out, if any."""
        if self.running is not None and self.remaining(self.running, now) <= 0.0:
            return self.running
        return None

    def deadline(self) -> float | None:
        """When the running seat's time runs out (seconds since the epoch)."""
        return None if self.running is None else self.since + self.left[self.running]

    def stop(self, now: float) -> None:
        """Charge the running seat and stop every clock."""
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running, now)
        self.running = None

    def switch(self, seat: int | None, now: float, increment: bool) -> None:
        """The turn passes to ``seat`` (None: nobody's clock runs): the running seat is
        charged, and gets the increment when it finished a turn."""
        before = self.running
        self.stop(now)
        if increment and before is not None and before != seat:
            self.left[before] += self.control.increment
        self.running, self.since = seat, now

    def view(self) -> dict[str, Any]:
        """What a page shows: the control, each seat's seconds left (the running seat's
        as of ``since``, seconds since the epoch: the page counts down from there)."""
        return {"control": str(self.control), "running": self.running,
                "since": round(self.since, 3), "left": [round(x, 3) for x in self.left]}

    def to_dict(self) -> dict[str, Any]:
        return {"minutes": self.control.minutes, "increment": self.control.increment,
                "left": [round(x, 3) for x in self.left], "running": self.running,
                "since": self.since}

    @classmethod
    def from_dict(cls, data: Any, seats: int, resume: float | None = None
                  ) -> Clock | None:
        """A saved clock (None if absent or damaged); with ``resume``, a running turn
        that started before it starts again at ``resume`` (the time a server was down is
        not charged)."""
        if not isinstance(data, Mapping):
            return None
        try:
            control = TimeControl.parse({"minutes": data.get("minutes"),
                                         "increment": data.get("increment", 0)})
        except PlayError:
            return None
        left = data.get("left")
        if control is None or not isinstance(left, list) or len(left) != seats or \
                not all(_number(x) and x >= 0 for x in left):
            return None
        since = data.get("since")
        if not isinstance(since, int | float) or isinstance(since, bool) or \
                not 0 <= since < 1e11:
            since = time.time()  # damaged: the turn under way starts now
        if resume is not None:
            since = max(float(since), resume)
        return cls(control, [float(x) for x in left], _seat(data.get("running"), seats),
                   float(since))


def _seat(value: Any, seats: int) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < seats:
        return value
    return None


@dataclass
class PlayFlow:
    """The play of one room beyond its rules (see the module's docstring)."""

    seats: int
    clock: Clock | None = None
    #: How the game ended here (resigned, out of time, agreed), or None.
    ended: Outcome | None = None
    #: The seat offering a draw, or None.
    draw_offer: int | None = None
    #: The seat asking for a rematch, or None; the rematch's room once made.
    rematch_offer: int | None = None
    rematch: str = ""
    #: Who left the finished game (their seats).
    left: list[int] = field(default_factory=list)

    def copy(self) -> PlayFlow:
        """An independent copy (what a refused change puts back); the outcome is
        immutable and shared."""
        return PlayFlow(self.seats, None if self.clock is None else self.clock.copy(),
                        self.ended, self.draw_offer, self.rematch_offer, self.rematch,
                        list(self.left))

    @classmethod
    def new(cls, seats: int, control: TimeControl | None) -> PlayFlow:
        if control is not None and seats != 2:
            raise PlayError(f"clocks are for two-player games (this one has {seats})", 400)
        return cls(seats, None if control is None else Clock.new(control, seats))

    # -- the turn passes -----------------------------------------------------------------
    def moved(self, seat: int, to_act: int | None, now: float) -> None:
        """``seat`` played a move; ``to_act`` is the seat to act now (None: the game is
        over). A draw offer of the other player lapses."""
        if self.draw_offer is not None and (self.draw_offer != seat or to_act is None):
            self.draw_offer = None
        if self.clock is not None:
            self.clock.switch(to_act, now, increment=to_act != seat)

    def undone(self, to_act: int | None, now: float) -> None:
        """Moves were taken back; ``to_act`` acts now. No offer outlives it."""
        self.draw_offer = None
        if self.clock is not None and self.clock.running is not None:
            self.clock.switch(to_act, now, increment=False)

    def game_over(self, now: float) -> None:
        """The rules ended the game: clocks stop, offers lapse."""
        self.draw_offer = None
        if self.clock is not None:
            self.clock.stop(now)

    # -- endings -------------------------------------------------------------------------
    def _end(self, outcome: Outcome, now: float) -> None:
        self.ended = outcome
        self.game_over(now)

    def flag(self, players: Sequence[str], now: float) -> int | None:
        """End the game if the running clock is out of time; the seat that lost, or
        None."""
        if self.clock is None or self.ended is not None:
            return None
        seat = self.clock.flagged(now)
        if seat is None:
            return None
        self._end(Outcome((1 - seat,), f"{players[seat]} ran out of time"), now)
        self.clock.left[seat] = 0.0
        return seat

    def resign(self, seat: int, players: Sequence[str], now: float) -> None:
        if self.seats != 2:
            raise PlayError("resigning is for two-player games: ask the game's owner to "
                            "stop it")
        self._end(Outcome((1 - seat,), f"{players[seat]} resigned"), now)

    def offer_draw(self, seat: int) -> None:
        if self.seats != 2:
            raise PlayError("draw offers are for two-player games")
        if self.draw_offer == seat:
            raise PlayError("you offered a draw already: the other player answers it")
        if self.draw_offer is not None:
            raise PlayError("the other player offered a draw: accept or decline it")
        self.draw_offer = seat

    def answer_draw(self, seat: int, accept: bool, now: float) -> None:
        if self.draw_offer is None:
            raise PlayError("nobody offered a draw")
        if self.draw_offer == seat:
            raise PlayError("the other player answers your draw offer")
        self.draw_offer = None
        if accept:
            self._end(Outcome((), "agreed"), now)

    def result_text(self, players: Sequence[str]) -> str:
        return "" if self.ended is None else describe_outcome(players, self.ended)

    # -- saved and shown -----------------------------------------------------------------
    def view(self) -> dict[str, Any]:
        """What a page shows (the same until the next change)."""
        return {"clock": None if self.clock is None else self.clock.view(),
                "draw_offer": self.draw_offer, "rematch_offer": self.rematch_offer,
                "rematch": self.rematch or None, "left": list(self.left),
                "ended": None if self.ended is None else self.ended.to_dict()}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.clock is not None:
            out["clock"] = self.clock.to_dict()
        if self.ended is not None:
            out["ended"] = self.ended.to_dict()
        for key in ("draw_offer", "rematch_offer"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.rematch:
            out["rematch"] = self.rematch
        if self.left:
            out["left"] = list(self.left)
        return out

    @classmethod
    def from_dict(cls, data: Any, seats: int, resume: float | None = None) -> PlayFlow:
        """The saved play of a room (anything damaged is dropped: a seats document is
        data); ``resume`` as for :meth:`Clock.from_dict`."""
        flow = cls(seats)
        if not isinstance(data, Mapping):
            return flow
        flow.clock = Clock.from_dict(data.get("clock"), seats, resume)
        ended = data.get("ended")
        if isinstance(ended, Mapping):
            try:
                outcome = Outcome.from_dict(ended)
                if all(0 <= w < seats for w in outcome.winners):
                    flow.ended = Outcome(outcome.winners, outcome.reason[:200])
            except (KeyError, TypeError, ValueError):
                pass
        flow.draw_offer = _seat(data.get("draw_offer"), seats)
        flow.rematch_offer = _seat(data.get("rematch_offer"), seats)
        rematch = data.get("rematch")
        flow.rematch = rematch if isinstance(rematch, str) and \
            re.fullmatch(r"[0-9a-f]{10}", rematch) else ""
        left = data.get("left")
        if isinstance(left, list):
            flow.left = sorted({s for s in left if _seat(s, seats) is not None})
        return flow


__all__ = ["PRESETS", "Clock", "PlayError", "PlayFlow", "TimeControl"]
