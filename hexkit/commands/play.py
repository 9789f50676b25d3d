"""``hexkit play``: a game at the terminal, between humans and bots, on the text rendering."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from hexkit import plugins
from hexkit.bots import Bot, make_bot
from hexkit.errors import HexkitError, IllegalMoveError, MoveParseError, OptionError
from hexkit.game import Game, State
from hexkit.records import GameRecord, load_record, replay, save_record

MAX_SEATS = 4
#: How many legal moves ``help`` prints before summarising the rest.
LIST_LIMIT = 120

HELP_WORDS = """\
Commands: a move in the game's notation, or
  help (or an empty line)  this help and the legal moves
  moves                    list the legal moves only
  undo                     take back your last move (and the bots' replies)
  quit                     leave the game"""


def configure(p: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit play``."""
    p.add_argument("game", nargs="?", default=None,
                   help="game name, e.g. hexbaron or 'focus(board=cross)' (not with --load)")
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
        help="save the game record to FILE after every move (replaced atomically)",
    )
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


@dataclass
class Seat:
    """Who plays a seat: a human at the terminal (bot is None) or a bot."""

    spec: str
    bot: Bot | None


def load_from_args(args: argparse.Namespace) -> Game:
    """The game named on the command line, with its ``-o`` options."""
    return plugins.load_game(args.game, **plugins.parse_option_pairs(args.option))


def run(args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit play`` with parsed arguments."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if args.load is not None:
        return _run_loaded(args, stdin, stdout, stderr)
    if args.game is None:
        raise OptionError("name the game to play (or give --load FILE)")
    game = load_from_args(args)
    if args.frontend is not None:
        if args.save is not None:
            raise OptionError(f"--save does not apply to --frontend {args.frontend} "
                              "(use the front-end's own save)")
        frontend = game.spec.frontend(args.frontend)
        return int(frontend(game, seed=args.seed, stdin=stdin, stdout=stdout, stderr=stderr))
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**31)
    state = game.new_state(seed=args.seed)
    seats = _seats(args, game, len(state.players), [])
    on_change = None
    if args.save is not None:
        record = GameRecord.for_game(game, seed=args.seed, players=[s.spec for s in seats])
        on_change = _saver(args.save, record)
        on_change(state)  # the file exists (and the path is known to work) from the start
    session = PlaySession(game, state, seats, stdin, stdout, on_change, stderr)
    return session.loop()


def _seats(args: argparse.Namespace, game: Game, count: int, recorded: list[str]) -> list[Seat]:
    """Who plays each seat: ``--pN``, else the saved game's player, else a human."""
    seats = []
    for i in range(min(count, MAX_SEATS)):
        given = getattr(args, f"p{i + 1}")
        spec = given or (recorded[i] if i < len(recorded) else "") or "human"
        seats.append(Seat(spec, make_bot(game, spec, (args.seed or 0) + 1000 * (i + 1))))
    return seats


def _saver(path: str, record: GameRecord) -> Callable[[State], None]:
    def save(state: State) -> None:
        record.update(state)
        save_record(path, record)

    return save


def _run_loaded(args: argparse.Namespace, stdin: IO[str], stdout: IO[str],
                stderr: IO[str]) -> int:
    """``hexkit play --load FILE``: replay the record (re-checking it) and play on."""
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
    seats = _seats(args, game, len(state.players), record.players)
    record.players = [s.spec for s in seats]
    on_change = _saver(args.save or args.load, record)
    on_change(state)
    print(f"Loaded {game} after {len(record.moves)} moves from {args.load}.", file=stdout)
    session = PlaySession(game, state, seats, stdin, stdout, on_change, stderr)
    return session.loop()


