"""A submission's own process: a temporary folder, resource limits, a clean environment,
and a deadline on every answer.

The parent (the grader, trusted) starts ``python -m hexkit.grading.child DRIVER`` in a fresh
temporary folder holding a copy of the submission, with:

* ``resource`` limits: CPU seconds, address space, open files, the size of any file
  written, no core dumps;
* an environment of its own: ``PATH``, ``HOME``/``TMPDIR`` (the folder), the locale and
  Python's switches, and nothing else of the grader's (no tokens, no keys);
* its own session (process group), so that stopping it stops anything it left behind;
* the guard of :mod:`hexkit.grading.guard` in the child, which refuses writes outside the
  folder, starting programs and the network.

Requests and answers are JSON lines on two pipes of their own (what the submission prints
goes to a log file, never into the protocol). Every answer is awaited with a deadline: a
call that loops or sleeps is stopped by killing the process group, and the next request
starts a new process. The folder is removed when the sandbox is closed, so nothing the
submission wrote is kept.
"""

from __future__ import annotations

import json
import os
import resource
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Longest protocol line the parent reads (a line longer than this is a broken child).
MAX_LINE = 8 << 20
#: Bytes of the submission's printed output kept for the report.
LOG_TAIL = 4000


@dataclass(frozen=True)
class Limits:
    """What one submission may use."""

    #: Wall-clock seconds for the whole grading of the submission.
    time_limit: float = 120.0
    #: Wall-clock seconds for one call (one step of a trajectory).
    call_limit: float = 5.0
    #: Seconds to start: the interpreter, hexkit and the submission's import.
    start_limit: float = 30.0
    memory_mb: int = 1024
    open_files: int = 64
    file_mb: int = 16


class SandboxError(Exception):
    """The submission's process did not answer: ``reason`` is ``timeout``, ``exit``
    (it ended), ``load`` (the submission could not be loaded) or ``protocol``."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class Budget:
    """The time left for one submission."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def restart(self) -> None:
        """Start the whole time again (after the grader's own work: the trajectories,
        made once for a whole class, are not the submission's time)."""
        self.end = time.monotonic() + self.seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def spent(self) -> bool:
        return self.left() <= 0


def clean_environment(folder: Path) -> dict[str, str]:
    """The child's whole environment: nothing of the grader's but the interpreter's path."""
    return {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "HOME": str(folder),
        "TMPDIR": str(folder),
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": "0",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONIOENCODING": "utf-8",
        "PYTHONUNBUFFERED": "1",
    }


def _limiter(limits: Limits) -> Any:
    cpu = int(limits.time_limit) + 5
    memory = limits.memory_mb << 20
    size = limits.file_mb << 20

    def apply() -> None:  # runs in the child between fork and exec
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files))
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    return apply


def _ignore(folder: Path) -> Callable[[str, list[str]], set[str]]:
    """What a copy of a submission leaves out: caches, git, and the sandbox's own folder
    (a submission folder that holds the temporary folder would copy itself forever)."""
    plain = shutil.ignore_patterns("__pycache__", ".git", "*.pyc")
    own = os.path.realpath(folder)

    def ignore(directory: str, names: list[str]) -> set[str]:
        skipped = set(plain(directory, names))
        skipped.update(n for n in names if os.path.realpath(os.path.join(directory, n)) == own)
        return skipped

    return ignore


