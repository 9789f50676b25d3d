"""What a submission may not do in its process: an audit hook (PEP 578) installed before
its code is imported.

Refused, with ``PermissionError``: writing, creating, renaming or deleting files outside
the working folder; changing to another folder; starting programs (``subprocess``,
``os.system``, ``exec``, ``fork``); the network; ``ctypes``; signalling other processes.
Reading is allowed (Python must import its own modules). An audit hook cannot be removed
by the code it watches; it stops accidents and ordinary hostile code, while the resource
limits, the clean environment and the deleted folder of :mod:`hexkit.grading.sandbox`
bound the rest.
"""

from __future__ import annotations

import os
import sys
from typing import Any

_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
#: Events refused outright, by prefix.
_REFUSED = ("subprocess.", "os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork",
            "os.forkpty", "pty.spawn", "socket.", "ctypes.", "os.startfile", "winreg.",
            "os.setuid", "os.setgid", "os.chroot", "_posixsubprocess.")
#: Events whose path arguments must lie inside the folder, with the indexes of the paths.
_PATH_EVENTS = {
    "os.remove": (0,), "os.rename": (0, 1), "os.rmdir": (0,), "os.mkdir": (0,),
    "os.chmod": (0,), "os.chown": (0,), "os.link": (0, 1), "os.symlink": (0, 1),
    "os.truncate": (0,), "os.utime": (0,), "os.chdir": (0,), "shutil.rmtree": (0,),
    "shutil.copyfile": (1,), "shutil.copytree": (1,), "shutil.move": (1,),
    "os.chflags": (0,), "os.mkfifo": (0,), "os.mknod": (0,), "os.removexattr": (0,),
    "os.setxattr": (0,),
}


def install(folder: str) -> None:
    """Confine this process to ``folder`` from now on."""
    root = os.path.realpath(folder)
    me = os.getpid()

    def inside(path: Any) -> bool:
        if isinstance(path, int):
            return True  # an open descriptor: it was checked when it was opened
        if isinstance(path, bytes):
            path = os.fsdecode(path)
        if not isinstance(path, str | os.PathLike):
            return False
        full = os.path.realpath(os.path.join(root, os.fspath(path)))
        return full == root or full.startswith(root + os.sep)

    def refuse(what: str) -> None:
        raise PermissionError(f"the grader does not allow this: {what}")

    def hook(event: str, args: tuple[Any, ...]) -> None:
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None, None))[:3]
            writing = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                mode is None and isinstance(flags, int) and flags & _WRITE_FLAGS)
            if writing and not inside(path):
                refuse(f"writing {path} (outside the submission's folder)")
            return
        if event in _PATH_EVENTS:
            for i in _PATH_EVENTS[event]:
                if i < len(args) and args[i] is not None and not inside(args[i]):
                    refuse(f"{event} {args[i]} (outside the submission's folder)")
            return
        if event in ("os.kill", "os.killpg", "signal.pthread_kill"):
            if not args or args[0] not in (me, 0):
                refuse(f"{event} of another process")
            return
        if event.startswith(_REFUSED):
            refuse(f"{event} (no programs, network or ctypes while being graded)")

    sys.addaudithook(hook)



#: The reference game's packages that the submission imported from outside its folder.
_REFERENCE_IMPORTS: set[str] = set()


class _ReferenceWatch:
    """A finder, first on ``sys.meta_path``, that notes an import of the reference game's
    packages from outside the submission's folder (the installed ``focus``, say) and lets
    it go on: a submission that passes the reference implementation off as its own gets
    its scores as graded, and a report that says what it imported, for the instructor to
    judge (some courses allow building on the reference)."""

    def __init__(self, names: frozenset[str], root: str):
        self.names = names
        self.root = root

    def find_spec(self, fullname: str, path: Any = None, target: Any = None) -> None:
        top = fullname.partition(".")[0]
        if top not in self.names or top in _REFERENCE_IMPORTS:
            return None
        for finder in sys.meta_path:  # where the import system will find it
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        places = [spec.origin] if spec.origin not in (None, "namespace") else []
        places += list(spec.submodule_search_locations or ())
        if not all(os.path.realpath(p).startswith(self.root + os.sep) for p in places):
            _REFERENCE_IMPORTS.add(top)
        return None


def watch_reference(names: list[str] | tuple[str, ...], folder: str) -> None:
    """From now on, note imports of the packages ``names`` (the reference game's) that the
    submission's ``folder`` does not hold."""
    if names:
        sys.meta_path.insert(0, _ReferenceWatch(frozenset(names), os.path.realpath(folder)))


def reference_imports() -> list[str]:
    """The reference packages imported from outside the submission's folder so far."""
    return sorted(_REFERENCE_IMPORTS)
