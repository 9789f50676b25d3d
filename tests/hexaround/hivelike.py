"""Hive's three expansion creatures written against HexAround's extension API, as the hive
plugin does (spec hive.md §4), used to prove the hooks can express them."""

from __future__ import annotations

from collections.abc import Iterable

from hexaround.engine import Engine
from hexaround.extensions import Ability, Extensions, PlacementRule
from hexaround.hexgrid import OFFSETS


def ladybug_moves(e: Engine, src: int, code: int) -> Iterable[int]:
    """Two steps on top of the hive, then one down into an empty hex."""
    height = e.height
    out = set()
    for a in e.occupied_neighbours(src):
        if e.gate_blocks(src, a, height(src), height(a)):
            continue
        for b in e.occupied_neighbours(a):
            if e.gate_blocks(a, b, height(a), height(b)):
                continue
            for o in OFFSETS:
                c = b + o
                if not e.is_occupied(c) and not e.gate_blocks(b, c, height(b), 0):
                    out.add(c)
    return out


def throws(e: Engine, src: int, code: int) -> Iterable[tuple[int, int]]:
    """The pillbug lifts an adjacent lone creature over itself onto an empty neighbour."""
    if e.height(src) != 1:
        return ()
    empty = [src + o for o in OFFSETS if not e.is_occupied(src + o)]
    out = []
    for f in e.occupied_neighbours(src):
        if e.height(f) != 1 or e.is_cut(f) or e.gate_blocks(f, src, 0, 1):
            continue
        out.extend((f, t) for t in empty if not e.gate_blocks(src, t, 1, 0))
    return out


def mosquito_moves(e: Engine, src: int, code: int) -> Iterable[int]:
    """On top: as a beetle. On the ground: as every creature it touches but mosquitoes."""
    if e.height(src):
        return e.search(src, e.kind_index["B1"] * 2 + (code & 1))
    out: set[int] = set()
    for k in {e.stacks[n][-1] >> 1 for n in e.occupied_neighbours(src)}:
        if "COPYING" not in e.kind_props[k]:
            out.update(e.search(src, k * 2 + (code & 1)))
    return out


def mosquito_throws(e: Engine, src: int, code: int) -> Iterable[tuple[int, int]]:
    """A mosquito next to a pillbug may throw as the pillbug does."""
    if e.height(src) == 1 and any(e.has_property(e.stacks[n][-1], "THROWING")
                                  for n in e.occupied_neighbours(src)):
        return throws(e, src, code)
    return ()


def one_of_a_kind_first(e: Engine, player: int, kind: int) -> str | None:
    """Numbered pieces (S1, S2) go down in number order."""
    name = e.names[kind]
    if name[-1].isdigit() and name[-1] != "1":
        before = e.kind_index.get(name[:-1] + str(int(name[-1]) - 1))
        if before is not None and e.hands[player][before]:
            return f"{e.names[before]} goes down before {name}"
    return None


ABILITIES = [
    Ability("LADYBUG", category=True, moves=ladybug_moves, doc="up, along, down"),
    Ability("THROWING", actions=throws, doc="moves a neighbour over itself"),
    Ability("COPYING", category=True, moves=mosquito_moves, actions=mosquito_throws,
            doc="moves as the creatures it touches"),
]
EXTENSIONS = Extensions({a.name: a for a in ABILITIES},
                        (PlacementRule("number order", one_of_a_kind_first, "COPYING"),))

HIVE_RULES = {
    "slide_rule": "one_gate", "one_colony": "during", "gates_count_heights": True,
    "jump_landing": "over_pieces", "pinned_under": "any", "stack_limit": "unlimited",
    "no_action": "pass", "butterfly_not_first": True, "moves_before_butterfly": False,
    "freeze_last_moved": "moved_or_placed",
}

HIVE_YAML = """\
creatures:
  BUTTERFLY: {properties: [WALKING, QUEEN]}
  S1: {max_distance: 3, properties: [RUNNING]}
  S2: {max_distance: 3, properties: [RUNNING]}
  B1: {properties: [WALKING, INTRUDING]}
  B2: {properties: [WALKING, INTRUDING]}
  G1: {max_distance: 1000, properties: [JUMPING]}
  A1: {max_distance: 1000, properties: [WALKING]}
  M: {properties: [COPYING]}
  L: {properties: [LADYBUG]}
  P: {properties: [WALKING, THROWING]}
players:
  BLUE: {BUTTERFLY: 1, S1: 1, S2: 1, B1: 1, B2: 1, G1: 1, A1: 1, M: 1, L: 1, P: 1}
rules:
""" + "".join(f"  {k}: {v}\n" for k, v in HIVE_RULES.items())
