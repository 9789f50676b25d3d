"""One writer per record file: an advisory lock (``fcntl.flock``) on the record itself,
held by the process that saved it last until it exits or saves elsewhere.

Two ``hexkit play --save g.json`` at once would otherwise both report success and one game
would be lost. Saving replaces the file (a new inode) atomically, so the saver locks the
new file right after each save; another process that finds the file locked is refused,
naming the game the file holds. The kernel drops a lock when its process ends (even by
SIGKILL), and no lock file is left in the user's folder.
"""

from __future__ import annotations

import os

from hexkit.errors import ConfigError, RecordError
from hexkit.files.jsonfile import parse_json

try:
    import fcntl
except ImportError:  # not on Windows: saving works there without the lock
    fcntl = None  # type: ignore[assignment]

#: Records this process holds, by real path: an open descriptor carrying the lock.
_held: dict[str, int] = {}
#: Most records held at once; a match saving thousands of games keeps only the latest.
MAX_HELD = 16


def check_free(path: str | os.PathLike[str]) -> None:
    """RecordError (one line naming the other game) if another process holds ``path``."""
    # A server holds none: no path resolved for it on every save.
    if fcntl is None or (_held and os.path.realpath(path) in _held):
        return
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return  # no file yet (or unreadable: the save itself reports that)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        other = _describe(fd)
        raise RecordError(f"{path}: another hexkit process is saving {other} to this "
                          "file; save this game elsewhere (save FILE)") from None
    finally:
        os.close(fd)


def hold(path: str | os.PathLike[str]) -> None:
    """Lock the file just saved at ``path`` for this process."""
    if fcntl is None:
        return
    key = os.path.realpath(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return
    old = _held.pop(key, None)
    if old is not None:
        os.close(old)
    _held[key] = fd
    while len(_held) > MAX_HELD:
        os.close(_held.pop(next(iter(_held))))


def release(path: str | os.PathLike[str]) -> None:
    """Give a record up before the process ends."""
    fd = _held.pop(os.path.realpath(path), None)
    if fd is not None:
        os.close(fd)


def _describe(fd: int) -> str:
    """The game a locked record holds, from its own content (bounded read)."""
    try:
        data = parse_json(os.pread(fd, 1 << 16, 0).decode("utf-8"))
        moves = data.get("moves")
        count = f" ({len(moves)} moves so far)" if isinstance(moves, list) else ""
        return f"a game of {str(data['game'])[:80]}{count}"
    except (OSError, ValueError, ConfigError, KeyError, TypeError, AttributeError):
        return "another game"  # a record longer than the bytes read ends here too
