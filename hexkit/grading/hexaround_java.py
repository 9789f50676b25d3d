"""Java HexAround projects (WPI CS4233): compile a student's project and play it.

A student hands in a folder or a zip: their code with the course's starting code (packages
``hexaround.game``, ``hexaround.config``, the ANTLR grammar of the configuration files) and
perhaps the libraries. :func:`compile_project` compiles its sources with the machine's JDK
(``javac``; Gradle and Maven are not used) into a cache folder keyed by the content, and
:class:`HexAroundJava` runs hexkit's driver (``hexkit/grading/java/HexAroundDriver.java``)
in one JVM for many games, building each game through the course's own
``HexAroundGameBuilder.buildGameManager(configurationFile)``:

>>> with HexAroundJava("student.zip") as java:                     # doctest: +SKIP
...     java.build("level1.hgc")
...     java.place("BUTTERFLY", 0, 0)
('OK', 'hexaround.game.GameManager')
('OK', 'Legal move')

Every call answers ``(result, message)``: the name of the result the student's code
returned (``OK``, ``MOVE_ERROR``, ``BLUE_WON``, ``RED_WON``, ``DRAW``) or one of the
driver's own (:data:`DRIVER_RESULTS`): an exception, a loop or a JVM that died is a wrong
answer of its own, never an exception here. Each call has a deadline; on a deadline the JVM
is killed, and the next ``build`` starts a new one.
"""

from __future__ import annotations

import collections
import contextlib
import os
import re
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO

from hexkit.grading.java.compiler import (
    DRIVER_CLASS,
    CompiledProject,
    JavaProjectError,
    JavaUnavailable,
    compile_project,
    compile_projects,
    is_hexaround_project,
    jdk,
)
from hexkit.grading.java.pipes import LineReader, unescape

__all__ = ["DRIVER_RESULTS", "JAVA_OPTIONS", "JVM_ENV", "MIN_ADDRESS_SPACE", "CompiledProject",
           "HexAroundJava", "JavaProjectError", "JavaUnavailable", "compile_project",
           "compile_projects", "is_hexaround_project"]

#: Results the driver gives of its own (besides the names the student's code returns).
DRIVER_RESULTS = {
    "EXCEPTION": "the student's code threw (the message names it and where)",
    "NULL": "the student's code returned null",
    "UNREADABLE": "the response has no move result the driver can read",
    "NO_GAME": "no game: none was built, or it was lost when the JVM stopped",
    "UNKNOWN_CREATURE": "the student's creature enum has no such name",
    "MISSING": "the built manager lacks placeCreature or moveCreature",
    "BAD_REQUEST": "the driver could not read the request",
    "TIMEOUT": "no answer within the call's deadline (the JVM was killed)",
    "CRASHED": "the JVM exited during the call",
    "OUT_OF_MEMORY": "the JVM ran out of memory during the call (it was stopped at once)",
}
#: What the JVM prints when it runs out of memory: an OutOfMemoryError (with
#: -XX:+ExitOnOutOfMemoryError it stops at the first one, even one the student's code would
#: catch), or its own memory failing under the address-space limit.
_OUT_OF_MEMORY = ("java.lang.OutOfMemoryError", "insufficient memory for the Java Runtime",
                  "Native memory allocation")

#: JVM options: a small heap and a quick start (C1 only); one JVM plays many games. At
#: the first OutOfMemoryError the JVM exits (each further call would spend its deadline
#: collecting garbage), and the grader learns it at once (OUT_OF_MEMORY).
JAVA_OPTIONS: tuple[str, ...] = (
    "-Xmx256m", "-XX:+ExitOnOutOfMemoryError", "-Xss4m", "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-XX:MaxMetaspaceSize=128m", "-XX:ReservedCodeCacheSize=48m",
    "-XX:CompressedClassSpaceSize=64m", "-XX:-UsePerfData", "-XX:-CreateCoredumpOnCrash",
    "-Djava.awt.headless=true", "-Dfile.encoding=UTF-8",
)
#: The address-space limit (RLIMIT_AS) to allow the JVM with JAVA_OPTIONS. Measured with
#: OpenJDK 17 and the JVM_ENV below: it starts reliably from 768 MiB (without
#: MALLOC_ARENA_MAX, glibc's per-thread arenas need about 1.25 GiB); 1 GiB leaves a margin.
MIN_ADDRESS_SPACE = 1 << 30
#: Added to the JVM's environment: two malloc arenas, not one per thread (each reserves
#: 64 MiB of address space), so the JVM fits a sandbox's address-space limit.
JVM_ENV = {"MALLOC_ARENA_MAX": "2"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT_LIMIT = 2**31
_OUTPUT_TAIL = 16 * 1024


def _default_env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}


