"""What a Hex Baron game is made of: terrains, resources and piece types, and the catalogue
that holds the ones a game uses (the built-in ones plus any added by extension plugins).

A piece type is a small class in the style of the AQA skeleton (``Piece`` -> ``BaronPiece``):
subclass :class:`PieceType`, set the class attributes and override :meth:`PieceType.move_cost`
for a movement rule of your own.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from hexkit.errors import PluginError

#: The three terrains of the AQA game, as drawn and as written in data files.
FIELD = " "
FOREST = "#"
BOG = "~"

#: The built-in resources of a player (VPs are kept apart: they are the score).
FUEL = "fuel"
LUMBER = "lumber"
SUPPLY = "supply"


@dataclass(frozen=True)
class Terrain:
    """A kind of tile. ``symbol`` is one character: how the grid draws it and how data files
    store it; ``name`` is the word used in YAML set-ups. No piece can move onto a tile whose
    terrain is not ``passable`` (a wall, a lake...), whatever its own movement rule."""

    symbol: str
    name: str
    colour: str = "#d9d3a0"
    help: str = ""
    passable: bool = True


@dataclass(frozen=True)
class Resource:
    """Something a player owns an amount of (fuel, lumber, ore...). ``start`` is the amount a
    player has when a set-up does not say."""

    name: str
    label: str
    start: int = 0
    help: str = ""


class PieceType:
    """A kind of piece. The defaults are the serf's (the skeleton's plain ``Piece``).

    * ``name``: the type as written in data files and set-ups (``Baron``, ``LESS``...).
    * ``letter``: drawn upper case for Player One, lower case for Player Two.
    * ``vp_value``: victory points the *opponent* scores when this piece is destroyed.
    * ``destroy_at``: the piece is destroyed when at least this many neighbouring tiles
      hold a piece (the skeleton's ``ConnectionsToDestroy``).
    * ``fuel_cost``: the basic fuel cost of a move (the skeleton's ``FuelCostOfMove``).
    * ``is_baron``: losing it ends the game; spawning needs one of your own next to the tile.
    * ``actions``: the tile commands it can carry out (``{"saw"}`` for the LESS).
    * ``upgrade_word``/``upgrade_cost``/``upgrade_from``: ``upgrade WORD TILE`` turns one
      of your pieces of a type in ``upgrade_from`` into this type, paying ``upgrade_cost``.
    """

    name: str = "Serf"
    letter: str = "S"
    vp_value: int = 1
    destroy_at: int = 2
    fuel_cost: int = 1
    is_baron: bool = False
    actions: frozenset[str] = frozenset()
    upgrade_word: str | None = None
    upgrade_cost: Mapping[str, int] = MappingProxyType({})
    upgrade_from: tuple[str, ...] = ("Serf",)
    help: str = "moves one tile: 1 fuel, or 2 to or from a peat bog"

    def move_cost(self, start: str, end: str) -> int:
        """Fuel to move one tile from terrain ``start`` to terrain ``end``; -1 if this piece
        cannot make that move (the skeleton's ``CheckMoveIsValid`` for distance 1)."""
        if start == BOG or end == BOG:
            return self.fuel_cost * 2
        return self.fuel_cost

    def move_refusal(self, start: str, end: str) -> str:
        """Why :meth:`move_cost` returned -1 (a phrase: 'a LESS cannot move out of a forest')."""
        return f"a {self.name} cannot make that move"

    def __repr__(self) -> str:
        return f"<PieceType {self.name}>"


class Serf(PieceType):
    """The standard piece."""


class Baron(PieceType):
    """The baron: moves for 1 fuel whatever the terrain; losing it ends the game."""

    name = "Baron"
    letter = "B"
    vp_value = 10
    is_baron = True
    help = "moves one tile for 1 fuel, whatever the terrain; losing it ends the game"

    def move_cost(self, start: str, end: str) -> int:
        return self.fuel_cost


class LESS(PieceType):
    """Lumber Engineer Specialist Serf: saws lumber; cannot move out of a forest."""

    name = "LESS"
    letter = "L"
    vp_value = 3
    actions = frozenset({"saw"})
    upgrade_word = "less"
    upgrade_cost = MappingProxyType({LUMBER: 5})
    help = ("cannot move out of a forest; otherwise like a serf (1 fuel, 2 to or from a bog); "
            "saw: +1 lumber in a forest")

    def move_cost(self, start: str, end: str) -> int:
        if start == FOREST:
            return -1
        return super().move_cost(start, end)

    def move_refusal(self, start: str, end: str) -> str:
        return "a LESS cannot move out of a forest"


class PBDS(PieceType):
    """Peat Bog Digger Serf: digs fuel; cannot move out of a peat bog; every move costs 2."""

    name = "PBDS"
    letter = "P"
    vp_value = 2
    fuel_cost = 2
    actions = frozenset({"dig"})
    upgrade_word = "pbds"
    upgrade_cost = MappingProxyType({LUMBER: 5})
    help = ("cannot move out of a peat bog; every move costs 2 fuel; dig: in a peat bog "
            "+1 fuel, or 1 time in 10 +5 fuel and the bog becomes a field")

    def move_cost(self, start: str, end: str) -> int:
        if start == BOG:
            return -1
        return self.fuel_cost

    def move_refusal(self, start: str, end: str) -> str:
        return "a PBDS cannot move out of a peat bog"


BUILTIN_TERRAINS: tuple[Terrain, ...] = (
    Terrain(FIELD, "field", "#e8e4b0", "no resource"),
    Terrain(FOREST, "forest", "#4f8a3c", "a LESS saws lumber here"),
    Terrain(BOG, "bog", "#8a6d4a", "a peat bog: a PBDS digs fuel here; moves to or from it "
            "cost serfs and LESSes double"),
)
BUILTIN_RESOURCES: tuple[Resource, ...] = (
    Resource(FUEL, "Fuel", 0, "pays for moves"),
    Resource(LUMBER, "Lumber", 0, "pays for spawns (3) and upgrades (5)"),
    Resource(SUPPLY, "Pieces in supply", 0, "spare pieces: each spawn uses one"),
)
BUILTIN_PIECES: tuple[PieceType, ...] = (Baron(), Serf(), LESS(), PBDS())


@dataclass
class Catalogue:
    """The terrains, resources, piece types and commands of one game, keyed by name.

    Built once per game (built-ins first, then extensions in plugin order); rule code
    looks things up here and never calls a hook.
    """

    terrains: dict[str, Terrain] = field(default_factory=dict)  # by symbol
    resources: dict[str, Resource] = field(default_factory=dict)  # by name
    pieces: dict[str, PieceType] = field(default_factory=dict)  # by name
    #: Command types by verb (:class:`hexbaron.verbs.CommandType` instances, which take
    #: the catalogue and the position as arguments: the catalogue itself names no type
    #: above it).
    commands: dict[str, Any] = field(default_factory=dict)
    setups: dict[str, object] = field(default_factory=dict)  # by name: path of a YAML set-up
    #: Terrains no piece may move onto, by symbol.
    impassable: dict[str, Terrain] = field(default_factory=dict)
    #: Which plugin added each thing (for error messages), keyed like the tables above.
    origin: dict[tuple[str, str], str] = field(default_factory=dict)

    # -- adding ------------------------------------------------------------------------
    def add_terrain(self, terrain: Terrain, origin: str = "hexbaron") -> None:
        """Add a terrain (PluginError if it clashes with one already there)."""
        if not isinstance(terrain, Terrain):
            raise PluginError(f"{origin}: registered {type(terrain).__name__}, not a Terrain")
        if len(terrain.symbol) != 1 or terrain.symbol in ",\r\n\t":
            raise PluginError(f"{origin}: terrain symbol {terrain.symbol!r} must be one "
                              "character other than a comma or a line break")
        if not terrain.name or terrain.name != terrain.name.strip():
            raise PluginError(f"{origin}: terrain {terrain.symbol!r} needs a name")
        self._unique("terrain symbol", terrain.symbol, origin)
        self._unique("terrain name", terrain.name.lower(), origin)
        self.terrains[terrain.symbol] = terrain
        if not terrain.passable:
            self.impassable[terrain.symbol] = terrain

    def add_resource(self, resource: Resource, origin: str = "hexbaron") -> None:
        """Add a resource (PluginError if the name is taken)."""
        if not isinstance(resource, Resource):
            raise PluginError(f"{origin}: registered {type(resource).__name__}, not a Resource")
        if not resource.name.isidentifier() or resource.name != resource.name.lower():
            raise PluginError(f"{origin}: resource name {resource.name!r} must be a lower-case "
                              "word")
        if resource.name in ("vps", "name"):
            raise PluginError(f"{origin}: resource name {resource.name!r} is reserved")
        self._unique("resource", resource.name, origin)
        self.resources[resource.name] = resource

    def add_piece(self, piece: PieceType, origin: str = "hexbaron") -> None:
        """Add a piece type (PluginError if its name, letter or upgrade word is taken)."""
        if not isinstance(piece, PieceType):
            raise PluginError(f"{origin}: registered {type(piece).__name__}, not a PieceType "
                              "instance")
        if not piece.name.isidentifier():
            raise PluginError(f"{origin}: piece name {piece.name!r} must be one word")
        if len(piece.letter) != 1 or not piece.letter.isalpha() or not piece.letter.isupper():
            raise PluginError(f"{origin}: piece {piece.name}: letter {piece.letter!r} must be "
                              "one upper-case letter")
        if piece.destroy_at < 1:
            raise PluginError(f"{origin}: piece {piece.name}: destroy_at must be at least 1")
        self._unique("piece name", piece.name.lower(), origin)
        self._unique("piece letter", piece.letter, origin)
        if piece.upgrade_word is not None:
            if piece.upgrade_word != piece.upgrade_word.lower() or not piece.upgrade_word.isalpha():
                raise PluginError(f"{origin}: piece {piece.name}: upgrade word "
                                  f"{piece.upgrade_word!r} must be a lower-case word")
            self._unique("upgrade word", piece.upgrade_word, origin)
        self.pieces[piece.name] = piece

    def add_command(self, command: Any, origin: str = "hexbaron") -> None:
        """Add a command type, a :class:`hexbaron.verbs.CommandType` (PluginError if the
        verb is taken; what extensions register is checked to be one where it is
        collected, in :mod:`hexbaron.extensions`)."""
        verb = command.verb
        if not verb.isalpha() or verb != verb.lower():
            raise PluginError(f"{origin}: command verb {verb!r} must be a lower-case word")
        self._unique("command", verb, origin)
        self.commands[verb] = command

    def add_setup(self, name: str, path: object, origin: str = "hexbaron") -> None:
        """Add a named set-up (a YAML file shipped by a plugin)."""
        if not isinstance(name, str) or not name.isidentifier():
            raise PluginError(f"{origin}: set-up name {name!r} must be one word")
        self._unique("set-up", name.lower(), origin)
        self.setups[name.lower()] = path

    def _unique(self, kind: str, key: str, origin: str) -> None:
        taken = self.origin.get((kind, key))
        if taken is not None:
            raise PluginError(f"{origin}: {kind} {key!r} is already used by {taken}")
        self.origin[(kind, key)] = origin

    # -- checking ----------------------------------------------------------------------
    def check(self) -> None:
        """Cross-checks once everything is added (upgrade sources and costs exist)."""
        for piece in self.pieces.values():
            origin = self.origin.get(("piece name", piece.name.lower()), "hexbaron")
            if piece.upgrade_word is None:
                continue
            for source in piece.upgrade_from:
                if source not in self.pieces:
                    raise PluginError(f"{origin}: piece {piece.name} upgrades from unknown "
                                      f"piece type {source!r}")
            for res in piece.upgrade_cost:
                if res not in self.resources:
                    raise PluginError(f"{origin}: piece {piece.name} costs unknown resource "
                                      f"{res!r}")

    # -- looking up --------------------------------------------------------------------
    def piece_named(self, text: str) -> PieceType | None:
        """The piece type whose name matches ``text`` case-insensitively, or None."""
        low = text.lower()
        for piece in self.pieces.values():
            if piece.name.lower() == low:
                return piece
        return None

    def terrain_named(self, text: str) -> Terrain | None:
        """The terrain whose name matches ``text`` case-insensitively, or None."""
        low = text.lower()
        for terrain in self.terrains.values():
            if terrain.name.lower() == low:
                return terrain
        return None

    def upgrades(self) -> dict[str, PieceType]:
        """Piece types reachable with ``upgrade WORD``, by word."""
        return {p.upgrade_word: p for p in self.pieces.values() if p.upgrade_word}

    def by_letter(self) -> dict[str, PieceType]:
        """Piece types by their (upper-case) letter."""
        return {p.letter: p for p in self.pieces.values()}
