"""The write-ahead journal of a server's folder: what makes a move durable, with one fsync
for many moves.

A commit appends the new texts of the game's files (its record, its seats) to the journal
and waits until the journal is on disk, then writes them over the files in place without
waiting for the disk (a file torn by a crash is put right from the journal): the commits
of many games waiting at once are written and fdatasync'ed together (group commit:
whoever finds no write under way writes everyone's lines; the others wait for it). So a
move costs a share of one fdatasync, not an fsync of its file and of its folder each, and
the saves of a whole class keep up however slow the disk is.

When the journal passes :data:`ROTATE_BYTES` a new one is started; a thread then fsyncs
the files of the games the old one holds, and removes it. At start-up
(:func:`recover`), whatever journals a crash left are replayed: each game's last texts are
written to its files durably, then the journals are removed. A line cut short by the crash
was never acknowledged, and is skipped.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import threading
from collections.abc import Callable
from pathlib import Path

from hexkit.files.fileio import write_text_atomic

log = logging.getLogger("hexkit.web")

#: A journal is replaced by a new one past this size (its games' files are then fsync'ed).
ROTATE_BYTES = 16 << 20
_NAME = re.compile(r"journal\.(\d{1,12})\.log\Z")


def _fsync_path(path: Path, folder: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if folder else 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def journals(folder: Path) -> list[tuple[int, Path]]:
    """The journals in ``folder``, oldest first."""
    found = []
    with os.scandir(folder) as entries:
        for entry in entries:
            match = _NAME.match(entry.name)
            if match:
                found.append((int(match.group(1)), Path(entry.path)))
    return sorted(found)


def recover(folder: Path, place: Callable[[str, str], Path | None]) -> int:
    """Replay the journals a stopped server left in ``folder``: the last texts of each
    game's files are written durably (``place(game_id, suffix)`` is the file, None for a
    name that is not a game's), then the journals are removed. Returns the number of the
    next journal."""
    found = journals(folder)
    latest: dict[tuple[str, str], str | None] = {}
    for _, path in found:
        with open(path, "rb") as fh:
            for raw in fh:
                try:
                    entry = json.loads(raw)
                    game_id, files = entry["id"], entry["files"]
                    if not isinstance(game_id, str) or not isinstance(files, dict):
                        continue
                except (ValueError, KeyError, TypeError):
                    continue  # a line cut short by the crash: never acknowledged
                for suffix, text in files.items():
                    if isinstance(suffix, str) and (text is None or isinstance(text, str)):
                        latest[(game_id, suffix)] = text
    for (game_id, suffix), text in latest.items():
        target = place(game_id, suffix)
        if target is None:
            continue
        if text is None:
            with contextlib.suppress(FileNotFoundError):
                target.unlink()
        else:
            write_text_atomic(target, text)
    if found:
        _fsync_path(folder, folder=True)
    for _, path in found:
        path.unlink()
    if found:
        _fsync_path(folder, folder=True)
    return found[-1][0] + 1 if found else 1


class Journal:
    """The journal of one folder, written by the rooms' worker threads."""

    def __init__(self, folder: Path, number: int,
                 files_of: Callable[[str], list[Path]]):
        self.folder = folder
        self.files_of = files_of
        self._cond = threading.Condition()
        #: The lines waiting for a write, with their games.
        self._lines: list[tuple[str, bytes]] = []
        self._given = 0
        self._durable = 0
        self._failed: list[tuple[int, int, OSError]] = []
        self._writing = False
        self._games: set[str] = set()
        self._open(number)

    def _open(self, number: int) -> None:
        self.number = number
        self.path = self.folder / f"journal.{number}.log"
        self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self._size = os.fstat(self._fd).st_size
        _fsync_path(self.folder, folder=True)

    def close(self) -> None:
        with self._cond:
            with contextlib.suppress(OSError):
                os.close(self._fd)

    def checkpoint(self) -> None:
        """Make the files of every game in the journal durable and start an empty one
        (a server stopping cleanly leaves nothing to replay)."""
        with self._cond:
            while self._writing:
                self._cond.wait()
            old_fd, old_path, games = self._fd, self.path, self._games
            self._games = set()
            self._open(self.number + 1)
        self._checkpoint(old_fd, old_path, games)

    def append(self, game_id: str, files: dict[str, str | None]) -> None:
        """Add the new texts of a game's files (None: the file is gone); durable when this
        returns (OSError if the journal could not be written: nothing was kept)."""
        line = (json.dumps({"id": game_id, "files": files}, separators=(",", ":"),
                           ensure_ascii=False) + "\n").encode("utf-8")
        with self._cond:
            self._lines.append((game_id, line))
            self._given += 1
            ticket = self._given
            while self._durable < ticket:
                for first, last, error in self._failed:
                    if first <= ticket <= last:
                        raise error
                if self._writing:
                    self._cond.wait()
                    continue
                self._write_batch()
            for first, last, error in self._failed:
                if first <= ticket <= last:
                    raise error

    def _write_batch(self) -> None:
        """Write and fdatasync every line waiting (called holding the condition, which is
        released meanwhile)."""
        lines, first, last = self._lines, self._durable + 1, self._given
        self._lines = []
        self._writing = True
        fd, good = self._fd, self._size
        self._cond.release()
        error: OSError | None = None
        data = b"".join(line for _, line in lines)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fdatasync(fd)
        except BaseException as exc:  # whatever it was, the waiting threads must hear
            error = exc if isinstance(exc, OSError) else OSError(0, f"journal: {exc!r}")
            with contextlib.suppress(OSError):
                os.ftruncate(fd, good)  # no torn line before the next ones
        finally:
            self._cond.acquire()
        self._writing = False
        if error is None:
            self._size = good + len(data)
            # Counted in the journal the lines went to (the one that fsyncs their files
            # before it is retired), even when they were queued before a rotation.
            self._games.update(game for game, _ in lines)
        else:
            self._failed = [*self._failed[-15:], (first, last, error)]
        self._durable = last
        if error is None and self._size > ROTATE_BYTES:
            self._rotate()
        self._cond.notify_all()

    def _rotate(self) -> None:
        """Start the next journal; the files of the old one's games are fsync'ed in a
        thread, then the old journal is removed."""
        old_fd, old_path, games = self._fd, self.path, self._games
        self._games = set()
        try:
            self._open(self.number + 1)
        except OSError as exc:
            log.error("journal: cannot start a new one (%s); the old one goes on",
                      exc.strerror or exc)
            self._fd, self.path, self._games = old_fd, old_path, games
            return
        threading.Thread(target=self._checkpoint, args=(old_fd, old_path, games),
                         name="hexkit-journal", daemon=True).start()

    def _checkpoint(self, fd: int, path: Path, games: set[str]) -> None:
        try:
            for game_id in games:
                for file in self.files_of(game_id):
                    _fsync_path(file)
            _fsync_path(self.folder, folder=True)
            path.unlink()
            _fsync_path(self.folder, folder=True)
        except OSError as exc:
            log.error("journal: cannot retire %s (%s); it is replayed at the next start",
                      path.name, exc.strerror or exc)
        finally:
            with contextlib.suppress(OSError):
                os.close(fd)


__all__ = ["ROTATE_BYTES", "Journal", "journals", "recover"]
