"""Where games are played: in this process, in local worker processes
(:mod:`~hexkit.tournament.local`), or on Ray (:mod:`~hexkit.tournament.ray_backend`).

Every backend takes an iterable of :class:`~hexkit.tournament.referee.GameTask` (consumed
lazily, so a match of a hundred million games never builds a list), plays each task once,
and hands each :class:`~hexkit.tournament.referee.GameReport` to ``on_report`` as it
arrives, in any order. ``on_move(key, moves)`` tells of long games in progress (at most
every half second per game, and not before a game has run half a second). Ctrl-C
(``KeyboardInterrupt``) stops the workers at once and passes through; the reports already
handed over are what was played.
"""

from __future__ import annotations

import os

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.tournament.local import InProcess, LocalProcesses
from hexkit.tournament.protocol import Backend, interrupts_deferred

__all__ = ["Backend", "InProcess", "LocalProcesses", "check_jobs", "interrupts_deferred",
           "make_backend", "max_jobs"]


def max_jobs() -> int:
    """The most local worker processes allowed: four per CPU."""
    return 4 * (os.cpu_count() or 1)


def check_jobs(jobs: int) -> None:
    """OptionError unless ``jobs`` is a sensible number of local processes."""
    if jobs < 1:
        raise OptionError("--jobs must be at least 1")
    if jobs > max_jobs():
        raise OptionError(f"--jobs {jobs} is more than this machine can use: at most "
                          f"{max_jobs()} (4 per CPU, {os.cpu_count() or 1} CPUs)")


def make_backend(name: str, jobs: int = 1, address: str | None = None) -> Backend:
    """The backend called ``name`` (local or ray); ``jobs`` local processes (for Ray
    without an address: the CPUs of the local Ray instance)."""
    if address and name != "ray":
        raise OptionError("--address does not apply without --backend ray")
    if name == "local":
        check_jobs(jobs)
        return InProcess() if jobs == 1 else LocalProcesses(jobs)
    if name == "ray":
        from hexkit.tournament.ray_backend import RayBackend

        if address and jobs != 1:
            raise OptionError("--jobs does not apply with --address (the Ray cluster's CPUs "
                              "are used)")
        check_jobs(jobs)
        return RayBackend(address=address, cpus=None if address else jobs)
    raise OptionError(plugins.unknown_message("backend", name, ["local", "ray"]))
