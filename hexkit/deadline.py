"""A deadline for one call into plugin code, in this process.

``with call_deadline(5, "move 3 'a1-b1'"):`` raises :class:`CallTimeout` when the block
runs longer than 5 seconds of wall time (a loop in a plugin's ``apply``), and turns the
ways a plugin could end the whole command from inside the block (``sys.exit``,
``os._exit``) into :class:`PluginExit`. Both are one-line errors, so a command that checks
or plays a student's plugin reports the call that misbehaved instead of hanging or ending
silently.

The timer is the process's ``SIGALRM`` interval timer: it interrupts Python code, not a
call stuck inside C code (the grader, which runs submissions in their own processes,
catches those too). It works in the main thread only; elsewhere, or without a limit, the
block runs unguarded. Blocks nest: only the outermost sets the timer.
"""

from __future__ import annotations

import os
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

from hexkit.errors import HexkitError


class CallTimeout(HexkitError):
    """Plugin code did not return within its deadline."""


class PluginExit(HexkitError):
    """Plugin code tried to end the process (``sys.exit``, ``os._exit``)."""


_active = False


@contextmanager
def call_deadline(seconds: float | None, what: str) -> Iterator[None]:
    """Run the block with a deadline of ``seconds`` (None or 0: no deadline, but exits are
    still caught). ``what`` names the call in the error message."""
    global _active
    if _active:
        yield
        return
    timed = bool(seconds) and hasattr(signal, "setitimer")

    def expired(signum: int, frame: Any) -> NoReturn:
        raise CallTimeout(f"{what}: the plugin's code did not return within {seconds:g} s "
                          "(an endless loop?)")

    real_exit = os._exit

    def refuse_exit(status: int = 0) -> NoReturn:
        raise PluginExit(f"{what}: the plugin's code called os._exit({status})")

    previous: Callable[..., Any] | int | None = None
    if timed:
        try:
            previous = signal.signal(signal.SIGALRM, expired)
        except ValueError:  # not the main thread: no timer there
            timed = False
        else:
            signal.setitimer(signal.ITIMER_REAL, float(seconds))  # type: ignore[arg-type]
    _active = True
    os._exit = refuse_exit
    try:
        yield
    except SystemExit as exc:
        raise PluginExit(f"{what}: the plugin's code called sys.exit({exc.code!r})") from None
    finally:
        if timed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)  # type: ignore[arg-type]
        os._exit = real_exit
        _active = False
