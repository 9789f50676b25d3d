"""``hexkit games``: the installed games, as a table or JSON."""

from __future__ import annotations

import argparse

from hexkit import plugins


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def game_lines(registry: plugins.Registry) -> list[str]:
    """One line per installed game: name, description, plugin and version."""
    specs = sorted(registry.games.values(), key=lambda s: s.name)
    if not specs:
        return ["no games installed"]
    width = max(len(s.name) for s in specs)
    lines = []
    for spec in specs:
        origin = f"{spec.plugin} {spec.plugin_version or spec.version}".strip()
        lines.append(f"{spec.name:<{width}}  {spec.description}  [{origin}]")
    return lines


def run(args: argparse.Namespace) -> int:
    reg = plugins.registry()
    if args.json:
        import json

        rows = [
            {
                "name": spec.name,
                "description": spec.description,
                "plugin": spec.plugin,
                "version": spec.plugin_version or spec.version,
                "players": [spec.min_players, spec.max_players],
                "options": {o.name: o.default for o in spec.options},
            }
            for spec in sorted(reg.games.values(), key=lambda s: s.name)
        ]
        print(json.dumps(rows, indent=2))
        return 0
    for line in game_lines(reg):
        print(line)
    return 0
