"""Where a ``hexkit serve`` server keeps what must outlive it: games, seats, owners,
accounts, sessions, and the archive.

:class:`Storage` is the narrow interface the rooms and accounts use; every method is one
row-sized operation, so a database implementation (PostgreSQL) maps each to a statement or
two. :class:`FolderStorage` is the embedded default, nothing to install:

- each live game is two files in the server's folder, written atomically: the game record
  ``ID.json`` (readable by ``hexkit replay``) and ``ID.seats.json`` (seat specs, the
  SHA-256 of each seat's token, owner, players' names, whether it was stopped);
- archived games move to ``archive/``, and are listed from an index;
- accounts, sessions, one-time links and the archive index live in ``server.sqlite3``.

Nothing here trusts what it reads back: the rooms re-check every record move by move and
every seat spec as if it came from a request.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from hexkit.fileio import MAX_DATA_BYTES, write_text_atomic
from hexkit.jsonfile import load_json
from hexkit.records import GameRecord, load_record, save_record

#: The format of a seats file.
SEATS_FORMAT = "hexkit-web-seats"


@dataclass
class Account:
    """A person who may sign in. ``password`` is the password hash (argon2 or scrypt);
    ``''`` until the person sets one through their one-time link."""

    name: str
    password: str = ""
    admin: bool = False
    email: str = ""
    student_id: str = ""
    display: str = ""
    created: float = 0.0


class Storage(Protocol):
    """What the server keeps; one call, one row (or one file)."""

    # -- games ---------------------------------------------------------------------------
    def game_ids(self) -> list[str]: ...
    def load_game(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any]]: ...
    def save_record(self, game_id: str, record: GameRecord) -> None: ...
    def save_seats(self, game_id: str, seats: Mapping[str, Any]) -> None: ...
    def delete_game(self, game_id: str) -> None: ...
    def archive_game(self, game_id: str, summary: Mapping[str, Any]) -> None: ...
    def archived(self, offset: int, limit: int, owner: str | None = None
                 ) -> tuple[list[dict[str, Any]], int]: ...
    def archived_record(self, game_id: str) -> GameRecord | None: ...

    # -- accounts ------------------------------------------------------------------------
    def account(self, name: str) -> Account | None: ...
    def accounts(self) -> list[Account]: ...
    def put_account(self, account: Account) -> None: ...
    def remove_account(self, name: str) -> bool: ...

    # -- sessions and one-time links (keys are stored hashed) ----------------------------
    def put_session(self, key_hash: str, name: str, expires: float) -> None: ...
    def session(self, key_hash: str) -> str | None: ...
    def drop_session(self, key_hash: str) -> None: ...
    def drop_sessions_of(self, name: str) -> None: ...
    def put_link(self, key_hash: str, name: str, expires: float) -> None: ...
    def take_link(self, key_hash: str) -> str | None: ...
    def secret(self) -> bytes: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS accounts (
    name TEXT PRIMARY KEY, password TEXT NOT NULL, admin INTEGER NOT NULL,
    email TEXT NOT NULL, student_id TEXT NOT NULL, display TEXT NOT NULL,
    created REAL NOT NULL);
CREATE TABLE IF NOT EXISTS sessions (
    key_hash TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS links (
    key_hash TEXT PRIMARY KEY, name TEXT NOT NULL, expires REAL NOT NULL);
CREATE TABLE IF NOT EXISTS archive (
    id TEXT PRIMARY KEY, owner TEXT NOT NULL, summary TEXT NOT NULL, archived REAL NOT NULL);
CREATE INDEX IF NOT EXISTS archive_by_time ON archive (archived);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
"""


