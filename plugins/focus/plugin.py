"""hexkit entry point of the Focus plugin (``focus = "focus.plugin"`` in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from focus import policy
from focus.game import SPEC
from hexkit.hookspecs import hookimpl


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register the ``focus`` game."""
    register(SPEC)


@hookimpl(optionalhook=True)
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Help the MCTS bot: score unfinished playouts by captures and reserves
    (:mod:`focus.policy`). Optional, so Focus loads where the MCTS service is absent."""
    policy.register_policy(register)
