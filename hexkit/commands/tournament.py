"""``hexkit tournament``: bots play a round-robin or a gauntlet; results into a SQLite
database as they arrive; standings, crosstable and ratings (see :mod:`hexkit.tournament`)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from dataclasses import replace
from pathlib import Path
from typing import IO, Any

from hexkit import plugins
from hexkit.commands.match import add_backend_arguments, add_limit_arguments, backend_from
from hexkit.errors import OptionError
from hexkit.files.datapaths import confine
from hexkit.files.fileio import write_text_atomic
from hexkit.tournament.pairings import FORMATS, Pairing
from hexkit.tournament.progress import ProgressBar
from hexkit.tournament.ratings import require_openskill
from hexkit.tournament.referee import GameReport
from hexkit.tournament.report import build_report, csv_report, svg_chart, text_report
from hexkit.tournament.runner import Tournament, TournamentConfig
from hexkit.tournament.store import ResultStore

#: Settings of a new tournament: refused with --resume and --report (the database has them).
SETTINGS = ("game", "bots", "option", "format", "games_per_pair", "seed", "db", "save_dir",
            "max_moves", "time_per_move")


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit tournament``."""
    parser.add_argument("game", nargs="?", default=None,
                        help="game name, e.g. focus or 'focus(board=cross,players=4)'")
    parser.add_argument("--bots", nargs="+", metavar="BOT", default=None,
                        help="the bots: random mcts:200 mcts:1000 ... (at least as many as "
                             "the game has seats)")
    parser.add_argument("-o", "--option", action="append", default=None, metavar="KEY=VALUE",
                        help="game option (repeatable)")
    parser.add_argument("--format", choices=FORMATS, default=None,
                        help="round-robin (default): every group of bots; gauntlet: the "
                             "first bot against all the others")
    parser.add_argument("--games-per-pair", type=int, default=None, metavar="N",
                        help="games for each pair (or group) of bots, a multiple of the seat "
                             "orders (default 10 for two players, 12 for three, 24 for four)")
    parser.add_argument("--seed", type=int, default=None,
                        help="tournament seed (default: random, printed and stored)")
    parser.add_argument("--db", default=None, metavar="FILE",
                        help="the results database (default GAME-tournament-SEED.sqlite)")
    parser.add_argument("--resume", default=None, metavar="DB",
                        help="play the games a stopped tournament has not played yet")
    parser.add_argument("--report", default=None, metavar="DB",
                        help="print the report of a tournament database; play nothing")
    parser.add_argument("--save-dir", default=None, metavar="DIR",
                        help="save every game as a record in DIR (game-00001.json, ...)")
    add_backend_arguments(parser)
    add_limit_arguments(parser)
    parser.set_defaults(max_moves=None, time_per_move=None)
    parser.add_argument("--json", default=None, metavar="FILE",
                        help="write the report as JSON")
    parser.add_argument("--csv", default=None, metavar="FILE",
                        help="write the standings and crosstable as CSV")
    parser.add_argument("--chart", default=None, metavar="FILE.svg",
                        help="draw the ratings with their intervals as an SVG chart")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def run(args: argparse.Namespace, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Run ``hexkit tournament``; 130 if stopped by Ctrl-C (everything finished is stored)."""
    out = stdout or sys.stdout
    err = stderr or sys.stderr
    require_openskill()
    if args.resume and args.report:
        raise OptionError("choose one of --resume and --report")
    existing = args.resume or args.report
    if existing:
        # --bots may be given again with --resume: the same list, which lets the bots
        # that start a program run (a database alone never starts one).
        given = [f"--{name.replace('_', '-')}" if name != "game" else "GAME"
                 for name in SETTINGS if getattr(args, name) is not None
                 and not (name == "bots" and args.resume)]
        if given:
            word = "--resume" if args.resume else "--report"
            raise OptionError(f"{word} uses the settings stored in {existing}; "
                              f"{', '.join(given)} cannot be given with it")
        store = ResultStore.open(existing)
        config = TournamentConfig.from_dict(store.config)
        try:
            # A database is data: the files its options name must lie beside it (or be
            # installed variants), as for a record.
            config = replace(config, options=confine(
                config.game, config.options, Path(existing).parent, "tournament database"))
        except BaseException:
            store.close()
            raise
        if args.report:
            if args.jobs is not None or args.backend != "local" or args.address:
                store.close()
                raise OptionError("--jobs, --backend and --address do not apply to --report "
                                  "(it plays nothing)")
            try:
                tournament = Tournament.prepare(config, store=store, to_play=False)
                return _finish(tournament, args, out)
            finally:
                store.close()
        if args.bots is not None and tuple(args.bots) != config.bots:
            store.close()
            raise OptionError(f"--bots differs from the bots stored in {existing} "
                              f"({' '.join(config.bots)}): give the same list to resume")
        try:
            tournament = Tournament.prepare(config, store=store,
                                            operator_bots=tuple(args.bots or ()))
        except BaseException:
            store.close()
            raise
    else:
        if not args.game or not args.bots:
            raise OptionError("a tournament needs a game and --bots (or --resume DB, "
                              "--report DB)")
        tournament = _new(args, err)
    try:
        return _play(tournament, args, out, err)
    finally:
        tournament.store.close()


def _new(args: argparse.Namespace, err: IO[str]) -> Tournament:
    game = plugins.load_game(args.game, **plugins.parse_option_pairs(args.option or []))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    defaults = TournamentConfig(game.name, {}, ())
    config = TournamentConfig(
        game=game.name, options=game.non_default_options(), bots=tuple(args.bots),
        format=args.format or "round-robin", games_per_pair=args.games_per_pair, seed=seed,
        max_moves=defaults.max_moves if args.max_moves is None else args.max_moves,
        time_per_move=(defaults.time_per_move if args.time_per_move is None
                       else args.time_per_move),
        save_dir=str(Path(args.save_dir).resolve()) if args.save_dir else "",
    )
    db = args.db or f"{game.name}-tournament-{seed}.sqlite"
    backend_from(args)  # a bad backend combination is refused before the database exists
    tournament = Tournament.prepare(config, db=db, operator_bots=tuple(args.bots))
    print(f"tournament: results go to {db} (seed {seed})", file=err)
    return tournament


def _play(tournament: Tournament, args: argparse.Namespace, out: IO[str],
          err: IO[str]) -> int:
    backend = backend_from(args)
    total = len(tournament.schedule)
    done = len(tournament.store.played())
    bar = None if args.quiet else ProgressBar("tournament", total, err, done=done)
    count = done

    def on_game(pairing: Pairing, report: GameReport) -> None:
        nonlocal count
        count += 1
        if bar:
            bar.game_done(str(pairing.number), count)

    interrupted = False
    try:
        tournament.run(backend, on_game=on_game,
                       on_move=bar.moving if bar else None)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if bar:
            bar.close()
        backend.close()
    code = _finish(tournament, args, out)
    if interrupted:
        db = tournament.store.path
        print(f"hexkit: tournament stopped: {count} of {total} games stored in {db}; "
              f"continue it with: hexkit tournament --resume {db}", file=err)
        return 130
    return code


def _finish(tournament: Tournament, args: argparse.Namespace, out: IO[str]) -> int:
    """Print the report and write the exports asked for; 1 if a game could not be played."""
    seats = tournament.schedule.seats
    report = build_report(tournament.store.config, len(tournament.schedule),
                          tournament.store.games(), seats)
    print(text_report(report), file=out)
    exports: list[tuple[str | None, Any]] = [
        (args.json, lambda: json.dumps(report, indent=2) + "\n"),
        (args.csv, lambda: csv_report(report)),
        (args.chart, lambda: svg_chart(report)),
    ]
    for path, make in exports:
        if path:
            write_text_atomic(path, make())
    return 1 if report["errors"] else 0
