"""The results store: one SQLite database per tournament, one row per game.

The tournament's settings are kept in the ``meta`` table, so ``--resume DB`` and ``--report
DB`` need nothing else. A game's row is written (and committed) as soon as its result
arrives; its primary key is the game's number in the schedule, and rows are inserted with
``INSERT OR IGNORE``, so a game is stored once however often it is reported, and a resumed
tournament plays exactly the games that have no row.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from hexkit.errors import ConfigError, HexkitError
from hexkit.files.jsonfile import parse_json
from hexkit.tournament.referee import GameReport

#: Written in ``meta``; a database without it is not a hexkit tournament.
KIND = "hexkit-tournament"
SCHEMA = 1

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    number INTEGER PRIMARY KEY,  -- the game's place in the schedule: its id
    seats TEXT NOT NULL,         -- JSON: the bot (index) in each seat
    winners TEXT NOT NULL,       -- JSON: the winning bots (indices); [] for a draw
    reason TEXT NOT NULL,
    moves INTEGER NOT NULL,
    unfinished INTEGER NOT NULL, -- 1: stopped at the move cap (a draw)
    fault_bot INTEGER,           -- the bot that lost by adjudication, if any
    fault_kind TEXT,             -- time, illegal or crash
    fault_detail TEXT,
    error TEXT NOT NULL,         -- not empty: the game could not be played; no result
    seconds REAL NOT NULL,
    finished_at TEXT NOT NULL
);
"""


class StoreError(HexkitError):
    """The database cannot be used as a tournament store."""


@dataclass(frozen=True)
class GameRow:
    """One stored game, in terms of bots (indices into the tournament's bot list)."""

    number: int
    seats: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    moves: int
    unfinished: bool
    fault_bot: int | None
    fault_kind: str | None
    fault_detail: str | None
    error: str
    seconds: float

    @property
    def played(self) -> bool:
        """Whether the game counts (it has a result, even by adjudication)."""
        return not self.error


class ResultStore:
    """A tournament's SQLite database (see the module docstring)."""

    def __init__(self, path: str | os.PathLike[str], connection: sqlite3.Connection):
        self.path = str(path)
        self._db = connection
        self.config: dict[str, Any] = {}
        self._lock_fd: int | None = None

    # -- opening ----------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike[str], config: dict[str, Any]) -> ResultStore:
        """A new database at ``path`` holding ``config``; refused if the file exists."""
        if Path(path).exists():
            raise StoreError(f"{path} already exists; continue it with --resume {path} or "
                             "choose another --db")
        db = _connect(path)
        try:
            with db:
                db.executescript(_TABLES)
                db.executemany("INSERT INTO meta VALUES (?, ?)", [
                    ("kind", KIND), ("schema", str(SCHEMA)),
                    ("config", json.dumps(config, sort_keys=True)),
                ])
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"{path}: cannot create the database: {exc}") from None
        store = cls(path, db)
        store.config = dict(config)
        return store

    @classmethod
    def open(cls, path: str | os.PathLike[str]) -> ResultStore:
        """An existing tournament database (StoreError, one line, if it is not one)."""
        if not Path(path).is_file():
            raise StoreError(f"{path}: no such tournament database")
        db = _connect(path)
        try:
            meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
            db.execute("SELECT number FROM games LIMIT 1").fetchall()
        except sqlite3.Error:
            db.close()
            raise StoreError(f"{path}: not a hexkit tournament database") from None
        if meta.get("kind") != KIND or "config" not in meta:
            db.close()
            raise StoreError(f"{path}: not a hexkit tournament database")
        if meta.get("schema") != str(SCHEMA):
            db.close()
            raise StoreError(f"{path}: made by another version of hexkit "
                             f"(schema {meta.get('schema')}, this one reads {SCHEMA})")
        store = cls(path, db)
        try:
            store.config = parse_json(meta["config"])
        except (ConfigError, TypeError):
            db.close()
            raise StoreError(f"{path}: its tournament settings are damaged") from None
        return store

    def lock(self) -> None:
        """Claim the database for playing: StoreError if another process is playing it
        (two players of one tournament would play the same missing games)."""
        try:
            import fcntl
        except ImportError:  # not on this platform: no claim
            return
        fd = os.open(self.path, os.O_RDONLY)
        try:
            # flock and SQLite's own (fcntl) locks are independent on Linux and BSD
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise StoreError(f"{self.path} is being played by another hexkit tournament; "
                             "wait for it to end or stop it first") from None
        self._lock_fd = fd

    def close(self) -> None:
        """Close the database (every stored game is already committed)."""
        self._db.close()
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    # -- games --------------------------------------------------------------------------------
    def played(self) -> set[int]:
        """The numbers of the games already stored."""
        return {n for (n,) in self._db.execute("SELECT number FROM games")}

    def add(self, number: int, seats: tuple[int, ...], report: GameReport) -> bool:
        """Store a game's result (bots by index: ``seats[s]`` sat in seat ``s``); False if
        the game was already stored (the first result stays)."""
        fault = report.fault
        row = (
            number, json.dumps(list(seats)),
            json.dumps(sorted(seats[s] for s in report.winners)),
            report.reason, report.moves, int(report.unfinished),
            None if fault is None else seats[fault.seat],
            None if fault is None else fault.kind,
            None if fault is None else fault.detail,
            report.error, round(report.seconds, 6),
            datetime.now(UTC).isoformat(timespec="seconds"),
        )
        with self._db:
            cursor = self._db.execute(
                "INSERT OR IGNORE INTO games VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", row)
        return cursor.rowcount == 1

    def games(self) -> list[GameRow]:
        """Every stored game, in schedule order."""
        return list(self._rows())

    def _rows(self) -> Iterator[GameRow]:
        query = ("SELECT number, seats, winners, reason, moves, unfinished, fault_bot, "
                 "fault_kind, fault_detail, error, seconds FROM games ORDER BY number")
        try:
            for row in self._db.execute(query):
                yield GameRow(row[0], tuple(json.loads(row[1])), tuple(json.loads(row[2])),
                              row[3], row[4], bool(row[5]), row[6], row[7], row[8], row[9],
                              row[10])
        except (sqlite3.Error, ValueError, TypeError) as exc:
            raise StoreError(f"{self.path}: a stored game is damaged: {exc}") from None


def _connect(path: str | os.PathLike[str]) -> sqlite3.Connection:
    try:
        db = sqlite3.connect(str(path))
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
    except sqlite3.Error as exc:
        raise StoreError(f"{path}: {exc}") from None
    return db
