"""Focus variants as data: a board shape, colours, rule defaults and a layout per player count.

A variant is a YAML file in ``configs/focus/`` (``course.yaml``, ``cross.yaml``, ...) or any
path given to the ``board`` option. The format is documented in ``docs/focus.md``; every
problem is reported as ``file:line: message``.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexkit.errors import ConfigError, ConfigErrors
from hexkit.files.configs import resolve_variant
from hexkit.files.yamlfile import LineDict, LineList, load_yaml

FORMAT = "hexkit-focus-variant/1"
DISTANCES = ("up_to", "exact")
WINS = ("captures", "last_mover")
FIRST_TURNS = ("any", "enter_reserve_on_empty")
#: Seat letters used in layout pictures: A is the first seat (or colour), B the second...
SEAT_LETTERS = "ABCD"
MAX_COLUMNS = 26  # the notation names columns a..z
#: Bounds on a variant's numbers, far beyond play and small enough that the move tables
#: (squares x heights x distances) stay small: a hostile file or option is refused at load.
MAX_ROWS = 26
MAX_HEIGHT = 32
MAX_CAPTURES = 1000
MAX_RESERVE = 100
#: Largest accepted value of each counted rule or option.
LIMITS = {"max_height": MAX_HEIGHT, "captures_to_win": MAX_CAPTURES,
          "start_reserve": MAX_RESERVE}

Square = tuple[int, int]

_TOP_KEYS = ("format", "description", "board", "colours", "rules", "layouts")
_RULE_KEYS = ("distance", "win", "captures_to_win", "max_height")
_LAYOUT_KEYS = ("pieces", "start_reserve", "first_turn")


@dataclass(frozen=True)
class Layout:
    """The starting position for one player count.

    ``pieces`` maps each non-empty square to its stack, bottom first, as picture-letter
    indices (0 for A, 1 for B...).
    """

    players: int
    pieces: dict[Square, tuple[int, ...]]
    start_reserve: int
    first_turn: str


@dataclass(frozen=True)
class Variant:
    """A board shape with its colours, rule defaults and layouts, read from a YAML file."""

    name: str
    path: str
    description: str
    rows: int
    cols: int
    squares: tuple[Square, ...]
    #: (letter, name) per picture letter A, B, C, D.
    colours: tuple[tuple[str, str], ...]
    distance: str
    win: str
    captures_to_win: int
    max_height: int
    layouts: dict[int, Layout]


def find_variant(name: str) -> Path:
    """The file of a shipped variant (``course``, ``cross``) or a path to a YAML file."""
    found = resolve_variant("focus", name, option="board",
                            unknown="unknown focus board {name!r}")
    assert found is not None  # no names beyond the shipped variants
    return found


_cache: dict[tuple[str, int, int], Variant] = {}


def load_variant(name: str) -> Variant:
    """Find and read a variant by name or path (OptionError or ConfigError if impossible).

    Files are read once per modification (a Variant is never changed after reading)."""
    path = find_variant(name)
    try:
        info = path.stat()
        key = (str(path.resolve()), info.st_mtime_ns, info.st_size)
    except OSError:
        return parse_variant(load_yaml(path), path)
    if key not in _cache:
        _cache[key] = parse_variant(load_yaml(path), path)
    return _cache[key]


def parse_variant(data: Any, path: str | Path) -> Variant:
    """Validate parsed YAML (from :func:`hexkit.files.yamlfile.parse_yaml`) into a Variant."""
    return _Reader(str(path)).read(data)


class _Reader:
    """Collects every problem in one file, so a user sees them all at once."""

    def __init__(self, path: str):
        self.path = path
        self.errors: list[ConfigError] = []

    def error(self, message: str, line: int | None) -> None:
        self.errors.append(ConfigError(message, self.path, line))

    def fail(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise ConfigErrors(self.errors)

    def read(self, data: Any) -> Variant:
        if not isinstance(data, LineDict):
            raise ConfigError("a focus variant must be a mapping of keys", self.path, 1)
        self.unknown_keys(data, _TOP_KEYS, "variant")
        for key in ("format", "board", "colours", "layouts"):
            if key not in data:
                self.error(f"missing key '{key}'", data.line)
        self.fail()
        if data["format"] != FORMAT:
            self.error(f"format must be {FORMAT!r}, not {data['format']!r}",
                       data.line_of("format"))
        description = data.get("description", "")
        if not isinstance(description, str):
            self.error("description must be text", data.line_of("description"))
            description = ""
        shape = self.board(data["board"], data.line_of("board"))
        colours = self.colours(data["colours"], data.line_of("colours"))
        rules = self.rules(data.get("rules", LineDict()), data.line_of("rules"))
        self.fail()
        squares = tuple(sorted(shape[2]))
        layouts = self.layouts(data["layouts"], data.line_of("layouts"), shape, colours,
                               rules["max_height"])
        self.fail()
        return Variant(
            name=Path(self.path).stem, path=self.path, description=description,
            rows=shape[0], cols=shape[1], squares=squares, colours=colours,
            distance=rules["distance"], win=rules["win"],
            captures_to_win=rules["captures_to_win"], max_height=rules["max_height"],
            layouts=layouts,
        )

    def unknown_keys(self, data: LineDict, known: tuple[str, ...], what: str) -> None:
        for key in data:
            if key not in known:
                self.error(f"unknown {what} key {key!r} (expected one of: {', '.join(known)})",
                           data.line_of(key))

    # -- pictures --------------------------------------------------------------------------
    def picture(self, value: Any, line: int, what: str) -> list[tuple[list[str], int]] | None:
        """Rows of whitespace-separated tokens, each with its file line."""
        if isinstance(value, LineList):
            rows = []
            for text, row_line in zip(value, value.lines, strict=True):
                if not isinstance(text, str):
                    self.error(f"each row of {what} must be text", row_line)
                    return None
                rows.append((text.split(), row_line))
        elif isinstance(value, str):
            # A block scalar starts on the line after its key.
            rows = [(text.split(), line + 1 + n) for n, text in enumerate(value.splitlines())]
        else:
            self.error(f"{what} must be a picture: a block of text, one line per row", line)
            return None
        rows = [(tokens, row_line) for tokens, row_line in rows if tokens]
        if not rows:
            self.error(f"{what} has no rows", line)
            return None
        return rows

    def board(self, value: Any, line: int) -> tuple[int, int, set[Square]]:
        rows = self.picture(value, line, "board")
        if rows is None:
            return (0, 0, set())
        width = len(rows[0][0])
        squares: set[Square] = set()
        for r, (tokens, row_line) in enumerate(rows):
            if len(tokens) != width:
                self.error(f"board row {r} has {len(tokens)} squares, the first row has {width}",
                           row_line)
            for c, token in enumerate(tokens):
                if token == "+":
                    squares.add((r, c))
                elif token != ".":
                    self.error(f"board square {token!r}: use '+' for a square, '.' for none",
                               row_line)
        if width > MAX_COLUMNS:
            self.error(f"a board has at most {MAX_COLUMNS} columns (a..z)", line)
        if len(rows) > MAX_ROWS:
            self.error(f"a board has at most {MAX_ROWS} rows, not {len(rows)}", line)
            return (0, 0, set())
        if not squares:
            self.error("the board has no squares", line)
        for r, c in sorted(squares):
            if not {(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)} & squares:
                # A stack there could never move, so a player could be stuck with no move.
                self.error(f"board square {(r, c)} has no orthogonal neighbour", line + 1 + r)
        return (len(rows), width, squares)

    # -- colours and rules -----------------------------------------------------------------
    def colours(self, value: Any, line: int) -> tuple[tuple[str, str], ...]:
        if not isinstance(value, LineList) or not 2 <= len(value) <= len(SEAT_LETTERS):
            self.error("colours must be a list of 2 to 4 entries {letter: X, name: Xxx}", line)
            return ()
        out: list[tuple[str, str]] = []
        for item, item_line in zip(value, value.lines, strict=True):
            if not isinstance(item, LineDict):
                self.error("a colour must be a mapping {letter: X, name: Xxx}", item_line)
                continue
            self.unknown_keys(item, ("letter", "name"), "colour")
            letter, name = item.get("letter"), item.get("name")
            if not (isinstance(letter, str) and len(letter) == 1
                    and letter in string.ascii_uppercase):
                self.error(f"colour letter {letter!r} must be one upper-case letter", item_line)
                continue
            if not isinstance(name, str) or not name.strip():
                self.error("a colour needs a name", item_line)
                continue
            if any(letter == o[0] or name.strip() == o[1] for o in out):
                self.error(f"colour {letter} {name} repeats an earlier letter or name", item_line)
                continue
            out.append((letter, name.strip()))
        return tuple(out)

    def rules(self, value: Any, line: int) -> dict[str, Any]:
        out: dict[str, Any] = {"distance": "up_to", "win": "captures", "captures_to_win": 6,
                               "max_height": 5}
        if not isinstance(value, LineDict):
            self.error("rules must be a mapping", line)
            return out
        self.unknown_keys(value, _RULE_KEYS, "rules")
        for key, choices in (("distance", DISTANCES), ("win", WINS)):
            if key in value:
                if value[key] not in choices:
                    self.error(f"{key} must be one of {', '.join(choices)}, not {value[key]!r}",
                               value.line_of(key))
                else:
                    out[key] = value[key]
        for key in ("captures_to_win", "max_height"):
            if key in value:
                if self.count(value[key], value.line_of(key), key, minimum=1):
                    out[key] = value[key]
        return out

    def count(self, value: Any, line: int, what: str, minimum: int = 0) -> bool:
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            self.error(f"{what} must be a whole number of at least {minimum}, not {value!r}",
                       line)
            return False
        if value > LIMITS.get(what, value):
            self.error(f"{what} must be at most {LIMITS[what]}, not {value}", line)
            return False
        return True

    # -- layouts ---------------------------------------------------------------------------
    def layouts(self, value: Any, line: int, shape: tuple[int, int, set[Square]],
                colours: tuple[tuple[str, str], ...], max_height: int) -> dict[int, Layout]:
        if not isinstance(value, LineDict) or not value:
            self.error("layouts must map a player count (2, 3, 4) to a layout", line)
            return {}
        out = {}
        for players, spec in value.items():
            key_line = value.line_of(players)
            if isinstance(players, bool) or players not in (2, 3, 4):
                self.error(f"layout key {players!r} must be a player count: 2, 3 or 4", key_line)
                continue
            if players > len(colours):
                self.error(f"a {players}-player layout needs {players} colours", key_line)
                continue
            layout = self.layout(players, spec, key_line, shape, max_height)
            if layout is not None:
                out[players] = layout
        return out

    def layout(self, players: int, spec: Any, line: int, shape: tuple[int, int, set[Square]],
               max_height: int) -> Layout | None:
        if not isinstance(spec, LineDict):
            self.error("a layout must be a mapping with pieces (and start_reserve)", line)
            return None
        self.unknown_keys(spec, _LAYOUT_KEYS, "layout")
        reserve = spec.get("start_reserve", 0)
        if not self.count(reserve, spec.line_of("start_reserve"), "start_reserve"):
            return None
        first_turn = spec.get("first_turn", "any")
        if first_turn not in FIRST_TURNS:
            self.error(f"first_turn must be one of {', '.join(FIRST_TURNS)}, not {first_turn!r}",
                       spec.line_of("first_turn"))
            return None
        if "pieces" not in spec:
            self.error("a layout needs pieces (a picture of the starting position)", spec.line)
            return None
        pieces = self.pieces(players, spec["pieces"], spec.line_of("pieces"), shape, max_height)
        if pieces is None:
            return None
        if reserve == 0:
            # A seat that controls no stack and has no reserve has no move, and the game
            # would stand still: refuse the layout now rather than fail during play.
            tops = {stack[-1] for stack in pieces.values()}
            idle = [SEAT_LETTERS[i] for i in range(players) if i not in tops]
            if idle:
                self.error(f"the {players}-player layout leaves {', '.join(idle)} without a "
                           "stack to move and no reserve (give each colour a stack on top, "
                           "or start_reserve)", spec.line_of("pieces"))
                return None
        return Layout(players, pieces, reserve, first_turn)

    def pieces(self, players: int, value: Any, line: int, shape: tuple[int, int, set[Square]],
               max_height: int) -> dict[Square, tuple[int, ...]] | None:
        rows = self.picture(value, line, "pieces")
        if rows is None:
            return None
        n_rows, n_cols, squares = shape
        if len(rows) != n_rows:
            self.error(f"the pieces picture has {len(rows)} rows, the board has {n_rows}", line)
            return None
        letters = SEAT_LETTERS[:players]
        out: dict[Square, tuple[int, ...]] = {}
        before = len(self.errors)
        for r, (tokens, row_line) in enumerate(rows):
            if len(tokens) != n_cols:
                self.error(f"pieces row {r} has {len(tokens)} squares, the board has {n_cols}",
                           row_line)
                continue
            for c, token in enumerate(tokens):
                stack = self.square(token, (r, c) in squares, letters, max_height, row_line)
                if stack:
                    out[(r, c)] = stack
        return out if len(self.errors) == before else None

    def square(self, token: str, on_board: bool, letters: str, max_height: int,
               line: int) -> tuple[int, ...] | None:
        if token == ".":
            if on_board:
                self.error("'.' marks a removed square, but the board has a square here", line)
            return None
        if not on_board:
            self.error(f"{token!r} is placed where the board has no square", line)
            return None
        if token == "-":
            return None
        if any(ch not in letters for ch in token):
            self.error(f"square {token!r}: use '-' for empty, or pieces {', '.join(letters)} "
                       "(bottom first)", line)
            return None
        if len(token) > max_height:
            self.error(f"stack {token!r} is higher than max_height {max_height}", line)
            return None
        return tuple(letters.index(ch) for ch in token)
