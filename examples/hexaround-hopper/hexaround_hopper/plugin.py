"""The LEAPING ability for HexAround, added through HexAround's hooks only.

A leaping creature jumps over one adjacent creature (or stack) to the hex right behind it,
which must be empty, like a draughts piece; it may chain up to ``max_distance`` such leaps
in one move, never landing twice on the same hex. It ignores gates. The one-colony rule is
HexAround's: the engine checks it after the search, so the ability only says where the
creature can land.

Declare a creature with it in YAML like any other property::

    creatures:
      KANGAROO: {max_distance: 2, properties: [LEAPING]}
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexaround.extensions import Ability
from hexaround.hexgrid import OFFSETS

from hexkit.hookspecs import hookimpl

#: The kangaroo variant shipped with the extension (``-o config=`` this path).
KANGAROO_CONFIG = Path(__file__).with_name("kangaroo.yaml")


def leaps(engine: Any, src: int, code: int) -> list[int]:
    """Where the leaper on ``src`` may land: chains of 1..max_distance leaps, each over an
    occupied neighbour onto the empty hex behind it. Called with the leaper lifted off
    ``src`` (the engine's working board), once per position and leaper."""
    occupied = engine.occ  # the read API's fast tables: a set of hex keys
    most = engine.max_distance(code)
    landed: list[int] = []
    seen = {src}
    layer = [src]
    for _ in range(most):
        nxt = []
        for at in layer:
            for o in OFFSETS:
                over, land = at + o, at + 2 * o
                if over in occupied and land not in occupied and land not in seen:
                    seen.add(land)
                    landed.append(land)
                    nxt.append(land)
        if not nxt:
            break
        layer = nxt
    return landed


@hookimpl
def hexaround_register_abilities(register: Callable[[Any], None]) -> None:
    """LEAPING: a movement category (the creature's one way of moving)."""
    register(Ability("LEAPING", category=True, moves=leaps,
                     doc="leaps over a neighbour onto the empty hex behind, up to n times"))
