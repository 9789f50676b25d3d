"""The games, accounts and sessions of ``hexkit serve`` in PostgreSQL (``--storage
postgresql://USER@HOST:PORT/DB``, the ``postgres`` extra: psycopg 3), shared by every
process serving them.

One row per game holds its record and seats document (as JSON text, read back with the
same bounds as a file and re-checked move by move by the rooms), its lobby row and its
``seq``. A commit is one ``UPDATE ... WHERE id = ? AND seq = ?``: a process whose view of
the game is stale updates nothing and gets :class:`~hexkit.web.storage.Conflict`, so the
moves of one game are applied one at a time across processes, none lost and none twice.
Commits are durable when they return (PostgreSQL's ``synchronous_commit``). A bot's turn
is claimed with a lease on the row, so one process plays it; the lease of a process that
died runs out and another one plays the turn.

Each thread has its own connection (the rooms' workers call from threads, never from the
event loop). Tables are prefixed ``hexkit_``, so a database may be shared with other
applications.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from hexkit.errors import HexkitError
from hexkit.files.fileio import MAX_DATA_BYTES, MAX_RECORD_BYTES
from hexkit.files.jsonfile import parse_json
from hexkit.files.records import GameRecord
from hexkit.web.storage import (
    SEATS_FORMAT,
    Account,
    Conflict,
    IndexRow,
    after_durable,
    players_text,
)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS hexkit_games (
    id TEXT PRIMARY KEY, seq BIGINT NOT NULL, record TEXT NOT NULL, seats TEXT NOT NULL,
    client TEXT NOT NULL, account TEXT NOT NULL, players TEXT NOT NULL,
    finished BOOLEAN NOT NULL, created DOUBLE PRECISION NOT NULL,
    updated DOUBLE PRECISION NOT NULL, summary TEXT NOT NULL,
    archived BOOLEAN NOT NULL DEFAULT false, bot_until DOUBLE PRECISION NOT NULL DEFAULT 0);
CREATE INDEX IF NOT EXISTS hexkit_games_lobby ON hexkit_games (archived, finished, created);
CREATE TABLE IF NOT EXISTS hexkit_accounts (
    name TEXT PRIMARY KEY, password TEXT NOT NULL, admin BOOLEAN NOT NULL,
    email TEXT NOT NULL, student_id TEXT NOT NULL, display TEXT NOT NULL,
    created DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS hexkit_sessions (
    key_hash TEXT PRIMARY KEY, name TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS hexkit_links (
    key_hash TEXT PRIMARY KEY, name TEXT NOT NULL, expires DOUBLE PRECISION NOT NULL);
CREATE TABLE IF NOT EXISTS hexkit_meta (key TEXT PRIMARY KEY, value BYTEA NOT NULL);
ALTER TABLE hexkit_games ADD COLUMN IF NOT EXISTS deadline DOUBLE PRECISION;
CREATE INDEX IF NOT EXISTS hexkit_games_deadline ON hexkit_games (deadline)
    WHERE NOT finished AND NOT archived;
"""
#: Held while the tables are made, so that processes starting together do not race.
_SCHEMA_LOCK = 0x6865786B6974  # "hexkit"
_NOW = "extract(epoch from clock_timestamp())"



def _account(row: Sequence[Any]) -> Account:
    """An account from its row (the columns of ``PostgresStorage._ACCOUNT``)."""
    name, password, admin, email, student_id, display, created = row
    return Account(name, password, bool(admin), email, student_id, display, created)