class PlaySession:
    """The read-eval-print loop of one game. ``on_change`` is called after every push/pop."""

    def __init__(self, game: Game, state: State, seats: list[Seat], stdin: IO[str],
                 stdout: IO[str], on_change: Callable[[State], None] | None = None,
                 stderr: IO[str] | None = None):
        self.game = game
        self.state = state
        self.seats = seats
        self.stdin = stdin
        self.stdout = stdout
        self.stderr = stderr or sys.stderr
        self.on_change = on_change or (lambda state: None)
        self.extra = {c.name: c for c in game.spec.console_commands}

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def loop(self) -> int:
        state = self.state
        show_board = True
        while True:
            if state.is_over():
                self.say(state.render())
                self.say(self.result_line())
                return 0
            seat = state.current_player
            who = self.seats[seat] if seat < len(self.seats) else Seat("human", None)
            name = state.players[seat]
            if who.bot is not None:
                move = who.bot.choose(state)
                text = str(move)
                state.push(move)
                self.on_change(state)
                self.say(f"{name} ({who.spec}) plays {text}")
                show_board = True
                continue
            if show_board:
                self.say(state.render())
                show_board = False
            self.stdout.write(f"{name}> ")
            self.stdout.flush()
            line = self.stdin.readline()
            if not line:
                # Input ran out mid-game: abandoned, not finished, so say so and fail.
                self.say()
                print("hexkit: end of input: the game was abandoned unfinished",
                      file=self.stderr)
                return 1
            show_board = self.handle(line.strip())
            if show_board is None:
                return 0

    def handle(self, line: str) -> bool | None:
        """Act on one typed line; True if the position changed, None to quit."""
        word, _, rest = line.partition(" ")
        low = word.lower()
        if low in ("", "help", "?"):
            self.show_help()
            return False
        if low == "moves":
            self.show_moves()
            return False
        if low in ("quit", "exit"):
            self.say("game left unfinished")
            return None
        if low == "undo" and not rest.strip():
            return self.undo()
        if low in self.extra:
            try:
                message = self.extra[low].run(self.state, rest.strip())
            except (HexkitError, OSError) as exc:
                message = f"{low}: {exc}"
            if message:
                self.say(message)
            return False
        try:
            self.state.push(line)
        except MoveParseError as exc:
            self.say(f"cannot read that move: {exc} (type 'help' for the legal moves)")
            return False
        except IllegalMoveError as exc:
            self.say(f"illegal move: {exc}")
            return False
        self.on_change(self.state)
        return True

    def undo(self) -> bool:
        """Pop back to this human's previous turn (bots' replies included)."""
        state = self.state
        if not state.move_stack:
            self.say("nothing to undo")
            return False
        state.pop()
        # Keep undoing the bots' moves so that a human is to act again.
        while state.move_stack and self._is_bot(state.current_player):
            state.pop()
        self.on_change(state)
        return True

    def _is_bot(self, seat: int) -> bool:
        return seat < len(self.seats) and self.seats[seat].bot is not None

    def show_help(self) -> None:
        self.say(HELP_WORDS)
        for c in self.extra.values():
            self.say(f"  {c.name:<23}  {c.help}")
        notation = self.state.move_help().strip()
        if notation:
            self.say()
            self.say(notation)
        self.say()
        self.show_moves()

    def show_moves(self) -> None:
        moves = [str(m) for m in self.state.legal_moves()]
        shown = moves[:LIST_LIMIT]
        self.say(f"{len(moves)} legal move{'s' if len(moves) != 1 else ''}:")
        width = max((len(m) for m in shown), default=0) + 2
        per_line = max(1, 78 // max(width, 1))
        for i in range(0, len(shown), per_line):
            self.say("  " + "".join(m.ljust(width) for m in shown[i:i + per_line]).rstrip())
        if len(moves) > len(shown):
            self.say(f"  ... and {len(moves) - len(shown)} more")

    def result_line(self) -> str:
        outcome = self.state.outcome()
        if outcome is None:
            return "Game over."
        if outcome.is_draw:
            return f"Game over: a draw ({outcome.reason})."
        names = " and ".join(self.state.players[w] for w in outcome.winners)
        verb = "wins" if len(outcome.winners) == 1 else "win"
        return f"Game over: {names} {verb} ({outcome.reason})."
