"""The named bot levels of each game, measured: each level against the one below it, and
openskill ratings over all their games.

    python benchmarks/bot_levels.py hexbaron               # 10 games a pair, levels 1..5
    python benchmarks/bot_levels.py --games 20 --jobs 2    # every built-in game in turn
    python benchmarks/bot_levels.py "hex" --plugins-dir ... # a plugin game (default levels)

For each game, every pair of neighbouring levels (1 v 2, 2 v 3, ...) plays a tournament of
its own with hexkit's tournament code (``bot:level=N`` seats, both sides of every start, a
results database per pair in ``--db-dir``, so a stopped run resumes where it stopped). The
report gives, per pair, the stronger level's score (a win 1, a draw 1/2) with its 95%
interval (Wilson's) and whether it reaches the target (``--target``, 70 %), how many games
stopped at ``--max-moves`` (each a draw), and the openskill rating
(Plackett-Luce, ``mu`` and ``sigma``) of every level over all the games, with each level's
CPU time per move, timed on the same middle-game positions. ``--markdown`` prints the
tables for docs/bots.md.

``--sequential`` stops a pair early, at an even number of games (both sides of each start)
and at least ``--min-games``, once its 95% interval lies wholly above or wholly below the
target: lopsided pairs cost few games, close ones get all of ``--games``. (Looking after
every pair of games makes a stop somewhat likelier than 5 % by chance; the figures say
how many games each pair played.)
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
from dataclasses import replace
from pathlib import Path

import hexkit
from hexkit import plugins
from hexkit.bots import make_bot
from hexkit.bots.levels import levels_for
from hexkit.bots.policy import Level
from hexkit.errors import HexkitError
from hexkit.game import Game
from hexkit.tournament.backends import make_backend
from hexkit.tournament.pairings import Pairing
from hexkit.tournament.ratings import Z95, ranked, standings
from hexkit.tournament.referee import GameReport
from hexkit.tournament.runner import Tournament, TournamentConfig
from hexkit.tournament.store import GameRow, ResultStore

BUILT_IN = ("hexbaron", "hexaround", "focus", "hive")


def slug(spec: str) -> str:
    """A seat spec as part of a file name (``mcts:sims=30,random=0.5`` ->
    ``mcts-sims30-random0.5``)."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", spec.replace("=", "")).strip("-")


class Settled(Exception):
    """A pair's result is clear (``--sequential``): stop playing it."""


def settled(rows: list[GameRow], args: argparse.Namespace) -> bool:
    """Whether a pair's games so far settle it (``--sequential``): an even number, at least
    ``--min-games``, and the higher level's 95% interval wholly on one side of the target."""
    n = sum(1 for r in rows if r.played)
    if not args.sequential or n < args.min_games or n % 2:
        return False
    _, _, lo, hi = score(rows, 0)
    return lo > args.target or hi < args.target


def pair_rows(game: str, levels: tuple[Level, ...], low: int, high: int,
              args: argparse.Namespace, play: bool = True) -> list[GameRow]:
    """Play (or resume) the tournament of level ``low`` against level ``high`` (1-based);
    its stored games. The seats are the levels' own specs, and the database is named after
    them, so re-pointing a level starts a new tournament for its pairs (and a pair whose
    specs did not change resumes)."""
    bots = (levels[high - 1].bot, levels[low - 1].bot)
    options = "".join(f"-{slug(k)}{slug(v)}" for k, v in sorted(args.options.items()))
    db = Path(args.db_dir) / (f"{game}-{low}-{high}-{slug(bots[1])}-v-{slug(bots[0])}"
                              f"-seed{args.seed}-max{args.max_moves}{options}.sqlite")
    if not play:
        if not db.exists():
            return []
        store = ResultStore.open(db)
        try:
            return store.games()
        finally:
            store.close()
    config = TournamentConfig(game=game, options=dict(args.options), bots=bots,
                              games_per_pair=args.games, seed=args.seed,
                              max_moves=args.max_moves, time_per_move=0.0)
    store = ResultStore.open(db) if db.exists() else ResultStore.create(db, config.to_dict())
    tournament = Tournament.prepare(config, store)
    try:
        left = sum(1 for _ in tournament.remaining())
        if left and settled(store.games(), args):
            print(f"  level {high} v level {low}: settled after "
                  f"{sum(1 for r in store.games() if r.played)} games", file=sys.stderr,
                  flush=True)
        elif left:
            print(f"  level {high} v level {low}: {left} games to play", file=sys.stderr,
                  flush=True)
            names = {0: f"level {high}", 1: f"level {low}"}

            def report(pairing: Pairing, game_report: GameReport) -> None:
                won = ", ".join(names[pairing.seats[w]] for w in game_report.winners)
                print(f"    game {pairing.number}: {won or 'draw'} "
                      f"({game_report.moves} moves, {game_report.seconds:.0f} s)",
                      file=sys.stderr, flush=True)
                if settled(store.games(), args):
                    raise Settled

            try:
                tournament.run(make_backend("local", args.jobs), on_game=report)
            except Settled:
                print(f"  level {high} v level {low}: settled (--sequential)",
                      file=sys.stderr, flush=True)
        return store.games()
    finally:
        store.close()


