"""Where a ``hexkit serve`` server keeps what must outlive it: games, seats, owners,
accounts, sessions, and the archive.

:class:`Storage` is the narrow interface the rooms and accounts use; every method is one
row-sized operation, so a database implementation (PostgreSQL,
:mod:`hexkit.web.pgstorage`) maps each to a statement or two. Every change of a game is one
:meth:`Storage.commit`, durable when it returns and numbered (``seq``): a commit that
expected another number than the stored one is refused (:class:`Conflict`), which is how
several processes serialize the moves of one game. The rooms call it from worker threads,
never from the event loop. :class:`FolderStorage` is the embedded default, nothing to
install:

- each live game is two files in the server's folder (made durable by the journal): the
  game record
  ``ID.json`` (readable by ``hexkit replay``) and ``ID.seats.json`` (seat specs, the
  SHA-256 of each seat's token, owner, players' names, whether it was stopped, a pending
  undo request);
- the lobby is an index of the games (one row each: what the lobby shows, who made it,
  whether it is finished), so neither start-up nor the lobby reads the games themselves;
- archived games move to ``archive/``, and are listed from an index;
- accounts, sessions, one-time links and both indexes live in ``server.sqlite3``.

Durable saves: each commit appends the changed files' new texts to the folder's journal
(:mod:`hexkit.web.journal`), durable when the commit returns, then writes them over the
files in place (no temporary, no rename); the commits of many games waiting at once share
one fdatasync, and the journal is replayed over the files at start-up after a crash
(``benchmarks/web_saves.py`` compares the ways).

Nothing here trusts what it reads back: the rooms re-check every record move by move and
every seat spec as if it came from a request.
"""

from __future__ import annotations

import contextlib
import errno
import json
import logging
import os
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from hexkit.errors import HexkitError
from hexkit.files.fileio import MAX_DATA_BYTES, write_text_atomic
from hexkit.files.jsonfile import load_json
from hexkit.files.recordlock import check_free
from hexkit.files.records import GameRecord, load_record, save_record
from hexkit.web.journal import Journal, recover

log = logging.getLogger("hexkit.web")

#: A game's id, as the rooms make them (what the journal may name).
GAME_ID = re.compile(r"[0-9a-f]{10}\Z")
#: The files of a game, by suffix.
GAME_FILES = (".json", ".seats.json")

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


class Conflict(HexkitError):
    """A commit that expected another ``seq`` than the stored one: another process changed
    the game first."""


@dataclass
class IndexRow:
    """A game's row in the lobby: what it shows (``summary``), who made it (``client``:
    an account or an address; ``account``), the accounts seated, whether it is finished,
    when it was made, and ``deadline``: when the running clock runs out (seconds since the
    epoch; None without a running clock), so that a flag falls in a game nobody opened."""

    summary: dict[str, Any]
    client: str = ""
    account: str = ""
    players: tuple[str, ...] = ()
    finished: bool = False
    created: float = 0.0
    deadline: float | None = None


class Storage(Protocol):
    """What the server keeps; one call, one row (or one file)."""

    #: True when several processes may share this storage (their rooms check ``seq``).
    shared: bool

    # -- games ---------------------------------------------------------------------------
    def load_game(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any]]: ...
    def load(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any], int]: ...
    def seq_of(self, game_id: str) -> int | None: ...
    def commit(self, game_id: str, *, record: GameRecord | None = None,
               seats: Mapping[str, Any] | None = None, row: IndexRow | None = None,
               expected: int | None = None,
               durable: Callable[[], None] | None = None) -> int: ...
    def lobby(self, offset: int, limit: int, mine: str | None = None
              ) -> tuple[list[dict[str, Any]], int]: ...
    def live_count(self, client: str | None = None) -> int: ...
    def idle_finished(self, older_than: float) -> list[str]: ...
    def due_clocks(self, now: float, limit: int = 100) -> list[str]: ...
    def claim_bot(self, game_id: str, seq: int, seconds: float) -> bool: ...
    def put_row(self, game_id: str, row: IndexRow) -> None: ...
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
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY, client TEXT NOT NULL, account TEXT NOT NULL,
    players TEXT NOT NULL, finished INTEGER NOT NULL, created REAL NOT NULL,
    updated REAL NOT NULL, summary TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS games_by_lobby ON games (finished, created);
