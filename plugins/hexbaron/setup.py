"""Game set-ups as data: YAML set-ups, AQA data files (read strictly, and written), and
generated grids of any even size.

A :class:`Setup` is everything a game starts from. Readers check everything and raise
:class:`hexkit.ConfigError` naming file and line (:class:`hexkit.ConfigErrors` when a file
has several problems), so a malformed file never yields a half-built game.

The AQA data-file format (``game1.txt``), one item per line::

    name,VPs,fuel,lumber,supply      Player One (then Player Two on line 2)
    size                             an even number, 4 or more
    T,T,T,...                        terrain of tiles 0, 1, 2...: ' ' field, '#' forest, '~' bog
    owner,type,tile                  one line per piece: owner 1 or 2, Baron/Serf/LESS/PBDS

hexkit writes two compatible additions that the AQA program ignores: extra ``name=value``
fields after the fifth on a player line (resources added by extensions), and, after a blank
line that ends the pieces, a ``hexkit-turn,P,C,T1,T2,B`` line (player to move 1 or 2,
commands already used this turn, turns finished by each player, 1 if a baron has been lost)
so that a game saved mid-way resumes where it was.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexbaron.catalogue import BOG, FIELD, FOREST, FUEL, LUMBER, SUPPLY, Catalogue
from hexkit.errors import ConfigError, ConfigErrors
from hexkit.files.fileio import MAX_DATA_BYTES, read_text_bounded
from hexkit.files.yamlfile import LineDict, LineList, load_yaml
from hexkit.suggest import hint

#: Grid sizes accepted outside classic mode.
MIN_SIZE = 4
MAX_SIZE = 100
#: The first line of the optional turn record in a data file.
TURN_TAG = "hexkit-turn"
#: The five fields of a player line, in order.
PLAYER_FIELDS = ("name", "VPs", "fuel", "lumber", "pieces in supply")

_NUMBER = re.compile(r"[0-9]+")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass
class PlayerSetup:
    """A player at the start: name, VPs and resources (fuel, lumber, supply, ...)."""

    name: str
    vps: int
    resources: dict[str, int]


@dataclass
class Setup:
    """Everything a game starts from. ``pieces`` maps tile -> (owner seat, type name).

    The turn fields say where a saved game resumes: seat to move, commands already used
    this turn, turns finished per seat, and whether a baron has been lost.
    """

    size: int
    terrain: list[str]
    pieces: dict[int, tuple[int, str]]
    players: list[PlayerSetup]
    to_move: int = 0
    command: int = 0
    turns: tuple[int, int] = (0, 0)
    baron_lost: bool = False
    source: str = ""
    description: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def tile_count(self) -> int:
        """Number of tiles: size²/2."""
        return len(self.terrain)

    def renamed(self, names: tuple[str | None, str | None]) -> Setup:
        """A copy with the players' names replaced where a new one is given."""
        players = [
            PlayerSetup(new or p.name, p.vps, dict(p.resources))
            for p, new in zip(self.players, names, strict=True)
        ]
        return Setup(self.size, list(self.terrain), dict(self.pieces), players, self.to_move,
                     self.command, self.turns, self.baron_lost, self.source, self.description)