class Sandbox:
    """One submission in its own process; restarted after it dies or is stopped.

    ``driver`` names the child-side class (``"module:Class"``) that loads the submission
    and answers requests; ``start`` is its first request (what to load and how);
    ``files`` are copied into the folder (the submission itself and any data files)."""

    def __init__(self, driver: str, start: Mapping[str, Any], files: Mapping[str, Path],
                 limits: Limits, budget: Budget):
        self.driver = driver
        self.start_request = dict(start)
        self.limits = limits
        self.budget = budget
        self.folder = Path(tempfile.mkdtemp(prefix="hexkit-grade-"))
        self.work = self.folder / "work"
        self.work.mkdir()
        for name, source in files.items():
            target = self.work / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if source.is_dir():
                shutil.copytree(source, target, ignore=_ignore(self.folder))
            else:
                shutil.copyfile(source, target)
        self.log_path = self.folder / "output.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self._to_child: int | None = None
        self._from_child: int | None = None
        self._buffer = b""
        self.info: dict[str, Any] = {}
        self.starts = 0

    # -- the process ---------------------------------------------------------------------
    def _spawn(self) -> dict[str, Any]:
        request_r, request_w = os.pipe()
        answer_r, answer_w = os.pipe()
        log = open(self.log_path, "ab")  # noqa: SIM115 - handed to the child
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-X", "utf8", "-m", "hexkit.grading.child", self.driver,
                 str(request_r), str(answer_w)],
                cwd=self.work, env=clean_environment(self.work), stdin=subprocess.DEVNULL,
                stdout=log, stderr=log, pass_fds=(request_r, answer_w),
                preexec_fn=_limiter(self.limits), start_new_session=True, close_fds=True,
            )
        finally:
            log.close()
            os.close(request_r)
            os.close(answer_w)
        self._to_child, self._from_child = request_w, answer_r
        self._buffer = b""
        self.starts += 1
        self._send(self.start_request)
        answer = self._answer(min(self.limits.start_limit, max(self.budget.left(), 0.1)),
                              "while it was being loaded")
        if "failed" in answer:
            self.kill()
            raise SandboxError("load", str(answer["failed"]))
        self.info = answer.get("ready", {})
        return self.info

    def ensure(self) -> dict[str, Any]:
        """Start the process if it is not running; the driver's description of what it
        loaded. SandboxError if the submission cannot be loaded."""
        if self.proc is None or self.proc.poll() is not None:
            self.kill()
            return self._spawn()
        return self.info

    def kill(self) -> None:
        """Stop the process and everything it started."""
        proc = self.proc
        if proc is not None:
            if proc.poll() is None:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        for fd in (self._to_child, self._from_child):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self.proc = None
        self._to_child = self._from_child = None

    def close(self) -> None:
        """Stop the process and delete the folder with everything written in it."""
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)

    def log_tail(self) -> str:
        """The end of what the submission printed (for a report)."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(0, os.SEEK_END)
                size = f.tell()
                f.seek(max(0, size - LOG_TAIL))
                return f.read().decode("utf-8", "replace")
        except OSError:
            return ""

    # -- requests ------------------------------------------------------------------------
    def _send(self, request: Mapping[str, Any]) -> None:
        assert self._to_child is not None
        data = (json.dumps(request) + "\n").encode()
        try:
            while data:
                written = os.write(self._to_child, data)
                data = data[written:]
        except OSError:
            raise SandboxError("exit", self._ended("before it read its request")) from None

    def _answer(self, timeout: float, when: str) -> dict[str, Any]:
        assert self._from_child is not None
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self._from_child, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.kill()
                    raise SandboxError("timeout", f"no answer within {timeout:.3g} s {when} "
                                       "(an endless loop, a sleep or a wait?)")
                chunk = os.read(self._from_child, 1 << 16)
                if not chunk:
                    message = self._ended(when)
                    self.kill()
                    raise SandboxError("exit", message)
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    self.kill()
                    raise SandboxError("protocol", "the submission's process sent garbage")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            answer = json.loads(line)
        except ValueError:
            self.kill()
            raise SandboxError("protocol", "the submission's process sent garbage") from None
        if not isinstance(answer, dict):
            self.kill()
            raise SandboxError("protocol", "the submission's process sent garbage")
        return answer

    def _ended(self, when: str) -> str:
        proc = self.proc
        status = None
        if proc is not None:
            try:
                status = proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                status = None
        if status is not None and status < 0:
            name = signal.Signals(-status).name if -status in signal.Signals._value2member_map_ \
                else str(-status)
            why = {"SIGXCPU": " (its CPU time limit)", "SIGKILL": " (killed, out of memory?)",
                   "SIGSEGV": " (a crash)"}.get(name, "")
            return f"the submission's process was ended by {name}{why} {when}"
        return f"the submission ended its process (exit status {status}) {when}"

    def stream(self, request: Mapping[str, Any], per_answer: float | None = None
               ) -> Iterator[dict[str, Any]]:
        """Send a request and yield its answers until the driver's ``end``; each answer
        must arrive within the per-call limit (and the submission's time left)."""
        self.ensure()
        self._send(request)
        limit = per_answer if per_answer is not None else self.limits.call_limit
        while True:
            left = self.budget.left()
            if left <= 0:
                self.kill()
                raise SandboxError("timeout", "the submission's time limit "
                                   f"({self.budget.seconds:g} s) ran out")
            answer = self._answer(min(limit, left), "during a call")
            if "fatal" in answer:
                self.kill()
                raise SandboxError("protocol", str(answer["fatal"]))
            if answer.get("end"):
                if answer.get("reference_imports"):  # imported while being played
                    self.info["reference_imports"] = answer["reference_imports"]
                return
            yield answer
