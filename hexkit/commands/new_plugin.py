"""``hexkit new-plugin NAME``: write a ready-to-install game plugin package (see
:mod:`hexkit.tools.scaffold`)."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path

from hexkit.tools.scaffold import write_plugin


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit new-plugin``."""
    parser.add_argument("name", help="the game's name and Python package name (e.g. trio)")
    parser.add_argument("--dir", default=".", metavar="DIR",
                        help="where to create the package folder (default: here)")


def run(args: argparse.Namespace) -> int:
    """Write the package and say what to do next."""
    target = write_plugin(args.name, Path(args.dir))
    name = args.name
    folder = shlex.quote(str(target))
    print(f"Wrote the plugin package {target}/ (game '{name}').")
    print("Next, in this order (from here):")
    steps = [
        (f"pip install -e {folder}", "the game appears in 'hexkit games'"),
        (f"hexkit play {name} --p2 mcts", "play it at the terminal against the MCTS bot"),
        ("hexkit serve", "then click to play at http://127.0.0.1:8000; Ctrl-C stops"),
        (f"hexkit check {shlex.quote(str(target / 'scenarios'))}", "its scenario file"),
        (f"cd {folder} && pytest", "check_game and the rule tests"),
    ]
    width = max(len(command) for command, _ in steps)
    for command, what in steps:
        print(f"  {command:<{width}}  # {what}")
    return 0
