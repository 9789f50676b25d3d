"""Hive as a HexAround configuration: Hive's rule options, one creature per piece, and the
three expansion bugs' abilities registered through HexAround's extension hooks
(``hexaround_register_abilities``, ``hexaround_register_placement_rules``).

With these, HexAround's own engine plays Hive (its generic pipeline: the plain rules for
the Queen, Spider, Beetle, Grasshopper and Ant under Hive's options, these abilities for the
Ladybug, Mosquito and Pillbug). :class:`hive.engine.HiveEngine` is that engine with a
faster generator for Hive's pieces; tests/hive/test_hexaround_extension.py checks that both
list the same actions.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from hexaround.config import BUTTERFLY, PLAYERS, CreatureType, HexAroundConfig, RuleOptions
from hexaround.extensions import Ability, Extensions, PlacementRule

from hive.rules import (
    ANT,
    BEETLE,
    GRASSHOPPER,
    LADYBUG,
    MOSQUITO,
    PILLBUG,
    QUEEN,
    SPIDER,
    ladybug_reach,
    throws,
)

#: Hive's reading of the places where HexAround's rules have options (spec hive.md §9).
HIVE_RULES: dict[str, Any] = {
    "slide_rule": "one_gate", "one_colony": "during", "gates_count_heights": True,
    "jump_landing": "over_pieces", "pinned_under": "any", "stack_limit": "unlimited",
    "no_action": "pass", "butterfly_not_first": True, "moves_before_butterfly": False,
    "freeze_last_moved": "moved_or_placed", "butterfly_deadline_blocks_moves": True,
}

#: Extension property names.
LADYBUG_STEPS, COPYING, THROWING, NUMBERED = "LADYBUG", "COPYING", "THROWING", "NUMBERED"

#: HexAround distance and properties per Hive bug (the Queen is HexAround's butterfly).
_CREATURES: dict[int, tuple[int, tuple[str, ...], str]] = {
    QUEEN: (1, ("WALKING",), ""),
    SPIDER: (3, ("RUNNING",), ""),
    BEETLE: (1, ("WALKING", "INTRUDING"), ""),
    GRASSHOPPER: (1000, ("JUMPING",), ""),
    ANT: (1000, ("WALKING",), ""),
    MOSQUITO: (1, (COPYING,), COPYING),
    LADYBUG: (3, (LADYBUG_STEPS,), LADYBUG_STEPS),
    PILLBUG: (1, ("WALKING", THROWING), ""),
}


def ladybug_moves(engine: Any, src: int, code: int) -> Iterable[int]:
    """LADYBUG (category): up, along the top, down (mover lifted)."""
    return ladybug_reach(engine.stacks, src)


def _touches_thrower(engine: Any, h: int) -> bool:
    stacks = engine.stacks
    return any(THROWING in engine.kind_props[stacks[n][-1] >> 1]
               for n in engine.occupied_neighbours(h))


def pillbug_throws(engine: Any, src: int, code: int) -> Iterable[tuple[int, int]]:
    """THROWING (attribute): the Pillbug's ability, from the ground only (full board)."""
    if engine.height(src) != 1:
        return ()
    return throws(engine.stacks, engine.analysis().sep, src, None)


def mosquito_moves(engine: Any, src: int, code: int) -> Iterable[int]:
    """COPYING (category): on top of the hive as a Beetle, on the ground as every creature
    it touches except other copiers (mover lifted)."""
    colour = code & 1
    if engine.height(src):
        return engine.search(src, engine.kind_index["B1"] * 2 + colour)
    out: set[int] = set()
    kinds = {engine.stacks[n][-1] >> 1 for n in engine.occupied_neighbours(src)}
    for k in kinds:
        if COPYING not in engine.kind_props[k]:
            out.update(engine.search(src, k * 2 + colour))
    return out


def mosquito_throws(engine: Any, src: int, code: int) -> Iterable[tuple[int, int]]:
    """COPYING's action: a copier on the ground next to a Pillbug throws as it does."""
    if engine.height(src) == 1 and _touches_thrower(engine, src):
        return throws(engine.stacks, engine.analysis().sep, src, None)
    return ()


def _no_actions(engine: Any, src: int, code: int) -> Iterable[tuple[int, int]]:
    return ()


def number_order(engine: Any, player: int, kind: int) -> str | None:
    """NUMBERED creatures (S1, S2...) go down in number order."""
    name = engine.names[kind]
    if name[-1].isdigit() and name[-1] != "1":
        before = engine.kind_index.get(name[:-1] + str(int(name[-1]) - 1))
        if before is not None and engine.hands[player][before]:
            return f"{engine.names[before]} goes down before {name}"
    return None


ABILITIES: tuple[Ability, ...] = (
    Ability(LADYBUG_STEPS, category=True, moves=ladybug_moves,
            doc="two steps on top of the colony, then one down (Hive's Ladybug)"),
    Ability(COPYING, category=True, moves=mosquito_moves, actions=mosquito_throws,
            doc="moves as the creatures it touches; as a Beetle on top (Hive's Mosquito)"),
    Ability(THROWING, actions=pillbug_throws,
            doc="lifts a neighbour over itself to an empty neighbour (Hive's Pillbug)"),
    Ability(NUMBERED, actions=_no_actions,
            doc="copies of a kind (S1, S2) are placed in number order (Hive)"),
)
PLACEMENT_RULES: tuple[PlacementRule, ...] = (
    PlacementRule("number order", number_order, NUMBERED),)
#: The abilities as HexAround's engine takes them (also registered through the hooks).
EXTENSIONS = Extensions({a.name: a for a in ABILITIES}, PLACEMENT_RULES)


@cache
def hive_config(expansions: str, names: tuple[tuple[int, str], ...]) -> HexAroundConfig:
    """The HexAround configuration of a Hive game type: one creature per piece
    (``names``: bug type and name, e.g. ``(SPIDER, "S1")``), one of each per player."""
    creatures = []
    for t, name in names:
        dist, props, category = _CREATURES[t]
        creatures.append(CreatureType(BUTTERFLY if t == QUEEN else name, dist,
                                      frozenset((*props, NUMBERED)), category))
    stock = {c.name: 1 for c in creatures}
    return HexAroundConfig(tuple(creatures), {p: dict(stock) for p in PLAYERS},
                           RuleOptions(**HIVE_RULES), "hive:" + (expansions or "base"))
