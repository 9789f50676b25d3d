"""Tournaments through the Python API: results stored as they arrive, once each; a stopped
tournament resumes and plays exactly the missing games; records on request."""

from __future__ import annotations

import sqlite3

import pytest

from hexkit import plugins
from hexkit.errors import HexkitError, OptionError
from hexkit.files.records import load_record, replay
from hexkit.tournament.backends import InProcess, LocalProcesses
from hexkit.tournament.referee import GameReport
from hexkit.tournament.report import build_report
from hexkit.tournament.runner import Tournament, TournamentConfig, check_version
from hexkit.tournament.store import ResultStore

from .conftest import PLUGIN_DIRS

CONFIG = TournamentConfig("toyline", {"size": 4}, ("random", "mcts:10", "mcts:25"),
                          games_per_pair=4, seed=3)


def results(store: ResultStore) -> list[tuple]:
    """Everything about the stored games except how long they took."""
    return [(g.number, g.seats, g.winners, g.reason, g.moves, g.unfinished, g.fault_bot,
             g.error) for g in store.games()]


@pytest.fixture(scope="module")
def full(tmp_path_factory: pytest.TempPathFactory):
    """CONFIG's whole tournament, played once for the module: its tests read it, or try
    to write it and are refused (it stays open, as while it is being played)."""
    saved = list(plugins._plugin_dirs)
    plugins.configure(PLUGIN_DIRS)
    try:
        t = Tournament.prepare(CONFIG, db=str(tmp_path_factory.mktemp("full") / "full.sqlite"))
        t.run(InProcess())
    finally:
        plugins.configure(saved)
    yield t
    t.store.close()


def test_every_game_is_stored_once_with_its_bots_and_result(full):
    rows = full.store.games()
    assert [g.number for g in rows] == list(range(1, 13))
    assert all(g.played and len(g.seats) == 2 for g in rows)
    report = build_report(CONFIG.to_dict(), 12, rows, 2)
    assert report["games_played"] == 12
    assert report["standings"][0]["bot"] == "mcts:25"
    assert sum(s["games"] for s in report["standings"]) == 24


def test_a_game_reported_twice_keeps_its_first_result(full):
    first = full.store.games()[0]
    again = GameReport("1", winners=(), reason="a different result", moves=1)
    assert full.store.add(1, first.seats, again) is False
    assert full.store.games()[0] == first


def test_a_stopped_tournament_resumes_without_losing_or_repeating_a_game(full, toy, tmp_path):
    path = str(tmp_path / "part.sqlite")
    part = Tournament.prepare(CONFIG, db=path)
    seen: list[int] = []

    def stop_after_five(pairing, report):
        seen.append(pairing.number)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        part.run(InProcess(), on_game=stop_after_five)
    part.store.close()
    store = ResultStore.open(path)
    assert len(store.played()) == 5
    resumed = Tournament.prepare(TournamentConfig.from_dict(store.config), store=store)
    later: list[int] = []
    assert resumed.run(LocalProcesses(2), on_game=lambda p, r: later.append(p.number)) == 7
    assert sorted(seen + later) == list(range(1, 13))  # nothing lost, nothing twice
    assert results(store) == results(full.store)
    assert resumed.run(InProcess()) == 0  # a finished tournament has nothing left to play
    store.close()


def test_game_records_are_saved_on_request_and_replay(toy, tmp_path):
    config = TournamentConfig("toyline", {"size": 4, "blockers": True}, ("random", "mcts:5"),
                              games_per_pair=2, seed=8, save_dir=str(tmp_path / "games"))
    t = Tournament.prepare(config, db=str(tmp_path / "t.sqlite"))
    t.run(InProcess())
    for g in t.store.games():
        record = load_record(tmp_path / "games" / f"game-{g.number:05d}.json")
        assert record.players == [config.bots[b] for b in g.seats]
        assert len(replay(record).move_stack) == g.moves
    t.store.close()


def test_an_existing_database_is_not_overwritten(full, toy):
    with pytest.raises(HexkitError, match="already exists; continue it with --resume"):
        Tournament.prepare(CONFIG, db=full.store.path)


def test_a_file_that_is_not_a_tournament_is_refused_with_one_line(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("hello\n" * 100)
    with pytest.raises(HexkitError, match="notes.txt: "):
        ResultStore.open(text)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(HexkitError, match="not a hexkit tournament database"):
        ResultStore.open(other)


def test_damaged_settings_in_a_database_are_one_line(tmp_path):
    path = tmp_path / "t.sqlite"
    ResultStore.create(path, CONFIG.to_dict()).close()
    for damage in ("{torn", "[" * 5000 + "]" * 5000, "[" + "9" * 5000 + "]"):
        with sqlite3.connect(path) as db:
            db.execute("UPDATE meta SET value = ? WHERE key = 'config'", (damage,))
        db.close()
        with pytest.raises(HexkitError, match="its tournament settings are damaged"):
            ResultStore.open(path)


def test_bad_settings_are_refused_before_a_database_is_made(toy, tmp_path):
    db = tmp_path / "x.sqlite"
    cases = [
        (CONFIG.__class__("toyline", {}, ("random", "mcst")), "unknown bot 'mcst'"),
        (CONFIG.__class__("toyline", {}, ("random", "random")), "listed twice"),
        (CONFIG.__class__("toyline", {}, ("random", "mcts", "human")), "'human' cannot"),
        (CONFIG.__class__("toyline", {"players": 3}, ("random", "mcts")), "at least 3 bots"),
        (CONFIG.__class__("toyline", {}, ("random", "mcts"), games_per_pair=100_000_000),
         "would play 100,000,000 games, more than one can"),
    ]
    for config, message in cases:
        with pytest.raises(OptionError, match=message):
            Tournament.prepare(config, db=str(db))
    assert not db.exists()


def test_a_result_played_with_other_rules_is_refused(toy):
    game = toy.load_game("toyline")
    with pytest.raises(OptionError, match="install the same plugins on every node"):
        check_version(game, GameReport("1", game_version="0.9-other"))


def test_a_tournament_being_played_cannot_be_played_by_a_second_process(full, toy):
    with pytest.raises(HexkitError, match="is being played by another hexkit tournament"):
        Tournament.prepare(CONFIG, store=ResultStore.open(full.store.path))
    report = Tournament.prepare(CONFIG, store=ResultStore.open(full.store.path),
                                to_play=False)  # reading it is fine
    assert len(report.store.games()) == 12
    report.store.close()
