"""Games on this machine: in this process, or in our own pool of worker processes.

The pool is ours rather than ``multiprocessing.Pool``: a worker that dies (a crash in a C
extension, a bot that kills its process) is replaced and its game played again, up to
:data:`~hexkit.tournament.protocol.RETRIES` times, as Ray does; and a move stuck where the
referee's timer cannot reach it (C code that never returns to Python) is seen from outside
through a shared clock, the worker is stopped and the bot on move loses on time.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
import time
from collections import deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from typing import Any

from hexkit import plugins
from hexkit.tournament.protocol import RETRIES, OnMove, OnReport, Throttle
from hexkit.tournament.referee import TIME, GameReport, GameTask, faulted, play_game


class InProcess:
    """Plays every game in this process, one after the other."""

    name = "local"

    def run(self, tasks: Iterable[GameTask], on_report: OnReport,
            on_move: OnMove | None = None) -> None:
        for task in tasks:
            on_report(play_game(task, Throttle(task.key, on_move) if on_move else None))

    def close(self) -> None:
        return None


# -- local worker processes ------------------------------------------------------------------
# A worker's shared clock: [seat on move + 1 (0: none), when that move began, moves played,
# bytes of the move log used].
_SEAT, _SINCE, _PLY, _LOGGED = 0, 1, 2, 3
#: Bytes of each worker's shared move log: the moves of the game in progress, one per line,
#: written without a system call, read by the driver only after it stopped the worker.
MOVE_LOG_BYTES = 1 << 18


class _MoveLog:
    """Appends each move's text to the worker's shared log (when records are kept)."""

    def __init__(self, clock: Any, log: Any):
        self.clock, self.log = clock, log
        clock[_LOGGED] = 0

    def __call__(self, text: str) -> None:
        data = text.encode("utf-8", "replace") + b"\n"
        end = int(self.clock[_LOGGED])
        if end + len(data) <= len(self.log):  # a full log keeps the moves it has
            self.log[end:end + len(data)] = data
            self.clock[_LOGGED] = end + len(data)


def logged_moves(clock: Any, log: Any) -> tuple[str, ...]:
    """The moves a stopped worker had logged for its game."""
    used = int(clock[_LOGGED])
    return tuple(bytes(log[:used]).decode("utf-8", "replace").splitlines())


def _worker_main(conn: Connection, plugin_dirs: list[str], clock: Any, log: Any) -> None:
    """A worker process: play the tasks received on ``conn`` until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the driver's to handle
    plugins.configure(plugin_dirs)
    while True:
        data = conn.recv()
        if data is None:
            return
        task = GameTask.from_dict(data)
        watch = _ClockWatch(clock, Throttle(task.key, lambda key, n: conn.send(("move", key, n))))
        clock[_LOGGED] = 0
        report = play_game(task, watch, _MoveLog(clock, log) if task.keep_moves else None)
        clock[_SEAT] = 0
        conn.send(("done", report.to_dict()))


class _ClockWatch:
    """Sets the worker's shared clock before each bot move; throttled progress after it."""

    def __init__(self, clock: Any, progress: Throttle):
        self.clock = clock
        self.progress = progress

    def __call__(self, seat: int, moves: int) -> None:
        clock = self.clock
        if seat >= 0:
            clock[_SINCE] = time.monotonic()
            clock[_PLY] = moves
            clock[_SEAT] = seat + 1
        else:
            clock[_SEAT] = 0
            self.progress(seat, moves)


@contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclass
class _Worker:
    process: Any
    conn: Connection
    clock: Any
    log: Any = None
    task: GameTask | None = None
    attempt: int = 0

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(5)
        self.conn.close()


