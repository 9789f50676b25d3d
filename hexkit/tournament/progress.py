"""The progress bar of ``hexkit match`` and ``hexkit tournament`` (on stderr).

On a terminal it is redrawn in place after every game and while long games are played
(their move count); otherwise it prints a line per 10% of the games, and a line at most
every :data:`QUIET_EVERY` seconds while a long game goes on, so a log shows life.
"""

from __future__ import annotations

import time
from typing import IO

QUIET_EVERY = 10.0
WIDTH = 30


class ProgressBar:
    """Games done out of ``total``, a caller's note (the running score) and the games in
    progress."""

    def __init__(self, label: str, total: int, stream: IO[str], done: int = 0,
                 unit: str = "games"):
        self.label = label
        self.unit = unit
        self.total = max(total, 1)
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.done_count = done
        self.first = done
        self.note = ""
        self.playing: dict[str, int] = {}
        self.shown = done
        self.next_line = time.monotonic() + QUIET_EVERY

    def game_done(self, key: str, done: int, note: str = "") -> None:
        """A game ended: ``done`` games are finished in all."""
        self.playing.pop(key, None)
        self.done_count = done
        self.note = note
        if self.tty:
            self._draw()
            return
        step = max(1, (self.total - self.first) // 10)
        if done - self.shown >= step or done == self.total:
            self.shown = done
            self._line()

    def moving(self, key: str, moves: int) -> None:
        """A long game (``key``) has reached ``moves`` moves."""
        self.playing[key] = moves
        if self.tty:
            self._draw()
        elif time.monotonic() >= self.next_line:
            self._line()

    def _status(self) -> str:
        text = f"{self.done_count}/{self.total} {self.unit}"
        if self.note:
            text += f"  {self.note}"
        if self.playing:
            key, moves = max(self.playing.items(), key=lambda kv: kv[1])
            more = f" (+{len(self.playing) - 1} more)" if len(self.playing) > 1 else ""
            text += f"  playing game {key}: move {moves}{more}"
        return text

    def _draw(self) -> None:
        filled = WIDTH * self.done_count // self.total
        bar = "#" * filled + "." * (WIDTH - filled)
        self.stream.write(f"\r\033[K[{bar}] {self._status()}")
        self.stream.flush()

    def _line(self) -> None:
        self.next_line = time.monotonic() + QUIET_EVERY
        print(f"{self.label}: {self._status()}", file=self.stream, flush=True)

    def close(self) -> None:
        """End the bar's line (on a terminal)."""
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
