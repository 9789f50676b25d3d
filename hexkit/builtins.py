"""hexkit's own services, registered through the same hooks as any plugin."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots import RANDOM
from hexkit.hookspecs import hookimpl


@hookimpl
def hexkit_register_bots(register: Callable[[Any], None]) -> None:
    register(RANDOM)


@hookimpl
def hexkit_register_commands(register: Callable[[Any], None]) -> None:
    from hexkit import cli

    for command in cli.CORE_COMMANDS:
        register(command)
