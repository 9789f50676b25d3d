"""The child side of the three Python submission kinds: load the submission (after the
guard is installed) and answer requests with one observation per call.

* :class:`PluginDriver`: a hexkit plugin (file, package or project), played through the
  generic game API (:func:`hexkit.grading.observe.observe`);
* :class:`ClassDriver`: a course class in a ``.py`` file (OSU's ``FocusGame``): construct
  it, call its methods, keep each return value or exception and what the call printed;
* :class:`ConsoleDriver`: a console program (AQA's Hex Baron) run as ``__main__`` on lines
  of standard input, its ``random`` seeded; one observation per line read, holding what it
  printed in reply.

A driver never lets the submission's exceptions out (they are observations); the child
reports a driver's own failure as fatal.
"""

from __future__ import annotations

import builtins
import contextlib
import importlib.util
import io
import queue
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from hexkit.grading.observe import Observation, play, what

#: Characters of a call's printed output kept in its observation.
PRINTED = 2000


class SubmissionError(Exception):
    """The submission cannot be loaded; ``grading_message`` is the one line for reports."""

    def __init__(self, message: str):
        super().__init__(message)
        self.grading_message = message


class PluginDriver:
    """A hexkit plugin submission: ``start = {"path": ..., "game": reference name}``."""

    def __init__(self, start: dict[str, Any]):
        from hexkit import plugins

        path = Path(start["path"])
        folder = path.parent if path.is_file() else path
        registry = plugins.build_registry(entry_points=False, plugin_dirs=[folder],
                                          use_env=False)
        problems = [str(p) for p in registry.problems]
        games = sorted(n for n, s in registry.games.items() if s.plugin in registry.under_test)
        if not games:
            why = "; ".join(problems) if problems else "no hexkit_register_games hook found"
            raise SubmissionError(f"the submission registers no game ({why})")
        wanted = str(start.get("game", ""))
        if len(games) > 1 and wanted not in games:
            raise SubmissionError(f"the submission registers {len(games)} games "
                                  f"({', '.join(games)}); it should register one")
        self.name = wanted if wanted in games else games[0]
        self.spec = registry.games[self.name]
        self.problems = problems

    def info(self) -> dict[str, Any]:
        return {"game": self.name, "plugin": self.spec.plugin, "problems": self.problems}

    def run(self, request: dict[str, Any]) -> Iterator[Observation]:
        setup, calls, detail = request["setup"], request["calls"], bool(request.get("detail"))
        try:
            game = self.spec.make_game(setup.get("options") or {})
            position = setup.get("position")
            state = (game.state_from_dict(position) if position is not None
                     else game.new_state(seed=setup.get("seed")))
        except BaseException as exc:
            failure = {"start": f"error: {what(exc)}"}
            for _call in calls:
                yield failure
            return
        yield from play(game, state, calls, detail)


