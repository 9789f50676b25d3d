"""hexkit's command line commands: one module per command, registered like any plugin's.

A plugin adds a command through ``hexkit_register_commands`` with a :class:`Command`; the
core's own commands are listed in :data:`BUILTIN` and registered by :mod:`hexkit.builtins`
the same way. Each command module has ``configure(parser)`` and ``run(args)`` and is
imported only when its command is used (``hexkit --help`` stays fast).
"""

from __future__ import annotations

import argparse
import importlib
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


def lazy_command(name: str, help_text: str, module: str) -> Command:
    """A command whose ``configure`` and ``run`` live in ``module``, imported on use."""

    def configure(parser: argparse.ArgumentParser) -> None:
        importlib.import_module(module).configure(parser)

    def run(args: argparse.Namespace) -> int:
        return int(importlib.import_module(module).run(args) or 0)

    return Command(name, help_text, configure, run)


#: The core's commands: (name, help, module with ``configure`` and ``run``).
BUILTIN: tuple[tuple[str, str, str], ...] = (
    ("games", "list the installed games", "hexkit.commands.games"),
    ("plugins", "list the loaded plugins and any broken ones", "hexkit.commands.plugins"),
    ("rules", "show a game's rules summary and options", "hexkit.commands.rules"),
    ("play", "play a game at the terminal (humans and bots)", "hexkit.commands.play"),
    ("replay", "replay a saved game move by move, re-checking every move",
     "hexkit.commands.replay"),
    ("render", "draw a saved game's position as an SVG picture", "hexkit.commands.render"),
    ("match", "play bots against each other and count wins, draws and losses",
     "hexkit.commands.match"),
    ("tournament", "bots play a round-robin or gauntlet; results in a database, ratings",
     "hexkit.commands.tournament"),
    ("check", "run scenario files (moves with expected results, facts about the state)",
     "hexkit.commands.check"),
    ("grade", "grade students' submissions against a reference game: scores, counterexamples, "
     "Gradescope results", "hexkit.commands.grade"),
    ("perft", "count a game's leaf positions to each depth (move generator test and speed)",
     "hexkit.commands.perft"),
    ("new-plugin", "write a ready-to-install game plugin package to start from",
     "hexkit.commands.new_plugin"),
    ("serve", "play any game in the browser: two players, bots, spectators (web extra)",
     "hexkit.commands.serve"),
    ("users", "the accounts of a hexkit serve server: add, import a roster, list, remove",
     "hexkit.commands.users"),
)
