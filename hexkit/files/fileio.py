"""Files read with bounds (only regular files, never more than a set size) and written so
that a crash never leaves a half-written one."""

from __future__ import annotations

import errno
import glob
import os
import stat
from pathlib import Path

from hexkit.errors import ConfigError

#: The largest configuration, variant, set-up or scenario file hexkit reads (bytes).
MAX_DATA_BYTES = 1 << 20
#: The largest game record hexkit reads (bytes): far beyond any game played.
MAX_RECORD_BYTES = 16 << 20
#: Deepest nesting of mappings/objects and sequences/arrays a YAML or JSON file may have.
MAX_DEPTH = 100
#: Longest integer a YAML or JSON file may hold, in digits.
MAX_DIGITS = 100


def read_bytes_bounded(path: str | os.PathLike[str], limit: int = MAX_DATA_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes.

    ConfigError naming ``path`` (as the user gave it) for a folder, a device or pipe (such
    as ``/dev/zero``, which would never end), a file too large, or one that cannot be read.
    Never more than ``limit + 1`` bytes are read, whatever the file claims to be.
    """
    try:
        # O_NONBLOCK: opening a FIFO with no writer must not hang before fstat refuses it.
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except IsADirectoryError:
        raise ConfigError("is a folder, not a file", path) from None
    except OSError as exc:
        raise ConfigError(f"cannot read file: {exc.strerror or exc}", path) from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ConfigError("is a folder, not a file", path)
        if not stat.S_ISREG(info.st_mode):
            raise ConfigError("is not a regular file (a device, pipe or socket is not read)",
                              path)
        if info.st_size > limit:
            raise ConfigError(f"is too large ({info.st_size} bytes; at most {limit})", path)
        chunks = []
        left = limit + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 16))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise ConfigError(f"is too large (more than {limit} bytes)", path)
        return data
    except OSError as exc:
        raise ConfigError(f"cannot read file: {exc.strerror or exc}", path) from None
    finally:
        os.close(fd)


def read_text_bounded(path: str | os.PathLike[str], limit: int = MAX_DATA_BYTES,
                      encoding: str = "utf-8") -> str:
    """The text of a regular UTF-8 file of at most ``limit`` bytes (see
    :func:`read_bytes_bounded`); ConfigError with the line of the first bad byte if it is
    not UTF-8 text. The message never quotes the file's content."""
    raw = read_bytes_bounded(path, limit)
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise ConfigError("not a text file (UTF-8 expected)", path, line) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text_atomic(path: str | os.PathLike[str], text: str, *, newline: str | None = None,
                      durable: bool = True) -> None:
    """Replace ``path`` with ``text`` atomically: readers, and a crash or Ctrl-C, see the old
    file or the whole new one. A temporary file in the same folder is written, flushed to
    disk when ``durable`` (fsync, then the folder too) and renamed over the target. A new
    file gets the usual permissions (0666 less the umask); a replaced one keeps its own.

    A symbolic link is saved through (its target is replaced, the link stays); a read-only
    file is refused, not replaced. Every OSError names ``path`` as the user gave it, never
    the temporary file.
    """
    shown = str(path)
    target = Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", shown)
    mode = 0o666 & ~_umask()
    if target.exists():
        mode = stat.S_IMODE(target.stat().st_mode)
        # By its mode bits too: an administrator can write anything, yet a file marked
        # read-only was meant to stay as it is.
        if not os.access(target, os.W_OK) or not mode & 0o222:
            raise PermissionError(errno.EACCES, "the file is read-only (it is not replaced)",
                                  shown)
    folder = target.parent if str(target.parent) else Path(".")
    import tempfile  # here: every command reads files, few write them (start-up)

    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, shown) from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            fh.write(text)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise type(exc)(exc.errno, exc.strerror, shown) from None
        raise
    if durable:
        _fsync_folder(folder)


def remove_stray_temporaries(path: str | os.PathLike[str]) -> int:
    """Delete the temporary files an interrupted :func:`write_text_atomic` of ``path`` left
    behind (a SIGKILL between writing and renaming). Call it only while no other process
    writes ``path`` (hexkit's records hold a lock). Returns how many were removed."""
    target = Path(os.path.realpath(path))
    folder = target.parent
    removed = 0
    try:
        strays = list(folder.glob(f".{glob.escape(target.name)}.*.tmp"))
    except OSError:
        return 0
    for stray in strays:
        try:
            stray.unlink()
            removed += 1
        except OSError:
            pass
    return removed


def _fsync_folder(folder: Path) -> None:
    # Makes the rename itself durable; not every platform lets a folder be opened.
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
