"""The ``hexkit`` command line. Sub-commands come from plugins (the core's own too)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence

from hexkit import plugins
from hexkit.commands import Command
from hexkit.errors import HexkitError

PROG = "hexkit"


def _print_problems(registry: plugins.Registry) -> None:
    for problem in registry.problems:
        print(f"{PROG}: warning: {problem}", file=sys.stderr)


# -- core commands --------------------------------------------------------------------------
def _games_configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _games_run(args: argparse.Namespace) -> int:
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


def _plugins_configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _plugins_run(args: argparse.Namespace) -> int:
    reg = plugins.registry()
    rows = [
        {"name": p.name, "source": p.source, "version": p.version, "games": list(p.games)}
        for p in reg.plugins
    ]
    problems = [{"plugin": p.plugin, "problem": p.message} for p in reg.problems]
    if args.json:
        print(json.dumps({"plugins": rows, "problems": problems}, indent=2))
        return 0
    for r in rows:
        games = f"  games: {', '.join(r['games'])}" if r["games"] else ""
        version = f" {r['version']}" if r["version"] else ""
        print(f"{r['name']}{version}  ({r['source']}){games}")
    for p in problems:
        print(f"BROKEN {p['plugin']}: {p['problem']}")
    return 0


def _rules_configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help="game name, e.g. hexbaron")


def _rules_run(args: argparse.Namespace) -> int:
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


def _play_configure(p: argparse.ArgumentParser) -> None:
    from hexkit.play import configure

    configure(p)


def _play_run(args: argparse.Namespace) -> int:
    from hexkit.play import run

    return run(args)


CORE_COMMANDS: tuple[Command, ...] = (
    Command("games", "list the installed games", _games_configure, _games_run),
    Command("plugins", "list the loaded plugins and any broken ones", _plugins_configure,
            _plugins_run),
    Command("rules", "show a game's rules summary and options", _rules_configure, _rules_run),
    Command("play", "play a game at the terminal (humans and bots)", _play_configure, _play_run),
)


# -- entry point ---------------------------------------------------------------------------
def build_parser(registry: plugins.Registry) -> argparse.ArgumentParser:
    """The argument parser with every registered sub-command."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Turn-based board games on hex and square boards; every game is a plugin.",
        epilog="Run 'hexkit COMMAND --help' for a command's options.",
    )
    parser.add_argument(
        "--plugins-dir", action="append", default=[], metavar="DIR",
        help=f"also load plugin .py files from DIR (repeatable; also ${plugins.PLUGINS_DIR_ENV})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in sorted(registry.commands):
        command = registry.commands[name]
        cmd_parser = sub.add_parser(name, help=command.help, description=command.help)
        command.configure(cmd_parser)
        cmd_parser.set_defaults(_command=command)
    return parser


def _pre_parse_plugin_dirs(argv: Sequence[str]) -> list[str]:
    dirs = []
    it = iter(argv)
    for arg in it:
        if arg == "--plugins-dir":
            value = next(it, None)
            if value is not None:
                dirs.append(value)
        elif arg.startswith("--plugins-dir="):
            dirs.append(arg.split("=", 1)[1])
        elif not arg.startswith("-"):
            break
    return dirs


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        # Plugin folders must be known before parsing: they may add sub-commands.
        plugins.configure(_pre_parse_plugin_dirs(argv))
        registry = plugins.registry()
        _print_problems(registry)
        parser = build_parser(registry)
        args = parser.parse_args(argv)
        if not getattr(args, "_command", None):
            parser.print_help()
            return 2
        return int(args._command.run(args) or 0)
    except HexkitError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            print(f"{PROG}: error: {line}", file=sys.stderr)
        return 1
    except OSError as exc:
        where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"{PROG}: error: {where}{exc.strerror or exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    except Exception as exc:
        # A bug in a plugin (or in hexkit) still gets one line; the traceback is opt-in.
        if os.environ.get("HEXKIT_DEBUG"):
            raise
        print(
            f"{PROG}: error: unexpected {type(exc).__name__}: {exc} "
            "(set HEXKIT_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        return 1
