"""Running a tournament: its settings, its games as tasks, its results into the store."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.bots import make_bot, starts_process
from hexkit.errors import OptionError
from hexkit.game import Game
from hexkit.tournament.backends import Backend, interrupts_deferred
from hexkit.tournament.pairings import Pairing, Schedule, derived_seed
from hexkit.tournament.referee import GameReport, GameTask, remember_game
from hexkit.tournament.store import ResultStore

#: Moves after which a tournament game is stopped and counted as a draw.
DEFAULT_MAX_MOVES = 2000
#: Seconds a bot may think about one move before it loses on time.
DEFAULT_TIME_PER_MOVE = 60.0
#: The most games one match or tournament may ask for: a million random games already take
#: hours on a workstation, so more is a typo (tasks are made only when a worker needs one).
MAX_GAMES = 1_000_000


@dataclass(frozen=True)
class TournamentConfig:
    """Everything that decides a tournament's games (kept in its database)."""

    game: str  # the game's name
    options: dict[str, Any]  # its non-default options
    bots: tuple[str, ...]
    format: str = "round-robin"
    games_per_pair: int | None = None  # None: the schedule's default
    seed: int = 0
    max_moves: int = DEFAULT_MAX_MOVES
    time_per_move: float = DEFAULT_TIME_PER_MOVE
    save_dir: str = ""  # where game records go ("": not kept)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TournamentConfig:
        try:
            data = dict(data)
            data["bots"] = tuple(data["bots"])
            return cls(**data)
        except (KeyError, TypeError) as exc:
            raise OptionError(f"the tournament's settings are damaged: {exc}") from None

    def load_game(self) -> Game:
        return plugins.load_game(self.game, **self.options)


@dataclass
class Tournament:
    """A tournament ready to run: its settings, game, schedule and store."""

    config: TournamentConfig
    game: Game
    schedule: Schedule
    store: ResultStore

    @classmethod
    def prepare(cls, config: TournamentConfig, store: ResultStore | None = None,
                db: str | None = None, *, to_play: bool = True,
                operator_bots: tuple[str, ...] | list[str] | None = None) -> Tournament:
        """Check the settings (unknown bots, seats, counts: one-line OptionErrors) and open
        or create the store. ``to_play=False`` (a report) does not build the bots.

        ``operator_bots`` are the bot specs given on this command line: a bot of the
        settings that starts a program plays only if it is among them (a database read
        back with ``--resume`` names no program the operator did not give again)."""
        game = config.load_game()
        if to_play:
            check_programs(config.bots, operator_bots or ())
        if len(set(config.bots)) != len(config.bots):
            twice = next(b for b in config.bots if config.bots.count(b) > 1)
            raise OptionError(f"bot {twice!r} is listed twice; every bot plays once")
        seats = len(game.new_state(seed=0).players)
        schedule = Schedule(len(config.bots), seats, config.format, config.games_per_pair)
        if to_play and len(schedule) > MAX_GAMES:
            raise OptionError(f"this tournament would play {len(schedule):,} games, more than "
                              f"one can (at most {MAX_GAMES:,}): fewer bots or a smaller "
                              "--games-per-pair")
        if to_play:
            check_bots(game, config.bots)
        if config.max_moves < 1:
            raise OptionError("--max-moves must be at least 1")
        if config.time_per_move < 0:
            raise OptionError("--time-per-move must be 0 (no limit) or more seconds")
        if store is None:
            if db is None:
                raise OptionError("a tournament needs a database file (--db)")
            store = ResultStore.create(db, config.to_dict())
        if to_play:
            store.lock()
        return cls(config, game, schedule, store)

    def task(self, pairing: Pairing) -> GameTask:
        """The plain-data task of one scheduled game."""
        c = self.config
        return GameTask(
            key=str(pairing.number), game=self.game.name,
            options_json=json.dumps(c.options, sort_keys=True),
            specs=tuple(c.bots[b] for b in pairing.seats),
            state_seed=derived_seed(c.seed, "start", pairing.group, pairing.round),
            bot_seeds=tuple(derived_seed(c.seed, "bot", pairing.number, s)
                            for s in range(len(pairing.seats))),
            max_moves=c.max_moves, time_per_move=c.time_per_move,
            keep_moves=bool(c.save_dir), plugin_dirs=tuple(plugins._plugin_dirs),
        )

    def remaining(self) -> Iterator[Pairing]:
        """The scheduled games not in the store yet, in schedule order (lazily)."""
        done = self.store.played()
        return (p for p in self.schedule if p.number not in done)

    def run(self, backend: Backend, *,
            on_game: Callable[[Pairing, GameReport], None] | None = None,
            on_move: Callable[[str, int], None] | None = None) -> int:
        """Play every game still missing, storing each as it ends; the number stored now.
        ``KeyboardInterrupt`` passes through with everything finished already stored."""
        pairings: dict[str, Pairing] = {}
        stored = 0

        def tasks() -> Iterator[GameTask]:
            for p in self.remaining():
                task = self.task(p)
                pairings[task.key] = p
                yield task

        def arrived(report: GameReport) -> None:
            nonlocal stored
            check_version(self.game, report)
            pairing = pairings.pop(report.key)
            with interrupts_deferred():
                if self.config.save_dir and not report.error:
                    save_game_record(
                        Path(self.config.save_dir) / f"game-{pairing.number:05d}.json",
                        self.game, self.task(pairing), report)
                if self.store.add(pairing.number, pairing.seats, report):
                    stored += 1
            if on_game:
                on_game(pairing, report)

        if self.config.save_dir:
            Path(self.config.save_dir).mkdir(parents=True, exist_ok=True)
        remember_game(self.game, json.dumps(self.config.options, sort_keys=True))
        backend.run(tasks(), arrived, on_move)
        return stored


def check_programs(specs: tuple[str, ...] | list[str],
                   given: tuple[str, ...] | list[str]) -> None:
    """OptionError if a spec that starts a program is not among ``given`` (the command
    line's own specs)."""
    for spec in specs:
        if starts_process(spec) and spec not in given:
            raise OptionError(
                f"the tournament's bot {spec.partition(':')[0]!r} starts a program, which "
                "runs only when given on the command line: resume with --bots and the same "
                "bots, in the same order, to run it")


def check_bots(game: Game, specs: Sequence[str]) -> None:
    """Fail fast, in this process, on an unknown bot, a bad argument or a human."""
    for spec in specs:
        bot = make_bot(game, spec, 0, from_operator=True)  # checked by check_programs
        if bot is None:
            raise OptionError("a match is between bots; 'human' cannot play one")
        close = getattr(bot, "close", None)
        if callable(close):
            close()


def check_version(game: Game, report: GameReport) -> None:
    """Refuse a result played with another version of the game's rules (a cluster node with
    different plugins installed)."""
    if report.game_version and report.game_version != game.spec.version:
        raise OptionError(
            f"a worker played {game.name} version {report.game_version} but this machine has "
            f"version {game.spec.version}: install the same plugins on every node")


def save_game_record(path: Path, game: Game, task: GameTask, report: GameReport) -> None:
    """Write one game's record (moves and result) from its report."""
    from hexkit.files.records import GameRecord, save_record

    record = GameRecord.for_game(game, seed=task.state_seed, players=list(task.specs))
    record.moves = list(report.move_list)
    record.result = report.outcome
    save_record(path, record)