def score(rows: list[GameRow], first: int) -> tuple[float, int, float, float]:
    """Bot ``first``'s score share in two-bot games (a draw half a point), with its 95%
    interval: Wilson's score interval, which stays honest for few games and for shares
    near 0 or 1 (where the normal approximation claims 100-100 % after one win); with
    draws, which lower the variance, it is on the cautious side."""
    played = [r for r in rows if r.played]
    n = len(played)
    if not n:
        return 0.0, 0, 0.0, 0.0
    points = [1.0 if r.winners == (first,) else 0.5 if not r.winners else 0.0 for r in played]
    p = sum(points) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    margin = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, n, max(0.0, centre - margin), min(1.0, centre + margin)


def seconds(value: float) -> str:
    """CPU seconds for the tables ("-" when not timed)."""
    return "-" if math.isnan(value) else f"{value:.2f}"


#: Positions each level is timed on.
TIMED_POSITIONS = 8


def move_times(game: Game, levels: tuple[Level, ...], seed: int) -> list[float]:
    """Each level's CPU seconds per move, over the same positions: every third position
    of a game between two level-2 bots (the middle game, where moves cost the most)."""
    spec = f"bot:level={min(2, len(levels))}"
    bots = [make_bot(game, spec, seed + seat) for seat in range(game.spec.max_players)]
    state = game.new_state(seed=seed)
    positions = []
    while not state.is_over() and len(positions) < TIMED_POSITIONS:
        if len(state.move_stack) % 3 == 2:
            positions.append(state.copy())
        state.push(bots[state.current_player].choose(state))  # type: ignore[union-attr]
    times = []
    for i in range(len(levels)):
        bot = make_bot(game, f"bot:level={i + 1}", seed)
        started = time.process_time()
        for position in positions:
            bot.choose(position)  # type: ignore[union-attr]
        times.append((time.process_time() - started) / max(1, len(positions)))
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", metavar="GAME",
                        help="games to measure (default: the built-in ones)")
    parser.add_argument("--games", type=int, default=10, metavar="N",
                        help="games per pair of neighbouring levels, even (default 10)")
    parser.add_argument("--seed", type=int, default=2024, help="tournament seed (default 2024)")
    parser.add_argument("--jobs", type=int, default=1, metavar="J",
                        help="play games in J processes (default 1)")
    parser.add_argument("--max-moves", type=int, default=600, metavar="N",
                        help="stop a game after N moves as a draw (default 600)")
    parser.add_argument("--target", type=float, default=0.7,
                        help="the score each level should reach against the one below "
                             "(default 0.7)")
    parser.add_argument("-o", "--option", action="append", default=[], metavar="KEY=VALUE",
                        help="a game option for every game played, e.g. -o max_turns=40 "
                             "(Hex Baron's turn limit: then the most VPs wins); the "
                             "databases are named after the options")
    parser.add_argument("--db-dir", default="bot-levels", metavar="DIR",
                        help="where the results databases go (default ./bot-levels)")
    parser.add_argument("--plugins-dir", action="append", default=[], metavar="DIR",
                        help="also load plugin files from DIR")
    parser.add_argument("--pairs", default="", metavar="L,L",
                        help="play only the pairs whose lower level is listed, e.g. 3,4 for "
                             "4 v 3 and 5 v 4 (default: every pair; a pair not played is "
                             "reported from its database as far as it got)")
    parser.add_argument("--sequential", action="store_true",
                        help="stop a pair once its 95%% interval lies wholly above or below "
                             "the target (after an even number of games, at least "
                             "--min-games)")
    parser.add_argument("--min-games", type=int, default=10, metavar="N",
                        help="with --sequential: games a pair plays at least (default 10)")
    parser.add_argument("--report", action="store_true",
                        help="play nothing and time nothing: report the databases as they "
                             "are (while other processes play)")
    parser.add_argument("--no-timing", action="store_true",
                        help="play, but do not time each level's move (a partial run)")
    parser.add_argument("--markdown", action="store_true",
                        help="print the tables as Markdown (for docs/bots.md)")
    args = parser.parse_args(argv)
    if args.plugins_dir:
        plugins.configure(args.plugins_dir)
    if args.games < 2 or args.games % 2:
        parser.error("--games must be an even number of 2 or more (both sides of each start)")
    try:
        only = {int(x) for x in args.pairs.split(",") if x.strip()}
    except ValueError:
        parser.error("--pairs takes lower levels separated by commas, e.g. 3,4")
    try:
        args.options = plugins.parse_option_pairs(args.option)
    except HexkitError as exc:
        parser.error(str(exc))
    os.makedirs(args.db_dir, exist_ok=True)
    names = args.names or [g for g in BUILT_IN if g in hexkit.game_names()]
    status = 0
    for name in names:
        try:
            game = hexkit.load_game(name, **args.options)
            levels = levels_for(game.name)
            started = time.process_time()
            all_rows: list[GameRow] = []
            pairs = []
            for low in range(1, len(levels)):
                rows = pair_rows(game.name, levels, low, low + 1, args,
                                 play=not args.report and (not only or low in only))
                pairs.append((low, rows))
                offset = len(all_rows)
                # Into one numbering: bot index = level - 1 (seat 0 of the pair is the
                # higher level).
                to_level = {0: low, 1: low - 1}
                all_rows += [replace(r, number=offset + r.number,
                                     seats=tuple(to_level[s] for s in r.seats),
                                     winners=tuple(to_level[w] for w in r.winners))
                             for r in rows]
        except HexkitError as exc:
            print(f"{name}: {exc}", file=sys.stderr)
            status = 1
            continue
        cpu = time.process_time() - started
        specs = [f"{i + 1}: {lv.bot}" for i, lv in enumerate(levels)]
        table = standings(specs, all_rows)
        cpu_per_move = [math.nan] * len(levels) if args.report or args.no_timing else \
            move_times(game, levels, args.seed)
        print(f"\n{game}: levels against the level below ({args.games} games a pair, seed "
              f"{args.seed}; this run's CPU {cpu:.0f} s)")
        if args.markdown:
            print("\n| pair | games | score of the higher | 95% interval | >= target | "
                  "won-drawn-lost | moves/game | capped |")
            print("|---|---|---|---|---|---|---|---|")
        for low, rows in pairs:
            p, n, lo, hi = score(rows, 0)
            played = [r for r in rows if r.played]
            moves = sum(r.moves for r in played) / max(1, len(played))
            capped = sum(1 for r in played if r.unfinished)
            won = sum(1 for r in played if r.winners == (0,))
            drawn = sum(1 for r in played if not r.winners)
            record = f"{won}-{drawn}-{len(played) - won - drawn}"
            if not n:
                ok, status = "not played", max(status, 2)
            elif lo >= args.target:
                ok = "yes"
            elif hi < args.target:
                ok, status = "NO", max(status, 2)
            else:  # the interval straddles the target: too few games to say
                ok, status = ("probably" if p >= args.target else "unclear"), max(status, 2)
            if args.markdown:
                print(f"| {low + 1} v {low} | {n} | {100 * p:.0f} % | {100 * lo:.0f}-"
                      f"{100 * hi:.0f} % | {ok} | {record} | {moves:.0f} | {capped} |" if n else
                      f"| {low + 1} v {low} | 0 | - | - | {ok} | - | - | - |")
            elif n:
                print(f"  level {low + 1} v {low}: {100 * p:5.1f} % of {n} games (95%: "
                      f"{100 * lo:.0f}-{100 * hi:.0f} %)  {ok}  won-drawn-lost {record}, "
                      f"{moves:.0f} moves a game, "
                      f"{capped} stopped at --max-moves")
            else:
                print(f"  level {low + 1} v {low}: not played yet")
        print()
        if args.markdown:
            print("| level | bot | rating (mu) | sigma | games | wins | draws | losses | "
                  "CPU s/move |")
            print("|---|---|---|---|---|---|---|---|---|")
        for s in ranked(table):
            if args.markdown:
                print(f"| {s.bot + 1} | `{levels[s.bot].bot}` | {s.mu:.1f} | {s.sigma:.1f} | "
                      f"{s.games} | {s.wins} | {s.draws} | {s.losses} | "
                      f"{seconds(cpu_per_move[s.bot])} |")
            else:
                print(f"  {s.spec:<30} rating {s.mu:5.1f} +- {Z95 * s.sigma:4.1f}  "
                      f"{s.wins}-{s.draws}-{s.losses}  {seconds(cpu_per_move[s.bot])} s/move")
        sys.stdout.flush()
    return status


if __name__ == "__main__":
    raise SystemExit(main())
