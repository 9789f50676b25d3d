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


def _alphabeta_factory(game: Any, arg: str | None, seed: int | None) -> Any:
    from hexkit.bots.alphabeta import alphabeta_factory

    return alphabeta_factory(game, arg, seed)


def _level_factory(game: Any, arg: str | None, seed: int | None) -> Any:
    from hexkit.bots.levels import level_factory

    return level_factory(game, arg, seed)


MCTS = BotSpec(
    "mcts",
    "Monte-Carlo tree search (UCT, the game's playouts; never misses a win or allows a "
    "loss in one); mcts:N for N simulations per move",
    _mcts_factory,
    settings="mcts:N (N simulations a move, 1..1,000,000; default 1,000) or "
             "mcts:sims=N,c=X,depth=N,random=P,tactics=off",
    example="mcts:400",
)
ALPHABETA = BotSpec(
    "alphabeta",
    "alpha-beta search with the game's evaluation (iterative deepening under a node "
    "budget; never misses a win or allows a loss in one); alphabeta:N for N positions a move",
    _alphabeta_factory,
    settings="alphabeta:N (N positions a move, default 20,000) or "
             "alphabeta:nodes=N,depth=D,time=S,random=P,tactics=off",
    example="alphabeta:20000",
    needs_evaluation=True,
)
LEVELS = BotSpec(
    "bot",
    "the game's named levels: bot:easy, bot:medium (or just bot), bot:hard, bot:level=N "
    "(hexkit rules GAME lists them)",
    _level_factory,
    settings="bot:easy|medium|hard or bot:level=N (1 the weakest; 5 levels unless the game "
             "says otherwise)",
    example="bot:medium",
)


def _python_factory(game: Any, arg: str | None, seed: int | None) -> Any:
    from hexkit.adapters.policy import python_bot

    return python_bot(game, arg, seed)


#: A policy function of the operator's (hexkit.adapters.policy): it imports their code, so
#: it is built only from the command line, as a program is.
PYTHON = BotSpec(
    "python",
    "a policy function of yours: python:agent.py:policy or python:package.module:policy "
    "(command line only; see docs/ai.md)",
    _python_factory,
    starts_process=True,
    settings="python:FILE.py:NAME or python:package.module:NAME, NAME a function "
             "(observation, action_mask) -> action or (state) -> move",
    example="python:agent.py:policy",
)


@hookimpl
def hexkit_register_bots(register: Callable[[Any], None]) -> None:
    register(RANDOM)
    register(MCTS)
    register(ALPHABETA)
    register(LEVELS)
    register(PYTHON)


@hookimpl
def hexkit_register_commands(register: Callable[[Any], None]) -> None:
    for name, help_text, module in BUILTIN:
        register(lazy_command(name, help_text, module))


@hookimpl
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    register(KindSpec("plugin", "a hexkit plugin (a .py file, a package or a project) that "
                      "registers one game, graded through the game API",
                      "hexkit.grading.plugin_kind:PluginKind", priority=10))
