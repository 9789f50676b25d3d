"""hexkit's own services, registered through the same hooks as any plugin: the random and
MCTS bots and the core's commands (:data:`hexkit.commands.BUILTIN`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots import RANDOM, BotSpec
from hexkit.commands import BUILTIN, lazy_command
from hexkit.grading import KindSpec
from hexkit.hookspecs import hookimpl


def _mcts_factory(game: Any, arg: str | None, seed: int | None) -> Any:
    from hexkit.bots.mcts import mcts_factory

    return mcts_factory(game, arg, seed)


MCTS = BotSpec(
    "mcts",
    "Monte-Carlo tree search (UCT, random playouts); mcts:N for N simulations per move",
    _mcts_factory,
)


@hookimpl
def hexkit_register_bots(register: Callable[[Any], None]) -> None:
    register(RANDOM)
    register(MCTS)


@hookimpl
def hexkit_register_commands(register: Callable[[Any], None]) -> None:
    for name, help_text, module in BUILTIN:
        register(lazy_command(name, help_text, module))


@hookimpl
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    register(KindSpec("plugin", "a hexkit plugin (a .py file, a package or a project) that "
                      "registers one game, graded through the game API",
                      "hexkit.grading.plugin_kind:PluginKind", priority=10))
