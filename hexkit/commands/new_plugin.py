"""``hexkit new-plugin NAME``: write a ready-to-install game plugin package (see
:mod:`hexkit.scaffold`)."""

from __future__ import annotations

import argparse
from pathlib import Path

from hexkit.scaffold import write_plugin


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit new-plugin``."""
    parser.add_argument("name", help="the game's name and Python package name (e.g. trio)")
    parser.add_argument("--dir", default=".", metavar="DIR",
                        help="where to create the package folder (default: here)")


def run(args: argparse.Namespace) -> int:
    """Write the package and say what to do next."""
    target = write_plugin(args.name, Path(args.dir))
    print(f"Wrote the plugin package {target}/ (game '{args.name}').")
    print("Next:")
    print(f"  pip install -e {target}        # the game appears in 'hexkit games'")
    print(f"  cd {target} && pytest          # check_game and the rule tests")
    print(f"  hexkit play {args.name} --p2 mcts")
    print(f"  hexkit check {target}/scenarios")
    return 0


