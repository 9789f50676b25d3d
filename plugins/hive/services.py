"""The Hive plugin's services beside the game, registered through hexkit's hooks (plugin.py
re-exports these hookimpls): the ``hexkit uhp`` command, the ``hive`` bot (PVS search with
a Hive evaluation, five levels), the ``uhp:COMMAND`` seat, and the named levels (offered by
the MCTS playout policy that plugin.py registers). Registering imports none of them until used."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots import BotSpec
from hexkit.bots.policy import Level
from hexkit.commands import lazy_command
from hexkit.hookspecs import hookimpl

#: What hive/plugin.py re-exports: the hookimpls.
__all__ = ["hexkit_register_bots", "hexkit_register_commands"]


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
    games=("hive",),
    settings="hive:level=1..5, or hive:time=S (seconds a move, up to 3600) or "
             "hive:depth=N (plies, 1..64), or both: hive:time=2,depth=4",
    example="hive:depth=2",
)
UHP_SEAT = BotSpec(
    "uhp",
    "an external Universal Hive Protocol engine plays Hive: uhp:COMMAND, "
    "uhp:time=S:COMMAND or uhp:depth=N:COMMAND",
    _uhp_seat,
    games=("hive",),
    settings="uhp:COMMAND, uhp:time=S:COMMAND (seconds a move, up to 3600) or "
             "uhp:depth=N:COMMAND (plies, 1..64)",
    example="uhp:time=1:MzingaEngine",
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


#: Hive's named levels (``--p2 bot:easy``...): the ``hive`` bot's own five levels
#: (:data:`hive.bot.LEVELS`; each has a time limit, and each takes a Queen surround in one).
LEVELS = (
    Level("hive:level=1", "one ply and a blurred choice: for beginners"),
    Level("hive:level=2", "two plies, a little blurred"),
    Level("hive:level=3", "three plies, at most a second a move"),
    Level("hive:level=4", "iterative deepening PVS, 1 second a move"),
    Level("hive:level=5", "iterative deepening PVS, 3 seconds a move"),
)
