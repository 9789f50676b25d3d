"""Bots: anything with ``choose(state) -> Move``, registered through ``hexkit_register_bots``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from hexkit.game import Game, Move, State


class Bot(Protocol):
    """A player program. ``choose`` must not change the state it is given."""

    def choose(self, state: State) -> Move: ...


@dataclass(frozen=True)
class BotSpec:
    """A registered bot: ``factory(game, arg, seed)`` builds one; ``arg`` is the text after
    a colon in ``--p2 name:arg`` (None if absent).

    ``games`` names the games it plays (empty: every game); ``settings`` says how its
    argument is written, with its ranges, and ``example`` is a spec to show as an example
    (e.g. ``mcts:400``): user interfaces offer a game only the bots that play it."""

    name: str
    description: str
    factory: Callable[[Game, str | None, int | None], Bot]
    plugin: str = ""
    games: tuple[str, ...] = ()
    settings: str = ""
    example: str = ""

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
        from hexkit.errors import OptionError

        raise OptionError("the random bot takes no argument")
    return RandomBot(seed)


RANDOM = BotSpec("random", "uniformly random legal moves", _random_factory,
                 settings="no settings", example="random")

#: The seat spec of a person at the keyboard (or browser).
HUMAN = "human"


def make_bot(game: Game, spec: str, seed: int | None, *, registry: Any = None) -> Bot | None:
    """The player a seat spec names: ``human`` -> None, ``name`` or ``name:arg`` -> a
    registered bot built for ``game`` (OptionError, with a suggestion, if unknown)."""
    from hexkit import plugins
    from hexkit.errors import OptionError

    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    if name == HUMAN:
        if arg:
            raise OptionError("'human' takes no argument")
        return None
    reg = registry if registry is not None else plugins.registry()
    if name not in reg.bots:
        raise OptionError(plugins.unknown_message("bot", name, [HUMAN, *reg.bots]))
    return reg.bots[name].factory(game, arg or None, seed)
