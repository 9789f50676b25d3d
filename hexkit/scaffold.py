"""``hexkit new-plugin NAME``: write a ready-to-install game plugin package to start from.

The package holds a small complete game (three in a row on a hexagon of hexes, on the
core's :class:`~hexkit.boards.BoundedHexBoard`), its ``pyproject.toml`` with the ``hexkit``
entry point, a test that runs :func:`hexkit.testing.check_game` plus two rule tests, and a
scenario file for ``hexkit check``. After ``pip install -e NAME`` the game appears in
``hexkit games`` and ``pytest`` passes in the new folder.
"""

from __future__ import annotations

import importlib.util
import keyword
import re
import sys
from pathlib import Path
from string import Template

from hexkit import plugins
from hexkit.errors import HexkitError

NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]{0,39}")


def check_name(name: str) -> None:
    """HexkitError (one line) unless ``name`` can be a new game and Python package."""
    if not NAME_PATTERN.fullmatch(name):
        raise HexkitError(
            f"plugin name {name!r} must be lower case letters, digits and _, starting with a "
            "letter (it is the game's name and its Python package's name)"
        )
    if keyword.iskeyword(name) or name in sys.stdlib_module_names or name == "hexkit":
        raise HexkitError(f"plugin name {name!r} is taken by Python itself; choose another")
    if name in plugins.registry().games:
        raise HexkitError(f"a game named {name!r} is already installed; choose another name")
    spec = importlib.util.find_spec(name)
    # A plain folder of that name in the working directory is a namespace package: fine.
    if spec is not None and spec.origin not in (None, "namespace"):
        raise HexkitError(f"a Python package named {name!r} is already installed; "
                          "choose another name")


def write_plugin(name: str, parent: Path) -> Path:
    """Create ``parent/name/`` with the plugin package; returns the folder."""
    target = parent / name
    if NAME_PATTERN.fullmatch(name) and target.exists():
        raise HexkitError(f"{target} already exists; remove it or choose another name")
    check_name(name)
    if not parent.is_dir():
        raise HexkitError(f"{parent} is not a folder")
    values = {
        "name": name,
        "Class": "".join(part.capitalize() for part in name.split("_") if part) or "Game",
    }
    files = {
        "pyproject.toml": PYPROJECT,
        "README.md": README,
        f"{name}/__init__.py": INIT,
        f"{name}/plugin.py": PLUGIN,
        f"{name}/rules.py": RULES,
        f"tests/test_{name}.py": TESTS,
        f"scenarios/{name}.yaml": SCENARIOS,
    }
    target.mkdir()
    for relative, template in files.items():
        path = target / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(Template(template).substitute(values), encoding="utf-8")
    return target


# -- the templates ($name: game and package name; $Class: class name prefix) ----------------
PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "hexkit-$name"
version = "0.1.0"
description = "The game $name as a hexkit plugin"
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["hexkit-games>=0.1"]

[project.optional-dependencies]
test = ["pytest>=7.4"]

# hexkit finds the game through this entry point: it imports $name.plugin and calls its hooks.
[project.entry-points.hexkit]
$name = "$name.plugin"

