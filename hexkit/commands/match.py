"""``hexkit match``: bots play a series of games (see :mod:`hexkit.tournament.match`); a
progress bar, then wins, draws and losses per player."""

from __future__ import annotations

import argparse
import json
import random
import sys
from typing import IO

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.loading.deadline import call_deadline
from hexkit.tournament.backends import Backend, make_backend
from hexkit.tournament.match import (
    DEFAULT_MAX_MOVES,
    DEFAULT_TIME_PER_MOVE,
    MAX_PLAYERS,
    MatchResult,
    _average,
    run_match,
)
from hexkit.tournament.progress import ProgressBar

#: Default deadline of one call into the rules (seconds).
DEFAULT_TIME_LIMIT = 10.0


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit match``."""
    parser.add_argument("game", help="game name, e.g. focus or 'focus(board=cross,players=4)'")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="game option (repeatable)")
    for p in range(1, MAX_PLAYERS + 1):
        parser.add_argument(f"--p{p}", default=None, metavar="BOT",
                            help=f"player {p}'s bot: random (default), mcts, mcts:2000, ...")
    parser.add_argument("--games", type=int, default=10, metavar="N",
                        help="number of games (default 10, at most 1,000,000)")
    parser.add_argument("--seed", type=int, default=None,
                        help="match seed (default: random, printed so it can be rerun)")
    add_backend_arguments(parser)
    parser.add_argument("--fixed-seats", action="store_true",
                        help="keep player 1 in seat 1 (default: seats rotate every game)")
    add_limit_arguments(parser)
    parser.add_argument("--time-limit", type=float, default=DEFAULT_TIME_LIMIT,
                        metavar="SECONDS",
                        help="deadline of each call into the game's rules (the start, each "
                             "move played, the end): a game whose rules run longer stops "
                             f"as an error (default {DEFAULT_TIME_LIMIT:g}; 0: none); bots' "
                             "thinking is bounded by --time-per-move")
    parser.add_argument("--save-dir", default=None, metavar="DIR",
                        help="save every game as a record in DIR (game-0001.json, ...)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress report")


def add_backend_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs``, ``--backend`` and ``--address`` (shared with ``hexkit tournament``)."""
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="play games in N processes at once (default 1; with --backend "
                             "ray and no --address: the CPUs of the local Ray instance)")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="where games are played: local processes (default) or a Ray "
                             "cluster (pip install 'hexkit-games[ray]')")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="the Ray cluster to use, e.g. 10.0.0.5:6379 or auto (default: "
                             "start a local Ray instance on 127.0.0.1)")


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """``--max-moves`` and ``--time-per-move`` (shared with ``hexkit tournament``)."""
    parser.add_argument("--max-moves", type=int, default=DEFAULT_MAX_MOVES, metavar="N",
                        help=f"stop a game after N moves as a draw (default {DEFAULT_MAX_MOVES})")
    parser.add_argument("--time-per-move", type=float, default=DEFAULT_TIME_PER_MOVE,
                        metavar="SECONDS",
                        help="a bot that thinks longer over one move loses the game "
                             f"(default {DEFAULT_TIME_PER_MOVE:g}; 0: no limit)")


def backend_from(args: argparse.Namespace) -> Backend:
    """The backend the arguments ask for (one-line OptionError for a bad combination)."""
    if args.jobs is not None and args.address:
        raise OptionError("--jobs does not apply with --address (the Ray cluster's CPUs "
                          "are used)")
    return make_backend(args.backend, 1 if args.jobs is None else args.jobs, args.address)


def run(args: argparse.Namespace, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit match``; 1 if any game stopped on an error, 130 after Ctrl-C."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    limit = getattr(args, "time_limit", DEFAULT_TIME_LIMIT)
    if limit < 0:
        raise OptionError("--time-limit must be 0 (none) or more seconds")
    with call_deadline(limit, "loading the game"):
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
    backend = backend_from(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    bar = None if args.quiet else ProgressBar("match", args.games, err)

    def progress(result: MatchResult) -> None:
        assert bar is not None
        last = result.games[-1]  # the game just counted (sorted only at the end)
        score = "  ".join(f"p{i + 1} {s.wins}" for i, s in enumerate(result.players))
        bar.game_done(str(last.index + 1), len(result.games), f"wins: {score}")

    try:
        result = run_match(
            game, specs, args.games, seed=seed, rotate=not args.fixed_seats,
            max_moves=args.max_moves, time_per_move=args.time_per_move, time_limit=limit,
            save_dir=args.save_dir, backend=backend,
            progress=progress if bar else None,
            on_move=(lambda index, moves: bar.moving(str(index + 1), moves)) if bar else None,
        )
    finally:
        if bar:
            bar.close()
    if args.json:
        print(json.dumps(result.to_dict(), indent=2), file=out)
    else:
        print(summary(result, rotate=not args.fixed_seats), file=out)
    if result.interrupted:
        print(f"hexkit: match interrupted: {len(result.games)} of {args.games} games "
              "played", file=err)
        return 130
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
    count = len(result.games)
    if result.interrupted:
        count_text = f"{count} of {result.planned} games (interrupted)"
    else:
        count_text = f"{count} games"
    lines = [
        f"{result.game}: {vs}, {count_text}, seed {result.seed}, {seating_note}",
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
    faulted = [g for g in played if g.fault]
    for g in faulted[:5]:
        lines.append(f"game {g.index + 1}: {g.reason}")
    if len(faulted) > 5:
        lines.append(f"... and {len(faulted) - 5} more games lost by a bot's fault")
    return "\n".join(lines)
