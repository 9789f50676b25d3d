"""The terminal a person plays at: its width, optional colour, a "thinking" line, and
lines read from the keyboard.

Everything here degrades to plain text: colour only on a terminal, through the optional
``rich`` library (``pip install 'hexkit-games[colour]'``), never when ``NO_COLOR`` is set;
the thinking line only on a terminal, so piped output stays exactly the game's text.
Importing this module imports nothing heavy (it is on the start-up path of every command).
"""

from __future__ import annotations

import os
import sys
import time

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from typing import IO, Any

    from hexkit.render.text import StyledText

#: The one line that says how to get colour when ``rich`` is missing.
COLOUR_HINT = "colour needs the rich library: pip install 'hexkit-games[colour]'"
#: Seconds a bot thinks before the thinking line appears.
THINKING_DELAY = 0.5
#: Seconds between two updates of the thinking line.
THINKING_PERIOD = 0.1


def terminal_columns(stream: IO[str] | None = None, fallback: int = 80) -> int:
    """The width of the terminal (``$COLUMNS`` first, as :func:`shutil.get_terminal_size`),
    or ``fallback`` when the output is not a terminal."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    stream = stream if stream is not None else sys.__stdout__
    if stream is None:
        return fallback
    try:
        return os.get_terminal_size(stream.fileno()).columns or fallback
    except (AttributeError, ValueError, OSError):
        return fallback


def is_terminal(stream: Any) -> bool:
    """True when ``stream`` is an interactive terminal."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def colour_available() -> bool:
    """True when the optional ``rich`` library is installed."""
    import importlib.util

    try:
        return importlib.util.find_spec("rich") is not None
    except (ImportError, ValueError):  # ValueError: sys.modules["rich"] is None
        return False


def want_colour(stream: Any, choice: str = "auto") -> bool:
    """Whether to colour ``stream``: ``always``, ``never``, or ``auto`` (on a terminal, with
    ``rich`` installed, and ``NO_COLOR`` unset or empty, as https://no-color.org asks).
    ``always`` without ``rich`` is a :class:`~hexkit.errors.OptionError` with the hint."""
    if choice == "never":
        return False
    if choice == "always":
        if not colour_available():
            from hexkit.errors import OptionError

            raise OptionError(COLOUR_HINT)
        return True
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return is_terminal(stream) and colour_available()


#: Styles (rich's names) of the things the terminal shows, by role.
STYLES = {
    "refused": "red",
    "hint": "dim",
    "heading": "bold",
    "result": "bold",
    "event": "",
    "event:destroyed": "red",
    "event:captured": "yellow",
    "event:eliminated": "bold red",
    "event:score": "green",
    "event:returned": "magenta",
}
#: Colours for seats whose names are not colours themselves.
SEAT_COLOURS = ("cyan", "magenta", "yellow", "green", "blue", "red")
_NAMED_COLOURS = frozenset(
    {"red", "green", "blue", "yellow", "magenta", "cyan", "white", "black", "orange"}
)


def seat_colour(seat: int, name: str) -> str:
    """The colour of a seat: its player's name when that is a colour (RED, Blue; White is
    the terminal's text colour and Black grey), else the seat's colour in
    :data:`SEAT_COLOURS` (rich's colour names)."""
    low = name.lower()
    colour = low if low in _NAMED_COLOURS else SEAT_COLOURS[seat % len(SEAT_COLOURS)]
    # White and black text vanish on a terminal of that background: the terminal's own
    # text colour and grey read on both.
    return {"orange": "dark_orange", "white": "default", "black": "bright_black"}.get(colour,
                                                                                   colour)


#: Styles (rich's names) of the roles of a picture's characters, beside a seat's colour.
ROLE_STYLES = {"last": "underline", "target": "reverse", "label": "dim"}


def _style_of(roles: str, players: Sequence[str]) -> str:
    """The rich style of characters with ``roles`` (see :mod:`hexkit.render.text`)."""
    out = []
    for role in roles.split():
        if role.startswith("seat:"):
            seat = int(role[5:])
            if 0 <= seat < len(players):
                out.append(f"bold {seat_colour(seat, players[seat])}")
        elif role in ROLE_STYLES:
            out.append(ROLE_STYLES[role])
    return " ".join(out)


