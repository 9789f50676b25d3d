"""Hex Baron's classic exam extension, as a plugin: an ore terrain, an ore resource, the
Miner piece and the ``mine`` command. hexbaron itself is not edited.

* Terrain ``@`` (ore seam).
* Resource ``ore``: every player starts with 0 unless the set-up says otherwise.
* Piece ``Miner`` (``M``/``m``): made with ``upgrade miner TILE`` from a serf for 3 lumber
  and 2 fuel; moves one tile for 1 fuel but is too heavy to move into a peat bog; worth 2
  VPs to the opponent when destroyed.
* Command ``mine TILE``: your miner on an ore seam digs 1 ore (refused anywhere else).
* Set-up ``miner``: the default game with four ore seams (``-o setup=miner``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from types import MappingProxyType
from typing import Any

from hexbaron.catalogue import BOG, FUEL, LUMBER, PieceType, Resource, Terrain
from hexbaron.commands import PieceActionCommand
from hexbaron.position import Position

from hexkit import hookimpl

ORE_SEAM = "@"
ORE = "ore"


class Miner(PieceType):
    """A serf with a pickaxe: mines ore, and cannot wade into a peat bog."""

    name = "Miner"
    letter = "M"
    vp_value = 2
    actions = frozenset({"mine"})
    upgrade_word = "miner"
    upgrade_cost = MappingProxyType({LUMBER: 3, FUEL: 2})
    help = "moves one tile for 1 fuel but never into a peat bog; mine: +1 ore on an ore seam"

    def move_cost(self, start: str, end: str) -> int:
        if end == BOG:
            return -1
        return 1

    def move_refusal(self, start: str, end: str) -> str:
        return "a Miner is too heavy to move into a peat bog"


class MineCommand(PieceActionCommand):
    """``mine TILE``: your miner on an ore seam digs one ore."""

    verb = "mine"
    syntax = "mine TILE"
    help = "your Miner on TILE digs 1 ore; it must stand on an ore seam (@)"

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        problem = super().check(pos, args)  # a tile holding your piece that can mine
        if problem:
            return problem
        (tile,) = args
        if pos.terrain_at(tile) != ORE_SEAM:
            return f"tile {tile} is not an ore seam"
        return None

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        for args in super().legal(pos):
            if pos.terrain_at(args[0]) == ORE_SEAM:
                yield args

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        pos.add_resource(ORE, 1)
        return "+1 ore"


@hookimpl
def hexbaron_register_terrains(register: Callable[[Any], None]) -> None:
    register(Terrain(ORE_SEAM, "ore", "#8c8c99", "an ore seam: a Miner mines ore here"))


@hookimpl
def hexbaron_register_resources(register: Callable[[Any], None]) -> None:
    register(Resource(ORE, "Ore", 0, "dug by Miners on ore seams"))


@hookimpl
def hexbaron_register_pieces(register: Callable[[Any], None]) -> None:
    register(Miner())


@hookimpl
def hexbaron_register_commands(register: Callable[[Any], None]) -> None:
    register(MineCommand())


@hookimpl
def hexbaron_register_setups(register: Callable[..., None]) -> None:
    register("miner", Path(__file__).with_name("miner.yaml"))
