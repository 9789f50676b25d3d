"""Talk to an external Universal Hive Protocol engine (MzingaCpp, ``hexkit uhp``, ...) run
as a child process: send one command, read its answer up to ``ok``."""

from __future__ import annotations

import queue
import shlex
import subprocess
import threading
from collections.abc import Sequence

from hexkit.errors import HexkitError


class UhpEngineError(HexkitError):
    """The engine could not be started, died, timed out or answered ``err``/``invalidmove``."""


class UhpEngine:
    """An external UHP engine process. ``ask(command)`` returns the answer's lines before
    ``ok``; an ``err``/``invalidmove`` answer raises :class:`UhpEngineError`.

    Use as a context manager, or call :meth:`close` (it sends ``exit``, then kills the
    process if it does not stop)."""

    def __init__(self, command: str | Sequence[str], *, timeout: float = 30.0):
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise UhpEngineError("no UHP engine command given")
        self.command = " ".join(argv)
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
                bufsize=1)
        except OSError as e:
            raise UhpEngineError(f"cannot start UHP engine {self.command!r}: "
                                 f"{e.strerror or e}") from None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        #: The engine's start-up answer (``id ...`` and its capabilities).
        self.info = self._answer(timeout)
        if not self.info or not self.info[0].startswith("id "):
            self.close()
            raise UhpEngineError(f"{self.command!r} is not a UHP engine: its start-up answer "
                                 f"was {self.info[:1]!r}, not 'id ...'")

    def _read(self) -> None:
        stdout = self.process.stdout
        assert stdout is not None
        for line in stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _answer(self, timeout: float | None) -> list[str]:
        lines: list[str] = []
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise UhpEngineError(f"UHP engine {self.command!r} did not answer within "
                                     f"{timeout:g} s") from None
            if line is None:
                raise UhpEngineError(f"UHP engine {self.command!r} exited "
                                     f"(exit status {self.process.poll()})")
            if line == "ok":
                return lines
            lines.append(line)

    @property
    def name(self) -> str:
        """The engine's ``id`` line without ``id ``."""
        return self.info[0][3:].strip()

    def ask(self, command: str, timeout: float | None = None) -> list[str]:
        """Send one command line; its answer's lines before ``ok``."""
        if self.process.poll() is not None:
            raise UhpEngineError(f"UHP engine {self.command!r} has exited")
        stdin = self.process.stdin
        assert stdin is not None
        try:
            stdin.write(command + "\n")
            stdin.flush()
        except OSError:
            raise UhpEngineError(f"UHP engine {self.command!r} has exited") from None
        lines = self._answer(self.timeout if timeout is None else timeout)
        for line in lines:
            if line.startswith(("err", "invalidmove")):
                raise UhpEngineError(f"{self.name} answered {command!r} with: {line}")
        return lines

    def ask_line(self, command: str, timeout: float | None = None) -> str:
        """Send one command whose answer is one line, and return that line."""
        lines = self.ask(command, timeout)
        if len(lines) != 1:
            raise UhpEngineError(f"{self.name} answered {command!r} with {len(lines)} lines, "
                                 f"expected one")
        return lines[0]

    def bestmove(self, seconds: float | None = None, depth: int | None = None) -> str:
        """The engine's ``bestmove`` answer for a time or a depth budget. Sub-second times
        are sent as ``bestmove time hh:mm:ss.fff``; an engine that reads only whole seconds
        there (nokamute) is asked ``bestmove seconds S`` instead from then on."""
        if depth is not None:
            return self.ask_line(f"bestmove depth {depth}", timeout=None)
        total = 1.0 if seconds is None else seconds
        wait = 30.0 + 4 * total
        if self._seconds_form and total != int(total):
            return self.ask_line(f"bestmove seconds {total:g}", timeout=wait)
        try:
            return self.ask_line(clock_command(total), timeout=wait)
        except UhpEngineError:
            if total == int(total) or self.process.poll() is not None:
                raise
        self._seconds_form = True
        return self.ask_line(f"bestmove seconds {total:g}", timeout=wait)

    _seconds_form = False

    def close(self) -> None:
        """Ask the engine to exit; kill it if it is still running after a second."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write("exit\n")
                self.process.stdin.close()
            except OSError:
                pass
            try:
                self.process.wait(timeout=1.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> UhpEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def clock_command(seconds: float) -> str:
    """``bestmove time hh:mm:ss``, with ``.fff`` below whole seconds (never truncated)."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    secs = rest % 60 + (seconds - whole)
    text = f"{int(secs):02d}" if secs == int(secs) else f"{secs:06.3f}"
    return f"bestmove time {hours:02d}:{rest // 60:02d}:{text}"