class PostgresStorage:
    """The :class:`~hexkit.web.storage.Storage` of several processes, in PostgreSQL."""

    shared = True
    folder = None
    unindexed: list[str] = []

    def __init__(self, url: str):
        import psycopg

        self.url = url
        self.psycopg = psycopg
        self._local = threading.local()
        self._all: list[Any] = []
        self._lock = threading.Lock()
        try:
            db = self._db()
            db.execute("SELECT pg_advisory_lock(%s)", (_SCHEMA_LOCK,))
            try:
                db.execute(_SCHEMA)
            finally:
                db.execute("SELECT pg_advisory_unlock(%s)", (_SCHEMA_LOCK,))
        except psycopg.Error as exc:
            raise HexkitError(f"--storage: cannot use the database: {_reason(exc)}") from None

    def _db(self) -> Any:
        """This thread's connection (made on first use, made again if it broke)."""
        db = getattr(self._local, "db", None)
        if db is None or db.closed or db.broken:
            db = self.psycopg.connect(self.url, autocommit=True,
                                      application_name="hexkit serve", connect_timeout=10)
            self._local.db = db
            with self._lock:
                self._all.append(db)
        return db

    def _run(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        """One statement, as a cursor; a database error is an OSError (a failed save)."""
        try:
            return self._db().execute(sql, args)
        except self.psycopg.Error as exc:
            raise OSError(0, f"the database failed: {_reason(exc)}") from None

    def close(self) -> None:
        with self._lock:
            for db in self._all:
                try:
                    db.close()
                except self.psycopg.Error:
                    pass
            self._all.clear()

    # -- games ---------------------------------------------------------------------------
    def load(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any], int]:
        row = self._run("SELECT record, seats, seq FROM hexkit_games WHERE id = %s AND NOT "
                        "archived", (game_id,)).fetchone()
        if row is None:
            raise KeyError(game_id)
        record = _record(row[0], f"game {game_id}")
        seats = _json(row[1], MAX_DATA_BYTES, "its seats")
        if not isinstance(seats, Mapping) or seats.get("format") != SEATS_FORMAT:
            raise ValueError(f"not a {SEATS_FORMAT} document")
        return record, seats, int(row[2])

    def load_game(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any]]:
        record, seats, _ = self.load(game_id)
        return record, seats

    def seq_of(self, game_id: str) -> int | None:
        row = self._run("SELECT seq FROM hexkit_games WHERE id = %s AND NOT archived",
                        (game_id,)).fetchone()
        return None if row is None else int(row[0])

    def commit(self, game_id: str, *, record: GameRecord | None = None,
               seats: Mapping[str, Any] | None = None, row: IndexRow | None = None,
               expected: int | None = None,
               durable: Callable[[], None] | None = None) -> int:
        """Save what changed of one game and its row in one statement, checking
        ``expected`` against the row's ``seq``; ``durable()`` once it is committed."""
        record_text = None if record is None else json.dumps(record.to_dict())
        seats_text = None if seats is None else json.dumps(
            {"format": SEATS_FORMAT, "version": 1, **seats})
        row = row or IndexRow({})
        index = (row.client, row.account, players_text(row.players), row.finished,
                 json.dumps(row.summary), row.deadline)
        if expected is None:
            if record_text is None or seats_text is None:
                raise HexkitError("a new game is saved with its record and its seats")
            try:
                self._db().execute(
                    "INSERT INTO hexkit_games (id, seq, record, seats, client, account, "
                    "players, finished, summary, deadline, created, updated) VALUES (%s, 1, "
                    f"%s, %s, %s, %s, %s, %s, %s, %s, %s, {_NOW})",
                    (game_id, record_text, seats_text, *index, row.created or time.time()))
            except self.psycopg.errors.UniqueViolation:
                raise Conflict(f"game {game_id} exists already") from None
            except self.psycopg.Error as exc:
                raise OSError(0, f"the database failed: {_reason(exc)}") from None
            after_durable(durable)
            return 1
        found = self._run(
            "UPDATE hexkit_games SET seq = seq + 1, record = COALESCE(%s, record), "
            "seats = COALESCE(%s, seats), client = %s, account = %s, players = %s, "
            f"finished = %s, summary = %s, deadline = %s, updated = {_NOW} "
            "WHERE id = %s AND seq = %s AND NOT archived RETURNING seq",
            (record_text, seats_text, *index, game_id, expected)).fetchone()
        if found is None:
            raise Conflict(f"game {game_id} changed meanwhile")
        after_durable(durable)
        return int(found[0])

    def put_row(self, game_id: str, row: IndexRow) -> None:
        self._run("UPDATE hexkit_games SET client = %s, account = %s, players = %s, "
                  "finished = %s, summary = %s, deadline = %s WHERE id = %s",
                  (row.client, row.account, players_text(row.players), row.finished,
                   json.dumps(row.summary), row.deadline, game_id))

    def lobby(self, offset: int, limit: int, mine: str | None = None
              ) -> tuple[list[dict[str, Any]], int]:
        where, args = "WHERE NOT archived", ()  # type: tuple[str, tuple[Any, ...]]
        if mine is not None:
            where += " AND (account = %s OR strpos(players, %s) > 0)"
            args = (mine, json.dumps(mine))
        total = self._run(f"SELECT count(*) FROM hexkit_games {where}", args).fetchone()[0]
        rows = self._run(f"SELECT summary FROM hexkit_games {where} ORDER BY finished, "
                         "created DESC LIMIT %s OFFSET %s", (*args, limit, offset)).fetchall()
        return [json.loads(r[0]) for r in rows], int(total)

    def live_count(self, client: str | None = None) -> int:
        if client is None:
            row = self._run("SELECT count(*) FROM hexkit_games WHERE NOT archived AND NOT "
                            "finished").fetchone()
        else:
            row = self._run("SELECT count(*) FROM hexkit_games WHERE NOT archived AND NOT "
                            "finished AND client = %s", (client,)).fetchone()
        return int(row[0])

    def due_clocks(self, now: float, limit: int = 100) -> list[str]:
        """Live games whose running clock ran out by ``now``, the earliest first."""
        rows = self._run("SELECT id FROM hexkit_games WHERE deadline <= %s AND NOT finished "
                         "AND NOT archived ORDER BY deadline LIMIT %s", (now, limit)).fetchall()
        return [r[0] for r in rows]

    def idle_finished(self, older_than: float) -> list[str]:
        rows = self._run(f"SELECT id FROM hexkit_games WHERE finished AND NOT archived AND "
                         f"updated <= {_NOW} - %s", (older_than,)).fetchall()
        return [r[0] for r in rows]

    def claim_bot(self, game_id: str, seq: int, seconds: float) -> bool:
        """True if this process plays the bot's turn of the game at ``seq`` (no other
        process holds a lease on it): the lease runs ``seconds``."""
        found = self._run(f"UPDATE hexkit_games SET bot_until = {_NOW} + %s WHERE id = %s "
                          f"AND seq = %s AND bot_until < {_NOW} RETURNING id",
                          (seconds, game_id, seq)).fetchone()
        return found is not None

    def delete_game(self, game_id: str) -> None:
        self._run("DELETE FROM hexkit_games WHERE id = %s", (game_id,))

    def archive_game(self, game_id: str, summary: Mapping[str, Any]) -> None:
        self._run(f"UPDATE hexkit_games SET archived = true, summary = %s, updated = {_NOW} "
                  "WHERE id = %s", (json.dumps(dict(summary)), game_id))

    def archived(self, offset: int, limit: int, owner: str | None = None
                 ) -> tuple[list[dict[str, Any]], int]:
        where, args = "WHERE archived", ()  # type: tuple[str, tuple[Any, ...]]
        if owner is not None:
            where, args = "WHERE archived AND account = %s", (owner,)
        total = self._run(f"SELECT count(*) FROM hexkit_games {where}", args).fetchone()[0]
        rows = self._run(f"SELECT summary FROM hexkit_games {where} ORDER BY updated DESC "
                         "LIMIT %s OFFSET %s", (*args, limit, offset)).fetchall()
        return [json.loads(r[0]) for r in rows], int(total)

    def archived_record(self, game_id: str) -> GameRecord | None:
        row = self._run("SELECT record FROM hexkit_games WHERE id = %s AND archived",
                        (game_id,)).fetchone()
        return None if row is None else _record(row[0], f"game {game_id}")

    # -- accounts ------------------------------------------------------------------------
    _ACCOUNT = "name, password, admin, email, student_id, display, created"

    def account(self, name: str) -> Account | None:
        row = self._run(f"SELECT {self._ACCOUNT} FROM hexkit_accounts WHERE name = %s",
                        (name,)).fetchone()
        return None if row is None else _account(row)

    def accounts(self) -> list[Account]:
        rows = self._run(f"SELECT {self._ACCOUNT} FROM hexkit_accounts ORDER BY name"
                         ).fetchall()
        return [_account(r) for r in rows]

    def put_account(self, account: Account) -> None:
        self._run(f"INSERT INTO hexkit_accounts ({self._ACCOUNT}) VALUES (%s, %s, %s, %s, "
                  "%s, %s, %s) ON CONFLICT (name) DO UPDATE SET password = excluded.password,"
                  " admin = excluded.admin, email = excluded.email, student_id = "
                  "excluded.student_id, display = excluded.display",
                  (account.name, account.password, account.admin, account.email,
                   account.student_id, account.display, account.created or time.time()))

    def remove_account(self, name: str) -> bool:
        gone = self._run("DELETE FROM hexkit_accounts WHERE name = %s", (name,)).rowcount
        self._run("DELETE FROM hexkit_sessions WHERE name = %s", (name,))
        self._run("DELETE FROM hexkit_links WHERE name = %s", (name,))
        return bool(gone)

    # -- sessions and links --------------------------------------------------------------
    def put_session(self, key_hash: str, name: str, expires: float) -> None:
        self._run("DELETE FROM hexkit_sessions WHERE expires < %s", (time.time(),))
        self._run("INSERT INTO hexkit_sessions VALUES (%s, %s, %s) ON CONFLICT (key_hash) "
                  "DO UPDATE SET name = excluded.name, expires = excluded.expires",
                  (key_hash, name, expires))

    def session(self, key_hash: str) -> str | None:
        row = self._run("SELECT name, expires FROM hexkit_sessions WHERE key_hash = %s",
                        (key_hash,)).fetchone()
        if row is None or row[1] < time.time():
            return None
        return str(row[0])

    def drop_session(self, key_hash: str) -> None:
        self._run("DELETE FROM hexkit_sessions WHERE key_hash = %s", (key_hash,))

    def drop_sessions_of(self, name: str) -> None:
        self._run("DELETE FROM hexkit_sessions WHERE name = %s", (name,))

    def put_link(self, key_hash: str, name: str, expires: float) -> None:
        self._run("DELETE FROM hexkit_links WHERE name = %s OR expires < %s",
                  (name, time.time()))
        self._run("INSERT INTO hexkit_links VALUES (%s, %s, %s)", (key_hash, name, expires))

    def take_link(self, key_hash: str) -> str | None:
        row = self._run("DELETE FROM hexkit_links WHERE key_hash = %s RETURNING name, "
                        "expires", (key_hash,)).fetchone()
        if row is None or row[1] < time.time():
            return None
        return str(row[0])

    def secret(self) -> bytes:
        """The servers' signing key, made once and shared by every process."""
        import secrets

        self._run("INSERT INTO hexkit_meta VALUES ('secret', %s) ON CONFLICT DO NOTHING",
                  (secrets.token_bytes(32),))
        row = self._run("SELECT value FROM hexkit_meta WHERE key = 'secret'").fetchone()
        return bytes(row[0])


def _reason(exc: Exception) -> str:
    """A database error in one line, naming no password."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]


def _json(text: str, limit: int, what: str) -> Any:
    if len(text) > limit:
        raise ValueError(f"{what}: too large ({len(text)} bytes; at most {limit})")
    return parse_json(text)


def _record(text: str, what: str) -> GameRecord:
    return GameRecord.from_dict(_json(text, MAX_RECORD_BYTES, what), what)
