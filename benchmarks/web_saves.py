"""How a server can make each move durable, measured: the ways issue 23 names, and the
one ``hexkit serve`` uses.

    python benchmarks/web_saves.py [--saves 400] [--rate 200] [--threads 8]

Each way saves a game record of about 80 moves (what ``hexkit serve`` writes after a move)
``--saves`` times, offered at ``--rate`` saves a second from ``--threads`` threads (as the
rooms' workers do), and reports the wall time from a save's start to its being durable
(median, p90), the saves a second it kept up with, and the CPU time a save cost:

- ``atomic files``: the record file replaced atomically (temporary file, fsync, rename,
  fsync of the folder): what FolderStorage does, from the worker threads;
- ``append log``: one line appended to the game's own log and fdatasync'ed;
- ``sqlite wal``: one row inserted in SQLite in WAL mode, synchronous=FULL, one
  connection per thread;
- ``journal``: what ``hexkit serve`` does (:class:`~hexkit.web.storage.FolderStorage`):
  the record file replaced without waiting for the disk, its text appended to the
  folder's journal, the appends of all threads waiting at once made durable by one
  fdatasync (group commit).

Rounds of the ways alternate (the machine is shared). The journal keeps the files plain
records that ``hexkit replay`` reads and costs a share of one fdatasync a save, so it keeps
up however many games save at once; the atomic files alone cost two fsyncs each, and fall
behind under a busy disk.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from hexkit.files.fileio import write_text_atomic


def atomic_files(folder: Path) -> Callable[[int, str], None]:
    def save(i: int, text: str) -> None:
        write_text_atomic(folder / f"g{i % 200}.json", text)
    return save


def append_log(folder: Path) -> Callable[[int, str], None]:
    handles: dict[int, int] = {}
    lock = threading.Lock()

    def save(i: int, text: str) -> None:
        game = i % 200
        with lock:
            fd = handles.get(game)
            if fd is None:
                fd = handles[game] = os.open(folder / f"g{game}.log",
                                             os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.write(fd, (json.dumps({"move": i}) + "\n").encode())
        os.fdatasync(fd)
    return save


def sqlite_wal(folder: Path) -> Callable[[int, str], None]:
    path = folder / "moves.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE IF NOT EXISTS moves (game INTEGER, record TEXT)")
    local = threading.local()

    def save(i: int, text: str) -> None:
        db = getattr(local, "db", None)
        if db is None:
            db = local.db = sqlite3.connect(path, isolation_level=None, timeout=30)
            db.execute("PRAGMA synchronous=FULL")
        db.execute("INSERT INTO moves VALUES (?, ?)", (i % 200, text))
    return save


def journal(folder: Path) -> Callable[[int, str], None]:
    from hexkit.files.records import GameRecord
    from hexkit.web.storage import FolderStorage

    storage = FolderStorage(folder)
    record = GameRecord(name="focus", game="focus", players=["human", "human"],
                        moves=["a1-b1x1"] * 80)
    seats = {"seats": [{"spec": "human", "token_sha256": None}] * 2}
    seqs: dict[str, int] = {}
    games = [threading.Lock() for _ in range(200)]  # one save at a time a game, as rooms do

    def save(i: int, text: str) -> None:
        game = f"{i % 200:010x}"
        with games[i % 200]:
            expected = seqs.get(game)
            if expected is None:
                seqs[game] = storage.commit(game, record=record, seats=seats)
            else:
                seqs[game] = storage.commit(game, record=record, expected=expected)
    return save


WAYS = {"atomic files": atomic_files, "append log": append_log, "sqlite wal": sqlite_wal,
        "journal": journal}


def measure(save: Callable[[int, str], None], saves: int, rate: float,
            threads: int) -> tuple[float, float, float, float]:
    text = json.dumps({"format": "hexkit-record", "moves": ["a1-b1x1"] * 80}, indent=1)
    times: list[float] = []

    def one(i: int) -> None:
        started = time.perf_counter()
        save(i, text)
        times.append(time.perf_counter() - started)

    cpu, wall = time.process_time(), time.perf_counter()
    with ThreadPoolExecutor(threads) as pool:
        for i in range(saves):
            pool.submit(one, i)
            time.sleep(max(0.0, wall + (i + 1) / rate - time.perf_counter()))
    elapsed = time.perf_counter() - wall
    times.sort()
    return (statistics.median(times) * 1000, times[int(0.9 * (len(times) - 1))] * 1000,
            saves / elapsed, (time.process_time() - cpu) / saves * 1000)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--saves", type=int, default=400)
    ap.add_argument("--rate", type=float, default=200.0, help="saves offered a second")
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    results: dict[str, list[tuple[float, float, float, float]]] = {w: [] for w in WAYS}
    with tempfile.TemporaryDirectory(prefix="web-saves-", dir=os.getcwd()) as place:
        for r in range(args.rounds):
            for name, make in WAYS.items():
                folder = Path(place) / f"{r}-{name.replace(' ', '-')}"
                folder.mkdir()
                results[name].append(measure(make(folder), args.saves, args.rate,
                                             args.threads))
    print(f"{'way':<14} {'median ms':>10} {'p90 ms':>8} {'saves/s':>8} {'CPU ms/save':>12}")
    for name, rows in results.items():
        cols = [statistics.median(c) for c in zip(*rows, strict=True)]
        print(f"{name:<14} {cols[0]:>10.1f} {cols[1]:>8.1f} {cols[2]:>8.0f} {cols[3]:>12.2f}")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
