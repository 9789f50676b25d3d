"""``hexkit play``: a game at the terminal, between humans and bots, on the text rendering."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO

from hexkit import plugins
from hexkit.bots import Bot
from hexkit.errors import HexkitError, IllegalMoveError, MoveParseError, OptionError
from hexkit.game import Game, State

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
    p.add_argument("game", help="game name, e.g. hexbaron or 'focus(board=cross)'")
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="game option (repeatable); 'hexkit rules GAME' lists them",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the game's randomness")
    for seat in range(1, MAX_SEATS + 1):
        p.add_argument(
            f"--p{seat}", default="human", metavar="WHO",
            help=f"player {seat}: human (default), random, or a bot such as mcts:2000",
        )
    p.add_argument(
        "--classic", action="store_true",
        help="use the game's classic console front-end (Hex Baron: the AQA program)",
    )


@dataclass
class Seat:
    """Who plays a seat: a human at the terminal (bot is None) or a bot."""

    spec: str
    bot: Bot | None


def make_bot(game: Game, spec: str, seed: int | None) -> Bot | None:
    """``human`` -> None; ``name`` or ``name:arg`` -> a registered bot."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    if name == "human":
        if arg:
            raise OptionError("'human' takes no argument")
        return None
    reg = plugins.registry()
    if name not in reg.bots:
        raise OptionError(plugins.unknown_message("bot", name, ["human", *reg.bots]))
    return reg.bots[name].factory(game, arg or None, seed)


def load_from_args(args: argparse.Namespace) -> Game:
    """The game named on the command line, with its ``-o`` options."""
    return plugins.load_game(args.game, **plugins.parse_option_pairs(args.option))


def run(args: argparse.Namespace, stdin: IO[str] | None = None, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit play`` with parsed arguments."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    game = load_from_args(args)
    if args.classic:
        frontend = game.spec.frontends.get("classic")
        if frontend is None:
            raise OptionError(f"game {game.name} has no classic front-end")
        return int(frontend(game, seed=args.seed, stdin=stdin, stdout=stdout, stderr=stderr))
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**31)
    state = game.new_state(seed=args.seed)
    seats = [
        Seat(getattr(args, f"p{i + 1}"), make_bot(game, getattr(args, f"p{i + 1}"),
                                                   args.seed + 1000 * (i + 1)))
        for i in range(min(len(state.players), MAX_SEATS))
    ]
    session = PlaySession(game, state, seats, stdin, stdout)
    return session.loop()


class PlaySession:
    """The read-eval-print loop of one game. ``on_change`` is called after every push/pop."""

    def __init__(self, game: Game, state: State, seats: list[Seat], stdin: IO[str],
                 stdout: IO[str], on_change: Callable[[State], None] | None = None):
        self.game = game
        self.state = state
        self.seats = seats
        self.stdin = stdin
        self.stdout = stdout
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
                self.say()
                self.say("end of input: game left unfinished")
                return 0
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
