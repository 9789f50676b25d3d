"""``hexkit uhp``: hexkit's Hive as a Universal Hive Protocol engine (spec §7) on standard
input and output, for Hive GUIs (MzingaViewer), arenas (uhp-utils) and other programs.

One command per line; every answer ends with ``ok``. An illegal or unreadable move answers
``invalidmove <message>``, any other problem ``err <message>``, in the words of Mzinga (the
protocol's reference engine) where it has words for the case; bad input (unknown commands,
malformed arguments, bytes that are not UTF-8) never stops the engine, and a refused command
leaves the game exactly as it was.

Moves are read as Mzinga reads them (:mod:`hive.uhp_moves`): strictly by default (a
separator names a hex at ground level, so a climb names the piece it climbs onto), leniently
with ``hexkit uhp --lenient``. ``newgame GameString`` recomputes the game state and turn
from the moves, and the GameString records each move as it was sent.
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


#: Mzinga's words for the commands' failures (Mzinga.Engine; MzingaCpp's are the same).
NO_GAME = "No game in progress. Try 'newgame' to start a new game."
GAME_OVER = "The game is over. Try 'newgame' to start a new game."


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


def parse_seconds(text: str) -> float:
    """Seconds of ``bestmove seconds S`` (nokamute's sub-second form): 0 < S <= 3600."""
    try:
        if not text.isascii():
            raise ValueError
        seconds = float(text)
        if not 0 < seconds <= 3600:  # also refuses nan
            raise ValueError
    except ValueError:
        raise UhpCommandError(f"bestmove seconds needs a number of seconds (0..3600], not "
                              f"{text.strip()[:40]!r}") from None
    return seconds


class UhpSession:
    """The engine's state between commands: the game in progress and the options.

    :meth:`handle` answers one command line with the lines to print (``ok`` included)."""

    def __init__(self, *, strict: bool = True) -> None:
        self._bot_instance: Any = None
        self.options: dict[str, Any] = {o.name: o.default for o in OPTIONS}
        self.state: Any = None
        #: The MoveStrings of the game in progress as the GameString records them.
        self.moves: list[str] = []
        #: Read moves as Mzinga does (True) or as hexkit's players type them (False).
        self.strict = strict
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
                raise UhpCommandError(f"Invalid command {words[0][:40]!r}. Commands: "
                                      f"{', '.join(self._COMMANDS)}.")
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
        # The stated game state and turn are not checked: like Mzinga, the engine
        # recomputes them from the moves (a repetition-rule engine's Draw loads).
        self.state, self.moves = self._replayed(parts.expansions, parts.moves)
        return [self.game_string()]

    def _replayed(self, expansions: str, moves: Any) -> tuple[Any, list[str]]:
        """A new game with ``moves`` pushed one by one (so that ``undo`` can take each
        back), and the moves as the GameString records them."""
        state = self._game(expansions).new_state(seed=0)
        recorded: list[str] = []
        for number, text in enumerate(moves, 1):
            try:
                recorded.append(self._push(state, text))
            except UhpInvalidMove as e:
                raise UhpCommandError(f"Unable to play {text[:40]!r} in GameString (move "
                                      f"{number}): {e}") from None
        return state, recorded

    def _game(self, expansions: str) -> Any:
        """The Hive game of these expansion letters with the engine's options."""
        import hexkit

        return hexkit.load_game("hive", expansions=expansions or "none",
                                repetition_draw=self.options["RepetitionDraw"])

    def _push(self, state: Any, text: str) -> str:
        """Play ``text`` on ``state`` (UhpInvalidMove, state unchanged, if refused); the
        text the GameString records for it."""
        from hive.notation import move_string

        from .uhp_moves import UhpMoveRefused, read_move

        try:
            read = read_move(state.engine, text, strict=self.strict)
            state.push(move_string(state.engine, read.action))
        except (UhpMoveRefused, ValueError) as e:
            raise UhpInvalidMove(str(e)) from None
        return read.text

    def _need_game(self) -> Any:
        if self.state is None:
            raise UhpCommandError(NO_GAME)
        return self.state

    def _need_unfinished(self) -> Any:
        state = self._need_game()
        if state.is_over():
            raise UhpCommandError(GAME_OVER)
        return state

    def _play(self, rest: str) -> list[str]:
        state = self._need_unfinished()
        if not rest:
            raise UhpInvalidMove("play needs a MoveString, e.g. 'play wS1'")
        self.moves.append(self._push(state, rest))
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
            if seconds <= 0:  # no time at all (an arena's rounding): the quickest search
                seconds, depth = None, 1
        elif len(words) == 2 and words[0].lower() == "seconds":
            seconds = parse_seconds(words[1])
        else:
            raise UhpCommandError("bestmove, bestmove depth N, bestmove time hh:mm:ss[.fff] "
                                  "or bestmove seconds S")
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
            raise UhpCommandError(f"Unable to undo {count} moves: {len(state.move_stack)} "
                                  f"{'was' if len(state.move_stack) == 1 else 'were'} played.")
        for _ in range(count):
            state.pop()
            self.moves.pop()
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
                    self.state, self.moves = self._replayed(self.state.game.expansions,
                                                            self.moves)
                except BaseException:
                    self.options[option.name] = old
                    raise
            self.options[option.name] = value
        return [option.line(self.options[option.name])]

    def _perft(self, rest: str) -> list[str]:
        from hexkit.tools.perft import perft

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
        """The current GameString: the game type, state and turn, then the moves as they
        were sent."""
        head = str(self._need_game().game_string()).split(";")[:3]
        return ";".join(head + self.moves)

    _COMMANDS: dict[str, Callable[[UhpSession, str], list[str]]] = {
        "info": _info, "newgame": _newgame, "play": _play, "pass": _pass,
        "validmoves": _validmoves, "bestmove": _bestmove, "undo": _undo,
        "options": _options, "perft": _perft, "exit": _exit,
    }


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def serve(stdin: BinaryIO, stdout: TextIO, session: UhpSession | None = None, *,
          strict: bool = True) -> int:
    """Run the engine on byte input until ``exit`` or end of input."""
    session = session or UhpSession(strict=strict)
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
    """Arguments of ``hexkit uhp``: ``--lenient``; everything else is said through the
    protocol."""
    parser.add_argument(
        "--lenient", action="store_true",
        help="read moves as hexkit's players type them: a separator may point at an "
             "occupied hex to climb onto it (default: strictly, as Mzinga reads them)")
    parser.epilog = (
        "Commands, one a line on standard input: info; newgame [GameType | GameString]; "
        "play MoveString; pass; validmoves; bestmove [depth N | time hh:mm:ss[.fff] | "
        "seconds S]; undo [N]; options [get NAME | set NAME VALUE]; perft N; exit. Every "
        "answer ends with 'ok'. See docs/hive-uhp.md.")


def run(args: argparse.Namespace) -> int:
    """``hexkit uhp``: the engine on this process's standard input and output."""
    stdout = sys.stdout
    try:
        stdout.reconfigure(line_buffering=False)  # type: ignore[union-attr]
    except (AttributeError, ValueError):
        pass
    try:
        return serve(sys.stdin.buffer, stdout, strict=not getattr(args, "lenient", False))
    except (BrokenPipeError, KeyboardInterrupt):
        return 0


def _digits(text: str) -> bool:
    """ASCII digits only (``²`` is a digit to ``str.isdigit`` but not to ``int``), and few
    enough to read."""
    return text.isascii() and text.isdigit() and len(text) <= 9
