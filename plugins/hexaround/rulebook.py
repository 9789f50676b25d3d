"""HexAround in words, for people learning a variant: what ``help`` in ``hexkit play`` and
``hexkit rules hexaround -o config=...`` show.

Everything is read from the variant's configuration (creatures, stocks, rule options), so a
new creature in a YAML file is described without code: its movement category, distance and
attributes become a sentence, e.g. "DUCK: flies up to 5 hexes ...; swaps places with ...".
Properties added by extension plugins are named as such.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hexaround.config import BUTTERFLY, PLAYERS, CreatureType, HexAroundConfig

WIDTH = 88

AIM = (
    "HexAround (WPI CS4233): surround the enemy's BUTTERFLY. Blue acts first; a turn is one "
    "action: place a creature from your hand, or move one of yours. A butterfly whose six "
    "neighbouring hexes are all occupied loses (both at once: a draw); a player who can "
    "neither place nor move loses.")

PLACING = (
    "Placing: on an empty hex next to your colour (the owner of the top creature of a hex) "
    "and not next to the enemy's colour. Blue's first creature goes anywhere, Red's first "
    "next to it. Your BUTTERFLY must be on the board by your 4th turn.")

MOVING = (
    "Moving: your own creature on top of its hex (or under a creature that does not trap "
    "it). After every action all creatures must form one group. Walking and running slide "
    "from hex to hex: a step is blocked when both hexes beside the gap are occupied, and "
    "every hex entered must touch the colony.")

#: What each movement category does, with the creature's distance ``n``.
CATEGORY_WORDS = {
    "WALKING": "walks up to {n} sliding step{s}",
    "RUNNING": "runs exactly {n} sliding step{s}, never entering a hex twice",
    "FLYING": "flies up to {n} hex{es} over anything, but not when all six of its neighbours "
              "are occupied",
    "JUMPING": "jumps in a straight line up to {n} hex{es}, over anything, even when "
               "surrounded",
}


def attribute_words(name: str, config: HexAroundConfig) -> str | None:
    """What an attribute adds, in words (None for properties said elsewhere)."""
    rules = config.rules
    limit = rules.stack_limit
    stack = f"stacks of up to {limit}" if isinstance(limit, int) else "stacks of any height"
    if name == "INTRUDING":
        return f"intrudes: may pass over creatures and end on top of one ({stack})"
    if name == "TRAPPING":
        return ("traps: climbs onto a creature and pins it there (it cannot move while "
                "trapped)")
    if name == "SWAPPING":
        return "swaps places with the top creature of the hex it lands on (never a butterfly)"
    if name == "KAMIKAZE":
        fate = "stays on that hex" if rules.kamikaze_survives else "is destroyed"
        return (f"kamikaze: landing on a creature sends that creature back to its owner's "
                f"hand; the attacker {fate}")
    if name == "HATCHING":
        return ("hatching: its owner may place creatures next to it even beside the enemy's "
                "colour")
    if name == "QUEEN":
        return None
    return f"{name.lower()} (an ability added by an extension plugin)"


def creature_sentence(creature: CreatureType, config: HexAroundConfig) -> str:
    """One creature of the variant in words: ``DUCK: flies up to 5 hexes ...; swaps ...``."""
    n = creature.max_distance
    category = creature.category
    template = CATEGORY_WORDS.get(category)
    if template is None:
        moves = f"moves as {category.lower()} (an extension's movement), distance {n}"
    else:
        moves = template.format(n=n, s="" if n == 1 else "s", es="" if n == 1 else "es")
    parts = [moves]
    for prop in sorted(creature.properties - {category}, key=_property_order):
        words = attribute_words(prop, config)
        if words:
            parts.append(words)
    if (config.rules.intruding_traps_by_default and "INTRUDING" in creature.properties
            and not creature.properties & {"TRAPPING", "SWAPPING", "KAMIKAZE", "HATCHING"}):
        parts.append("traps what it climbs onto (intruding_traps_by_default)")
    if creature.name == BUTTERFLY:
        parts.append("the queen: keep it free, surround the enemy's")
    return f"{creature.name} ({_stock(creature.name, config)}): " + "; ".join(parts) + "."


def _property_order(name: str) -> tuple[int, str]:
    order = ("INTRUDING", "TRAPPING", "SWAPPING", "KAMIKAZE", "HATCHING", "QUEEN")
    return (order.index(name) if name in order else len(order), name)


def _stock(name: str, config: HexAroundConfig) -> str:
    counts = [config.stocks.get(p, {}).get(name, 0) for p in PLAYERS]
    if len(set(counts)) == 1:
        return f"{counts[0]} each"
    return ", ".join(f"{p} {c}" for p, c in zip(PLAYERS, counts, strict=True))


def rule_lines(config: HexAroundConfig) -> list[str]:
    """The rule options of this variant that change how it plays, in words."""
    rules = config.rules
    out = []
    if rules.butterfly_deadline_blocks_moves:
        out.append("While your BUTTERFLY is due (your 4th turn on) you may only place it.")
    else:
        out.append("While your BUTTERFLY is due (your 4th turn on) you must place it or move.")
    limit = rules.stack_limit
    if limit == 1:
        out.append("No stacking: one creature per hex.")
    elif isinstance(limit, int):
        out.append(f"At most {limit} creatures on one hex.")
    known = {"butterfly_deadline_blocks_moves", "kamikaze_survives", "stack_limit",
             "intruding_traps_by_default"}
    defaults = type(rules)()
    others = [f"{k}={_shown(v)}" for k, v in rules.to_dict().items()
              if k not in known and v != getattr(defaults, k, None)]
    if others:
        out.append("Other rule options (as in docs/hexaround.md): " + ", ".join(others) + ".")
    return out


def _shown(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def describe(config: HexAroundConfig, legend: Iterable[str] = ()) -> str:
    """The whole variant: the aim, placing and moving, every creature in words, its rule
    options, and the legend of the board drawing."""
    source = f" ({Path(config.source).name})" if config.source else ""
    out = textwrap.wrap(AIM, WIDTH)
    out += [""] + textwrap.wrap(PLACING, WIDTH)
    out += [""] + textwrap.wrap(MOVING, WIDTH)
    out += [""] + textwrap.wrap(f"Creatures of this variant{source}, with how many each "
                                "player has:", WIDTH)
    for creature in config.creatures:
        out += textwrap.wrap(creature_sentence(creature, config), WIDTH,
                             initial_indent="  ", subsequent_indent="    ")
    out += ["", "Rules of this variant:"]
    for line in rule_lines(config):
        out += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ")
    legend = list(legend)
    if legend:
        out += ["", "The board drawing:"]
        for line in legend:
            out += textwrap.wrap(line, WIDTH, initial_indent="  ", subsequent_indent="    ")
    return "\n".join(out)