def _import_file(path: Path, name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SubmissionError(f"{path.name} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            spec.loader.exec_module(module)
    except SubmissionError:
        raise
    except BaseException as exc:
        raise SubmissionError(f"{path.name} cannot be imported: {what(exc)}") from None
    return module


def _plain(value: Any, depth: int = 0) -> Any:
    """A return value as JSON can carry it (tuples as lists; anything else as its repr)."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, list | tuple) and depth < 4:
        return [_plain(v, depth + 1) for v in value][:100]
    if isinstance(value, dict) and depth < 4:
        return {str(k): _plain(v, depth + 1) for k, v in list(value.items())[:100]}
    text = repr(value)
    return {"repr": text[:200]}


def _argument(value: Any) -> Any:
    """Course calls take positions as tuples."""
    if isinstance(value, list):
        return tuple(_argument(v) for v in value)
    return value


class ClassDriver:
    """A class in a ``.py`` file: ``start = {"path": ..., "module": ..., "class": ...}``."""

    def __init__(self, start: dict[str, Any]):
        path = Path(start["path"])
        module = _import_file(path, str(start.get("module") or path.stem))
        self.class_name = str(start["class"])
        found = getattr(module, self.class_name, None)
        if not isinstance(found, type):
            raise SubmissionError(f"{path.name} defines no class {self.class_name}")
        self.cls = found

    def info(self) -> dict[str, Any]:
        return {"class": self.class_name}

    def run(self, request: dict[str, Any]) -> Iterator[Observation]:
        setup, calls = request["setup"], request["calls"]
        args = [_argument(a) for a in setup.get("args", [])]
        printed = io.StringIO()
        try:
            with contextlib.redirect_stdout(printed):
                obj = self.cls(*args)
        except BaseException as exc:
            failure = {"start": f"error: {self.class_name}(...) raised {what(exc)}"}
            for _call in calls:
                yield failure
            return
        first = printed.getvalue()[:PRINTED]  # what the constructor printed
        for call in calls:
            method, arguments = str(call[0]), [_argument(a) for a in call[1:]]
            printed = io.StringIO()
            try:
                with contextlib.redirect_stdout(printed):
                    result = getattr(obj, method)(*arguments)
                obs: Observation = {"ret": _plain(result)}
            except BaseException as exc:
                obs = {"error": what(exc)}
            text = printed.getvalue()
            if text:
                obs["_out"] = text[:PRINTED]
            if first:
                obs["_init_out"], first = first, ""
            yield obs


class _Lines(io.TextIOBase):
    """Standard input for a console program: the given lines, and a note of what the
    program printed up to each read."""

    def __init__(self, lines: list[str], out: io.StringIO, notes: queue.Queue[Any]):
        self.lines = lines
        self.out = out
        self.notes = notes
        self.read_count = 0

    def readable(self) -> bool:
        return True

    # The reason for the ignore: TextIOBase.readline's size is an int; None is accepted too.
    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.read_count:
            self.notes.put(("out", self._take()))
        index = self.read_count
        self.read_count += 1
        return self.lines[index] + "\n" if index < len(self.lines) else ""

    def _take(self) -> str:
        text = self.out.getvalue()
        self.out.seek(0)
        self.out.truncate()
        return text

    def finish(self, how: str) -> None:
        self.notes.put(("end", self._take(), how))


def console_observations(lines: list[str], notes: queue.Queue[Any],
                         timeout: float | None = None) -> Iterator[Observation]:
    """Observations from a console run's notes: ``{"out": text}`` per line read, the last
    with ``"end"`` (``exit N``, ``end of input`` or ``error: ...``)."""
    pending = ""
    first = True
    while True:
        note = notes.get(timeout=timeout)
        if note[0] == "out":
            if first:
                pending, first = note[1], False
                continue
            yield {"out": pending}
            pending = note[1]
        else:
            _kind, text, how = note
            yield {"out": pending + text, "end": how}
            return


def exit_text(code: Any, read_past_end: bool) -> str:
    """How a console run ended, in the words both sides use."""
    if read_past_end:
        return "end of input"
    if code is None or code == 0:
        return "exit 0"
    return f"exit {code}"


class ConsoleDriver:
    """A console program: ``start = {"path": ...}``; requests ``{"setup": {"seed": N},
    "calls": [line, ...]}``."""

    def __init__(self, start: dict[str, Any]):
        self.path = Path(start["path"])
        try:
            source = self.path.read_text(encoding="utf-8")
            self.code = compile(source, str(self.path), "exec")
        except (OSError, UnicodeDecodeError, SyntaxError, ValueError) as exc:
            raise SubmissionError(f"{self.path.name} cannot be read: {what(exc)}") from None

    def info(self) -> dict[str, Any]:
        return {"program": self.path.name}

    def run(self, request: dict[str, Any]) -> Iterator[Observation]:
        lines = [str(line) for line in request["calls"]]
        notes: queue.Queue[Any] = queue.Queue()
        out = io.StringIO()
        stdin = _Lines(lines, out, notes)
        random.seed(request["setup"].get("seed"))
        thread = threading.Thread(target=self._program, args=(stdin, out), daemon=True)
        thread.start()
        yield from console_observations(lines, notes)

    def _program(self, stdin: _Lines, out: io.StringIO) -> None:
        sys.stdin, sys.stdout = stdin, out
        namespace = {"__name__": "__main__", "__file__": str(self.path),
                     "__builtins__": builtins}
        how = ""
        try:
            exec(self.code, namespace)
            how = exit_text(0, stdin.read_count > len(stdin.lines))
        except SystemExit as exc:
            how = exit_text(exc.code, stdin.read_count > len(stdin.lines))
        except EOFError:
            how = exit_text(1, stdin.read_count > len(stdin.lines))
        except BaseException as exc:
            how = exit_text(1, True) if stdin.read_count > len(stdin.lines) \
                else f"error: {what(exc)}"
        finally:
            stdin.finish(how)