class FolderStorage:
    """The embedded storage: files for games, SQLite for the rest, in one folder (None:
    everything in memory, for tests)."""

    def __init__(self, folder: str | os.PathLike[str] | None):
        self.folder = None if folder is None else Path(folder)
        self._lock = threading.Lock()
        self._records: dict[str, tuple[GameRecord, dict[str, Any]]] = {}
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            self.clean_temporaries()
            database = str(self.folder / "server.sqlite3")
        else:
            database = ":memory:"
        self.db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        if self.folder is not None:
            with contextlib.suppress(OSError):
                os.chmod(self.folder / "server.sqlite3", 0o600)
        self.db.executescript(_SCHEMA)

    @contextlib.contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self.db

    def close(self) -> None:
        self.db.close()

    def clean_temporaries(self) -> int:
        """Remove the temporary files a killed save left in the folder (at start-up)."""
        if self.folder is None:
            return 0
        removed = 0
        for folder in (self.folder, self.folder / "archive"):
            try:
                strays = list(folder.glob(".*.json.*.tmp"))
            except OSError:
                continue
            for stray in strays:
                with contextlib.suppress(OSError):
                    stray.unlink()
                    removed += 1
        return removed

    # -- games ---------------------------------------------------------------------------
    def _path(self, game_id: str, suffix: str, archived: bool = False) -> Path:
        assert self.folder is not None
        base = self.folder / "archive" if archived else self.folder
        return base / f"{game_id}{suffix}"

    def game_ids(self) -> list[str]:
        if self.folder is None:
            return sorted(self._records)
        return sorted(p.name[: -len(".seats.json")] for p in self.folder.glob("*.seats.json"))

    def load_game(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any]]:
        if self.folder is None:
            record, seats = self._records[game_id]
            return record, seats
        seats = load_json(self._path(game_id, ".seats.json"), MAX_DATA_BYTES)
        if not isinstance(seats, Mapping) or seats.get("format") != SEATS_FORMAT:
            raise ValueError(f"not a {SEATS_FORMAT} file")
        return load_record(self._path(game_id, ".json")), seats

    def save_record(self, game_id: str, record: GameRecord) -> None:
        if self.folder is None:
            seats = self._records.get(game_id, (record, {}))[1]
            self._records[game_id] = (record, seats)
            return
        save_record(self._path(game_id, ".json"), record, clean=False)

    def save_seats(self, game_id: str, seats: Mapping[str, Any]) -> None:
        data = {"format": SEATS_FORMAT, "version": 1, **seats}
        if self.folder is None:
            record = self._records.get(game_id, (None, {}))[0]
            self._records[game_id] = (record, data)  # type: ignore[assignment]
            return
        write_text_atomic(self._path(game_id, ".seats.json"),
                          json.dumps(data, indent=1) + "\n")

    def delete_game(self, game_id: str) -> None:
        if self.folder is None:
            self._records.pop(game_id, None)
            return
        for suffix in (".json", ".seats.json"):
            for archived in (False, True):
                with contextlib.suppress(FileNotFoundError):
                    self._path(game_id, suffix, archived).unlink()
        with self._sql() as db:
            db.execute("DELETE FROM archive WHERE id = ?", (game_id,))

    def archive_game(self, game_id: str, summary: Mapping[str, Any]) -> None:
        owner = str(summary.get("owner") or "")
        if self.folder is not None:
            (self.folder / "archive").mkdir(exist_ok=True)
            for suffix in (".json", ".seats.json"):
                with contextlib.suppress(FileNotFoundError):
                    os.replace(self._path(game_id, suffix), self._path(game_id, suffix, True))
        else:
            record, _ = self._records.pop(game_id, (None, {}))
            if record is not None:
                self._records[f"archive:{game_id}"] = (record, {})
        with self._sql() as db:
            db.execute("INSERT OR REPLACE INTO archive VALUES (?, ?, ?, ?)",
                       (game_id, owner, json.dumps(dict(summary)), time.time()))

    def archived(self, offset: int, limit: int, owner: str | None = None
                 ) -> tuple[list[dict[str, Any]], int]:
        where, args = ("WHERE owner = ?", (owner,)) if owner is not None else ("", ())
        with self._sql() as db:
            total = db.execute(f"SELECT count(*) FROM archive {where}", args).fetchone()[0]
            rows = db.execute(f"SELECT summary FROM archive {where} ORDER BY archived DESC "
                              "LIMIT ? OFFSET ?", (*args, limit, offset)).fetchall()
        return [json.loads(r[0]) for r in rows], int(total)

    def archived_record(self, game_id: str) -> GameRecord | None:
        if self.folder is None:
            found = self._records.get(f"archive:{game_id}")
            return None if found is None else found[0]
        path = self._path(game_id, ".json", True)
        return load_record(path) if path.is_file() else None

    # -- accounts ------------------------------------------------------------------------
    def account(self, name: str) -> Account | None:
        with self._sql() as db:
            row = db.execute("SELECT name, password, admin, email, student_id, display, "
                             "created FROM accounts WHERE name = ?", (name,)).fetchone()
        return None if row is None else Account(row[0], row[1], bool(row[2]), row[3], row[4],
                                                row[5], row[6])

    def accounts(self) -> list[Account]:
        with self._sql() as db:
            rows = db.execute("SELECT name, password, admin, email, student_id, display, "
                              "created FROM accounts ORDER BY name").fetchall()
        return [Account(r[0], r[1], bool(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def put_account(self, account: Account) -> None:
        with self._sql() as db:
            db.execute("INSERT OR REPLACE INTO accounts VALUES (?, ?, ?, ?, ?, ?, ?)",
                       (account.name, account.password, int(account.admin), account.email,
                        account.student_id, account.display,
                        account.created or time.time()))

    def remove_account(self, name: str) -> bool:
        with self._sql() as db:
            gone = db.execute("DELETE FROM accounts WHERE name = ?", (name,)).rowcount
            db.execute("DELETE FROM sessions WHERE name = ?", (name,))
            db.execute("DELETE FROM links WHERE name = ?", (name,))
        return bool(gone)

    # -- sessions and links --------------------------------------------------------------
    def put_session(self, key_hash: str, name: str, expires: float) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM sessions WHERE expires < ?", (time.time(),))
            db.execute("INSERT OR REPLACE INTO sessions VALUES (?, ?, ?)",
                       (key_hash, name, expires))

    def session(self, key_hash: str) -> str | None:
        with self._sql() as db:
            row = db.execute("SELECT name, expires FROM sessions WHERE key_hash = ?",
                             (key_hash,)).fetchone()
        if row is None or row[1] < time.time():
            return None
        return str(row[0])

    def drop_session(self, key_hash: str) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM sessions WHERE key_hash = ?", (key_hash,))

    def drop_sessions_of(self, name: str) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM sessions WHERE name = ?", (name,))

    def put_link(self, key_hash: str, name: str, expires: float) -> None:
        with self._sql() as db:
            db.execute("DELETE FROM links WHERE name = ? OR expires < ?", (name, time.time()))
            db.execute("INSERT INTO links VALUES (?, ?, ?)", (key_hash, name, expires))

    def take_link(self, key_hash: str) -> str | None:
        with self._sql() as db:
            row = db.execute("SELECT name, expires FROM links WHERE key_hash = ?",
                             (key_hash,)).fetchone()
            db.execute("DELETE FROM links WHERE key_hash = ?", (key_hash,))
        if row is None or row[1] < time.time():
            return None
        return str(row[0])

    def secret(self) -> bytes:
        """The server's signing key, made once and kept (sessions survive a restart)."""
        import secrets

        with self._sql() as db:
            row = db.execute("SELECT value FROM meta WHERE key = 'secret'").fetchone()
            if row is not None:
                return bytes(row[0])
            key = secrets.token_bytes(32)
            db.execute("INSERT INTO meta VALUES ('secret', ?)", (key,))
            return key
