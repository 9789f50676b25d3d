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

import json
import multiprocessing
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.bots import make_bot
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
        if make_bot(game, spec, 0) is None:
            raise OptionError("a match is between bots; 'human' cannot play one")
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
