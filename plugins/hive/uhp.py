"""``hexkit uhp``: hexkit's Hive as a Universal Hive Protocol engine (spec §7) on standard
input and output, for Hive GUIs (MzingaViewer), arenas (uhp-utils) and other programs.

One command per line; every answer ends with ``ok``. An illegal or unreadable move answers
``invalidmove <message>``, any other problem ``err <message>``; bad input (unknown
commands, malformed arguments, bytes that are not UTF-8) never stops the engine, and a
refused command leaves the game exactly as it was.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

from hexkit.errors import HexkitError

ENGINE_NAME = "hexkit-hive"
#: What ``info`` says the engine supports.
CAPABILITIES = "Mosquito;Ladybug;Pillbug"


class UhpCommandError(Exception):
    """A command that cannot be carried out: answered ``err <message>``."""


class UhpInvalidMove(Exception):
    """A move that cannot be read or is not legal: answered ``invalidmove <message>``."""


@dataclass
class EngineOption:
    """One ``options`` entry: ``NAME;type;value;default[;allowed values]``."""

    name: str
    kind: str  # bool, int, double or enum, as UHP writes them
    default: Any
    low: Any = None
    high: Any = None
    help: str = ""

    def parse(self, text: str) -> Any:
        """The value ``text`` gives this option (UhpCommandError if it does not fit)."""
        text = text.strip()
        if self.kind == "bool":
            lowered = text.lower()
            if lowered in ("true", "1", "yes", "on"):
                return True
            if lowered in ("false", "0", "no", "off"):
                return False
            raise UhpCommandError(f"option {self.name} is True or False, not {text!r}")
        try:
            value = int(text) if self.kind == "int" else float(text)
        except ValueError:
            wanted = "an integer" if self.kind == "int" else "a number"
            raise UhpCommandError(f"option {self.name} needs {wanted}, not {text!r}") from None
        if not self.low <= value <= self.high:
            raise UhpCommandError(f"option {self.name}: {text} is outside "
                                  f"{self.low}..{self.high}")
        return value

    def line(self, value: Any) -> str:
        """The option's ``options`` line with its current value."""
        fields = [self.name, self.kind, _fmt(value), _fmt(self.default)]
        if self.kind != "bool":
            fields += [_fmt(self.low), _fmt(self.high)]
        return ";".join(fields)


def _fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


#: The engine's options. ``MaxTime`` and ``MaxDepth`` bound a plain ``bestmove``.
OPTIONS: tuple[EngineOption, ...] = (
    EngineOption("MaxTime", "double", 1.0, 0.01, 3600.0,
                 "seconds a plain 'bestmove' may think"),
    EngineOption("MaxDepth", "int", 0, 0, 64,
                 "deepest search of a plain 'bestmove' (0: no limit, MaxTime decides)"),
    EngineOption("RepetitionDraw", "bool", False,
                 help="threefold repetition is a draw (tournament rule; Mzinga: no)"),
)


