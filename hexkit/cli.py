"""The ``hexkit`` command line. Sub-commands come from plugins (the core's own too)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from hexkit import plugins
from hexkit.errors import HexkitError

PROG = "hexkit"


def _print_problems(registry: plugins.Registry) -> None:
    for problem in registry.problems:
        print(f"{PROG}: warning: {problem}", file=sys.stderr)


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
