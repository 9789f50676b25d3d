"""``hexkit play``: a game at the terminal, between humans and bots, on the text rendering.

This module reads the command line (checking that every option given applies) and sets the
game up; :mod:`hexkit.terminal.session` plays it. The game's code runs under a deadline
(``--time-limit``, a :class:`~hexkit.loading.deadline.Watchdog`): paused while a player types, armed
for the work that follows each line and each bot's move, so that a plugin whose rules loop
ends the command with one line instead of hanging it.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.game import Game, State
from hexkit.loading.deadline import CallTimeout, PluginExit, Watchdog
from hexkit.terminal.console import is_terminal

if TYPE_CHECKING:
    from hexkit.terminal.session import GameFile, PlaySession, Seat

MAX_SEATS = 4

#: Default deadline of the game's code between two lines typed (seconds).
DEFAULT_TIME_LIMIT = 10.0


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit play``."""
    p.add_argument("game", nargs="?", default=None,
                   help="game name, e.g. hexbaron or 'focus(board=cross)' (not with --load); "
                        "without one, the installed games are listed")
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="game option (repeatable); 'hexkit rules GAME' lists them",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the game's randomness")
    for seat in range(1, MAX_SEATS + 1):
        p.add_argument(
            f"--p{seat}", default=None, metavar="WHO",
            help=f"player {seat}: human (default), random, or a bot such as mcts:2000",
        )
    p.add_argument(
        "--save", default=None, metavar="FILE",
        help="save the game record to FILE after every move (replaced atomically); an "
             "existing FILE is refused unless --force",
    )
    p.add_argument("--force", action="store_true",
                   help="with --save: replace FILE if it exists")
    p.add_argument("--no-save", action="store_true",
                   help="do not keep the game (at a terminal, a game without --save is kept "
                        "in ~/.local/share/hexkit/games as it goes, to resume later)")
    p.add_argument(
        "--load", default=None, metavar="FILE",
        help="continue the game saved in FILE (and keep saving to it unless --save is given)",
    )
    p.add_argument(
        "--frontend", default=None, metavar="NAME",
        help="use one of the game's own front-ends instead of hexkit's (hexkit rules GAME "
             "lists them)",
    )
    p.add_argument(
        "--classic", action="store_const", const="classic", dest="frontend",
        help="same as --frontend classic (Hex Baron: the AQA program, byte for byte)",
    )
    p.add_argument(
        "--colour", "--color", choices=("auto", "always", "never"), default=None,
        help="colour the output: auto (default: on a terminal, unless NO_COLOR is set), "
             "always or never; needs the rich library (pip install 'hexkit-games[colour]')",
    )
    p.add_argument(
        "--time-limit", type=float, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
        help="deadline of the game's code after each line typed and for each bot's move "
             "(plus the bot's own time, e.g. hive:time=S; an MCTS bot's progress restarts "
             f"it); default {DEFAULT_TIME_LIMIT:g}, 0: none; not for --frontend",
    )


def load_from_args(args: argparse.Namespace) -> Game:
    """The game named on the command line, with its ``-o`` options."""
    return plugins.load_game(args.game, **plugins.parse_option_pairs(args.option))


def seats_given(args: argparse.Namespace) -> list[int]:
    """The seat numbers (1-based) given with ``--pN``."""
    return [n for n in range(1, MAX_SEATS + 1) if getattr(args, f"p{n}", None) is not None]


def seat_limit_error(game: Game, seats: list[int], count: int) -> OptionError:
    """``focus has 2 seats; --p3 cannot play`` (the words of ``hexkit match``)."""
    extra = ", ".join(f"--p{s}" for s in seats)
    return OptionError(f"{game} has {count} seats; {extra} cannot play")