"""
#: Columns added since the first index, made in an older folder's database at start.
_ADDED = {"deadline": "ALTER TABLE games ADD COLUMN deadline REAL"}
_ADDED_INDEXES = "CREATE INDEX IF NOT EXISTS games_by_deadline ON games (deadline);"


def after_durable(durable: Callable[[], None] | None) -> None:
    """Tell ``durable`` a change is durable: what it does is never a reason to undo it."""
    if durable is not None:
        try:
            durable()
        except Exception:
            log.exception("after a durable change")


def json_lines(data: Mapping[str, Any]) -> str:
    """A JSON object with one line per key (values written compactly): as readable as an
    indented file for a record's few keys, made by the C encoder (``indent`` is not)."""
    fields = [f" {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}"
              for key, value in data.items()]
    return "{\n" + ",\n".join(fields) + "\n}\n"


def players_text(players: tuple[str, ...]) -> str:
    """The accounts seated in a game, as one searchable text (each name quoted)."""
    return "".join(json.dumps(p) for p in players)


class FolderStorage:
    """The embedded storage: files for games, SQLite for the rest, in one folder (None:
    everything in memory, for tests)."""

    shared = False

    def __init__(self, folder: str | os.PathLike[str] | None, serving: bool = True):
        self.folder = None if folder is None else Path(folder)
        self._lock = threading.Lock()
        self._records: dict[str, tuple[GameRecord, dict[str, Any]]] = {}
        self._seqs: dict[str, int] = {}
        self._leases: dict[str, float] = {}
        #: The text each game file was last given here, and the games whose files could
        #: not be written (their texts are in the journal: written again before it goes).
        self._texts: dict[Path, str] = {}
        self._stale: set[str] = set()
        #: Games whose files are being written over after their journal line (how many
        #: writes): a retiring journal waits for them before it fsyncs their files.
        self._writing: dict[str, int] = {}
        self._written = threading.Condition(self._lock)
        self.unindexed: list[str] = []
        self.journal: Journal | None = None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            database = str(self.folder / "server.sqlite3")
        else:
            database = ":memory:"
        self.db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        if self.folder is not None:
            with contextlib.suppress(OSError):
                os.chmod(self.folder / "server.sqlite3", 0o600)
            # The indexes can be rebuilt from the games' files: no fsync per change.
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(_SCHEMA)
        columns = {row[1] for row in self.db.execute("PRAGMA table_info(games)")}
        for column, statement in _ADDED.items():
            if column not in columns:
                self.db.execute(statement)
        self.db.executescript(_ADDED_INDEXES)
        if self.folder is not None and serving:  # not for hexkit users beside a server
            self._start_up()

    def _start_up(self) -> None:
        """One look at the folder: stray temporaries removed, lobby rows of games whose
        files are gone dropped, games without a row (saved before the index existed, or
        left by a crash between a save and its row) listed in ``unindexed``: the rooms
        index them in the background."""
        assert self.folder is not None
        number = recover(self.folder, self._journal_place)
        self.journal = Journal(self.folder, number, self._files_of)
        seats_suffix = ".seats.json"
        found: set[str] = set()
        with os.scandir(self.folder) as entries:
            for entry in entries:
                name = entry.name
                if name.startswith(".") and name.endswith(".tmp") and ".json." in name:
                    with contextlib.suppress(OSError):
                        os.unlink(entry.path)
                elif name.endswith(seats_suffix):
                    found.add(name[: -len(seats_suffix)])
        archive = self.folder / "archive"
        if archive.is_dir():
            for stray in archive.glob(".*.json.*.tmp"):
                with contextlib.suppress(OSError):
                    stray.unlink()
        with self._sql() as db:
            indexed = {r[0] for r in db.execute("SELECT id FROM games")}
            gone = indexed - found
            db.executemany("DELETE FROM games WHERE id = ?", [(g,) for g in gone])
        self.unindexed = sorted(found - indexed)

    @contextlib.contextmanager
    def _sql(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            yield self.db

    def close(self) -> None:
        if self.journal is not None:
            self.journal.close()
        self.db.close()

    def checkpoint(self) -> None:
        """Every game's files durable, the journal emptied (when the server stops)."""
        if self.journal is not None:
            self.journal.checkpoint()

    def _journal_place(self, game_id: str, suffix: str) -> Path | None:
        if not GAME_ID.match(game_id) or suffix not in GAME_FILES:
            return None
        return self._path(game_id, suffix)

    def _files_of(self, game_id: str) -> list[Path]:
        """A game's files, once their writes after the journal are done (a journal being
        retired fsyncs them: a file fsync'ed before its new text was written would lose
        the text the retired journal held)."""
        with self._written:
            while self._writing.get(game_id):
                self._written.wait()
        self._repair(game_id)
        return [self._path(game_id, suffix) for suffix in GAME_FILES]

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
        self._repair(game_id)
        seats = load_json(self._path(game_id, ".seats.json"), MAX_DATA_BYTES)
        if not isinstance(seats, Mapping) or seats.get("format") != SEATS_FORMAT:
            raise ValueError(f"not a {SEATS_FORMAT} file")
        return load_record(self._path(game_id, ".json")), seats

    def load(self, game_id: str) -> tuple[GameRecord, Mapping[str, Any], int]:
        """A game's record, seats document and ``seq``; KeyError if there is no such game."""
        if self.folder is None:
            if game_id not in self._records:
                raise KeyError(game_id)
        elif not self._path(game_id, ".seats.json").is_file():
            raise KeyError(game_id)
        record, seats = self.load_game(game_id)
        with self._lock:
            seq = self._seqs.setdefault(game_id, 1)
        return record, seats, seq

    def seq_of(self, game_id: str) -> int | None:
        with self._lock:
            return self._seqs.get(game_id)

    def commit(self, game_id: str, *, record: GameRecord | None = None,
               seats: Mapping[str, Any] | None = None, row: IndexRow | None = None,
               expected: int | None = None,
               durable: Callable[[], None] | None = None) -> int:
        """Save what changed of one game, durably, then its lobby row; the new ``seq``.
        (One process owns a folder: ``expected`` is checked all the same.)
        ``durable()`` is called once the change is durable and its files written (a
        browser told then finds the move in the game's record file), before the lobby
        row: the browsers can be told then. A row that cannot be written is logged, never
        a reason to refuse a durable change."""
        with self._lock:
            now = self._seqs.get(game_id, 0)
        if expected is not None and expected != now:
            raise Conflict(f"game {game_id} changed meanwhile")
        if self.journal is None:
            if seats is not None:
                self.save_seats(game_id, seats)
            if record is not None:
                self.save_record(game_id, record)
            after_durable(durable)
        else:
            self._journaled(game_id, record, seats, durable)
        with self._lock:
            self._seqs[game_id] = now + 1
        if row is not None:
            try:
                self.put_row(game_id, row)
            except sqlite3.Error as exc:
                log.error("game %s: its lobby row could not be written (%s)", game_id, exc)
        return now + 1

    def _journaled(self, game_id: str, record: GameRecord | None,
                   seats: Mapping[str, Any] | None,
                   durable: Callable[[], None] | None = None) -> None:
        """Make the game's new texts durable in the journal, then write them over its files
        in place. No temporary and no rename: a rename over a file makes ext4 write the new
        one back at once (a quarter of a millisecond of CPU and milliseconds of waiting a
        save). A crash while a file is written leaves it torn, and the journal, which holds
        its whole new text, puts it right at the next start; a journal that fails leaves
        the files as they were."""
        assert self.journal is not None
        texts: dict[str, str | None] = {}
        if seats is not None:
            texts[".seats.json"] = json_lines({"format": SEATS_FORMAT, "version": 1, **seats})
        if record is not None:
            texts[".json"] = json_lines(record.to_dict())
            check_free(self._path(game_id, ".json"))
        # Opened first: a file that cannot be written (read-only) refuses the change
        # before anything is kept.
        opened: list[tuple[Path, str, int, bool]] = []
        try:
            for suffix, text in texts.items():
                assert text is not None
                path = self._path(game_id, suffix)
                opened.append((path, text, *open_for_writing(path)))
            with self._lock:
                self._writing[game_id] = self._writing.get(game_id, 0) + 1
            try:
                self.journal.append(game_id, texts)
            except BaseException:
                self._written_over(game_id)
                raise
        except BaseException:
            for path, _, fd, made in opened:
                os.close(fd)
                if made:
                    with contextlib.suppress(OSError):
                        path.unlink()
            raise
        try:
            self._write_over(game_id, opened)
        finally:
            self._written_over(game_id)
        after_durable(durable)

    def _written_over(self, game_id: str) -> None:
        with self._written:
            left = self._writing.get(game_id, 1) - 1
            if left > 0:
                self._writing[game_id] = left
            else:
                self._writing.pop(game_id, None)
            self._written.notify_all()

    def _write_over(self, game_id: str, opened: list[tuple[Path, str, int, bool]]) -> None:
        """Write a game's new texts over its files in place (durable in the journal)."""
        for path, text, fd, _ in opened:
            self._texts[path] = text
            try:
                write_in_place(fd, text)
            except OSError as exc:
                # Durable in the journal all the same: written again before the journal
                # is retired or the game is read or archived, else replayed at start.
                with self._lock:
                    self._stale.add(game_id)
                log.error("game %s: cannot write %s (%s); the journal keeps it", game_id,
                          path.name, exc.strerror or exc)

    def _repair(self, game_id: str) -> None:
        """Write again the files of a game whose last write failed (OSError if it fails
        again)."""
        with self._lock:
            if game_id not in self._stale:
                return
        for suffix in GAME_FILES:
            path = self._path(game_id, suffix)
            text = self._texts.get(path)
            if text is not None:
                write_text_atomic(path, text, durable=False)
        with self._lock:
            self._stale.discard(game_id)

    def put_row(self, game_id: str, row: IndexRow) -> None:
        with self._sql() as db:
            db.execute("INSERT OR REPLACE INTO games (id, client, account, players, "
                       "finished, created, updated, summary, deadline) "
                       "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (game_id, row.client, row.account, players_text(row.players),
                        int(row.finished), row.created, time.time(),
                        json.dumps(row.summary), row.deadline))

    def lobby(self, offset: int, limit: int, mine: str | None = None
              ) -> tuple[list[dict[str, Any]], int]:
        """A page of the live games: going on first, newest first; with ``mine``, the
        games an account made or sits in."""
        where, args = "", ()  # type: tuple[str, tuple[Any, ...]]
        if mine is not None:
            where, args = "WHERE account = ? OR instr(players, ?) > 0", (mine, json.dumps(mine))
        with self._sql() as db:
            total = db.execute(f"SELECT count(*) FROM games {where}", args).fetchone()[0]
            rows = db.execute(f"SELECT summary FROM games {where} ORDER BY finished, "
                              "created DESC LIMIT ? OFFSET ?", (*args, limit, offset)).fetchall()
        return [json.loads(r[0]) for r in rows], int(total)

    def live_count(self, client: str | None = None) -> int:
        """Unfinished games in the live set (of ``client`` when given)."""
        where, args = "WHERE finished = 0", ()  # type: tuple[str, tuple[Any, ...]]
        if client is not None:
            where, args = "WHERE finished = 0 AND client = ?", (client,)
        with self._sql() as db:
            return int(db.execute(f"SELECT count(*) FROM games {where}", args).fetchone()[0])

    def idle_finished(self, older_than: float) -> list[str]:
        with self._sql() as db:
            rows = db.execute("SELECT id FROM games WHERE finished = 1 AND updated <= ?",
                              (time.time() - older_than,)).fetchall()
        return [r[0] for r in rows]

    def due_clocks(self, now: float, limit: int = 100) -> list[str]:
        """Live games whose running clock ran out by ``now`` (as their rows last said),
        the earliest first: at most ``limit``."""
        with self._sql() as db:
            rows = db.execute("SELECT id FROM games WHERE deadline <= ? AND finished = 0 "
                              "ORDER BY deadline LIMIT ?", (now, limit)).fetchall()
        return [r[0] for r in rows]

    def claim_bot(self, game_id: str, seq: int, seconds: float) -> bool:
        """One process: always its own bots (kept for the shared storages' interface)."""
        return True

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

    def _forget_texts(self, game_id: str) -> None:
        for suffix in GAME_FILES:
            self._texts.pop(self._path(game_id, suffix), None)
        with self._lock:
            self._stale.discard(game_id)

    def delete_game(self, game_id: str) -> None:
        if self.folder is not None:
            self._forget_texts(game_id)
        if self.folder is None:
            self._records.pop(game_id, None)
            return
        for suffix in GAME_FILES:
            for archived in (False, True):
                with contextlib.suppress(FileNotFoundError):
                    self._path(game_id, suffix, archived).unlink()
        if self.journal is not None:  # a crash does not bring it back
            self.journal.append(game_id, dict.fromkeys(GAME_FILES))
        with self._sql() as db:
            db.execute("DELETE FROM archive WHERE id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        with self._lock:
            self._seqs.pop(game_id, None)

    def archive_game(self, game_id: str, summary: Mapping[str, Any]) -> None:
        owner = str(summary.get("owner") or "")
        if self.folder is not None:
            self._repair(game_id)
            self._forget_texts(game_id)
            (self.folder / "archive").mkdir(exist_ok=True)
            for suffix in GAME_FILES:
                with contextlib.suppress(FileNotFoundError):
                    _fsync_file(self._path(game_id, suffix))  # its last texts were journaled
                    os.replace(self._path(game_id, suffix), self._path(game_id, suffix, True))
            _fsync_file(self.folder / "archive", folder=True)
            _fsync_file(self.folder, folder=True)
            if self.journal is not None:
                self.journal.append(game_id, dict.fromkeys(GAME_FILES))
        else:
            record, _ = self._records.pop(game_id, (None, {}))
            if record is not None:
                self._records[f"archive:{game_id}"] = (record, {})
        with self._sql() as db:
            db.execute("INSERT OR REPLACE INTO archive VALUES (?, ?, ?, ?)",
                       (game_id, owner, json.dumps(dict(summary)), time.time()))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))
        with self._lock:
            self._seqs.pop(game_id, None)

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


def open_for_writing(path: Path) -> tuple[int, bool]:
    """A descriptor to write ``path`` over, and whether the file was made (0666 less the
    umask). A file marked read-only is refused, even to an administrator (as
    :func:`~hexkit.files.fileio.write_text_atomic` does)."""
    try:
        fd = os.open(path, os.O_WRONLY)
    except FileNotFoundError:
        return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), True
    if not os.fstat(fd).st_mode & 0o222:
        os.close(fd)
        raise PermissionError(errno.EACCES, "the file is read-only (it is not replaced)",
                              path.name)
    return fd, False


def write_in_place(fd: int, text: str) -> None:
    """Write ``text`` over the file open at ``fd`` and close it, not waiting for the disk
    (the journal is what makes it durable)."""
    data = text.encode("utf-8")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.ftruncate(fd, len(data))
    finally:
        os.close(fd)


def _fsync_file(path: Path, folder: bool = False) -> None:
    fd = os.open(path, os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if folder else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
