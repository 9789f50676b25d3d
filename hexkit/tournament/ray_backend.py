"""Games as Ray tasks: the same games, on every core of a cluster.

Each game is one task built from plain data (:meth:`GameTask.to_dict`: game name and
options, bot specs, seeds, limits) and returns plain data (:meth:`GameReport.to_dict`);
a worker rebuilds the game and its bots by name, so every node needs the same plugins
installed. Ray plays a task again if its worker dies (``max_retries``); games are
deterministic, so a retry gives the same result. Tasks are submitted a few per CPU at a
time (a window), so a huge tournament never builds a huge queue, and reports are handed
over as they arrive.

Without an address a local Ray instance is started for the run, bound to 127.0.0.1, with
usage statistics off, and shut down afterwards.
"""

from __future__ import annotations

import logging
import os
import socket
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

from hexkit.errors import OptionError
from hexkit.tournament.protocol import PROGRESS_EVERY, RETRIES, OnMove, OnReport
from hexkit.tournament.referee import GameReport, GameTask, play_game

INSTALL_HINT = "the Ray backend needs Ray: pip install 'hexkit-games[ray]'"


def import_ray() -> Any:
    """The ``ray`` module, or OptionError saying how to install it."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    try:
        import ray
    except ImportError:
        raise OptionError(INSTALL_HINT) from None
    return ray


#: Ray starts its task workers at nice 15: on a machine shared with other work they then
#: get almost no CPU (a tournament ran 0.18-0.30 times as fast as ``--jobs 2``; at nice 0,
#: 1.42 times). The variable is read by the raylet that ``ray.init`` starts.
WORKER_NICENESS = ("RAY_worker_niceness", "0")
#: Starts of the local instance tried: Ray waits a fixed 30 s for its raylet to register,
#: which a loaded machine sometimes misses (2 starts in 9); a second try doubles the wait.
START_TRIES = 2


def start_local_ray(cpus: int | None) -> Any:
    """Start a Ray instance on this machine only: every server on 127.0.0.1, no dashboard,
    no usage statistics, workers at normal priority (unless one is running in this process
    already). OptionError in one line saying why, if it cannot start."""
    # On Linux Ray swaps 127.0.0.1 for the machine's address (to be reachable by other
    # nodes) unless told that this is not a cluster; it must be told before it is imported.
    os.environ.setdefault("RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER", "0")
    os.environ.setdefault(*WORKER_NICENESS)
    ray = import_ray()
    if ray.is_initialized():
        return ray
    why = ""
    for _attempt in range(START_TRIES):
        try:
            ray.init(num_cpus=cpus, include_dashboard=False, _node_ip_address="127.0.0.1",
                     log_to_driver=False, logging_level=logging.ERROR, configure_logging=True)
            return ray
        except Exception as exc:  # Ray raises bare Exception for a raylet that is late
            why = start_failure(exc)
            try:
                ray.shutdown()
            except Exception:
                pass
            if "timed out" not in why:
                break
    raise OptionError(f"the local Ray instance did not start: {why}")


def start_failure(exc: BaseException) -> str:
    """Why Ray did not start, in one line."""
    text = " ".join(str(exc).split())
    if "timed out during startup" in text:
        return ("its raylet did not register within Ray's 30-second wait, twice (a loaded "
                "machine?); try again, or use --backend local")
    if "address already in use" in text.lower():
        return "a port it needs is in use (another Ray instance?)"
    first = text[:200] or type(exc).__name__
    return f"{type(exc).__name__}: {first}"


def _play_remote(data: dict[str, Any], board: Any = None) -> dict[str, Any]:
    """A Ray task: play one game from plain data, return its report as plain data."""
    task = GameTask.from_dict(data)
    watch = None
    if board is not None:
        next_report = time.monotonic() + PROGRESS_EVERY

        def watch(seat: int, moves: int) -> None:
            nonlocal next_report
            if seat < 0 and time.monotonic() >= next_report:
                next_report = time.monotonic() + PROGRESS_EVERY
                board.report.remote(task.key, moves)

    return play_game(task, watch).to_dict()


def check_reachable(address: str, timeout: float = 5.0) -> None:
    """OptionError, at once, if ``HOST:PORT`` (or ``ray://HOST:PORT``) does not answer: Ray
    itself would retry for minutes. Other forms (``auto``) are left to Ray."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit() or not host:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise OptionError(f"cannot reach the Ray cluster at {address}: {why}") from None


class _ProgressBoard:
    """A Ray actor where long games note their move count for the driver."""

    def __init__(self) -> None:
        self.moves: dict[str, int] = {}

    def report(self, key: str, moves: int) -> None:
        self.moves[key] = moves

    def take(self) -> dict[str, int]:
        moves, self.moves = self.moves, {}
        return moves


class RayBackend:
    """Plays games as Ray tasks on the cluster at ``address`` (None: a local instance with
    ``cpus`` CPUs, default all)."""

    name = "ray"

    def __init__(self, address: str | None = None, cpus: int | None = None):
        self.address = address
        self.cpus = cpus
        self._ray: Any = None
        self._started = False

    def _connect(self) -> Any:
        if self._ray is not None:
            return self._ray
        if self.address:
            check_reachable(self.address)
            ray = import_ray()
            if not ray.is_initialized():
                try:
                    ray.init(address=self.address, log_to_driver=False,
                             logging_level=logging.ERROR)
                except (ConnectionError, RuntimeError, ValueError) as exc:
                    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
                    raise OptionError(f"cannot reach the Ray cluster at {self.address}: "
                                      f"{first}") from None
                self._started = True
        else:
            was_running = "ray" in sys.modules and sys.modules["ray"].is_initialized()
            ray = start_local_ray(self.cpus)
            self._started = not was_running
        self._ray = ray
        return ray

    def run(self, tasks: Iterable[GameTask], on_report: OnReport,
            on_move: OnMove | None = None) -> None:
        ray = self._connect()
        remote = ray.remote(num_cpus=1, max_retries=RETRIES)(_play_remote)
        board = ray.remote(num_cpus=0)(_ProgressBoard).remote() if on_move else None
        window = 2 * max(1, int(ray.cluster_resources().get("CPU", 1))) + 2
        source: Iterator[GameTask] = iter(tasks)
        running: dict[Any, GameTask] = {}
        next_poll = time.monotonic() + PROGRESS_EVERY
        try:
            while True:
                while len(running) < window:
                    task = next(source, None)
                    if task is None:
                        break
                    running[remote.remote(task.to_dict(), board)] = task
                if not running:
                    return
                ready, _ = ray.wait(list(running), num_returns=1, timeout=PROGRESS_EVERY)
                if ready:
                    ready, _ = ray.wait(list(running), num_returns=len(running), timeout=0)
                for ref in ready:
                    task = running.pop(ref)
                    on_report(self._report(ray, ref, task))
                if board is not None and on_move and time.monotonic() >= next_poll:
                    next_poll = time.monotonic() + PROGRESS_EVERY
                    playing = {t.key for t in running.values()}
                    for key, moves in ray.get(board.take.remote()).items():
                        if key in playing:  # not a note that arrived after the game ended
                            on_move(key, moves)
        finally:
            for ref in running:
                ray.cancel(ref, force=True)
            if board is not None:
                ray.kill(board)

    @staticmethod
    def _report(ray: Any, ref: Any, task: GameTask) -> GameReport:
        try:
            return GameReport.from_dict(ray.get(ref))
        except ray.exceptions.RayError as exc:
            lines = str(exc).strip().splitlines()
            why = lines[0] if lines else type(exc).__name__
            return GameReport(task.key, error=f"lost on Ray after {RETRIES} retries: {why}")

    def close(self) -> None:
        if self._started and self._ray is not None:
            self._ray.shutdown()
        self._ray = None
        self._started = False
