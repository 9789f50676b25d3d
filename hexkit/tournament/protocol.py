"""What every backend shares: the :class:`Backend` protocol, how often a game is played
again when its worker dies, how often a long game reports progress, and Ctrl-C held back
while a finished game is recorded."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Protocol

from hexkit.tournament.referee import GameReport, GameTask

#: How many times a game whose worker died is played again before it is an error.
RETRIES = 3
#: Seconds a game runs before it reports progress, and between two reports.
PROGRESS_EVERY = 0.5

OnReport = Callable[[GameReport], None]
OnMove = Callable[[str, int], None]


class Backend(Protocol):
    """Plays tasks and reports each game as it ends."""

    name: str

    def run(self, tasks: Iterable[GameTask], on_report: OnReport,
            on_move: OnMove | None = None) -> None: ...

    def close(self) -> None: ...


class Throttle:
    """Calls ``on_move`` for a long game at most every :data:`PROGRESS_EVERY` seconds."""

    def __init__(self, key: str, send: OnMove):
        self.key = key
        self.send = send
        self.next = time.monotonic() + PROGRESS_EVERY

    def __call__(self, seat: int, moves: int) -> None:
        if seat < 0 and time.monotonic() >= self.next:
            self.next = time.monotonic() + PROGRESS_EVERY
            self.send(self.key, moves)


@contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C back while a finished game is being recorded (stored, counted, saved),
    so it is recorded whole or not at all; the interrupt is raised right after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt
