"""hexkit entry point of HexAround (``hexaround = "hexaround.plugin"``): registers the game.

Everything is named by reference (the factory ``"hexaround.game:HexAroundGame"``, the MCTS
evaluation ``"hexaround.policy:evaluate"``), so registering imports none of the rules: they
load when a game is built. ``hexkit games``, ``hexkit --help`` and ``hexkit rules`` stay cheap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots.policy import Level, PlayoutPolicy
from hexkit.game import GameSpec, Option
from hexkit.hookspecs import hookimpl

RULES_SUMMARY = """\
HexAround (WPI CS4233, rules document v1.1): surround the opponent's BUTTERFLY.
Blue acts first. A turn is one action: place a creature from your hand, or move one of
yours. Placements go on empty hexes next to your colour and not next to the enemy's
(HATCHING creatures lift the second condition); Red's first creature goes next to Blue's.
The butterfly must be down by your 4th turn. The colony must stay one group after every
action. Categories: WALKING (up to n sliding steps), RUNNING (exactly n steps, no hex
twice), FLYING (up to n hexes, not when surrounded), JUMPING (straight line). Attributes:
INTRUDING (over and onto creatures), TRAPPING (pins what is below), SWAPPING (exchange
places, never with a butterfly), KAMIKAZE (send the target back to its owner's hand),
HATCHING. A butterfly with six occupied neighbours loses; both at once is a draw; a player
who can neither place nor move loses.
Variants: configs/hexaround/*.yaml (-o config=level3, or a .yaml/.yml/.hgc path)."""

#: The variant played without ``-o config=...`` (``hexaround.game.DEFAULT_VARIANT``, named
#: here so that registering does not import the game).
DEFAULT_VARIANT = "level3"

SPEC = GameSpec(
    name="hexaround",
    description="the configurable Hive-like game of WPI CS4233 (creatures defined in YAML)",
    factory="hexaround.game:HexAroundGame",
    options=(
        Option("config", DEFAULT_VARIANT,
               "variant name (level1, level2, level3, ...) or a .yaml/.yml/.hgc file",
               names_file=True),
        Option("butterfly_deadline_blocks_moves", None,
               "no moves while the butterfly is due (auto: file, else true)", bool),
        Option("kamikaze_survives", None,
               "kamikaze attacker stays on the hex (auto: file, else false)", bool),
        Option("stack_limit", None, "most creatures per hex (auto: file, else 2)", int),
        Option("intruding_traps_by_default", None,
               "bare INTRUDING creatures trap (auto: file, else false)", bool),
    ),
    version="1.1",
    rules=RULES_SUMMARY,
)


@hookimpl
def hexkit_add_hookspecs(pluginmanager: Any) -> None:
    """HexAround's own hooks, for plugins that add creature abilities and placement rules
    (:mod:`hexaround.hookspecs`)."""
    from hexaround import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register HexAround."""
    register(SPEC)


#: The named levels (``--p2 bot:easy``...), weakest first: MCTS with growing budgets for
#: levels 1 to 3 (the first plays a random move, never one that misses a win or allows a
#: loss in one, half the time), then alpha-beta with the same evaluation and tactics under
#: node budgets, ten times apart. MCTS stopped getting stronger past level 3 here (the
#: evaluation's scores lie close together: 2,000 simulations scored 36 % against 600, and
#: 50 % with c=0.3), while a search that sees every reply two to four plies ahead finds the
#: surrounds: level 4 (1,000 positions, about 0.07 s a move) beat level 3, and level 5
#: (10,000, about 0.8 s) level 4. Measured by benchmarks/bot_levels.py (docs/bots.md).
LEVELS = (
    Level("mcts:sims=30,random=0.5", "MCTS, 30 simulations, a random safe move half the time"),
    Level("mcts:100", "MCTS, 100 simulations a move"),
    Level("mcts:600", "MCTS, 600 simulations a move"),
    Level("alphabeta:1000", "alpha-beta, 1,000 positions a move"),
    Level("alphabeta:10000", "alpha-beta, 10,000 positions a move"),
)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot: score positions by the crowding around each butterfly
    (:mod:`hexaround.policy`). Optional, so HexAround loads where the MCTS service is absent."""
    register(PlayoutPolicy("hexaround", evaluate="hexaround.policy:evaluate", depth=0,
                           may_win="hexaround.policy:may_win",
                           quick_win="hexaround.policy:quick_win", levels=LEVELS))


@hookimpl(optionalhook=True)
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    """``hexkit grade`` knows WPI CS4233's Java HexAround projects (:mod:`hexaround.grading`)."""
    from hexkit.grading import KindSpec

    register(KindSpec("hexaround-java", "a WPI CS4233 HexAround project in Java (a folder or "
                      "zip with HexAroundGameBuilder.java), compiled with the JDK and graded "
                      "against --reference 'hexaround(config=...)'",
                      "hexaround.grading:HexAroundJavaKind", priority=35))
