"""``hexkit plugins``: the loaded plugins and any broken ones."""

from __future__ import annotations

import argparse

from hexkit import plugins


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def run(args: argparse.Namespace) -> int:
    reg = plugins.registry()
    rows = [
        {"name": p.name, "source": p.source, "version": p.version, "games": list(p.games)}
        for p in reg.plugins
    ]
    problems = [{"plugin": p.plugin, "problem": p.message} for p in reg.problems]
    if args.json:
        import json

        print(json.dumps({"plugins": rows, "problems": problems}, indent=2))
        return 0
    for r in rows:
        games = f"  games: {', '.join(r['games'])}" if r["games"] else ""
        version = f" {r['version']}" if r["version"] else ""
        print(f"{r['name']}{version}  ({r['source']}){games}")
    for p in problems:
        print(f"BROKEN {p['plugin']}: {p['problem']}")
    return 0
