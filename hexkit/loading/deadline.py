"""Deadlines for plugin code, in this process.

Three forms, for three shapes of command:

* ``with call_deadline(5, "move 3 'a1-b1'"):`` raises :class:`CallTimeout` when the block
  runs longer than 5 seconds of wall time (a loop in a plugin's ``apply``): one call, or a
  few, that a command makes into a plugin (``hexkit check``, the referee of a match).
* :class:`Watchdog`: a deadline over the stretches of work a command does between waits
  for a person (``hexkit play``: armed while the game's code runs, paused while the player
  types, restarted by a bot's progress reports).
* :func:`watch_calls`: a deadline on each call that a hot loop makes into plugin code
  without a cost in the loop (``hexkit perft``): a periodic timer looks at the running
  frames and raises when the same call has been running for too long.

All three turn the ways a plugin could end the whole command from inside (``sys.exit``,
``os._exit``) into :class:`PluginExit`. Both errors are one-line errors, so a command that
checks or plays a student's plugin reports the call that misbehaved instead of hanging or
ending silently.

The timer is the process's ``SIGALRM`` interval timer: it interrupts Python code, not a
call stuck inside C code (the grader, which runs submissions in their own processes,
catches those too). It works in the main thread only; elsewhere, or without a limit, the
code runs unguarded. Deadlines nest: only the outermost sets the timer.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import CodeType, FrameType
from typing import Any, NoReturn

from hexkit.errors import HexkitError


class CallTimeout(HexkitError):
    """Plugin code did not return within its deadline."""


class PluginExit(HexkitError):
    """Plugin code tried to end the process (``sys.exit``, ``os._exit``)."""


_active = False

Handler = Callable[[int, FrameType | None], Any]


def timeout_message(what: str, seconds: float) -> str:
    """The one line of a :class:`CallTimeout`."""
    return f"{what}: the plugin's code did not return within {seconds:g} s (an endless loop?)"


def _main_thread() -> bool:
    threading = sys.modules.get("threading")  # not imported: there is one thread
    return threading is None or threading.current_thread() is threading.main_thread()


@contextmanager
def guarded(handler: Handler | None, what: Callable[[], str],
            exits: bool = True) -> Iterator[bool]:
    """Install ``handler`` for ``SIGALRM`` (when given and possible) and, with ``exits``,
    refuse exits in the block; yields whether the handler is installed. The timer is
    stopped on the way out. Nested inside another guard, or outside the main thread
    (where no timer can be had and ``os._exit`` is not this thread's to replace), the
    block runs unguarded."""
    global _active
    if _active or not _main_thread():
        yield False
        return
    timed = handler is not None and hasattr(signal, "setitimer")
    previous: Any = None
    if timed:
        previous = signal.signal(signal.SIGALRM, handler)
    real_exit = os._exit

    def refuse_exit(status: int = 0) -> NoReturn:
        raise PluginExit(f"{what()}: the plugin's code called os._exit({status})")

    _active = True
    if exits:
        os._exit = refuse_exit
    try:
        yield timed
    except SystemExit as exc:
        if not exits:
            raise
        raise PluginExit(f"{what()}: the plugin's code called sys.exit({exc.code!r})") from None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
        os._exit = real_exit
        _active = False


@contextmanager
def call_deadline(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block with a deadline of ``seconds`` (None or 0: no deadline, but exits are
    still caught). ``what`` names the call in the error message."""

    def expired(signum: int, frame: FrameType | None) -> NoReturn:
        raise CallTimeout(timeout_message(what, seconds or 0))

    with guarded(expired if seconds else None, lambda: what) as timed:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, float(seconds or 0))
        yield


class Watchdog:
    """A deadline over stretches of plugin code, for a command that also waits for people.

    ``with Watchdog(10, "starting the game") as dog:`` arms it; :meth:`arm` restarts it
    for the next stretch (naming it, with extra seconds for a bot's own time budget),
    ``with dog.paused():`` stops it while the command waits (the keyboard), and
    :meth:`restart` gives the current stretch its full time again (a bot that reports its
    progress). ``seconds`` None or 0: no deadline (exits are still caught)."""

    def __init__(self, seconds: float | None, what: str):
        self.seconds = float(seconds or 0)
        self.what = what
        self.extra = 0.0
        self._timed = False
        self._running = False

    def __enter__(self) -> Watchdog:
        self._guard = guarded(self._expired if self.seconds else None, lambda: self.what)
        self._timed = self._guard.__enter__()
        self._running = True
        self.restart()
        return self

    def __exit__(self, *exc: Any) -> bool | None:
        self._running = False
        return self._guard.__exit__(*exc)

    def _expired(self, signum: int, frame: FrameType | None) -> None:
        if self._running:
            self._running = False
            raise CallTimeout(timeout_message(self.what, self.seconds + self.extra))

    def _set(self, seconds: float) -> None:
        if self._timed:
            signal.setitimer(signal.ITIMER_REAL, seconds)

    def arm(self, what: str, extra: float = 0.0) -> None:
        """Start the deadline of a new stretch named ``what`` (``extra`` seconds more)."""
        self.what, self.extra = what, max(0.0, extra)
        self._running = True
        self.restart()

    def restart(self) -> None:
        """The current stretch has its whole time again (progress was made)."""
        if self._running:
            self._set(self.seconds + self.extra)

    @contextmanager
    def paused(self) -> Iterator[None]:
        """No deadline in the block; the current stretch starts again after it."""
        self._set(0)
        was, self._running = self._running, False
        try:
            yield
        finally:
            self._running = was
            self.restart()


#: For :func:`watch_calls`: loop functions whose calls are timed (True) or not (False).
Drivers = Mapping[CodeType, bool]


@contextmanager
def watch_calls(seconds: float | None, drivers: Drivers,
                describe: Callable[[FrameType, FrameType], str], what: str) -> Iterator[None]:
    """A deadline of ``seconds`` on each call that the functions of ``drivers`` make, with
    nothing added to their loops.

    A timer ticks four times per ``seconds``; at each tick the running frames are walked
    out to the innermost driver function's frame. If the driver is timed (True) and the
    frame it called is the same frame as at an earlier tick at least ``seconds`` ago, that
    call has run too long: :class:`CallTimeout` is raised inside it, with the line
    ``describe(driver_frame, call_frame)``. A driver marked False runs its calls untimed
    (a game's own fast counter, one long call by design). ``what`` names the block when
    the plugin's code tries to end the process."""
    step = float(seconds or 0) / 4
    seen: list[Any] = [None, 0.0]  # the call frame seen at the last tick, and since when

    def tick(signum: int, frame: FrameType | None) -> None:
        child = None
        while frame is not None:
            timed = drivers.get(frame.f_code)
            if timed is not None:
                break
            child, frame = frame, frame.f_back
        if frame is None or child is None or not timed:
            seen[0] = None
            return
        now = time.monotonic()
        if seen[0] is not child:
            seen[0], seen[1] = child, now
            return
        if now - seen[1] >= float(seconds or 0) * 0.999:
            seen[0] = None
            raise CallTimeout(timeout_message(describe(frame, child), float(seconds or 0)))

    with guarded(tick if step else None, lambda: what) as timed:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, step, step)
        yield
