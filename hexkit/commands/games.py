"""``hexkit games``: the installed games, as a table or JSON."""

from __future__ import annotations

import argparse

from hexkit import plugins


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    reg = plugins.registry()
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
    if args.json:
        import json

        print(json.dumps(rows, indent=2))
        return 0
    if not rows:
        print("no games installed")
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        origin = f"{r['plugin']} {r['version']}".strip()
        print(f"{r['name']:<{width}}  {r['description']}  [{origin}]")
    return 0
