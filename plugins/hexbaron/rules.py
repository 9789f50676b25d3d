"""Hex Baron's rules: which commands are allowed now and what they do, the built-in
command types that carry them out, and the end of a turn.

A :class:`~hexbaron.verbs.CommandType` knows one verb: whether it is allowed now (and if
not, why), how to carry it out on a :class:`~hexbaron.position.Position`, which arguments
are legal now, and its click-to-move gesture; its text is read by ``hexbaron.notation``.
Extension plugins add verbs by registering CommandType instances (see
``hexbaron.hookspecs``); ``hexbaron.commands`` gathers what they build on.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from hexbaron.catalogue import (
    BOG,
    BUILTIN_PIECES,
    BUILTIN_RESOURCES,
    BUILTIN_TERRAINS,
    FIELD,
    FOREST,
    FUEL,
    LUMBER,
    SUPPLY,
    Catalogue,
)
from hexbaron.narration import rich_seam
from hexbaron.notation import Command, read_move, read_nothing, read_upgrade
from hexbaron.verbs import CommandType
from hexkit.kit.gestures import Gesture, Hand
from hexkit.kit.pieces import Piece

if TYPE_CHECKING:
    from hexbaron.position import Position

#: Commands a player gives per turn.
COMMANDS_PER_TURN = 3
#: Lumber a spawn costs, and the new piece's type.
SPAWN_LUMBER = 3
SPAWN_TYPE = "Serf"
#: Dig: a draw at or above this gives the big find, which also turns the bog into a field.
DIG_BIG_FIND = 0.9
DIG_SMALL, DIG_BIG = 1, 5


# -- shared checks ------------------------------------------------------------------------
def no_tile(pos: Position, tile: object) -> str:
    """The refusal for a tile number that is off the grid."""
    return f"there is no tile {tile} (tiles are 0 to {pos.n - 1})"


def own_piece_problem(pos: Position, tile: object) -> str | None:
    """Why ``tile`` does not hold a piece of the player giving commands, or None."""
    if not pos.valid(tile):
        return no_tile(pos, tile)
    assert isinstance(tile, int)
    p = pos.pieces[tile]
    if p is None:
        return f"tile {tile} is empty"
    if p.owner != pos.seat:
        return f"the {pos.types[p.kind].name} on tile {tile} belongs to {pos.names[p.owner]}"
    return None


def own_tiles(pos: Position) -> list[int]:
    """Tiles holding a piece of the player giving commands, in order."""
    return sorted(pos.owned[pos.seat])


def cost_problem(pos: Position, costs: Iterable[tuple[str, int]], doing: str) -> str | None:
    """Why the mover cannot pay ``costs`` (resource, amount) for ``doing``, or None."""
    for name, amount in costs:
        have = pos.resource(name)
        if have < amount:
            label = pos.catalogue.resources[name].label.lower() if name in \
                pos.catalogue.resources else name
            return f"not enough {label}: {doing} costs {amount}, you have {have}"
    return None


# -- the built-in commands ----------------------------------------------------------------
class MoveCommand(CommandType):
    """``move FROM TO``: one of your pieces steps to an empty neighbouring tile."""

    verb = "move"
    syntax = "move FROM TO"
    help = ("move your piece to an empty neighbouring tile; fuel: baron 1, serf and LESS 1 "
            "(2 to or from a peat bog), PBDS 2")
    classic_failure = "That move can't be done"

    def parse(self, words: Sequence[str], catalogue: Catalogue) -> tuple[Any, ...]:
        return read_move(words, self.syntax)

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        start, end = args
        problem = own_piece_problem(pos, start)
        if problem:
            return problem
        if not pos.valid(end):
            return no_tile(pos, end)
        if end == start:
            return "a piece must move to another tile"
        if pos.pieces[end] is not None:
            return f"tile {end} is occupied"
        if end not in pos.neighbours[start]:
            return f"tile {end} is not next to tile {start}"
        blocked = pos.catalogue.impassable.get(pos.terrain[end])
        if blocked is not None:
            return f"tile {end} is {blocked.name}: no piece can move onto it"
        ptype = pos.types[pos.pieces[start].kind]
        cost = ptype.move_cost(pos.terrain[start], pos.terrain[end])
        if cost < 0:
            return ptype.move_refusal(pos.terrain[start], pos.terrain[end])
        fuel = pos.resource(FUEL)
        if fuel < cost:
            return f"not enough fuel: the move costs {cost}, you have {fuel}"
        return None

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        start, end = args
        ptype = pos.types[pos.pieces[start].kind]
        cost = ptype.move_cost(pos.terrain[start], pos.terrain[end])
        pos.move_piece(start, end)
        pos.add_resource(FUEL, -cost)
        return f"{ptype.name} moved from tile {start} to tile {end} (-{cost} fuel)"

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        pieces, terrain, types = pos.pieces, pos.terrain, pos.types
        blocked = pos.catalogue.impassable
        fuel = pos.resource(FUEL)
        for start in own_tiles(pos):
            ptype = types[pieces[start].kind]
            here = terrain[start]
            for end in pos.neighbours[start]:
                if pieces[end] is None and terrain[end] not in blocked:
                    cost = ptype.move_cost(here, terrain[end])
                    if 0 <= cost <= fuel:
                        yield (start, end)


class PieceActionCommand(CommandType):
    """A verb carried out by one of your pieces on its own tile (``saw``, ``dig``, an
    extension's ``mine``...): allowed for piece types whose ``actions`` include the verb."""

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        (tile,) = args
        problem = own_piece_problem(pos, tile)
        if problem:
            return problem
        ptype = pos.types[pos.pieces[tile].kind]
        if self.verb not in ptype.actions:
            able = [p.name for p in pos.types.values() if self.verb in p.actions]
            who = " or ".join(able) if able else "no piece"
            return f"a {ptype.name} cannot {self.verb} (only a {who} can)"
        return None

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        types, pieces, verb = pos.types, pos.pieces, self.verb
        for tile in own_tiles(pos):
            if verb in types[pieces[tile].kind].actions:
                yield (tile,)


class SawCommand(PieceActionCommand):
    """``saw TILE``: your LESS there saws 1 lumber if the tile is a forest (else nothing)."""

    verb = "saw"
    syntax = "saw TILE"
    help = "your LESS on TILE saws: +1 lumber in a forest, nothing elsewhere"

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        (tile,) = args
        if pos.terrain[tile] != FOREST:
            return f"tile {tile} is not a forest: no lumber"
        pos.add_resource(LUMBER, 1)
        return "+1 lumber"


class DigCommand(PieceActionCommand):
    """``dig TILE``: your PBDS there digs fuel if the tile is a peat bog (else nothing)."""

    verb = "dig"
    syntax = "dig TILE"
    help = ("your PBDS on TILE digs: in a peat bog +1 fuel, or 1 time in 10 +5 fuel and the "
            "bog becomes a field; nothing elsewhere")

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        (tile,) = args
        if pos.terrain[tile] != BOG:
            return f"tile {tile} is not a peat bog: no fuel"
        if pos.random() < DIG_BIG_FIND:
            pos.add_resource(FUEL, DIG_SMALL)
            return f"+{DIG_SMALL} fuel"
        pos.add_resource(FUEL, DIG_BIG)
        pos.set_terrain(tile, FIELD)
        rich_seam(pos, tile, DIG_BIG)
        return f"+{DIG_BIG} fuel, and tile {tile} is now a field"


class SpawnCommand(CommandType):
    """``spawn TILE``: a new serf on an empty tile next to your baron."""

    verb = "spawn"
    syntax = "spawn TILE"
    help = (f"a new serf on an empty TILE next to your baron ({SPAWN_LUMBER} lumber and one "
            "piece from your supply)")
    classic_failure = "Spawning did not occur"

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        (tile,) = args
        if pos.resource(SUPPLY) < 1:
            return "you have no pieces left in supply"
        problem = cost_problem(pos, ((LUMBER, SPAWN_LUMBER),), "spawning")
        if problem:
            return problem
        if not pos.valid(tile):
            return no_tile(pos, tile)
        if pos.pieces[tile] is not None:
            return f"tile {tile} is occupied"
        if not self._next_to_own_baron(pos, tile):
            return f"tile {tile} is not next to your baron"
        return None

    @staticmethod
    def _next_to_own_baron(pos: Position, tile: int) -> bool:
        seat, pieces, types = pos.seat, pos.pieces, pos.types
        for j in pos.neighbours[tile]:
            p = pieces[j]
            if p is not None and p.owner == seat and types[p.kind].is_baron:
                return True
        return False

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        (tile,) = args
        pos.set_piece(tile, Piece(pos.seat, SPAWN_TYPE))
        pos.add_resource(LUMBER, -SPAWN_LUMBER)
        pos.add_resource(SUPPLY, -1)
        return f"new serf on tile {tile} (-{SPAWN_LUMBER} lumber, -1 piece in supply)"

    def gesture(self, pos: Position, args: tuple[Any, ...]) -> Gesture | None:
        """A new serf comes from the mover's supply (``Hand(seat, "Serf")``, drawn beside
        the board) to the tile: a click on the baron is kept for moving the baron."""
        (tile,) = args
        return Gesture(Hand(pos.seat, SPAWN_TYPE), pos.cell(tile), SPAWN_TYPE)

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        if pos.resource(SUPPLY) < 1 or pos.resource(LUMBER) < SPAWN_LUMBER:
            return
        pieces, types = pos.pieces, pos.types
        found: set[int] = set()
        for tile in own_tiles(pos):
            if types[pieces[tile].kind].is_baron:
                found.update(j for j in pos.neighbours[tile] if pieces[j] is None)
        for tile in sorted(found):
            yield (tile,)


class UpgradeCommand(CommandType):
    """``upgrade WORD TILE``: turn your serf into a LESS (``less``) or a PBDS (``pbds``), or
    into any extension piece type that declares an ``upgrade_word``."""

    verb = "upgrade"
    syntax = "upgrade less|pbds TILE"
    help = "turn your serf on TILE into a LESS or a PBDS (5 lumber)"
    classic_failure = "Upgrade not possible"

    def parse(self, words: Sequence[str], catalogue: Catalogue) -> tuple[Any, ...]:
        return read_upgrade(words, catalogue.upgrades())

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        word, tile = args
        target = pos.catalogue.upgrades().get(word)
        if target is None:
            return f"there is no piece type to upgrade to called {word!r}"
        problem = own_piece_problem(pos, tile)
        if problem:
            return problem
        current = pos.types[pos.pieces[tile].kind]
        if current.name not in target.upgrade_from:
            sources = " or ".join(s.lower() for s in target.upgrade_from)
            return (f"only a {sources} can become a {target.name} (tile {tile} holds your "
                    f"{current.name})")
        return cost_problem(pos, target.upgrade_cost.items(), "upgrading")

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        word, tile = args
        target = pos.catalogue.upgrades()[word]
        old = pos.types[pos.pieces[tile].kind]
        pos.set_piece(tile, Piece(pos.seat, target.name))
        paid = []
        for name, amount in target.upgrade_cost.items():
            pos.add_resource(name, -amount)
            paid.append(f"-{amount} {name}")
        cost = f" ({', '.join(paid)})" if paid else ""
        return f"the {old.name} on tile {tile} is now a {target.name}{cost}"

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        targets = [
            (word, t) for word, t in pos.catalogue.upgrades().items()
            if all(pos.resource(r) >= a for r, a in t.upgrade_cost.items())
        ]
        if not targets:
            return
        pieces = pos.pieces
        for tile in own_tiles(pos):
            kind = pieces[tile].kind
            for word, target in targets:
                if kind in target.upgrade_from:
                    yield (word, tile)


class PassCommand(CommandType):
    """``pass``: use up one of your three commands doing nothing (always allowed)."""

    verb = "pass"
    syntax = "pass"
    help = "do nothing with this command (it still counts as one of your three)"

    def parse(self, words: Sequence[str], catalogue: Catalogue) -> tuple[Any, ...]:
        return read_nothing(words, self.verb)

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        return "passed"

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        yield ()


BUILTIN_COMMANDS: tuple[CommandType, ...] = (
    MoveCommand(), UpgradeCommand(), SpawnCommand(), SawCommand(), DigCommand(), PassCommand(),
)


def builtin_catalogue(extra_commands: Iterable[CommandType] = ()) -> Catalogue:
    """The AQA game's catalogue: three terrains, three resources, four pieces, the five
    commands and ``pass``."""
    cat = Catalogue()
    for t in BUILTIN_TERRAINS:
        cat.add_terrain(t)
    for r in BUILTIN_RESOURCES:
        cat.add_resource(r)
    for p in BUILTIN_PIECES:
        cat.add_piece(p)
    for c in (*BUILTIN_COMMANDS, *extra_commands):
        cat.add_command(c)
    return cat


# -- a turn --------------------------------------------------------------------------------
def legal_commands(pos: Position) -> list[Command]:
    """Every command that would be carried out now (``pass`` included), verb by verb in the
    catalogue's order."""
    return [
        Command(verb, args)
        for verb, ctype in pos.catalogue.commands.items()
        for args in ctype.legal(pos)
    ]


def refusal(pos: Position, move: object) -> str | None:
    """None if ``move`` would be carried out now, else the reason it is refused (the end of
    the game aside: the state knows it)."""
    if not isinstance(move, Command):
        return f"{move!r} is not a Hex Baron command"
    ctype = pos.catalogue.commands.get(move.verb)
    if ctype is None:
        return f"unknown command {move.verb!r}"
    try:
        return ctype.check(pos, move.args)
    except (TypeError, ValueError, IndexError):
        return f"malformed command {move!r}"


def end_turn(pos: Position) -> tuple[list[tuple[int, Piece]], bool]:
    """After the third command: crowded pieces are destroyed (and score), the other player
    is to move and the game-over flag is set if a baron went. Returns the destroyed
    (tile, piece) pairs and whether a baron went for the first time."""
    mover = pos.seat
    turns = list(pos.turns)
    turns[mover] += 1
    doomed, baron = pos.destroy_crowded()
    first_baron = baron and not pos.baron_lost
    pos.set_turn(1 - mover, 0, turns, pos.baron_lost or baron)
    return doomed, first_baron