[tool.setuptools]
packages = ["$name"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

README = """\
# $name: a hexkit game plugin

Three in a row on a hexagon of hexes: players take turns putting a stone on an empty hex;
the first with `line` stones in a straight line wins; a full board is a draw. Change the
rules in `$name/rules.py`; the metadata (name, options, rules text) is in `$name/plugin.py`.

```sh
pip install -e .            # the game appears in `hexkit games`
pytest                      # hexkit's conformance kit (check_game) and the rule tests
hexkit play $name --p2 mcts # play it against hexkit's MCTS bot
hexkit check scenarios      # the scenario file
```

Moves are typed as the hex's axial coordinates `q,r`, e.g. `0,0` (the centre) or `1,-1`.
"""

INIT = '''\
"""The game $name, a hexkit plugin (hexkit loads $name.plugin through its entry point)."""
'''

PLUGIN = '''\
"""What hexkit sees of the game: its spec, registered through hexkit's hook."""

from __future__ import annotations

from collections.abc import Callable

from hexkit import GameSpec, Option, hookimpl

from $name.rules import ${Class}Game

RULES = """\\
Players take turns putting one stone of their colour on an empty hex of a hexagonal board
(option radius). The first player with `line` stones in a straight line along any of the
three directions of the grid wins. When the board is full without such a line, the game is
a draw. Type a move as the hex's coordinates q,r (for example 0,0 for the centre)."""

SPEC = GameSpec(
    name="$name",
    description="three in a row on a hexagon of hexes",
    factory=${Class}Game,
    options=(
        Option("radius", 2, "rings of hexes around the centre (1..5)", int),
        Option("line", 3, "stones in a row needed to win (2..6)", int),
    ),
    min_players=2,
    max_players=2,
    version="1",
    rules=RULES,
)


@hookimpl
def hexkit_register_games(register: Callable[[GameSpec], None]) -> None:
    """Hand the game to hexkit (called once, when hexkit starts)."""
    register(SPEC)
'''

RULES = '''\
"""The rules of $name: a Game (options fixed) that makes States (positions with undo)."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from hexkit import (
    BoundedHexBoard,
    Game,
    GameSpec,
    Hex,
    IllegalMoveError,
    Move,
    MoveParseError,
    OptionError,
    Outcome,
    State,
    rng_from_json,
    rng_to_json,
)
from hexkit.view import BoardView, CellView, PieceView

PLAYERS = ("Red", "Blue")
EMPTY = -1
#: The three axes of the grid; a line runs along one of them.
AXES = ((1, 0), (0, 1), (1, -1))


@dataclass(frozen=True)
class Place(Move):
    """Put a stone on the hex (q, r). Typed as ``q,r``."""

    q: int
    r: int

    def __str__(self) -> str:
        return f"{self.q},{self.r}"


class ${Class}Game(Game):
    """The rules with their options fixed: the board and its lines, computed once."""

    def __init__(self, spec: GameSpec, options: dict[str, Any]):
        super().__init__(spec, options)
        radius, line = options["radius"], options["line"]
        if not 1 <= radius <= 5:
            raise OptionError(f"option radius: {radius} is outside 1..5")
        if not 2 <= line <= min(6, 2 * radius + 1):
            raise OptionError(f"option line: {line} is outside 2..{min(6, 2 * radius + 1)}")
        self.board = BoundedHexBoard.hexagon(radius)
        index = self.board.index
        # Every run of `line` hexes on the board, as tuples of cell indices (ints are fast).
        self.lines: list[tuple[int, ...]] = []
        for start in self.board.cells:
            for dq, dr in AXES:
                run = [Hex(start.q + dq * k, start.r + dr * k) for k in range(line)]
                if all(h in index for h in run):
                    self.lines.append(tuple(index[h] for h in run))
        self.lines_through: list[list[tuple[int, ...]]] = [[] for _ in self.board.cells]
        for run in self.lines:
            for i in run:
                self.lines_through[i].append(run)
        self.places = [Place(h.q, h.r) for h in self.board.cells]

    def new_state(self, seed: int | None = None) -> ${Class}State:
        return ${Class}State(self, [EMPTY] * len(self.board), random.Random(seed))

    def state_from_dict(self, data: Any) -> ${Class}State:
        stones = [int(x) for x in data["stones"]]
        if len(stones) != len(self.board) or any(s not in (EMPTY, 0, 1) for s in stones):
            raise ValueError("'stones' does not fit this board")
        return ${Class}State(self, stones, rng_from_json(data["rng"]))


class ${Class}State(State):
    """A position: one int per hex (EMPTY or the owner's seat) and the move stack."""

    def __init__(self, game: ${Class}Game, stones: list[int], rng: random.Random):
        self.game = game
        self.stones = stones
        self.rng = rng
        self.move_stack = []
        self.winner = self._find_winner()

    # -- players --------------------------------------------------------------------------
    @property
    def players(self) -> tuple[str, ...]:
        return PLAYERS

    @property
    def current_player(self) -> int:
        placed = sum(1 for s in self.stones if s != EMPTY)
        return placed % 2

    # -- moves ----------------------------------------------------------------------------
    def legal_moves(self) -> list[Place]:
        if self.is_over():
            return []
        places = self.game.places
        return [places[i] for i, s in enumerate(self.stones) if s == EMPTY]

    def parse_move(self, text: str) -> Place:
        parts = text.replace(",", " ").split()
        if len(parts) != 2:
            raise MoveParseError(f"{text!r} is not a hex: type q,r such as 0,0 or 1,-1")
        try:
            q, r = int(parts[0]), int(parts[1])
        except ValueError:
            raise MoveParseError(f"{text!r} is not a hex: type q,r such as 0,0") from None
        return Place(q, r)

    def _push(self, move: Move) -> None:
        # Check everything first: a refused move must leave the state exactly as it was.
        if not isinstance(move, Place):
            raise IllegalMoveError(f"{move!r} is not a move of this game")
        i = self.game.board.index.get(Hex(move.q, move.r))
        if i is None:
            raise IllegalMoveError(f"{move} is not on the board")
        if self.is_over():
            raise IllegalMoveError("the game is over")
        if self.stones[i] != EMPTY:
            raise IllegalMoveError(f"{move} is already taken")
        me = self.current_player
        self.stones[i] = me
        for run in self.game.lines_through[i]:
            if all(self.stones[j] == me for j in run):
                self.winner = me
                break

    def _pop(self) -> None:
        move = self.move_stack[-1]
        self.stones[self.game.board.index[Hex(move.q, move.r)]] = EMPTY
        self.winner = None  # the game was not over before the last move

    # -- state ----------------------------------------------------------------------------
    def _find_winner(self) -> int | None:
        for run in self.game.lines:
            first = self.stones[run[0]]
            if first != EMPTY and all(self.stones[j] == first for j in run):
                return first
        return None

    def copy(self) -> ${Class}State:
        twin = ${Class}State(self.game, list(self.stones), random.Random())
        twin.rng.setstate(self.rng.getstate())
        twin.move_stack = list(self.move_stack)
        return twin

    def is_over(self) -> bool:
        return self.winner is not None or EMPTY not in self.stones

    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return Outcome((self.winner,), f"{self.game.options['line']} in a row")
        if EMPTY not in self.stones:
            return Outcome((), "the board is full")
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"stones": list(self.stones), "rng": rng_to_json(self.rng)}

    def render(self) -> str:
        radius = self.game.options["radius"]
        marks = {EMPTY: ".", 0: "R", 1: "B"}
        index = self.game.board.index
        rows = []
        for r in range(-radius, radius + 1):
            qs = [q for q in range(-radius, radius + 1) if Hex(q, r) in index]
            cells = " ".join(marks[self.stones[index[Hex(q, r)]]] for q in qs)
            rows.append(" " * abs(r) + cells)
        status = (f"{PLAYERS[self.current_player]} to move" if not self.is_over()
                  else f"game over: {self.outcome().reason}")
        return "\\n".join(rows + [status])

    def view(self) -> BoardView:
        last = self.move_stack[-1] if self.move_stack else None
        cells = tuple(
            CellView(
                (h.q, h.r),
                f"{h.q},{h.r}",
                "",
                (PieceView(s, PLAYERS[s][0]),) if s != EMPTY else (),
            )
            for h, s in zip(self.game.board.cells, self.stones, strict=True)
        )
        highlight = ((last.q, last.r),) if last is not None else ()
        caption = (self.render().splitlines()[-1],)
        return BoardView("hex", cells, PLAYERS, "pointy", highlight, caption)

    def move_help(self) -> str:
        return "Type the hex to take as q,r: 0,0 is the centre, 1,-1 the hex up and right of it."
'''

TESTS = '''\
"""The game's tests: hexkit's conformance kit, and the rules themselves."""

from __future__ import annotations

import hexkit
import pytest
from hexkit.testing import check_game


def test_${name}_follows_the_hexkit_game_api():
    check_game("$name", games=5)


def test_three_in_a_row_wins():
    state = hexkit.load_game("$name").new_state(seed=0)
    for move in ["0,0", "0,1", "1,0", "0,2", "-1,0"]:
        state.push(move)
    assert state.is_over()
    assert state.outcome().winners == (0,)


def test_a_taken_hex_is_refused_and_nothing_changes():
    state = hexkit.load_game("$name").new_state(seed=0)
    state.push("0,0")
    before = state.to_dict()
    with pytest.raises(hexkit.IllegalMoveError):
        state.push("0,0")
    assert state.to_dict() == before
'''

SCENARIOS = """\
# Scenario file for `hexkit check scenarios` (the format is in hexkit's docs/services.md).
# Quote moves that hold a comma inside {...}: there a comma separates entries.
game: $name
options: {radius: 2}
scenarios:
  - name: a line of three along the q axis wins
    moves:
      - "0,0"
      - {move: "0,1", player: Blue}
      - "1,0"
      - "0,2"
      - {move: "-1,0", expect: {over: true, winners: [Red]}}
    facts:
      - {path: stones, length: 19}
      - {winners: [0]}
  - name: a taken hex and a hex off the board are refused
    moves:
      - "0,0"
      - {move: "0,0", expect: {illegal: already taken}}
      - {move: "5,5", expect: illegal}
      - {move: middle, expect: unreadable}
    facts:
      - {current_player: Blue}
      - {legal_count: 18}
"""
