"""``hexkit match``: bots play a series of games; wins, draws and losses per player.

Every game is reproducible on its own: game ``i`` of a match with seed ``S`` starts from
``new_state(seed=S + i)`` and its bots get seeds derived from ``(S, i, player)``, so the
result does not depend on ``--jobs`` or on the order games finish in. By default the
players change seats every game (player ``k`` sits in seat ``(k + i) mod n``) so that no
one keeps the first move; ``--fixed-seats`` keeps player 1 in seat 1.

Games are played and adjudicated by :mod:`hexkit.tournament.referee` (a bot that raises,
plays an illegal move or runs over the time per move loses) on a backend of
:mod:`hexkit.tournament.backends`: this process, ``--jobs N`` worker processes (``spawn``:
each rebuilds the plugin registry by name; only numbers and texts cross the process
boundary), or Ray. Tasks are made one at a time as workers need them, so ``--games`` can be
huge, and Ctrl-C stops a match with its finished games counted.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.game import Game
from hexkit.loading.deadline import call_deadline
from hexkit.tournament.backends import Backend, interrupts_deferred, make_backend
from hexkit.tournament.referee import GameReport, GameTask, remember_game
from hexkit.tournament.runner import (
    DEFAULT_MAX_MOVES,
    DEFAULT_TIME_PER_MOVE,
    MAX_GAMES,
    check_bots,
    check_version,
    save_game_record,
)

MAX_PLAYERS = 4
__all__ = ["DEFAULT_MAX_MOVES", "DEFAULT_TIME_PER_MOVE", "MAX_GAMES", "MAX_PLAYERS",
           "GameResult", "MatchResult", "PlayerScore", "bot_seed", "run_match", "seating"]


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
    fault: str = ""  # why a bot lost by adjudication (time, illegal move, crash)


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
    planned: int = 0  # games asked for
    interrupted: bool = False  # stopped by Ctrl-C before every game was played

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
            "planned": self.planned,
            "interrupted": self.interrupted,
            "unfinished": sum(1 for g in self.games if g.unfinished),
            "adjudicated": [{"game": g.index, "reason": g.reason}
                            for g in self.games if g.fault],
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


# -- one game as a task ----------------------------------------------------------------------
def _task(game: Game, options_json: str, specs: Sequence[str], seed: int, index: int,
          rotate: bool, max_moves: int, time_per_move: float, keep_moves: bool,
          time_limit: float = 0.0) -> GameTask:
    seats = seating(index, len(specs), rotate)
    return GameTask(
        key=str(index), game=game.name, options_json=options_json,
        specs=tuple(specs[p] for p in seats), state_seed=seed + index,
        bot_seeds=tuple(bot_seed(seed, index, p) for p in seats),
        max_moves=max_moves, time_per_move=time_per_move, keep_moves=keep_moves,
        plugin_dirs=tuple(plugins._plugin_dirs), time_limit=time_limit,
    )


def _result(report: GameReport, index: int, seats: tuple[int, ...]) -> GameResult:
    if report.error:
        return GameResult(index, seats, (), "", 0, error=report.error)
    winners = tuple(sorted(seats[w] for w in report.winners))
    return GameResult(index, seats, winners, report.reason, report.moves,
                      unfinished=report.unfinished,
                      fault=report.fault.kind if report.fault else "")


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
    time_per_move: float = DEFAULT_TIME_PER_MOVE,
    time_limit: float = 0.0,
    save_dir: str | os.PathLike[str] | None = None,
    progress: Callable[[MatchResult], None] | None = None,
    on_move: Callable[[int, int], None] | None = None,
    backend: Backend | None = None,
) -> MatchResult:
    """Play ``games`` games between the bots ``specs`` (one per seat) and count results.

    The game must be installed under its name (workers rebuild it from its name and
    options). ``time_limit``: the deadline of each call into the rules (seconds; 0: none):
    a game whose rules run longer is an error. ``progress`` is called after each game,
    ``on_move(game index, moves)`` while a long game is being played. Ctrl-C ends the
    match early: the result holds the games finished so far, with ``interrupted`` set.
    """
    if games < 1:
        raise OptionError("a match needs at least one game")
    if games > MAX_GAMES:
        raise OptionError(f"--games {games} is more than a match can play (at most "
                          f"{MAX_GAMES:,})")
    if time_per_move < 0:
        raise OptionError("--time-per-move must be 0 (no limit) or more seconds")
    if time_limit < 0:
        raise OptionError("--time-limit must be 0 (no limit) or more seconds")
    if backend is None:
        backend = make_backend("local", jobs)
    check_bots(game, specs)
    with call_deadline(time_limit, "the game's start"):
        seats = len(game.new_state(seed=seed).players)
    if seats != len(specs):
        raise OptionError(f"{game} has {seats} seats but {len(specs)} players were given")
    if save_dir is not None:
        Path(save_dir).mkdir(parents=True, exist_ok=True)
    # Default options are left out: some defaults (None) cannot be given explicitly.
    options_json = json.dumps(game.non_default_options(), sort_keys=True)
    keep = save_dir is not None

    def tasks() -> Iterator[GameTask]:
        for i in range(games):
            yield _task(game, options_json, specs, seed, i, rotate, max_moves, time_per_move,
                        keep, time_limit)

    result = MatchResult(str(game), seed, [PlayerScore(s) for s in specs], planned=games)
    remember_game(game, options_json)

    def arrived(report: GameReport) -> None:
        check_version(game, report)
        index = int(report.key)
        with interrupts_deferred():
            if save_dir is not None and not report.error:
                task = _task(game, options_json, specs, seed, index, rotate, max_moves,
                             time_per_move, keep, time_limit)
                save_game_record(Path(save_dir) / f"game-{index + 1:04d}.json", game, task,
                                 report)
            result.add(_result(report, index, seating(index, len(specs), rotate)))
        if progress:
            progress(result)

    started = time.perf_counter()
    try:
        backend.run(tasks(), arrived,
                    (lambda key, moves: on_move(int(key), moves)) if on_move else None)
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        backend.close()
        result.games.sort(key=lambda g: g.index)
        result.seconds = time.perf_counter() - started
    return result
