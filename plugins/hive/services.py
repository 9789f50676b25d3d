"""The Hive plugin's services beside the game, registered through hexkit's hooks (plugin.py
re-exports these hookimpls): the ``hexkit uhp`` command, the ``hive`` bot (PVS search with
a Hive evaluation, five levels), the ``uhp:COMMAND`` seat and the MCTS playout policy.
Registering imports none of them: each is imported when used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots import BotSpec
from hexkit.bots.policy import PlayoutPolicy
from hexkit.commands import lazy_command
from hexkit.hookspecs import hookimpl

#: What hive/plugin.py re-exports: the hookimpls.
__all__ = ["hexkit_register_bots", "hexkit_register_commands",
           "hexkit_register_playout_policies"]


def _hive_bot(game: Any, arg: str | None, seed: int | None) -> Any:
    from .bot import hive_bot_factory

    return hive_bot_factory(game, arg, seed)


def _uhp_seat(game: Any, arg: str | None, seed: int | None) -> Any:
    from .uhp_seat import uhp_seat_factory

    return uhp_seat_factory(game, arg, seed)


HIVE_BOT = BotSpec(
    "hive",
    "Hive alpha-beta search (transposition table, Queen-threat quiescence); levels "
    "hive:level=1 (beginners) to hive:level=5 (3 s a move), or hive:time=S, hive:depth=N "
    "(default: 1 s a move, as level 4)",
    _hive_bot,
)
UHP_SEAT = BotSpec(
    "uhp",
    "an external Universal Hive Protocol engine plays Hive: uhp:COMMAND, "
    "uhp:time=S:COMMAND or uhp:depth=N:COMMAND",
    _uhp_seat,
    starts_process=True,
)


@hookimpl
def hexkit_register_commands(register: Callable[[Any], None]) -> None:
    register(lazy_command("uhp", "run Hive as a Universal Hive Protocol engine on "
                                 "standard input and output", "hive.uhp"))


@hookimpl
def hexkit_register_bots(register: Callable[[Any], None]) -> None:
    register(HIVE_BOT)
    register(UHP_SEAT)


#: ``--p2 mcts``: short random playouts (a random Hive game wanders), then the ``hive``
#: bot's evaluation scores the position.
HIVE_PLAYOUTS = PlayoutPolicy("hive", evaluate="hive.bot:playout_evaluate", depth=10)


@hookimpl
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    register(HIVE_PLAYOUTS)