class HexAroundJava:
    """A student's Java HexAround project driven through the course's API.

    ``project`` is a :class:`CompiledProject` or a folder/zip (compiled first, cached).
    ``cwd``, ``env`` and ``preexec_fn`` are those of the JVM's process (a grader's sandbox:
    working folder, environment, resource limits); by default a fresh temporary folder and
    an environment with only ``PATH`` and ``LANG``. ``call_timeout`` bounds every call
    (seconds of wall time), ``start_timeout`` the JVM's start. One JVM serves every game
    until a call kills it (static fields of the student's classes live on from game to
    game, as in one JUnit run; :meth:`start` begins again in a fresh JVM); :attr:`starts`
    counts the JVMs started.
    """

    def __init__(self, project: CompiledProject | str | os.PathLike[str], *,
                 cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                 preexec_fn: Callable[[], None] | None = None, call_timeout: float = 10.0,
                 start_timeout: float = 60.0, java_options: Sequence[str] = JAVA_OPTIONS,
                 cache_dir: str | os.PathLike[str] | None = None):
        if not isinstance(project, CompiledProject):
            project = compile_project(project, cache_dir=cache_dir)
        self.project = project
        self._java = jdk()[1]
        self._own_cwd: tempfile.TemporaryDirectory[str] | None = None
        if cwd is None:
            self._own_cwd = tempfile.TemporaryDirectory(prefix="hexkit-java-")
            cwd = self._own_cwd.name
        self.cwd = Path(cwd)
        self.env = dict(env) if env is not None else _default_env()
        self.preexec_fn = preexec_fn
        self.call_timeout = call_timeout
        self.start_timeout = start_timeout
        self.java_options = tuple(java_options)
        #: JVMs started so far, and the builder class the driver found.
        self.starts = 0
        self.builder: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._reader: LineReader | None = None
        self._output: collections.deque[bytes] = collections.deque()
        self._output_lock = threading.Lock()
        self._requests: IO[bytes] | None = None
        self._answers: int | None = None
        self._game = False
        self._drainer: threading.Thread | None = None

    # -- the course's calls ---------------------------------------------------------------
    def build(self, config_path: str | os.PathLike[str]) -> tuple[str, str]:
        """Start a new game from a configuration file (``buildGameManager``); answers
        ``("OK", manager class)`` or why not."""
        path = os.path.abspath(os.fspath(config_path))
        if any(c in path for c in "\t\r\n"):
            raise ValueError("a configuration path with a tab or line break")
        if self._proc is None:
            self.start()
        result = self._call(f"build\t{path}")
        self._game = result[0] == "OK"
        return result

    def place(self, creature: str, x: int, y: int) -> tuple[str, str]:
        """``placeCreature(creature, x, y)``."""
        return self._request("place", creature, (x, y))

    def move(self, creature: str, from_x: int, from_y: int, to_x: int,
             to_y: int) -> tuple[str, str]:
        """``moveCreature(creature, fromX, fromY, toX, toY)``."""
        return self._request("move", creature, (from_x, from_y, to_x, to_y))

    def _request(self, verb: str, creature: str, coords: Sequence[int]) -> tuple[str, str]:
        if not isinstance(creature, str) or not _NAME.match(creature):
            raise ValueError(f"not a creature name: {creature!r}")
        for v in coords:
            if isinstance(v, bool) or not isinstance(v, int) or not -_INT_LIMIT <= v < _INT_LIMIT:
                raise ValueError(f"not a 32-bit coordinate: {v!r}")
        if self._proc is None or not self._game:
            return ("NO_GAME", "no game: build one first" if self._proc is not None
                    else "no game: the Java process is not running (build starts it)")
        return self._call("\t".join([verb, creature.upper(), *map(str, coords)]))

    # -- the process ------------------------------------------------------------------------
    def start(self) -> str:
        """Start a JVM (stopping the one running, if any) and wait for the driver's
        greeting; returns the builder class. Raises :class:`JavaProjectError` when the JVM
        does not start or the driver cannot find the course's classes.

        Requests and answers go through two pipes of their own (the driver's REQUESTS and
        ANSWERS): the JVM's standard input is empty, and what it prints on standard output
        and error is only kept for :meth:`output_tail`, so the student's code cannot
        disturb the protocol."""
        self.close_process()
        self.cwd.mkdir(parents=True, exist_ok=True)
        self._output.clear()
        self._game = False
        req_r, req_w = os.pipe()
        ans_r, ans_w = os.pipe()
        cmd = [self._java, *self.java_options, "-cp",
               os.pathsep.join(map(str, (self.project.tools, *self.project.classpath))),
               DRIVER_CLASS, f"/dev/fd/{req_r}", f"/dev/fd/{ans_w}", str(self.project.classes)]
        try:
            self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                          cwd=self.cwd, env={**JVM_ENV, **self.env},
                                          pass_fds=(req_r, ans_w),
                                          preexec_fn=self.preexec_fn, start_new_session=True)
        except BaseException:
            for fd in (req_r, req_w, ans_r, ans_w):
                os.close(fd)
            raise
        os.close(req_r)
        os.close(ans_w)
        self._requests = os.fdopen(req_w, "wb")
        self._answers = ans_r
        self.starts += 1
        assert self._proc.stdout is not None
        self._reader = LineReader(ans_r)
        self._drainer = threading.Thread(target=self._drain, args=(self._proc.stdout,),
                                         daemon=True)
        self._drainer.start()
        line = self._reader.read_line(self.start_timeout)
        if line is None:
            kind, why = self._lost("while starting")
            hint = (f" (the JVM needs an address space of {MIN_ADDRESS_SPACE >> 30} GiB or "
                    f"more with the default options)" if kind == "CRASHED" else "")
            raise JavaProjectError(f"the Java driver did not start: {why}{hint}")
        kind, _, message = line.partition("\t")
        if kind != "READY":
            self.close_process()
            if kind == "MISSING":
                raise JavaProjectError(unescape(message))
            raise JavaProjectError(f"the Java driver said {line[:200]!r}")
        self.builder = unescape(message)
        return self.builder

    def _drain(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        kept = 0
        while True:
            try:
                chunk = os.read(fd, 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._output_lock:
                self._output.append(chunk)
                kept += len(chunk)
                while kept > _OUTPUT_TAIL and len(self._output) > 1:
                    kept -= len(self._output.popleft())

    def output_tail(self) -> str:
        """The last lines the JVM and the student's code printed (standard output and
        error, at most 16 KiB)."""
        with self._output_lock:
            data = b"".join(self._output)[-_OUTPUT_TAIL:]
        return data.decode("utf-8", "replace")

    def _call(self, line: str) -> tuple[str, str]:
        assert self._requests is not None
        try:
            self._requests.write(line.encode("utf-8") + b"\n")
            self._requests.flush()
        except (BrokenPipeError, OSError):
            return self._lost("before the call")
        assert self._reader is not None
        answer = self._reader.read_line(self.call_timeout)
        if answer is None:
            return self._lost("during the call")
        kind, _, message = answer.partition("\t")
        return kind, unescape(message)

    def _lost(self, when: str) -> tuple[str, str]:
        """The JVM did not answer: kill it, and say why as a result of its own."""
        proc = self._proc
        timed_out = (self._reader is not None and self._reader.timed_out
                     and proc is not None and proc.poll() is None)
        self.close_process()
        self._game = False
        if timed_out:
            limit = self.start_timeout if when == "while starting" else self.call_timeout
            return ("TIMEOUT", f"no answer within {limit:g} s {when}; the Java process was "
                               f"stopped")
        code = proc.returncode if proc is not None else None
        # The JVM's own warnings (the security manager's deprecation) are not the news.
        tail = [ln for ln in self.output_tail().splitlines()
                if ln.strip() and not ln.startswith("WARNING: ")]
        last = f": {tail[-1][:300]}" if tail else ""
        memory = next((ln for ln in reversed(tail[-20:])
                       if any(sign in ln for sign in _OUT_OF_MEMORY)), None)
        if memory is not None:
            return ("OUT_OF_MEMORY", f"the Java process ran out of memory {when}: "
                                     f"{memory.strip()[:300]}")
        if code is not None and code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}" if -code in \
                signal.valid_signals() else f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        return ("CRASHED", f"the Java process {how} {when}{last}")

    def close_process(self) -> None:
        """Stop the JVM (if any) and wait for it."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        requests, self._requests = self._requests, None
        answers, self._answers = self._answers, None
        with contextlib.suppress(OSError):
            if requests is not None:
                requests.close()
        with contextlib.suppress(OSError):
            if answers is not None:
                os.close(answers)
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        if self._drainer is not None:
            self._drainer.join(timeout=5)
            self._drainer = None
        if proc.stdout is not None and not proc.stdout.closed:
            with contextlib.suppress(OSError):
                proc.stdout.close()

    def close(self) -> None:
        """Stop the JVM and remove the temporary working folder made for it."""
        self.close_process()
        if self._own_cwd is not None:
            self._own_cwd.cleanup()
            self._own_cwd = None

    def __enter__(self) -> HexAroundJava:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
