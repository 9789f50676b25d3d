"""``hexkit rules``: a game's rules summary and its options."""

from __future__ import annotations

import argparse

from hexkit import plugins


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game name, e.g. hexbaron")


def run(args: argparse.Namespace) -> int:
    spec = plugins.registry().game_spec(plugins.parse_game_string(args.game)[0])
    print(f"{spec.name}: {spec.description}")
    print()
    print(spec.rules.strip() or "(this game's plugin provides no rules summary)")
    if spec.options:
        print()
        print("Options (-o key=value):")
        for o in spec.options:
            choices = f" [{'|'.join(str(c) for c in o.choices)}]" if o.choices else ""
            default = "auto" if o.default is None else o.default
            print(f"  {o.name}={default}{choices}  {o.help}")
    return 0