class LocalProcesses:
    """Plays games in ``jobs`` worker processes on this machine (spawned: each rebuilds the
    plugin registry by name; only plain data crosses the process boundary)."""

    name = "local"

    def __init__(self, jobs: int, grace: float = 2.0):
        self.jobs = jobs
        self.grace = grace
        self._ctx = multiprocessing.get_context("spawn")

    def close(self) -> None:
        return None  # workers live only as long as one run

    def _spawn(self) -> _Worker:
        ours, theirs = self._ctx.Pipe()
        clock = self._ctx.RawArray("d", 4)
        log = self._ctx.RawArray("c", MOVE_LOG_BYTES)
        process = self._ctx.Process(target=_worker_main, daemon=True,
                                    args=(theirs, list(plugins._plugin_dirs), clock, log))
        # An ignored SIGINT survives exec: the worker never sees Ctrl-C, even while starting.
        with _sigint_ignored():
            process.start()
        theirs.close()
        return _Worker(process, ours, clock, log)

    def run(self, tasks: Iterable[GameTask], on_report: OnReport,
            on_move: OnMove | None = None) -> None:
        source: Iterator[GameTask] = iter(tasks)
        again: deque[tuple[GameTask, int]] = deque()  # games whose worker died
        workers: list[_Worker] = []
        exhausted = False
        try:
            while True:
                for worker in workers:
                    if worker.task is None:
                        exhausted = self._assign(worker, again, source, exhausted)
                while len(workers) < self.jobs and (again or not exhausted):
                    worker = self._spawn()
                    workers.append(worker)
                    exhausted = self._assign(worker, again, source, exhausted)
                busy = [w for w in workers if w.task is not None]
                if not busy:
                    return
                wait([w.conn for w in busy] + [w.process.sentinel for w in busy], 0.25)
                for worker in busy:
                    alive = worker.process.is_alive()  # asked once: the answer may change
                    self._collect(worker, on_report, on_move)
                    if worker.task is not None and not alive:
                        self._lost(worker, again, on_report)
                    elif worker.task is not None:
                        alive = not self._watch(worker, on_report)
                    if not alive:
                        worker.stop()
                        workers.remove(worker)  # a new one starts if games are left
        finally:
            for worker in workers:
                if worker.process.is_alive() and worker.task is None:
                    try:
                        worker.conn.send(None)
                    except OSError:
                        pass
                    worker.process.join(0.5)
                worker.stop()

    @staticmethod
    def _assign(worker: _Worker, again: deque[tuple[GameTask, int]],
                source: Iterator[GameTask], exhausted: bool) -> bool:
        if again:
            worker.task, worker.attempt = again.popleft()
        elif not exhausted:
            task = next(source, None)
            if task is None:
                return True
            worker.task, worker.attempt = task, 0
        else:
            return exhausted
        worker.conn.send(worker.task.to_dict())
        return exhausted

    @staticmethod
    def _collect(worker: _Worker, on_report: OnReport, on_move: OnMove | None) -> None:
        try:
            while worker.task is not None and worker.conn.poll():
                message = worker.conn.recv()
                if message[0] == "move":
                    if on_move:
                        on_move(message[1], message[2])
                else:
                    worker.task = None
                    on_report(GameReport.from_dict(message[1]))
        except (EOFError, OSError):
            pass  # the worker died; its game is played again

    @staticmethod
    def _lost(worker: _Worker, again: deque[tuple[GameTask, int]],
              on_report: OnReport) -> None:
        task, attempt = worker.task, worker.attempt + 1
        assert task is not None
        worker.task = None
        if attempt <= RETRIES:
            again.append((task, attempt))
        else:
            code = worker.process.exitcode
            on_report(GameReport(task.key, error=f"its worker process died {attempt} times "
                                                 f"(exit code {code})"))

    def _watch(self, worker: _Worker, on_report: OnReport) -> bool:
        """Stop a worker whose bot is stuck beyond the referee's own timer's reach; whether
        it was stopped."""
        task = worker.task
        assert task is not None
        seat = int(worker.clock[_SEAT]) - 1
        if not task.time_per_move or seat < 0:
            return False
        late = time.monotonic() - worker.clock[_SINCE]
        if late < task.time_per_move + max(self.grace, task.time_per_move / 2):
            return False
        worker.process.kill()
        worker.process.join(5)
        worker.task = None
        on_report(faulted(task, seat, TIME, f"no move within {task.time_per_move:g} s "
                                            "(its process was stopped)",
                          int(worker.clock[_PLY]), logged_moves(worker.clock, worker.log),
                          seconds=late))
        return True
