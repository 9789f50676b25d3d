"""Bots: anything with ``choose(state) -> Move``, registered through ``hexkit_register_bots``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hexkit.errors import OptionError
from hexkit.game import Game, Move, State


class Bot(Protocol):
    """A player program. ``choose`` must not change the state it is given."""

    def choose(self, state: State) -> Move: ...


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: ``factory(game, arg, seed)`` builds one; ``arg`` is the text after
    a colon in ``--p2 name:arg`` (None if absent).

    ``starts_process`` marks a bot that runs another program (an external engine): such a
    spec is built only when it comes from the operator's own command line (see
    :func:`make_bot`), never from a record, a request, a saved file or a database.

    ``games`` names the games it plays (empty: every game); ``settings`` says how its
    argument is written, with its ranges, and ``example`` is a spec to show as an example
    (e.g. ``mcts:400``): user interfaces offer a game only the bots that play it.
    ``needs_evaluation`` marks a bot that plays only games whose playout policy has an
    ``evaluate``."""

    name: str
    description: str
    factory: Callable[[Game, str | None, int | None], Bot]
    plugin: str = ""
    starts_process: bool = False
    games: tuple[str, ...] = ()
    settings: str = ""
    example: str = ""
    #: True for a bot that searches with the game's registered evaluation (``alphabeta``):
    #: menus offer it only for games that register one.
    needs_evaluation: bool = False

    def plays(self, game_name: str) -> bool:
        """True if this bot plays the game of that name."""
        return not self.games or game_name in self.games


class RandomBot:
    """Plays a uniformly random legal move, from its own seeded generator."""

    def __init__(self, seed: int | None = None):
        self.rng = random.Random(seed)

    def choose(self, state: State) -> Move:
        moves = state.legal_moves()
        if not moves:
            raise ValueError("the game is over: there is no move to choose")
        return moves[self.rng.randrange(len(moves))]


def _random_factory(game: Game, arg: str | None, seed: int | None) -> RandomBot:
    if arg:
        raise OptionError("the random bot takes no argument")
    return RandomBot(seed)


RANDOM = BotSpec("random", "uniformly random legal moves", _random_factory,
                 settings="no settings", example="random")

#: The seat spec of a person at the keyboard (or browser).
HUMAN = "human"


class ProcessRefused(OptionError):
    """A seat spec that would start a program did not come from the operator's command
    line (a record, a request, a seat file, a database): it is refused."""


def bot_spec(spec: str, *, registry: Any = None) -> BotSpec | None:
    """The registered bot a seat spec names (None for ``human``); OptionError, with a
    suggestion, if there is none."""
    from hexkit import plugins

    name = spec.partition(":")[0].strip().lower()
    if name == HUMAN:
        return None
    reg = registry if registry is not None else plugins.registry()
    if name not in reg.bots:
        raise OptionError(plugins.unknown_message("bot", name, [HUMAN, *reg.bots]))
    found: BotSpec = reg.bots[name]
    return found


def starts_process(spec: str, *, registry: Any = None) -> bool:
    """True if the seat spec names a bot that runs another program (``uhp:...``);
    False for ``human``, other bots and unknown names."""
    try:
        found = bot_spec(spec, registry=registry)
    except OptionError:
        return False
    return found is not None and found.starts_process


def make_bot(game: Game, spec: str, seed: int | None, *, registry: Any = None,
             from_operator: bool = False) -> Bot | None:
    """The player a seat spec names: ``human`` -> None, ``name`` or ``name:arg`` -> a
    registered bot built for ``game`` (OptionError, with a suggestion, if unknown).

    A bot that starts a program is built only with ``from_operator``: the spec is a
    literal argument of the command being run (``--p2``, ``--bots``, ``serve --engine``).
    Otherwise it is refused with :class:`ProcessRefused`."""
    name, _, arg = spec.partition(":")
    found = bot_spec(spec, registry=registry)
    if found is None:
        if arg:
            raise OptionError("'human' takes no argument")
        return None
    if found.starts_process and not from_operator:
        raise ProcessRefused(
            f"the bot {found.name!r} starts a program, and a program starts only from the "
            "command line of the person running hexkit (not from a record, a request or a "
            "saved file)")
    return found.factory(game, arg or None, seed)


def make_computer(game: Game, spec: str, seed: int | None, *, registry: Any = None,
                  from_operator: bool = False) -> Bot:
    """The bot a seat spec names where no person can play (a grader's games): as
    :func:`make_bot`, with OptionError for ``human``."""
    bot = make_bot(game, spec, seed, registry=registry, from_operator=from_operator)
    if bot is None:
        raise OptionError(f"{spec!r} names a person; a bot plays here (e.g. mcts or random)")
    return bot
