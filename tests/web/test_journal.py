"""The server folder's journal: a commit is durable when it returns, the commits of many
games share an fdatasync, and after a crash the journal puts back every game's last
acknowledged texts (a torn last line, never acknowledged, is skipped)."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

import pytest

from hexkit.files.records import GameRecord, load_record
from hexkit.web import journal
from hexkit.web.storage import FolderStorage, IndexRow


def record(moves: list[str]) -> GameRecord:
    return GameRecord(name="focus", game="focus", seed=1, players=["human", "human"],
                      moves=list(moves))


SEATS = {"id": "0123456789", "created": 1.0, "owner": {}, "stopped": "",
         "seats": [{"spec": "human", "token_sha256": None}] * 2}


def test_after_a_crash_the_journal_puts_back_the_last_acknowledged_moves(tmp_path):
    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    for n in range(1, 4):
        seq = storage.commit(game, record=record(["a1-b1x1"] * n), expected=seq)
    # The crash: the last replacements of the file never reached the disk, and a line
    # was being written.
    (folder / f"{game}.json").write_text('{"format": "hexkit-record", "torn')
    with open(storage.journal.path, "ab") as fh:  # type: ignore[union-attr]
        fh.write(b'{"id": "0123456789", "files": {".json": "{\\"mo')
    again = FolderStorage(folder)
    assert load_record(folder / f"{game}.json").moves == ["a1-b1x1"] * 3
    assert again.load(game)[1]["seats"] == SEATS["seats"]
    assert [p for _, p in journal.journals(folder)] == [again.journal.path]  # type: ignore[union-attr]


def test_a_deleted_game_stays_deleted_after_a_crash(tmp_path):
    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    storage.delete_game(game)
    FolderStorage(folder)
    assert not (folder / f"{game}.json").exists()


def test_the_commits_of_many_games_share_fdatasyncs(tmp_path, monkeypatch):
    storage = FolderStorage(tmp_path / "g")
    calls = []
    real = os.fdatasync

    def counted(fd: int) -> None:
        calls.append(fd)
        threading.Event().wait(0.02)  # a slow disk
        real(fd)

    monkeypatch.setattr(journal.os, "fdatasync", counted)
    games = [f"{n:010x}" for n in range(24)]

    def play(game: str) -> None:
        seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
        storage.commit(game, record=record(["a1-b1x1"]), expected=seq)

    threads = [threading.Thread(target=play, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert all(load_record(tmp_path / "g" / f"{g}.json").moves == ["a1-b1x1"] for g in games)
    assert len(calls) < len(games)  # 48 commits


def test_a_full_journal_is_retired_once_its_games_files_are_durable(tmp_path, monkeypatch):
    monkeypatch.setattr(journal, "ROTATE_BYTES", 2000)
    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    for n in range(1, 30):
        seq = storage.commit(game, record=record(["a1-b1x1"] * n), expected=seq)
    for _ in range(200):
        if len(journal.journals(folder)) == 1:
            break
        threading.Event().wait(0.01)
    assert len(journal.journals(folder)) == 1
    assert load_record(folder / f"{game}.json").moves == ["a1-b1x1"] * 29


def test_a_retired_journal_fsyncs_a_game_file_only_once_its_new_text_is_written(
        tmp_path, monkeypatch):
    """The journal a move's line went to may be retired (its games' files fsync'ed, then
    removed) while the move's file is still being written over: the fsync must wait for
    the write, else a crash then loses the acknowledged move."""
    from hexkit.web import storage as module

    monkeypatch.setattr(journal, "ROTATE_BYTES", 1)  # every write retires a journal
    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    one_journal(folder)  # the first journal, retired
    seen: list[str] = []  # the record file's text at each fsync of a retiring journal
    fsync = journal._fsync_path

    def watched(path: Path, folder: bool = False) -> None:
        if path.name == f"{game}.json":
            seen.append(path.read_text())
        fsync(path, folder)

    written = module.write_in_place

    def slow(fd: int, text: str) -> None:
        threading.Event().wait(0.05)  # the retiring journal's thread runs meanwhile
        written(fd, text)

    monkeypatch.setattr(journal, "_fsync_path", watched)
    monkeypatch.setattr(module, "write_in_place", slow)
    storage.commit(game, record=record(["a1-b1x1"]), expected=seq)
    one_journal(folder)
    assert seen and all(json.loads(text)["moves"] == ["a1-b1x1"] for text in seen)


def one_journal(folder: Path) -> None:
    """Wait until the retired journals are gone."""
    for _ in range(200):
        if len(journal.journals(folder)) == 1:
            break
        threading.Event().wait(0.01)
    assert len(journal.journals(folder)) == 1


def test_a_failed_journal_write_puts_the_files_back(tmp_path, monkeypatch):
    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    before = (folder / f"{game}.json").read_bytes()

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal.os, "fdatasync", full)
    with pytest.raises(OSError, match="No space"):
        storage.commit(game, record=record(["a1-b1x1"]), expected=seq)
    assert (folder / f"{game}.json").read_bytes() == before
    monkeypatch.undo()
    storage.commit(game, record=record(["c1-d1x1"]), expected=seq)
    assert load_record(Path(folder) / f"{game}.json").moves == ["c1-d1x1"]


def test_a_game_file_that_cannot_be_written_is_kept_by_the_journal(tmp_path, monkeypatch):
    """The journal is durable first and the files are written over in place after it: a
    file whose write fails loses nothing acknowledged, neither to a crash nor to a read."""
    from hexkit.web import storage as module

    folder = tmp_path / "g"
    storage = FolderStorage(folder)
    game = "0123456789"
    seq = storage.commit(game, record=record([]), seats=SEATS, row=IndexRow({}))
    written = module.write_in_place

    def failing(fd: int, text: str) -> None:
        if text.startswith('{\n "format": "hexkit-record"'):
            os.close(fd)
            raise OSError(5, "Input/output error")
        written(fd, text)

    monkeypatch.setattr(module, "write_in_place", failing)
    seq = storage.commit(game, record=record(["a1-b1x1"]), expected=seq)  # acknowledged
    monkeypatch.undo()
    assert load_record(folder / f"{game}.json").moves == []  # the file is behind...
    assert storage.load_game(game)[0].moves == ["a1-b1x1"]  # ...and put right when read
    assert load_record(folder / f"{game}.json").moves == ["a1-b1x1"]
    monkeypatch.setattr(module, "write_in_place", failing)
    storage.commit(game, record=record(["a1-b1x1", "c1-d1x1"]), expected=seq)
    monkeypatch.undo()
    FolderStorage(folder)  # a crash: the journal is replayed at start
    assert load_record(folder / f"{game}.json").moves == ["a1-b1x1", "c1-d1x1"]


def test_browsers_see_a_move_only_once_durable_and_a_refused_save_changes_nothing(
        tmp_path, monkeypatch):
    """A move's page is made while its line goes to the disk, but nothing a browser can
    be sent changes before the line is durable; a move the disk refused leaves the game,
    its log, its version and what browsers are sent exactly as they were."""
    from functools import partial

    from hexkit import plugins
    from hexkit.web.rooms import RoomError, RoomStore

    store = RoomStore(tmp_path / "g")
    room, _, token = store.create(plugins.load_game("focus"), ["human", "human"], seed=5,
                                  take=0)
    tokens = [token, room.take_seat(1)]
    real = os.fdatasync
    seen_at_sync: list[tuple[int, str]] = []

    def watched(fd: int) -> None:
        shown = room.published
        assert shown is not None
        seen_at_sync.append((shown.data["ply"], shown.full))
        real(fd)

    def play_one() -> None:
        shown = room.published
        assert shown is not None
        move = shown.data["moves"][0]["text"]
        store._work(room, partial(room.play, tokens[shown.data["turn"]], move))

    monkeypatch.setattr(journal.os, "fdatasync", watched)
    before = room.published
    assert before is not None
    play_one()
    assert seen_at_sync == [(0, before.full)]
    assert room.published is not None and room.published.data["ply"] == 1

    shown, version = room.published, room.version
    moves, log = list(room.state.move_stack), list(room.log)

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(journal.os, "fdatasync", full)
    with pytest.raises(RoomError, match="space"):
        play_one()
    assert room.published is shown and room.version == version
    assert room.state.move_stack == moves and room.log == log
    monkeypatch.undo()
    play_one()
    now = room.published
    assert now is not None and now.base == version and now.data["ply"] == 2
    change = json.loads(now.others)
    assert change["log_from"] == 1 and len(change["log"]) == 1
    store.close()