def tile_count(size: int) -> int:
    """Tiles in a grid of an even size: size²/2."""
    return 2 * (size // 2) ** 2


def size_problem(size: int) -> str | None:
    """Why ``size`` is not a playable grid size outside classic mode, or None."""
    if size % 2 or not MIN_SIZE <= size <= MAX_SIZE:
        return f"grid size must be an even number from {MIN_SIZE} to {MAX_SIZE}, not {size}"
    return None


def name_problem(name: str) -> str | None:
    """Why ``name`` cannot be a player's name (it must fit on a data-file line), or None."""
    if not name.strip():
        return "a player's name cannot be empty"
    if "," in name or any(ch in name for ch in "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"):
        return f"a player's name cannot contain a comma or a line break: {name!r}"
    if name != name.strip():
        return f"a player's name cannot start or end with spaces: {name!r}"
    if len(name) > 40:
        return f"a player's name can have at most 40 characters: {name!r}"
    return None


def _suggest(word: str, known: list[str]) -> str:
    return hint(word, known) or f" (known: {', '.join(known)})"


# -- YAML set-ups --------------------------------------------------------------------------
_TOP_KEYS = ("description", "size", "terrain", "players")


def load_yaml_setup(path: str | Path, catalogue: Catalogue, playable: bool = False) -> Setup:
    """Read and check a YAML set-up (see ``configs/hexbaron/default.yaml``)."""
    data = load_yaml(path)
    return setup_from_yaml(data, str(path), catalogue, playable)


def setup_from_yaml(data: Any, path: str, catalogue: Catalogue,
                    playable: bool = False) -> Setup:
    """Check parsed YAML and build the set-up (ConfigError/ConfigErrors naming lines).

    ``playable``: also refuse a set-up that could never end (a player without a Baron), as
    a game to be played must; rule tests build such partial positions on purpose."""
    errors: list[ConfigError] = []

    def err(message: str, line: int | None) -> None:
        errors.append(ConfigError(message, path, line))

    if not isinstance(data, LineDict):
        raise ConfigError("a set-up must be a mapping with size, terrain and players", path, 1)
    for key in data:
        if key not in _TOP_KEYS:
            err(f"unknown key {key!r}{_suggest(str(key), list(_TOP_KEYS))}", data.line_of(key))
    for key in ("size", "terrain", "players"):
        if key not in data:
            err(f"missing key {key!r}", data.line)
    if errors:
        raise ConfigErrors(errors)
    description = data.get("description", "")
    if not isinstance(description, str):
        err("description must be text", data.line_of("description"))
    size = data["size"]
    if not _is_int(size):
        raise ConfigError(f"size must be a whole number, not {size!r}", path, data.line_of("size"))
    problem = size_problem(size)
    if problem:
        raise ConfigError(problem, path, data.line_of("size"))
    n = tile_count(size)
    terrain = _yaml_terrain(data["terrain"], data.line_of("terrain"), n, catalogue, err)
    players, pieces = _yaml_players(data["players"], data.line_of("players"), n, catalogue, err)
    if playable and not errors:
        player_lines = data["players"].lines
        _check_barons(pieces, False, lambda seat: player_lines[seat], err)
    if errors:
        raise ConfigErrors(errors) if len(errors) > 1 else errors[0]
    return Setup(size, terrain, pieces, players, source=path,
                 description=description if isinstance(description, str) else "")


def _check_barons(pieces: dict[int, tuple[int, str]], baron_lost: bool,
                  line_of: Any, err: Any) -> None:
    """A game ends when a Baron falls: a set-up in which a player has no Baron could never
    end, so it is refused when it is read (unless the set-up records a Baron already lost,
    the last turn of a saved game)."""
    if baron_lost:
        return
    for seat, who in enumerate(("Player One", "Player Two")):
        if not any(owner == seat and kind == "Baron" for owner, kind in pieces.values()):
            err(f"{who} has no Baron: the game could never end (each player needs one)",
                line_of(seat))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _tile_list(value: Any, line: int, n: int, what: str, err: Any) -> list[int]:
    items = value if isinstance(value, list) else [value]
    lines = value.lines if isinstance(value, LineList) else [line] * len(items)
    tiles = []
    for item, item_line in zip(items, lines, strict=True):
        if not _is_int(item):
            err(f"{what}: {item!r} is not a tile number", item_line)
        elif not 0 <= item < n:
            err(f"{what}: there is no tile {item} (tiles are 0 to {n - 1})", item_line)
        else:
            tiles.append(item)
    return tiles


def _yaml_terrain(spec: Any, line: int, n: int, catalogue: Catalogue, err: Any) -> list[str]:
    names = [t.name for t in catalogue.terrains.values()]
    if not isinstance(spec, LineDict):
        err("terrain must map terrain names to lists of tiles, e.g. 'forest: [1, 2]'", line)
        return [FIELD] * n
    default = FIELD
    if "default" in spec:
        t = catalogue.terrain_named(str(spec["default"]))
        if t is None:
            err(f"unknown terrain {spec['default']!r}{_suggest(str(spec['default']), names)}",
                spec.line_of("default"))
        else:
            default = t.symbol
    terrain = [default] * n
    seen: dict[int, str] = {}
    for key, value in spec.items():
        if key == "default":
            continue
        t = catalogue.terrain_named(str(key))
        if t is None:
            err(f"unknown terrain {key!r}{_suggest(str(key), names)}", spec.line_of(key))
            continue
        for tile in _tile_list(value, spec.line_of(key), n, f"terrain {key}", err):
            if tile in seen:
                err(f"tile {tile} is listed as both {seen[tile]} and {key}", spec.line_of(key))
            seen[tile] = str(key)
            terrain[tile] = t.symbol
    return terrain


def _yaml_players(spec: Any, line: int, n: int, catalogue: Catalogue,
                  err: Any) -> tuple[list[PlayerSetup], dict[int, tuple[int, str]]]:
    players: list[PlayerSetup] = []
    pieces: dict[int, tuple[int, str]] = {}
    default_names = ("Player One", "Player Two")
    if not isinstance(spec, LineList) or len(spec) != 2:
        err("players must be a list of two players (Player One, then Player Two)", line)
        return [PlayerSetup(nm, 0, {}) for nm in default_names], pieces
    allowed = ["name", "vps", "pieces", *catalogue.resources]
    for seat, (entry, entry_line) in enumerate(zip(spec, spec.lines, strict=True)):
        if not isinstance(entry, LineDict):
            err(f"player {seat + 1} must be a mapping (name, vps, fuel, ...)", entry_line)
            players.append(PlayerSetup(default_names[seat], 0, {}))
            continue
        for key in entry:
            if key not in allowed:
                err(f"player {seat + 1}: unknown key {key!r}{_suggest(str(key), allowed)}",
                    entry.line_of(key))
        name = entry.get("name", default_names[seat])
        if not isinstance(name, str):
            err(f"player {seat + 1}: name must be text", entry.line_of("name"))
            name = default_names[seat]
        elif name_problem(name):
            err(str(name_problem(name)), entry.line_of("name"))
        vps = entry.get("vps", 0)
        if not _is_int(vps) or vps < 0:
            err(f"player {seat + 1}: vps must be a whole number, 0 or more", entry.line_of("vps"))
            vps = 0
        resources = {}
        for res in catalogue.resources.values():
            amount = entry.get(res.name, res.start)
            if not _is_int(amount) or amount < 0:
                err(f"player {seat + 1}: {res.name} must be a whole number, 0 or more",
                    entry.line_of(res.name))
                amount = 0
            resources[res.name] = amount
        players.append(PlayerSetup(name, vps, resources))
        _yaml_pieces(entry.get("pieces", {}), entry.line_of("pieces"), seat, n, catalogue,
                     pieces, err)
    return players, pieces


def _yaml_pieces(spec: Any, line: int, seat: int, n: int, catalogue: Catalogue,
                 pieces: dict[int, tuple[int, str]], err: Any) -> None:
    if not isinstance(spec, LineDict):
        err(f"player {seat + 1}: pieces must map piece types to tiles, e.g. 'Baron: [0]'", line)
        return
    names = [p.name for p in catalogue.pieces.values()]
    for key, value in spec.items():
        ptype = catalogue.piece_named(str(key))
        if ptype is None:
            err(f"unknown piece type {key!r}{_suggest(str(key), names)}", spec.line_of(key))
            continue
        for tile in _tile_list(value, spec.line_of(key), n, f"{ptype.name} pieces", err):
            if tile in pieces:
                err(f"tile {tile} already holds a piece", spec.line_of(key))
                continue
            pieces[tile] = (seat, ptype.name)


# -- AQA data files ------------------------------------------------------------------------
def read_text(path: str | Path) -> str:
    """A data file's text (ConfigError naming the file if it cannot be read): a regular
    file of bounded size, UTF-8 with an optional byte-order mark."""
    text = read_text_bounded(path, MAX_DATA_BYTES)
    return text[1:] if text.startswith("\ufeff") else text


def load_data_file(path: str | Path, catalogue: Catalogue, playable: bool = False) -> Setup:
    """Read and check an AQA data file (strict reading, see the module docstring);
    ``playable`` as for :func:`setup_from_yaml`."""
    return parse_data_file(read_text(path), str(path), catalogue, playable)


def split_lines(text: str) -> list[str]:
    """Lines without their terminators (CRLF, LF or CR); no empty last line for a final
    line break."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_data_file(text: str, path: str, catalogue: Catalogue,
                    playable: bool = False) -> Setup:
    """Check an AQA data file's text and build the set-up (``playable`` as for
    :func:`setup_from_yaml`)."""
    lines = split_lines(text.removeprefix("\ufeff"))
    errors: list[ConfigError] = []

    def err(message: str, line: int | None) -> None:
        errors.append(ConfigError(message, path, line))

    def need(number: int, what: str) -> str:
        if len(lines) < number:
            raise ConfigError(f"the file ends before line {number} ({what})", path, number)
        return lines[number - 1]

    players = [
        _data_player(need(1, "Player One"), 1, catalogue, err),
        _data_player(need(2, "Player Two"), 2, catalogue, err),
    ]
    size_text = need(3, "the grid size")
    if not _NUMBER.fullmatch(size_text.strip()):
        raise ConfigErrors([*errors, ConfigError(
            "the grid size must be a whole number", path, 3)])
    size = _number(size_text.strip())
    if size is None:
        raise ConfigErrors([*errors, ConfigError("the grid size is too large", path, 3)])
    problem = size_problem(size)
    if problem:
        raise ConfigErrors([*errors, ConfigError(problem, path, 3)])
    n = tile_count(size)
    terrain = _data_terrain(need(4, "the terrain of the tiles"), n, catalogue, err)
    pieces: dict[int, tuple[int, str]] = {}
    number = 5
    while number <= len(lines) and lines[number - 1].strip() != "":
        _data_piece(lines[number - 1], number, n, catalogue, pieces, err)
        number += 1
    turn = (0, 0, (0, 0), False)
    for later in range(number, len(lines) + 1):
        line = lines[later - 1]
        if line.strip() == "":
            continue
        if line.startswith(TURN_TAG + ","):
            turn = _data_turn(line, later, err)
        else:
            err("unexpected text after the blank line that ends the pieces "
                f"(only a '{TURN_TAG},...' line may follow)", later)
    if playable and not errors:
        _check_barons(pieces, turn[3], lambda seat: seat + 1, err)
    if errors:
        raise ConfigErrors(errors) if len(errors) > 1 else errors[0]
    to_move, command, turns, baron_lost = turn
    return Setup(size, terrain, pieces, players, to_move, command, turns, baron_lost, path)


def _number(text: str) -> int | None:
    return int(text) if _NUMBER.fullmatch(text) and len(text) < 10 else None


def _data_player(line: str, number: int, catalogue: Catalogue, err: Any) -> PlayerSetup:
    who = ("Player One", "Player Two")[number - 1]
    fields = line.split(",")
    if len(fields) < 5:
        err(f"{who} needs 5 comma-separated fields (name,VPs,fuel,lumber,pieces in supply), "
            f"found {len(fields)}", number)
        return PlayerSetup(who, 0, {})
    name = fields[0]
    if name_problem(name):
        err(str(name_problem(name)), number)
    values = []
    for label, text in zip(PLAYER_FIELDS[1:], fields[1:5], strict=True):
        value = _number(text)
        if value is None:
            err(f"{who}'s {label} must be a whole number, 0 or more, not {text!r}", number)
            value = 0
        values.append(value)
    vps, fuel, lumber, supply = values
    resources = {r.name: r.start for r in catalogue.resources.values()}
    resources.update({FUEL: fuel, LUMBER: lumber, SUPPLY: supply})
    for extra in fields[5:]:
        key, eq, text = extra.partition("=")
        if not eq or key not in catalogue.resources or key in (FUEL, LUMBER, SUPPLY):
            extras = [r for r in catalogue.resources if r not in (FUEL, LUMBER, SUPPLY)]
            hint = f" (resources from extensions: {', '.join(extras)})" if extras else ""
            err(f"{who}: unexpected field {extra!r} after the fifth; only name=amount for a "
                f"resource added by an extension may follow{hint}", number)
            continue
        value = _number(text)
        if value is None:
            err(f"{who}'s {key} must be a whole number, 0 or more, not {text!r}", number)
            continue
        resources[key] = value
    return PlayerSetup(name, vps, resources)


def _data_terrain(line: str, n: int, catalogue: Catalogue, err: Any) -> list[str]:
    entries = line.split(",")
    if len(entries) > n:
        err(f"{len(entries)} terrain entries for {n} tiles", 4)
        return [FIELD] * n
    terrain = [FIELD] * n
    for tile, entry in enumerate(entries):
        if entry in catalogue.terrains:
            terrain[tile] = entry
        elif entry == "":
            err(f"the terrain of tile {tile} is empty (a field is written as one space)", 4)
        else:
            known = ", ".join("' ' field" if s == FIELD else f"'{s}' {t.name}"
                              for s, t in catalogue.terrains.items())
            err(f"tile {tile}: unknown terrain {entry!r} (known: {known})", 4)
    return terrain


def _data_piece(line: str, number: int, n: int, catalogue: Catalogue,
                pieces: dict[int, tuple[int, str]], err: Any) -> None:
    fields = line.split(",")
    if len(fields) != 3:
        err(f"a piece line is owner,type,tile (3 fields), found {len(fields)} fields", number)
        return
    owner, kind, where = fields
    problem = False
    if owner not in ("1", "2"):
        err(f"the owner must be 1 or 2, not {owner!r}", number)
        problem = True
    ptype = catalogue.piece_named(kind)
    if ptype is None:
        names = [p.name for p in catalogue.pieces.values()]
        err(f"unknown piece type {kind!r} (known: {', '.join(names)})", number)
        problem = True
    tile = _number(where)
    if tile is None or tile >= n:
        err(f"the tile must be a number from 0 to {n - 1}, not {where!r}", number)
        problem = True
    elif tile in pieces:
        err(f"tile {tile} already holds a piece", number)
        problem = True
    if not problem:
        assert ptype is not None and tile is not None
        pieces[tile] = (int(owner) - 1, ptype.name)


def _data_turn(line: str, number: int,
               err: Any) -> tuple[int, int, tuple[int, int], bool]:
    fields = line.split(",")[1:]
    values = [v for v in (_number(f) for f in fields) if v is not None]
    usage = (f"{TURN_TAG},PLAYER,COMMANDS,TURNS1,TURNS2,BARON_LOST "
             "(player 1 or 2, commands 0 to 2, turns finished, baron lost 0 or 1)")
    if len(fields) != 5 or len(values) != 5:
        err(f"cannot read the turn record: expected {usage}", number)
        return (0, 0, (0, 0), False)
    player, command, t1, t2, lost = values
    if player not in (1, 2) or command > 2 or lost > 1 or t1 - t2 != player - 1:
        err(f"inconsistent turn record: expected {usage}, with as many turns finished by "
            "Player One as by Player Two when Player One is to move (one more otherwise)",
            number)
        return (0, 0, (0, 0), False)
    return (player - 1, command, (t1, t2), bool(lost))


def write_data_file(setup: Setup, catalogue: Catalogue) -> str:
    """The AQA data-file text of a set-up (LF line endings); reading it back with
    :func:`parse_data_file` gives the same set-up."""
    core = (FUEL, LUMBER, SUPPLY)
    lines = []
    for p in setup.players:
        fields = [p.name, str(p.vps)] + [str(p.resources.get(r, 0)) for r in core]
        fields += [f"{r}={p.resources.get(r, 0)}" for r in catalogue.resources if r not in core]
        lines.append(",".join(fields))
    lines.append(str(setup.size))
    lines.append(",".join(setup.terrain))
    for tile in sorted(setup.pieces):
        seat, kind = setup.pieces[tile]
        lines.append(f"{seat + 1},{kind},{tile}")
    if (setup.to_move, setup.command, tuple(setup.turns), setup.baron_lost) != (0, 0, (0, 0),
                                                                                False):
        lines.append("")
        lines.append(",".join(str(v) for v in (
            TURN_TAG, setup.to_move + 1, setup.command, setup.turns[0], setup.turns[1],
            int(setup.baron_lost))))
    return "\n".join(lines) + "\n"


# -- generated grids -----------------------------------------------------------------------
def generated_setup(size: int, players: list[PlayerSetup]) -> Setup:
    """A grid of any even size with generated terrain and the default game's pieces.

    Terrain comes from its own generator seeded by the size (so the same size always gives
    the same grid, and the game's dig generator is untouched): about 3 tiles in 10 are
    forest, 1 in 4 peat bog, the rest fields. Each player has a baron in their corner
    (tiles 0 and the last) and a serf below/above it (tiles ``size`` and last - ``size``),
    as in the default game.
    """
    problem = size_problem(size)
    if problem:
        raise ConfigError(problem)
    n = tile_count(size)
    rng = random.Random(f"hexbaron-terrain-{size}")
    terrain = []
    for _ in range(n):
        r = rng.random()
        terrain.append(FOREST if r < 0.3 else BOG if r < 0.55 else FIELD)
    pieces = {0: (0, "Baron"), size: (0, "Serf"), n - 1: (1, "Baron"), n - 1 - size: (1, "Serf")}
    copies = [PlayerSetup(p.name, p.vps, dict(p.resources)) for p in players]
    return Setup(size, terrain, pieces, copies, source=f"generated grid of size {size}")
