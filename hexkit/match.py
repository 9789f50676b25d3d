"""``hexkit match``: bots play a series of games; wins, draws and losses per player.

Every game is reproducible on its own: game ``i`` of a match with seed ``S`` starts from
``new_state(seed=S + i)`` and its bots get seeds derived from ``(S, i, player)``, so the
result does not depend on ``--jobs`` or on the order games finish in. By default the
players change seats every game (player ``k`` sits in seat ``(k + i) mod n``) so that no
one keeps the first move; ``--fixed-seats`` keeps player 1 in seat 1.

``--jobs N`` plays games in N worker processes (``spawn``: each worker rebuilds the plugin
registry by name; only numbers and texts cross the process boundary).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.game import Game

MAX_PLAYERS = 4
#: Moves after which a game is stopped and counted as a draw.
DEFAULT_MAX_MOVES = 2000


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match, in terms of players (not seats)."""

    index: int
    seats: tuple[int, ...]  # seats[s] = the player (0-based) in seat s
    winners: tuple[int, ...]  # players who won; empty for a draw
    reason: str
    moves: int
    unfinished: bool = False
    error: str = ""


@dataclass
class PlayerScore:
    """Wins, draws and losses of one player over a match."""

    spec: str
    wins: int = 0
    draws: int = 0
    losses: int = 0


@dataclass
class MatchResult:
    """What a match produced, game by game and per player."""

    game: str
    seed: int
    players: list[PlayerScore]
    games: list[GameResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def errors(self) -> list[GameResult]:
        """Games that stopped on an error (a bot or rule bug)."""
        return [g for g in self.games if g.error]

    def add(self, result: GameResult) -> None:
        """Count one game."""
        self.games.append(result)
        if result.error:
            return
        for p, score in enumerate(self.players):
            if not result.winners:
                score.draws += 1
            elif p in result.winners:
                score.wins += 1
            else:
                score.losses += 1

    def to_dict(self) -> dict[str, Any]:
        """JSON form (``hexkit match --json``)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "games": len(self.games),
            "players": [
                {"player": i + 1, "spec": s.spec, "wins": s.wins, "draws": s.draws,
                 "losses": s.losses}
                for i, s in enumerate(self.players)
            ],
            "unfinished": sum(1 for g in self.games if g.unfinished),
            "errors": [{"game": g.index, "error": g.error} for g in self.errors],
            "average_moves": _average(g.moves for g in self.games if not g.error),
            "seconds": round(self.seconds, 3),
        }


def _average(values: Iterator[int] | Sequence[int]) -> float:
    values = list(values)
    return round(sum(values) / len(values), 1) if values else 0.0


def bot_seed(seed: int, index: int, player: int) -> int:
    """The seed of player ``player``'s bot in game ``index`` (stable across processes)."""
    return random.Random(f"hexkit-match:{seed}:{index}:{player}").getrandbits(62)


def seating(index: int, players: int, rotate: bool) -> tuple[int, ...]:
    """``seats[s]`` = the player sitting in seat ``s`` in game ``index``."""
    if not rotate:
        return tuple(range(players))
    return tuple((s - index) % players for s in range(players))


# -- playing one game (in this process or a worker) ----------------------------------------
_games: dict[tuple[str, str], Game] = {}


def _game(name: str, options_json: str) -> Game:
    key = (name, options_json)
    if key not in _games:
        _games[key] = plugins.load_game(name, **json.loads(options_json))
    return _games[key]


@dataclass(frozen=True)
class _Task:
    game: str
    options_json: str
    specs: tuple[str, ...]
    seed: int
    index: int
    rotate: bool
    max_moves: int
    save_dir: str


def play_one(task: _Task) -> GameResult:
    """Play game ``task.index`` of a match (errors in bots or rules become a result)."""
    seats = seating(task.index, len(task.specs), task.rotate)
    try:
        game = _game(task.game, task.options_json)
        state = game.new_state(seed=task.seed + task.index)
        if len(state.players) != len(task.specs):
            raise OptionError(
                f"{game} has {len(state.players)} seats but {len(task.specs)} players were given"
            )
        bots = [
            make_bot(game, task.specs[p], bot_seed(task.seed, task.index, p)) for p in seats
        ]
        moves = 0
        while not state.is_over() and moves < task.max_moves:
            state.push(bots[state.current_player].choose(state))
            moves += 1
        if task.save_dir:
            _save(task, game, state, seats)
    except Exception as exc:  # one broken game must not stop the match
        return GameResult(task.index, seats, (), "", 0, error=f"{type(exc).__name__}: {exc}")
    outcome = state.outcome()
    if outcome is None:
        return GameResult(task.index, seats, (), f"stopped after {moves} moves", moves,
                          unfinished=True)
    winners = tuple(sorted(seats[w] for w in outcome.winners))
    return GameResult(task.index, seats, winners, outcome.reason, moves)


def _save(task: _Task, game: Game, state: Any, seats: Sequence[int]) -> None:
    from hexkit.records import GameRecord, save_record

    record = GameRecord.for_game(game, seed=task.seed + task.index,
                                 players=[task.specs[p] for p in seats])
    record.update(state)
    save_record(Path(task.save_dir) / f"game-{task.index + 1:04d}.json", record)


def make_bot(game: Game, spec: str, seed: int) -> Any:
    """A registered bot from ``name`` or ``name:arg`` (humans cannot play a match)."""
    name, _, arg = spec.partition(":")
    name = name.strip().lower()
    reg = plugins.registry()
    if name not in reg.bots:
        raise OptionError(plugins.unknown_message("bot", name, reg.bots))
    return reg.bots[name].factory(game, arg or None, seed)


def _worker_init(plugin_dirs: list[str]) -> None:
    plugins.configure(plugin_dirs)


# -- a whole match ---------------------------------------------------------------------------
def run_match(
    game: Game,
    specs: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    jobs: int = 1,
    rotate: bool = True,
    max_moves: int = DEFAULT_MAX_MOVES,
    save_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[MatchResult], None] | None = None,
) -> MatchResult:
    """Play ``games`` games between the bots ``specs`` (one per seat) and count results.

    The game must be installed under its name (workers rebuild it from its name and
    options). ``progress`` is called after each game.
    """
    if games < 1:
        raise OptionError("a match needs at least one game")
    if jobs < 1:
        raise OptionError("--jobs must be at least 1")
    for spec in specs:  # fail fast, in this process, on an unknown bot or bad argument
        make_bot(game, spec, 0)
    seats = len(game.new_state(seed=seed).players)
    if seats != len(specs):
        raise OptionError(f"{game} has {seats} seats but {len(specs)} players were given")
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    # Default options are left out: some defaults (None) cannot be given explicitly.
    options_json = json.dumps(game.non_default_options(), sort_keys=True)
    tasks = [
        _Task(game.name, options_json, tuple(specs), seed, i, rotate, max_moves,
              str(save_dir or ""))
        for i in range(games)
    ]
    result = MatchResult(str(game), seed, [PlayerScore(s) for s in specs])
    started = time.perf_counter()
    if jobs == 1:
        _games[(game.name, options_json)] = game
        for task in tasks:
            result.add(play_one(task))
            if progress:
                progress(result)
    else:
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(min(jobs, games), initializer=_worker_init,
                      initargs=(list(plugins._plugin_dirs),)) as pool:
            for one in pool.imap_unordered(play_one, tasks):
                result.add(one)
                if progress:
                    progress(result)
        result.games.sort(key=lambda g: g.index)
    result.seconds = time.perf_counter() - started
    return result


# -- the command -----------------------------------------------------------------------------
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

