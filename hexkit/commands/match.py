"""``hexkit match``: bots play a series of games (see :mod:`hexkit.match`); a progress bar,
then wins, draws and losses per player."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import IO

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.match import DEFAULT_MAX_MOVES, MAX_PLAYERS, MatchResult, _average, run_match


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit match``."""
    parser.add_argument("game", help="game name, e.g. focus or 'focus(board=cross,players=4)'")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option (repeatable)")
    for p in range(1, MAX_PLAYERS + 1):
        parser.add_argument(f"--p{p}", default=None, metavar="BOT",
                            help=f"player {p}'s bot: random (default), mcts, mcts:2000, ...")
    parser.add_argument("--games", type=int, default=10, metavar="N",
                        help="number of games (default 10)")
    parser.add_argument("--seed", type=int, default=None,
                        help="match seed (default: random, printed so it can be rerun)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="play games in N processes at once (default 1)")
    parser.add_argument("--fixed-seats", action="store_true",
                        help="keep player 1 in seat 1 (default: seats rotate every game)")
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, metavar="N",
                        help=f"stop a game after N moves as a draw (default {DEFAULT_MAX_MOVES})")
    parser.add_argument("--save-dir", default=None, metavar="DIR",
                        help="save every game as a record in DIR (game-0001.json, ...)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress report")


def run(args: argparse.Namespace, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit match``; 1 if any game stopped on an error."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    game = plugins.load_game(args.game, **plugins.parse_option_pairs(args.option))
    seats = len(game.new_state(seed=0).players)
    given = [getattr(args, f"p{p}") for p in range(1, MAX_PLAYERS + 1)]
    extra = [f"--p{i + 1}" for i, spec in enumerate(given) if spec and i >= seats]
    if extra:
        raise OptionError(f"{game} has {seats} seats; {', '.join(extra)} cannot play")
    specs = [spec or "random" for spec in given[:seats]]
    if any(s.strip().lower().startswith("human") for s in specs):
        raise OptionError("a match is between bots; 'human' cannot play one")
    if args.max_moves < 1:
        raise OptionError("--max-moves must be at least 1")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    bar = None if args.quiet else Progress(args.games, err)
    result = run_match(
        game, specs, args.games, seed=seed, jobs=args.jobs, rotate=not args.fixed_seats,
        max_moves=args.max_moves, save_dir=args.save_dir,
        progress=bar.update if bar else None,
    )
    if bar:
        bar.done()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2), file=out)
    else:
        print(summary(result, rotate=not args.fixed_seats), file=out)
    if result.errors:
        first = result.errors[0]
        print(f"hexkit: error: {len(result.errors)} game(s) stopped on an error; "
              f"game {first.index + 1}: {first.error}", file=err)
        return 1
    return 0


def summary(result: MatchResult, rotate: bool = True) -> str:
    """The text table printed by ``hexkit match``."""
    played = [g for g in result.games if not g.error]
    n = len(played)
    names = [f"p{i + 1} {s.spec}" for i, s in enumerate(result.players)]
    width = max(len("player"), *(len(x) for x in names))
    vs = " vs ".join(s.spec for s in result.players)
    seating_note = "seats rotate" if rotate else "fixed seats"
    lines = [
        f"{result.game}: {vs}, {len(result.games)} games, seed {result.seed}, {seating_note}",
        f"{'player':<{width}}  {'wins':>5}  {'draws':>5}  {'losses':>6}  {'win %':>6}",
    ]
    for name, s in zip(names, result.players, strict=True):
        pct = 100.0 * s.wins / n if n else 0.0
        lines.append(f"{name:<{width}}  {s.wins:>5}  {s.draws:>5}  {s.losses:>6}  {pct:>5.1f}%")
    draws = sum(1 for g in played if not g.winners)
    unfinished = sum(1 for g in played if g.unfinished)
    tail = f", {unfinished} stopped at the move limit" if unfinished else ""
    lines.append(
        f"{n} games played ({draws} drawn{tail}), average "
        f"{_average(g.moves for g in played)} moves, {result.seconds:.1f} s"
    )
    return "\n".join(lines)


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, else a line per 10%."""

    def __init__(self, total: int, stream: IO[str]):
        self.total = total
        self.stream = stream
        self.tty = bool(getattr(stream, "isatty", lambda: False)())
        self.shown = 0

    def update(self, result: MatchResult) -> None:
        """Show the games played so far and the running score."""
        count = len(result.games)
        score = "  ".join(f"p{i + 1} {s.wins}" for i, s in enumerate(result.players))
        if self.tty:
            filled = int(30 * count / self.total)
            self.stream.write(
                f"\r[{'#' * filled}{'.' * (30 - filled)}] {count}/{self.total}  wins: {score}"
            )
            self.stream.flush()
        elif count * 10 // self.total > self.shown * 10 // self.total or count == self.total:
            self.shown = count
            print(f"match: {count}/{self.total} games  wins: {score}", file=self.stream)

    def done(self) -> None:
        """End the bar's line."""
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()