class Console:
    """Lines to a person: plain, or coloured through rich when ``colour`` is on.

    ``say(text, role)`` prints one message; ``role`` picks its style (:data:`STYLES`);
    ``player(seat, name)`` gives a player's name in that seat's colour (a name that is a
    colour, such as RED or Blue, is shown in that colour).
    """

    def __init__(self, stream: IO[str], colour: bool = False) -> None:
        self.stream = stream
        self.colour = colour
        self._rich: Any = None
        if colour:
            from rich.console import Console as RichConsole

            self._rich = RichConsole(file=stream, force_terminal=True, highlight=False,
                                     soft_wrap=True, emoji=False)

    def wants_colour_hint(self) -> bool:
        """True at a terminal that could show colour but has none because rich is missing."""
        return (not self.colour and is_terminal(self.stream) and not os.environ.get("NO_COLOR")
                and os.environ.get("TERM") != "dumb" and not colour_available())

    @property
    def width(self) -> int:
        """Columns to fill (80 when the output is not a terminal)."""
        return terminal_columns(self.stream) if is_terminal(self.stream) else 80

    def style(self, text: str, style: str) -> str:
        """``text`` marked up in ``style`` (rich markup; plain text when colour is off)."""
        if not self.colour or not style:
            return text
        from rich.text import Text

        return Text(text, style=style).markup

    def escape(self, text: str) -> str:
        """``text`` made safe to put in marked-up text before plain text or at its end
        (unchanged when colour is off; before a tag, use :meth:`style`)."""
        if not self.colour:
            return text
        from rich.markup import escape

        marked = escape(text)
        # rich doubles a final backslash so that it cannot escape a tag that follows; with
        # no tag after it, the double would be shown (Hive's "bQ wS1\").
        return marked[:-1] if text.endswith("\\") and marked.endswith("\\\\") else marked

    def player(self, seat: int | None, name: str) -> str:
        """A player's name in the seat's colour."""
        if seat is None or not self.colour:
            return name
        return self.style(name, f"bold {seat_colour(seat, name)}")

    def say_styled(self, text: StyledText, players: Sequence[str]) -> None:
        """Print a picture whose characters carry roles (:class:`~hexkit.render.text.
        StyledText`): pieces in their owner's colour (``players``: the seats' names), the
        last move underlined, targets reversed, labels dim. Without colour: its plain
        text, exactly."""
        if self._rich is None:
            print(str(text), file=self.stream)
            return
        from rich.text import Text

        styles: dict[str, str] = {}
        for i in range(len(text.lines)):
            line = Text(end="\n")
            for run, roles in text.runs(i):
                if roles not in styles:
                    styles[roles] = _style_of(roles, players)
                line.append(run, style=styles[roles] or None)
            self._rich.print(line)

    def say(self, text: str = "", role: str = "", *, marked: bool = False) -> None:
        """Print ``text`` (one or more lines) in the style of ``role``. ``marked``: the text
        already holds markup from :meth:`style`/:meth:`player`."""
        if self._rich is None:
            print(text, file=self.stream)
            return
        style = STYLES.get(role, "")
        if marked:
            self._rich.print(text, style=style or None, markup=True)
        else:
            self._rich.print(text, style=style or None, markup=False)

    def prompt(self, text: str) -> None:
        """Write a prompt without ending the line."""
        if self._rich is not None:
            self._rich.print(text, end="", markup=True)
        else:
            self.stream.write(text)
        self.stream.flush()

    def plain(self, text: str) -> str:
        """``text`` with the markup of :meth:`style` removed (for uncoloured output)."""
        if not self.colour:
            return text
        from rich.text import Text

        return Text.from_markup(text).plain


class Thinking:
    """``with Thinking(stream, label) as t:`` shows ``label...`` on the terminal once the
    block has run longer than :data:`THINKING_DELAY`, then updates it (``t.progress(done,
    total)`` adds how far) until the block ends, when the line is wiped. Nothing is written
    when ``stream`` is not a terminal."""

    def __init__(self, stream: IO[str], label: str, *, delay: float = THINKING_DELAY,
                 enabled: bool | None = None) -> None:
        self.stream = stream
        self.label = label
        self.delay = delay
        self.enabled = is_terminal(stream) if enabled is None else enabled
        self.done = 0
        self.total = 0
        self.shown = False
        import threading

        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0

    def progress(self, done: int, total: int) -> None:
        """Record how far the work is (called by the worker, e.g. MCTS simulations)."""
        self.done, self.total = done, total

    def line(self) -> str:
        """The text of the thinking line now."""
        seconds = time.monotonic() - self._started
        far = ""
        if self.total > 0:
            far = f" {100 * self.done // self.total}% ({self.done}/{self.total})"
        return f"{self.label}...{far} {seconds:.0f}s"

    def __enter__(self) -> Thinking:
        self._started = time.monotonic()
        if self.enabled:
            import threading

            self._thread = threading.Thread(target=self._run, name="hexkit-thinking",
                                            daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.shown:
            self._write("\r\x1b[K")

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        width = max(20, terminal_columns(self.stream) - 1)
        while not self._stop.is_set():
            self.shown = True
            self._write("\r" + self.line()[:width] + "\x1b[K")
            self._stop.wait(THINKING_PERIOD)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):
            pass


class InputDecodeError(ValueError):
    """A line typed at the prompt is not valid UTF-8."""


def read_line(stream: Any) -> str | None:
    """One line from ``stream`` without its line ending, or None at the end of input.

    Bytes are decoded strictly as UTF-8 (InputDecodeError otherwise, with the line already
    consumed, so the next read starts at the next line)."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        line: str = stream.readline()
        return None if not line else line.rstrip("\r\n")
    raw: bytes = buffer.readline()
    if not raw:
        return None
    try:
        return raw.decode("utf-8").rstrip("\r\n")
    except UnicodeDecodeError as exc:
        raise InputDecodeError(
            f"that line is not UTF-8 text (byte {raw[exc.start]:#04x} at column "
            f"{exc.start + 1}); type it again"
        ) from None


def chunks(words: list[str], width: int) -> Iterator[str]:
    """``words`` in columns of equal width, as lines no wider than ``width``."""
    if not words:
        return
    cell = max(len(w) for w in words) + 2
    per_line = max(1, width // cell)
    for i in range(0, len(words), per_line):
        yield "".join(w.ljust(cell) for w in words[i:i + per_line]).rstrip()
