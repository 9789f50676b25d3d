"""A game's help for the bots: playout move choice, evaluation, playout depth, tactics and
named levels.

A plugin registers a :class:`PlayoutPolicy` per game through
``hexkit_register_playout_policies`` (see :mod:`hexkit.hookspecs`); the hook is called once
at start-up. Its functions may be given as ``"package.module:function"`` so that
registering them imports nothing: they are imported when a bot is built.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from hexkit.game import Move, import_object

# A game's functions take its own state and moves (a HexAroundState, a Sequence[Place]):
# they are typed Any below, because a Callable's parameters cannot be narrower than the
# type it is given as (State, Sequence[Move]).

#: ``choose(state, legal_moves, rng) -> move`` picks a playout move.
PlayoutChooser = Callable[[Any, Any, random.Random], Move]
#: ``evaluate(state) -> per-seat rewards in 0..1`` scores an unfinished playout.
Evaluator = Callable[[Any], Sequence[float]]
#: ``may_win(state) -> moves or None``: the moves of the player to act that might win at
#: once, a superset of those that do (None: any move might; the bot tries them all).
WinFilter = Callable[[Any], "Iterable[Move] | None"]
#: ``shortlist(state, legal_moves) -> moves``: the moves worth searching here, by the game's
#: own tactics (a non-empty subset of ``legal_moves``, or all of them).
Shortlist = Callable[[Any, Any], Sequence[Move]]

F = TypeVar("F", bound=Callable[..., Any])


#: The bot that plays a game's named levels: ``bot:easy`` (:mod:`hexkit.bots.levels`).
LEVEL_BOT = "bot"
#: The most levels a game may register.
MAX_LEVELS = 9


@dataclass(frozen=True)
class Level:
    """A named strength of a game's bot: ``bot`` is the seat spec that plays it (e.g.
    ``mcts:400`` or ``hive:depth=2``), ``about`` says in a few words what it is."""

    bot: str
    about: str = ""


@dataclass(frozen=True)
class PlayoutPolicy:
    """A game's help for its bots, registered by the game's plugin.

    ``game`` is the registered game name it applies to. Every field is optional:

    * ``choose`` replaces the uniform random playout move;
    * ``evaluate`` scores a position when a playout stops at ``depth`` moves (per seat,
      0..1, e.g. a material estimate) instead of calling it a draw; ``depth`` overrides the
      default playout length;
    * ``may_win`` makes the tactical layer cheap where trying every move is slow: it names
      the moves of the player to act that *might* win at once (a superset of those that do:
      the bot plays each to check), e.g. the moves onto the last free hex around a Queen;
      it may return None when it cannot tell;
    * ``shortlist`` is the game's own tactics beyond one move (Hex Baron's defence of a
      threatened baron over a three-command turn): the moves the bot should choose among;
    * ``levels`` are the game's named bot strengths, weakest first (1..5; easy, medium and
      hard are the first, middle and last): see :mod:`hexkit.bots.levels`.

    ``choose``, ``evaluate``, ``may_win`` and ``shortlist`` may be
    ``"package.module:function"`` references.
    """

    game: str
    choose: PlayoutChooser | str | None = None
    evaluate: Evaluator | str | None = None
    depth: int | None = None
    plugin: str = ""
    may_win: WinFilter | str | None = None
    shortlist: Shortlist | str | None = None
    levels: tuple[Level, ...] = ()

    def resolved(self) -> PlayoutPolicy:
        """This policy with its function references imported."""
        changes = {}
        for name in ("choose", "evaluate", "may_win", "shortlist"):
            value = getattr(self, name)
            if isinstance(value, str):
                changes[name] = import_object(value)
        return replace(self, **changes) if changes else self


def function(value: F | str | None) -> F | None:
    """A policy's function: ``value`` itself, or the function a ``"package.module:function"``
    reference names (imported now), or None."""
    return import_object(value) if isinstance(value, str) else value


def check_levels(levels: Any) -> str | None:
    """Why a registered ``levels`` value cannot be used (None if it can)."""
    if not isinstance(levels, tuple):
        return f"levels must be a tuple of Level, not {type(levels).__name__}"
    if len(levels) > MAX_LEVELS:
        return f"at most {MAX_LEVELS} levels, not {len(levels)}"
    for i, level in enumerate(levels, 1):
        if not isinstance(level, Level) or not isinstance(level.bot, str) or not level.bot:
            return f"level {i} is not a Level with a bot spec"
        if level.bot.partition(":")[0].strip().lower() == LEVEL_BOT:
            return f"level {i} names the level bot itself ({level.bot!r})"
    return None
