"""CLI sub-commands as data: plugins register them through ``hexkit_register_commands``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One ``hexkit NAME`` sub-command.

    ``configure(parser)`` adds its arguments; ``run(args)`` does the work and returns the
    exit code. User errors are raised as :class:`~hexkit.errors.HexkitError` (or OSError)
    and printed by the CLI as one line.
    """

    name: str
    help: str
    configure: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
    plugin: str = ""
