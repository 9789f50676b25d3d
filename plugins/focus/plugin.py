"""hexkit entry point of the Focus plugin (``focus = "focus.plugin"`` in pyproject.toml)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from focus.game import SPEC
from hexkit.hookspecs import hookimpl


@hookimpl
def hexkit_register_games(register: Callable[[Any], None]) -> None:
    """Register the ``focus`` game."""
    register(SPEC)
