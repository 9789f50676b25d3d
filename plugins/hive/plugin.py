"""The hexkit plugin module of Hive (entry point ``hive = "hive.plugin"``): the game's spec,
named by reference so that registering imports no rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots.policy import PlayoutPolicy
from hexkit.game import GameSpec, Option
from hexkit.hookspecs import hookimpl

# The UHP engine command, the Hive bot and the uhp: seat live beside the game (hive.services,
# which imports none of them until used); their hookimpls register through this module, as
# pluggy registers the hookimpls a plugin module holds.
from hive.services import LEVELS
from hive.services import hexkit_register_bots as hexkit_register_bots
from hive.services import hexkit_register_commands as hexkit_register_commands

EXPANSION_CHOICES = ("none", "M", "L", "P", "ML", "MP", "LP", "MLP")

RULES = """\
Hive (John Yianni, Gen42 Games), with the Mosquito, Ladybug and Pillbug expansions, as the
tournament platforms and the reference engine Mzinga play it; built on HexAround's engine.
Surround the opponent's Queen Bee. Place pieces next to your colour only; Queen by your 4th
turn, not on your 1st; nothing moves before its owner's Queen; the hive stays one group
during every move; slides pass through a gap with exactly one occupied side. Moves are
Universal Hive Protocol MoveStrings ('wA1 -bG2', 'wB1 wQ', 'pass').
Options: -o expansions=none|M|L|P|ML|MP|LP|MLP (default MLP), -o repetition_draw=true."""

SPEC = GameSpec(
    name="hive",
    description="Hive with the Mosquito, Ladybug and Pillbug (UHP notation), on "
                "HexAround's engine",
    factory="hive.game:HiveGame",
    options=(
        Option("expansions", "MLP",
               "expansion bugs in play: M Mosquito, L Ladybug, P Pillbug (none: base game)",
               str, EXPANSION_CHOICES),
        Option("repetition_draw", False,
               "the third occurrence of a position is a draw (Mzinga: false)", bool),
    ),
    player_names=("White", "Black"),
    version="2016",
    rules=RULES,
)


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register Hive."""
    register(SPEC)


@hookimpl(optionalhook=True)
def hexaround_register_abilities(register: Callable[[Any], None]) -> None:
    """Hive's Ladybug, Mosquito and Pillbug abilities (and the number-order marker) for
    HexAround: Hive is HexAround with these and Hive's rule options (:mod:`hive.abilities`),
    and any HexAround configuration may give its creatures these abilities."""
    from hive.abilities import ABILITIES

    for ability in ABILITIES:
        register(ability)


@hookimpl(optionalhook=True)
def hexaround_register_placement_rules(register: Callable[[Any], None]) -> None:
    """Pieces of one kind go down in number order (creatures marked NUMBERED)."""
    from hive.abilities import PLACEMENT_RULES

    for rule in PLACEMENT_RULES:
        register(rule)


@hookimpl
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot: 10 random plies, then the ``hive`` bot's evaluation scores the
    position (:mod:`hive.policy`); a Queen surrounded in one is found through HexAround's
    ``may_win``; the levels are the ``hive`` bot's."""
    register(PlayoutPolicy("hive", evaluate="hive.policy:playout_evaluate", depth=10,
                           may_win="hexaround.policy:may_win", levels=LEVELS))
