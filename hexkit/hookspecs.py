"""Every hook of hexkit. Registrar hooks: each is called once, at start-up, and hands the
plugin a ``register`` function; rule code never calls a hook while a game is played.

A game plugin may declare hooks of its own for other plugins to extend it (see
``hexkit_add_hookspecs``); it calls them once, when a game is built, and keeps the
objects they return.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("hexkit")
hookimpl = pluggy.HookimplMarker("hexkit")


@hookspec
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register game specs: call ``register(GameSpec(...))`` once per game."""


@hookspec
def hexkit_register_bots(register: Callable[..., None]) -> None:
    """Register bots: ``register(BotSpec(name, description, factory))``; the factory gets
    ``(game, arg, seed)`` where ``arg`` is the text after a colon (``mcts:2000``)."""


@hookspec
def hexkit_register_commands(register: Callable[[Any], None]) -> None:
    """Register CLI sub-commands: ``register(Command(name, help, configure, run))``."""


@hookspec
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot play a game: ``register(PlayoutPolicy("mygame", evaluate=...))``
    (:class:`hexkit.bots.policy.PlayoutPolicy`; its functions may be given as
    ``"package.module:function"`` so that nothing is imported at start-up)."""


@hookspec
def hexkit_register_grading_kinds(register: Callable[[Any], None]) -> None:
    """Register kinds of submission for ``hexkit grade``:
    ``register(KindSpec(name, description, "package.module:KindClass"))`` (see
    :mod:`hexkit.grading.kind`); a course program's kind lives with its game."""


@hookspec
def hexkit_add_hookspecs(pluginmanager: pluggy.PluginManager) -> None:
    """Add a plugin's own hook specifications (``pluginmanager.add_hookspecs(module)``),
    so that other plugins can extend that plugin's game."""
