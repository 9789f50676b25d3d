"""The hexkit plugin module of Hex Baron (entry point ``hexbaron = "hexbaron.plugin"``).

It registers the game (options, rules summary, the classic console, the ``savefile``
and ``ids`` words of ``hexkit play``, an MCTS evaluation) and adds Hex Baron's own hooks so
that other plugins can extend the game (see :mod:`hexbaron.hookspecs`). Everything is named
by reference, so registering imports none of the rules: they load when a game is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from hexbaron import hookspecs
from hexkit.bots.policy import Level, PlayoutPolicy
from hexkit.game import ConsoleCommand, GameSpec, Option
from hexkit.hookspecs import hookimpl

RULES = """\
Hex Baron (AQA A-level Paper 1, 2021). Two players command pieces on a grid of hexagonal
tiles: fields ( ), forests (#) and peat bogs (~). Each turn a player gives three commands,
carried out one at a time and in order:
  move FROM TO          move a piece to an empty neighbouring tile, paying fuel
  upgrade less|pbds T   turn a serf into a LESS or a PBDS (5 lumber)
  spawn T               a new serf next to your baron (3 lumber, 1 piece from supply)
  saw T                 a LESS in a forest: +1 lumber
  dig T                 a PBDS in a peat bog: +1 fuel, or (1 in 10) +5 and the bog drains
  pass                  do nothing with this command
Pieces: Baron (B, 10 VPs, moves for 1 fuel), Serf (S, 1 VP, 1 fuel or 2 to/from a bog),
LESS (L, 3 VPs, cannot leave a forest), PBDS (P, 2 VPs, cannot leave a bog, moves cost 2).
At the end of every turn each piece with 2 or more occupied neighbouring tiles is destroyed
and its VPs go to the opponent of its owner. Once a baron is destroyed the game ends when
both players have had the same number of turns; the most VPs wins.
Here a refused command changes nothing and is not counted (type 'pass' to waste one);
in the classic console (--classic) it uses up one of the three, as in the AQA program."""

OPTIONS = (
    Option("setup", "default", "set-up: a shipped name (default, game1, ...), an extension's "
           "set-up, a .yaml set-up file or an AQA data file", names_file=True),
    Option("size", 0, "generate a grid of this even size (4-100) with the "
           "set-up's players; 0 keeps the set-up's grid", int),
    Option("p1_name", "", "Player One's name (default: the set-up's)"),
    Option("p2_name", "", "Player Two's name (default: the set-up's)"),
    Option("tie_rule", "draw", "equal VPs at the end: a draw, or a win for Player Two as "
           "in the AQA program", str, ("draw", "player_two")),
    Option("max_turns", 0, "end the game after this many turns each (0: no limit)", int),
    Option("show_ids", True, "draw tile numbers in the grid", bool),
    Option("extensions", "all", "extension plugins taking part: all, none, or names joined "
           "by +", str),
)

SPEC = GameSpec(
    name="hexbaron",
    description="Hex Baron, the AQA A-level 2021 game of barons, serfs, lumber and fuel",
    factory="hexbaron.game:HexBaronGame",
    options=OPTIONS,
    min_players=2,
    max_players=2,
    version="1",
    rules=RULES,
    frontends={"classic": "hexbaron.classic:run_classic"},
    console_commands=(
        ConsoleCommand("savefile", "savefile [-f] FILE: save the game as an AQA data file "
                       "(the AQA program can load it)", "hexbaron.console:savefile_command"),
        ConsoleCommand("ids", "show the tile numbers laid out as on the grid",
                       "hexbaron.console:ids_command"),
    ),
)


@hookimpl
def hexkit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Hex Baron's own hooks, for extension plugins (new terrains, resources, pieces,
    commands and set-ups)."""
    pluginmanager.add_hookspecs(hookspecs)


#: The named levels (``--p2 bot:easy``...), weakest first. Levels 1 to 3 are MCTS with
#: growing budgets and fewer random commands (a random command is drawn only among those
#: the tactics allow: it never misses a win or loses a baron that could be kept): past a
#: few hundred simulations a bigger budget alone barely separates two MCTS levels here,
#: while each random command risks a piece. Levels 4 and 5 are alpha-beta with the same
#: evaluation and tactics under node budgets (about 0.05 and 0.6 s of CPU a command): the
#: tactics leave few commands to search, so 2,000 positions see three to five commands
#: ahead and 20,000 four to seven. Level 4 also plays 5 % random safe commands: without
#: them it defended so well that level 5 as Player One (a VP behind from the start) rarely
#: converted (5 v 4 62 %); with them level 5 scored 87.5 % (seed 2024) and level 4 still
#: beat level 3 94 % and 77.5 % (seeds 2024 and 2025; round 6 of docs/bots.md). Measured by
#: benchmarks/bot_levels.py.
LEVELS = (
    Level("mcts:sims=1,random=1", "a random safe command (it never loses a baron it can keep)"),
    Level("mcts:sims=150,random=0.3", "MCTS 150 simulations, 30 % random safe commands"),
    Level("mcts:sims=1000,random=0.15", "MCTS 1,000 simulations, 15 % random safe commands"),
    Level("alphabeta:nodes=2000,random=0.05",
          "alpha-beta, 2,000 positions a command, 5 % random safe commands"),
    Level("alphabeta:20000", "alpha-beta, 20,000 positions a command"),
)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the bots: score positions by VPs, pressure on the barons and approach (no
    random commands before scoring), destroy a baron within the turn and defend one's own
    (:mod:`hexbaron.policy`); the named levels."""
    register(PlayoutPolicy("hexbaron", evaluate="hexbaron.policy:evaluate", depth=0,
                           may_win="hexbaron.policy:may_win",
                           shortlist="hexbaron.policy:shortlist", levels=LEVELS))


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register Hex Baron."""
    register(SPEC)


@hookimpl(optionalhook=True)
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    """``hexkit grade`` knows AQA Hex Baron console programs."""
    from hexkit.grading import KindSpec

    register(KindSpec("hexbaron", "an AQA Hex Baron console program (.py), run on generated "
                      "sessions against --reference hexbaron's classic console",
                      "hexbaron.grading:HexBaronKind", priority=40))