def _option_key(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def parse_clock(text: str) -> float:
    """Seconds of an ``hh:mm:ss`` time (UhpCommandError if malformed)."""
    parts = text.strip().split(":")
    try:
        if len(parts) != 3:
            raise ValueError
        hours, minutes, seconds = int(parts[0]), int(parts[1]), float(parts[2])
        if hours < 0 or not 0 <= minutes < 60 or not 0 <= seconds < 60:
            raise ValueError
    except ValueError:
        raise UhpCommandError(f"bestmove time needs hh:mm:ss, not {text.strip()!r}") from None
    return hours * 3600 + minutes * 60 + seconds


class UhpSession:
    """The engine's state between commands: the game in progress and the options.

    :meth:`handle` answers one command line with the lines to print (``ok`` included)."""

    def __init__(self) -> None:
        self._bot_instance: Any = None
        self.options: dict[str, Any] = {o.name: o.default for o in OPTIONS}
        self.state: Any = None
        self.exit_requested = False

    # -- the protocol ----------------------------------------------------------------
    def greeting(self) -> list[str]:
        """What the engine prints at start-up: its ``info`` answer."""
        return self.handle("info")

    def handle(self, line: str) -> list[str]:
        """The answer to one command line, ``ok`` last (nothing for a blank line)."""
        words = line.strip().split(None, 1)
        if not words:
            return []
        command, rest = words[0].lower(), (words[1].strip() if len(words) > 1 else "")
        handler = self._COMMANDS.get(command)
        try:
            if handler is None:
                raise UhpCommandError(f"unknown command {words[0]!r} (commands: "
                                      f"{', '.join(self._COMMANDS)})")
            answer = list(handler(self, rest))
        except UhpInvalidMove as e:
            answer = [f"invalidmove {_one_line(e)}"]
        except (UhpCommandError, HexkitError, ValueError) as e:
            answer = [f"err {_one_line(e)}"]
        except Exception as e:  # a bug must not end a GUI's session: say it and go on
            answer = [f"err internal error ({type(e).__name__}): {_one_line(e)}"]
        return [*answer, "ok"]

    def _info(self, rest: str) -> list[str]:
        from hexkit import __version__

        return [f"id {ENGINE_NAME} v{__version__}", CAPABILITIES]

    def _newgame(self, rest: str) -> list[str]:
        from hive.notation import split_game_string

        parts = split_game_string(rest or "Base")
        self.state = self._replayed(parts.expansions, parts.moves, parts.state, parts.turn)
        return [self.game_string()]

    def _replayed(self, expansions: str, moves: Any, game_state: str | None = None,
                  turn: str | None = None) -> Any:
        """A new game with ``moves`` pushed one by one (so that ``undo`` can take each
        back), checked against the GameString's stated game state and turn."""
        state = self._game(expansions).new_state(seed=0)
        for number, text in enumerate(moves, 1):
            try:
                self._push(state, text)
            except UhpInvalidMove as e:
                raise UhpCommandError(f"move {number} of the GameString: {e}") from None
        head = state.game_string().split(";")[1:3]
        if game_state is not None and [game_state, turn] != head:
            raise UhpCommandError(f"the GameString says {game_state};{turn} but its moves "
                                  f"give {';'.join(head)}")
        return state

    def _game(self, expansions: str) -> Any:
        """The Hive game of these expansion letters with the engine's options."""
        import hexkit

        return hexkit.load_game("hive", expansions=expansions or "none",
                                repetition_draw=self.options["RepetitionDraw"])

    @staticmethod
    def _push(state: Any, text: str) -> None:
        """Play ``text`` on ``state`` (UhpInvalidMove, state unchanged, if refused)."""
        if state.is_over():
            raise UhpInvalidMove("the game is over")
        try:
            state.push(state.parse_move(text))
        except ValueError as e:
            raise UhpInvalidMove(f"{text!r}: {e}") from None

    def _need_game(self) -> Any:
        if self.state is None:
            raise UhpCommandError("no game in progress: try 'newgame' first")
        return self.state

    def _need_unfinished(self) -> Any:
        state = self._need_game()
        if state.is_over():
            raise UhpCommandError("the game is over: try 'newgame' or 'undo'")
        return state

    def _play(self, rest: str) -> list[str]:
        state = self._need_unfinished()
        if not rest:
            raise UhpInvalidMove("play needs a MoveString, e.g. 'play wS1'")
        self._push(state, rest)
        return [self.game_string()]

    def _pass(self, rest: str) -> list[str]:
        if rest:
            raise UhpCommandError("pass takes no argument")
        return self._play("pass")

    def _validmoves(self, rest: str) -> list[str]:
        state = self._need_unfinished()
        return [";".join(str(m) for m in state.legal_moves())]

    def _bestmove(self, rest: str) -> list[str]:
        state = self._need_unfinished()
        words = rest.split()
        seconds: float | None = None
        depth: int | None = None
        if not words:
            seconds = float(self.options["MaxTime"])
            depth = int(self.options["MaxDepth"]) or None
        elif len(words) == 2 and words[0].lower() == "depth":
            if not _digits(words[1]) or not 1 <= int(words[1]) <= 64:
                raise UhpCommandError(f"bestmove depth needs a whole number 1..64, "
                                      f"not {words[1]!r}")
            depth = int(words[1])
        elif len(words) == 2 and words[0].lower() == "time":
            seconds = parse_clock(words[1])
        else:
            raise UhpCommandError("bestmove, bestmove depth N or bestmove time hh:mm:ss")
        move = self._bot().best_move(state, seconds=seconds, depth=depth)
        return [str(move)]

    def _bot(self) -> Any:
        if self._bot_instance is None:
            from .bot import HiveBot

            self._bot_instance = HiveBot()
        return self._bot_instance

    def _undo(self, rest: str) -> list[str]:
        state = self._need_game()
        if rest and not _digits(rest):
            raise UhpCommandError(f"undo takes a number of moves, not {rest!r}")
        count = int(rest) if rest else 1
        if not 1 <= count <= len(state.move_stack):
            raise UhpCommandError(f"cannot undo {count} moves: {len(state.move_stack)} "
                                  f"{'was' if len(state.move_stack) == 1 else 'were'} played")
        for _ in range(count):
            state.pop()
        return [self.game_string()]

    def _options(self, rest: str) -> list[str]:
        words = rest.split()
        if not words:
            return [o.line(self.options[o.name]) for o in OPTIONS]
        verb = words[0].lower()
        if verb not in ("get", "set") or (verb == "get" and len(words) != 2) or (
                verb == "set" and len(words) != 3):
            raise UhpCommandError("options, options get NAME or options set NAME VALUE")
        by_key = {_option_key(o.name): o for o in OPTIONS}
        option = by_key.get(_option_key(words[1]))
        if option is None:
            raise UhpCommandError(f"unknown option {words[1]!r} (options: "
                                  f"{', '.join(o.name for o in OPTIONS)})")
        if verb == "set":
            value = option.parse(words[2])
            if option.name == "RepetitionDraw" and self.state is not None and \
                    value != self.options[option.name]:
                # The game in progress is replayed under the new rule (refused, with the
                # option unchanged, if that would contradict the moves already played).
                old = self.options[option.name]
                self.options[option.name] = value
                try:
                    self.state = self._replayed(self.state.game.expansions,
                                                self.state.move_strings)
                except BaseException:
                    self.options[option.name] = old
                    raise
            self.options[option.name] = value
        return [option.line(self.options[option.name])]

    def _perft(self, rest: str) -> list[str]:
        from hexkit.perft import perft

        state = self._need_game()
        if not _digits(rest):
            raise UhpCommandError(f"perft needs a depth 0..20, not {rest!r}")
        depth = int(rest)
        if depth > 20:
            raise UhpCommandError(f"perft depth {depth} is beyond 20")
        return [f"perft({d}) = {perft(state, d)}" for d in range(depth + 1)]

    def _exit(self, rest: str) -> list[str]:
        self.exit_requested = True
        return []

    def game_string(self) -> str:
        """The current GameString."""
        return str(self._need_game().game_string())

    _COMMANDS: dict[str, Callable[[UhpSession, str], list[str]]] = {
        "info": _info, "newgame": _newgame, "play": _play, "pass": _pass,
        "validmoves": _validmoves, "bestmove": _bestmove, "undo": _undo,
        "options": _options, "perft": _perft, "exit": _exit,
    }


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def serve(stdin: BinaryIO, stdout: TextIO, session: UhpSession | None = None) -> int:
    """Run the engine on byte input until ``exit`` or end of input."""
    session = session or UhpSession()
    _write(stdout, session.greeting())
    for raw in stdin:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            _write(stdout, [f"err the command is not UTF-8 text (byte {e.start + 1})", "ok"])
            continue
        if "\x00" in line:
            _write(stdout, ["err the command holds a NUL character", "ok"])
            continue
        _write(stdout, session.handle(line))
        if session.exit_requested:
            break
    return 0


def _write(stdout: TextIO, lines: list[str]) -> None:
    if lines:
        stdout.write("".join(f"{line}\n" for line in lines))
        stdout.flush()


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit uhp`` (none: everything is said through the protocol)."""
    parser.epilog = (
        "Commands, one a line on standard input: info; newgame [GameType | GameString]; "
        "play MoveString; pass; validmoves; bestmove [depth N | time hh:mm:ss]; undo [N]; "
        "options [get NAME | set NAME VALUE]; perft N; exit. Every answer ends with 'ok'. "
        "See docs/hive-uhp.md.")


def run(args: argparse.Namespace) -> int:
    """``hexkit uhp``: the engine on this process's standard input and output."""
    stdout = sys.stdout
    try:
        stdout.reconfigure(line_buffering=False)  # type: ignore[union-attr]
    except (AttributeError, ValueError):
        pass
    try:
        return serve(sys.stdin.buffer, stdout)
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def _digits(text: str) -> bool:
    """ASCII digits only (``²`` is a digit to ``str.isdigit`` but not to ``int``), and few
    enough to read."""
    return text.isascii() and text.isdigit() and len(text) <= 9