def run(args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit play`` with parsed arguments."""
    stdin = stdin if stdin is not None else sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if args.force and args.save is None:
        raise OptionError("--force does not apply without --save")
    if args.no_save and (args.save is not None or args.load is not None):
        raise OptionError(f"--no-save does not apply with {'--save' if args.save else '--load'}")
    limit = getattr(args, "time_limit", DEFAULT_TIME_LIMIT)
    if limit < 0:
        raise OptionError("--time-limit must be 0 (none) or more seconds")
    if args.frontend is not None:
        # The game's own front-end talks to the terminal itself: no deadline can tell its
        # waits for the player from its work.
        return _run(args, stdin, stdout, stderr, None)
    with Watchdog(limit, "starting the game") as dog:
        # The session reads lines only (read_line): the wrapper is an IO[str] for it.
        return _run(args, cast(IO[str], _Keyboard(stdin, dog)), stdout, stderr, dog)


def _run(args: argparse.Namespace, stdin: IO[str], stdout: IO[str], stderr: IO[str],
         dog: Watchdog | None) -> int:
    if args.load is not None:
        return _run_loaded(args, stdin, stdout, stderr, dog)
    if args.game is None:
        from hexkit.commands.games import game_lines

        print("Name the game to play: hexkit play GAME (or continue a saved one with "
              "hexkit play --load FILE). The installed games:", file=stdout)
        for line in game_lines(plugins.registry()):
            print(f"  {line}", file=stdout)
        return 2
    game = load_from_args(args)
    if args.frontend is not None:
        return _run_frontend(args, game, stdin, stdout, stderr)
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**31)
    state = game.new_state(seed=args.seed)
    seats = _seats(args, game, len(state.players), [], dog=dog)

    from hexkit.files.records import GameRecord
    from hexkit.terminal.session import GameFile

    record = GameRecord.for_game(game, seed=args.seed, players=[s.spec for s in seats])
    file = GameFile(record, prefix=_global_prefix(args))
    if args.save is not None:
        file.start(args.save, state, force=args.force)  # the file exists from the start
    elif not args.no_save and is_terminal(stdin):
        # A person at a terminal never loses a game by leaving it: it is kept once a move
        # is played. A script feeding the moves saves only what it asks for (--save).
        from hexkit.files.userdirs import kept_games_folder

        file.keep_in = kept_games_folder()
    if is_terminal(stdin) and all(seat.bot is None for seat in seats):
        import shlex

        words = ["hexkit", *_global_prefix(args), "play", args.game]
        for option in args.option:
            words += ["-o", option]
        print(f"All {len(seats)} players are people taking turns at this keyboard; to play "
              f"against a bot: {shlex.join([*words, '--p2', 'mcts'])}", file=stdout)
    return _play(_session(args, game, state, seats, file, stdin, stdout, stderr), stderr)


def _run_frontend(args: argparse.Namespace, game: Game, stdin: IO[str], stdout: IO[str],
                  stderr: IO[str]) -> int:
    """``--frontend NAME``: the game's own front-end takes the terminal."""
    name = args.frontend
    given = seats_given(args)
    if given:
        raise OptionError(f"--p{given[0]} does not apply to --frontend {name} "
                          "(the front-end seats its own players)")
    if args.save is not None or args.no_save:
        flag = "--save" if args.save is not None else "--no-save"
        raise OptionError(f"{flag} does not apply to --frontend {name} "
                          "(use the front-end's own save)")
    if args.colour is not None:
        raise OptionError(f"--colour does not apply to --frontend {name}")
    frontend = game.spec.frontend(name)
    return int(frontend(game, seed=args.seed, stdin=stdin, stdout=stdout, stderr=stderr))


def _seats(args: argparse.Namespace, game: Game, count: int,
           recorded: list[str], notes: list[str] | None = None,
           dog: Watchdog | None = None) -> list[Seat]:
    """Who plays each seat: ``--pN``, else the saved game's player, else a human.

    Only ``--pN`` may name a bot that starts a program: a saved game's player that would
    is played by a person instead, and ``notes`` gets one line saying so. With ``dog``,
    each bot's move runs under the deadline."""
    from hexkit.bots import make_bot, starts_process
    from hexkit.terminal.session import Seat

    beyond = [seat for seat in seats_given(args) if seat > count]
    if beyond:
        raise seat_limit_error(game, beyond, count)
    seats = []
    for i in range(min(count, MAX_SEATS)):
        given = getattr(args, f"p{i + 1}")
        spec = given or (recorded[i] if i < len(recorded) else "") or "human"
        if not given and starts_process(spec):
            if notes is not None:
                notes.append(f"Seat {i + 1} of the saved game was an external program "
                             f"({spec.partition(':')[0]}); a person plays it now (a program "
                             f"starts only from your command line: --p{i + 1} ...).")
            spec = "human"
        bot = make_bot(game, spec, (args.seed or 0) + 1000 * (i + 1), from_operator=True)
        seats.append(Seat(spec, _WatchedBot(bot, spec, dog) if bot and dog else bot))
    return seats


def _global_prefix(args: argparse.Namespace) -> list[str]:
    """The ``hexkit`` options before ``play`` needed to find the game again."""
    prefix: list[str] = []
    for folder in getattr(args, "plugins_dir", None) or ():
        prefix += ["--plugins-dir", folder]
    return prefix


def _session(args: argparse.Namespace, game: Game, state: State, seats: list[Seat],
             file: GameFile, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> PlaySession:
    from hexkit.terminal.console import Console, want_colour
    from hexkit.terminal.session import PlaySession

    console = Console(stdout, colour=want_colour(stdout, args.colour or "auto"))
    return PlaySession(game, state, seats, stdin, console, file, stderr)


def _run_loaded(args: argparse.Namespace, stdin: IO[str], stdout: IO[str],
                stderr: IO[str], dog: Watchdog | None) -> int:
    """``hexkit play --load FILE``: replay the record (re-checking it) and play on."""
    from hexkit.files.records import load_record, replay
    from hexkit.terminal.session import GameFile, same_file

    if args.frontend is not None:
        raise OptionError(f"--load does not apply to --frontend {args.frontend} "
                          "(use the front-end's own load)")
    if args.option or args.seed is not None:
        raise OptionError("--load takes the game's options and seed from the saved game")
    record = load_record(args.load)
    if args.game is not None and plugins.parse_game_string(args.game)[0] != record.name:
        raise OptionError(f"{args.load} holds a game of {record.name}, not {args.game}")
    game = record.load_game()
    state = replay(record, game=game)
    args.seed = record.seed
    notes: list[str] = []
    seats = _seats(args, game, len(state.players), record.players, notes, dog)
    for note in notes:
        print(note, file=stdout)
    record.players = [s.spec for s in seats]
    file = GameFile(record, prefix=_global_prefix(args))
    if args.save is not None and not same_file(args.save, args.load):
        file.start(args.save, state, force=args.force)
    else:
        file.path = args.load
        file.write(state)
    print(f"Loaded {game} after {len(record.moves)} moves from {args.load}.", file=stdout)
    return _play(_session(args, game, state, seats, file, stdin, stdout, stderr), stderr)


def _play(session: PlaySession, stderr: IO[str]) -> int:
    """Play the session; the game's code running out of time (or trying to end the
    process) ends it with one line, the game saved as it was before (the file is written
    after each move, never after a move that did not finish)."""
    try:
        return session.loop()
    except (CallTimeout, PluginExit) as exc:
        print(f"hexkit: error: {exc}", file=stderr)
        if session.file.path is not None:
            print(f"hexkit: the game is saved in {session.file.path} as it was before that; "
                  f"resume it with: {session.file.resume_command()}", file=stderr)
        return 1


class _Keyboard:
    """The player's input, read with the deadline paused; the work that follows a line is
    armed under its name."""

    def __init__(self, stream: Any, dog: Watchdog):
        self._stream = stream
        self._dog = dog
        inner = getattr(stream, "buffer", None)
        if inner is not None:
            self.buffer = _Keyboard(inner, dog)

    def readline(self, *size: int) -> Any:
        with self._dog.paused():
            line = self._stream.readline(*size)
        text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
        self._dog.arm(f"after {text.strip()[:60]!r}" if text.strip() else "after a blank line")
        return line

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _WatchedBot:
    """A bot whose move is armed under its name, with its own time budget added (a bot
    with ``seconds``); each progress report restarts the deadline."""

    def __init__(self, bot: Any, spec: str, dog: Watchdog):
        self.__dict__.update(_bot=bot, _spec=spec, _dog=dog)

    def choose(self, state: State) -> Any:
        budget = getattr(self._bot, "seconds", None)
        extra = float(budget) if isinstance(budget, (int, float)) else 0.0
        self._dog.arm(f"{self._spec}'s move", extra)
        move = self._bot.choose(state)
        self._dog.arm(f"{self._spec}'s move {str(move)[:60]!r}")
        return move

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "progress" and value is not None:
            value = self._restarting(value)
        setattr(self._bot, name, value)

    def _restarting(self, report: Callable[..., Any]) -> Callable[..., Any]:
        def reported(*args: Any) -> Any:
            self._dog.restart()
            return report(*args)

        return reported
