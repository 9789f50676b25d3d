"""Lines from a child process's pipe, each within a deadline, and the escaping of the
one-line answers of hexkit's Java programs."""

from __future__ import annotations

import os
import selectors
import time

#: A longer line than this is not an answer of hexkit's Java programs.
MAX_LINE = 1 << 20


class LineReader:
    """Reads lines from a file descriptor; :meth:`read_line` waits at most a deadline."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = b""
        #: Why the last :meth:`read_line` returned None: True for a deadline, False for
        #: the end of the output (or an overlong line).
        self.timed_out = False

    def read_line(self, timeout: float) -> str | None:
        """The next line (without its newline), or None on the deadline or end of output."""
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self.fd, selectors.EVENT_READ)
            while b"\n" not in self.buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.timed_out = True
                    return None
                chunk = os.read(self.fd, 65536)
                if not chunk or len(self.buffer) + len(chunk) > MAX_LINE:
                    self.timed_out = False
                    return None
                self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


def unescape(text: str) -> str:
    """Undo the Java side's escaping of backslash, newline, carriage return and tab."""
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "r": "\r", "t": "\t"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
