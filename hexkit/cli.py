"""The ``hexkit`` command line. Sub-commands come from plugins (the core's own too).

Start-up is kept small: only the command being run has its arguments configured (and so
its module imported); ``hexkit --version`` loads no plugin at all.
"""

from __future__ import annotations

import os
import sys

from hexkit import __version__

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import argparse
    import typing
    from collections.abc import Iterable, Sequence

    from hexkit import plugins

PROG = "hexkit"


def _print_problems(registry: plugins.Registry) -> None:
    for problem in registry.problems:
        print(f"{PROG}: warning: {problem}", file=sys.stderr)


def version_text() -> str:
    """``hexkit 0.1.0 (Python 3.11.7)``."""
    python = ".".join(str(n) for n in sys.version_info[:3])
    return f"{PROG} {__version__} (Python {python})"


# -- entry point ---------------------------------------------------------------------------
def build_parser(registry: plugins.Registry,
                 only: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The argument parser of the registered sub-commands.

    ``only`` names the commands to add with their own arguments (default: every command);
    an empty ``only`` lists every command bare, for ``hexkit --help``. Commands left out
    or bare keep their modules unimported.
    """

    from hexkit import plugins

    formatter = _help_formatter()
    parser = _parser_class()(
        prog=PROG, formatter_class=formatter,
        description="Turn-based board games on hex and square boards; every game is a plugin.",
        epilog="Run 'hexkit COMMAND --help' for a command's options.",
    )
    parser.add_argument("--version", action="version", version=version_text())
    parser.add_argument(
        "--plugins-dir", action="append", default=[], metavar="DIR",
        help=f"also load plugin .py files from DIR (repeatable; also ${plugins.PLUGINS_DIR_ENV})",
    )
    wanted = None if only is None else set(only)
    # prog given: argparse would otherwise measure the terminal (importing shutil) for it.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog=PROG)
    for name in sorted(registry.commands):
        if wanted and name not in wanted:
            continue
        command = registry.commands[name]
        cmd_parser = sub.add_parser(name, help=command.help, description=command.help,
                                    formatter_class=formatter)
        if wanted is None or name in wanted:
            _configure(command, name, cmd_parser, strict=wanted is not None)
        cmd_parser.set_defaults(_command=command)
    return parser


def _configure(command: object, name: str, parser: argparse.ArgumentParser,
               strict: bool) -> None:
    """A command's argument set-up; a plugin's that raises or clashes (argparse's
    "conflicting option string") is a broken plugin: PluginError when that command is
    run, a warning when every command is being set up."""
    from hexkit.errors import PluginError

    try:
        command.configure(parser)  # type: ignore[attr-defined]
    except (Exception, SystemExit) as exc:
        owner = getattr(command, "plugin", "") or "?"
        problem = (f"plugin {owner}: command {name!r} cannot set up its arguments: "
                   f"{type(exc).__name__}: {exc}")
        if strict:
            raise PluginError(problem) from None
        print(f"{PROG}: warning: {problem}", file=sys.stderr)


def ascii_int(text: str) -> int:
    """An integer argument written in ASCII digits (``²`` and ``٣`` are digits to Python's
    ``int``, not to hexkit)."""
    body = text.strip()
    digits = body[1:] if body[:1] in "+-" else body
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 30:
        raise ValueError(text)
    return int(body)


def ascii_float(text: str) -> float:
    """A number argument written in ASCII (no other scripts' digits)."""
    if not text.isascii():
        raise ValueError(text)
    return float(text)


ascii_int.__name__ = "int"  # argparse names the type in its message: "invalid int value"
ascii_float.__name__ = "float"


def _parser_class() -> type[argparse.ArgumentParser]:
    """argparse's parser, with argument errors in one line (``hexkit play: error: argument
    --seed: invalid int value: 'abc'``, no usage block) and numbers in ASCII digits only."""
    import argparse

    class Parser(argparse.ArgumentParser):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            self.register("type", int, ascii_int)
            self.register("type", float, ascii_float)

        def error(self, message: str) -> typing.NoReturn:
            line = " ".join(message.split())
            self.exit(2, f"{self.prog}: error: {line} (see {self.prog} --help)\n")

    return Parser


def _help_formatter() -> type[argparse.HelpFormatter]:
    """argparse's help formatter, measuring the terminal without importing shutil (which
    argparse does for every argument added, and which costs more than all the rest)."""
    import argparse

    from hexkit.terminal.console import terminal_columns

    class HelpFormatter(argparse.HelpFormatter):
        def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                     width: int | None = None) -> None:
            if width is None:
                width = terminal_columns() - 2
            super().__init__(prog, indent_increment, max_help_position, width)

    return HelpFormatter


def _scan(argv: Sequence[str]) -> tuple[list[str], str | None, bool]:
    """The global options before the command: plugin folders (needed before parsing, as
    plugins may add commands), the command word, and whether ``--version`` was asked."""
    dirs: list[str] = []
    version = False
    it = iter(argv)
    for arg in it:
        if arg == "--plugins-dir":
            value = next(it, None)
            if value is not None:
                dirs.append(value)
        elif arg.startswith("--plugins-dir="):
            dirs.append(arg.split("=", 1)[1])
        elif arg == "--version":
            version = True
        elif not arg.startswith("-"):
            return dirs, arg, version
    return dirs, None, version


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv)
    _tolerant_streams()
    dirs, word, version = _scan(argv)
    if version:
        print(version_text())
        return 0
    from hexkit import plugins
    from hexkit.errors import HexkitError

    try:
        plugins.configure(dirs)
        registry = plugins.registry()
        _print_problems(registry)
        if word is not None and word not in registry.commands:
            print(f"{PROG}: error: {plugins.unknown_message('command', word, registry.commands)}"
                  f" (run '{PROG} --help' for the list)", file=sys.stderr)
            return 2
        parser = build_parser(registry, only=[word] if word else [])
        args = parser.parse_args(argv)
        if not getattr(args, "_command", None):
            parser.print_help()
            return 2
        return int(args._command.run(args) or 0)
    except HexkitError as exc:
        for line in str(exc).splitlines() or [type(exc).__name__]:
            print(f"{PROG}: error: {line}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return _reader_went_away()
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


def _tolerant_streams() -> None:
    """Text the terminal cannot encode (``PYTHONIOENCODING=ascii``, a Latin-1 console) is
    written escaped (``caf\\xe9``) instead of ending the program, and bytes it cannot
    decode are read as replacement characters."""
    for stream, errors in ((sys.stdout, "backslashreplace"), (sys.stderr, "backslashreplace"),
                           (sys.stdin, "replace")):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", "") == "strict":
            try:
                reconfigure(errors=errors)
            except (ValueError, OSError):
                pass


#: Exit status of a program whose reader closed the pipe (128 + SIGPIPE), as ``seq | head``.
EXIT_BROKEN_PIPE = 141


def _reader_went_away() -> int:
    """The reader of standard output stopped reading (``hexkit replay g.json | head``):
    stop quietly, as Unix programs do. Standard output is pointed at the null device so
    that the interpreter's final flush of what is still buffered cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return EXIT_BROKEN_PIPE
