"""The hexkit plugin module of Focus (entry point ``focus = "focus.plugin"``): the game's
spec and its MCTS evaluation, named by reference so that registering imports no rules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots.policy import Level, PlayoutPolicy
from hexkit.game import GameSpec, Option
from hexkit.hookspecs import hookimpl

OPTIONS = (
    Option("board", "course",
           "variant: course (central 6x6), cross (52 squares), another configs/focus "
           "name, or a path to a variant YAML file", names_file=True),
    Option("players", 2, "number of players (3 and 4 need board=cross)", int, (2, 3, 4)),
    Option("distance", "auto",
           "up_to: at most as far as the pieces moved; exact: exactly that far "
           "(auto: the board's rule, up_to on course, exact on cross)",
           str, ("auto", "up_to", "exact")),
    Option("win", "auto",
           "captures: first to captures_to_win; last_mover: the last player able to move "
           "(auto: captures on course, last_mover on cross)", str,
           ("auto", "captures", "last_mover")),
    Option("captures_to_win", None, "captures needed with win=captures (default 6)", int),
    Option("layout", "colour_fixed",
           "colour_fixed: colours keep their starting squares; player_order: the first "
           "seat takes the first colour's squares", str, ("colour_fixed", "player_order")),
    Option("colours", "auto",
           "colour letter of each seat in seat order, e.g. GR (auto: R G B Y in order)"),
    Option("max_height", None, "tallest stack; pieces beyond it leave from the bottom "
           "(default 5)", int),
    Option("start_reserve", None,
           "pieces each player starts with in reserve (default 1 for 3 players, else 0)", int),
)

RULES = """\
Focus (Sid Sackson, 1963; Milton Bradley's Domination). Players move stacks they control
(their colour on top): take the top k pieces and move them in a straight orthogonal line,
up to k squares (course, distance=up_to) or exactly k squares (Sackson, distance=exact),
jumping over anything between, onto any square. A stack taller than 5 loses pieces from
the bottom: the mover's own go to the mover's reserve, others are captured. Instead of
moving, a player may enter a reserve piece on any square.
Course game (board=course): 2 players on the central 6x6, the first to capture 6 wins.
Real game (board=cross): 52 squares, 2 to 4 players; a player with no stack on top and no
reserve is out; the last player able to move wins. With 3 players each keeps one piece
in reserve and enters it on an empty square on their first turn."""


SPEC = GameSpec(
    name="focus",
    description="Sid Sackson's stacking game: the OSU CS 162 FocusGame and the 2-4 player cross",
    factory="focus.game:Focus",
    options=OPTIONS,
    min_players=2,
    max_players=4,
    version="1",
    rules=RULES,
)


#: The named levels (``--p2 bot:easy``...), weakest first. Level 1 plays a random move,
#: but never one that misses a win or allows a loss in one (playing so half the time, it
#: lost only 70 % of 40 games to level 2). Levels 2 and 3 are MCTS with growing budgets;
#: level 3 scores each new position at once (``depth=0``) and explores less (``c=0.4``).
#: Past about 1,000 simulations MCTS stopped getting stronger at Focus (its material
#: evaluation is flat for many moves), so levels 4 and 5 are the core's alpha-beta search
#: with the same evaluation, under node budgets (two to three plies, and three to four).
#: Measured by benchmarks/bot_levels.py (docs/bots.md).
LEVELS = (
    Level("mcts:sims=30,random=1",
          "a random move, but never one that misses a win or allows a loss in one"),
    Level("mcts:150", "MCTS, 150 simulations a move"),
    Level("mcts:sims=1000,depth=0,c=0.4", "MCTS, 1,000 evaluated positions a move"),
    Level("alphabeta:4000", "alpha-beta search, 4,000 positions a move (two to three plies)"),
    Level("alphabeta:40000",
          "alpha-beta search, 40,000 positions a move (three to four plies)"),
)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot: play 10 random moves, then score the position by captures and
    reserves (:mod:`focus.policy`)."""
    register(PlayoutPolicy("focus", evaluate="focus.policy:evaluate", depth=10,
                           may_win="focus.policy:may_win", levels=LEVELS))


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register the ``focus`` game."""
    register(SPEC)


@hookimpl(optionalhook=True)
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    """``hexkit grade`` knows the OSU CS 162 FocusGame programs."""
    from hexkit.grading import KindSpec

    register(KindSpec("focusgame", "an OSU CS 162 FocusGame.py (class FocusGame with the "
                      "course API), graded against --reference focus",
                      "focus.grading:FocusGameKind", priority=30))
