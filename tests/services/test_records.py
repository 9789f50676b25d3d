"""Game records: the JSON format, atomic saving, one-line errors, re-validating replay."""

from __future__ import annotations

import json
import os

import pytest

from hexkit.bots import RandomBot
from hexkit.errors import RecordError
from hexkit.files.records import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    load_record,
    replay,
    replay_steps,
    save_record,
)


def play_random(game, seed, bot_seed=1, limit=None):
    state = game.new_state(seed=seed)
    bot = RandomBot(bot_seed)
    while not state.is_over() and (limit is None or len(state.move_stack) < limit):
        state.push(bot.choose(state))
    return state


def record_of(game, state, seed):
    record = GameRecord.for_game(game, seed=seed, players=["random", "random"])
    record.update(state)
    return record


def test_a_record_updated_after_every_move_undo_and_reload_holds_the_games_moves(
        toy_plugins):
    """A server updates a game's record after every move (only the new moves are named):
    after moves, take-backs, a move in place of one taken back, or moves set by hand, the
    record holds exactly the state's moves."""
    import random

    game = toy_plugins.load_game("toyline", size=5, line=4)
    state = game.new_state(seed=3)
    record = GameRecord.for_game(game, seed=3)
    rng = random.Random(3)
    for step in range(40):
        if state.is_over() or (state.move_stack and step % 7 == 6):
            state.pop()
            if step % 2:  # and another move played before the record is updated
                state.push(rng.choice(state.legal_moves()))
        else:
            state.push(rng.choice(state.legal_moves()))
        if step == 20:
            record.moves = ["?"]  # set by someone else: named afresh
        record.update(state)
        assert record.moves == [str(m) for m in state.move_stack]


def test_record_file_holds_format_version_game_options_seed_players_moves_result(
        toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline", size=4, line=3)
    state = play_random(game, seed=11)
    path = tmp_path / "game.json"
    save_record(path, record_of(game, state, 11))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == RECORD_FORMAT and data["version"] == RECORD_VERSION
    assert data["name"] == "toyline"
    assert data["game"] == "toyline(size=4)"
    assert data["options"] == {"size": 4, "line": 3, "players": 2, "blockers": False}
    assert data["seed"] == 11
    assert data["players"] == ["random", "random"]
    assert data["moves"] == [str(m) for m in state.move_stack]
    assert data["result"] == state.outcome().to_dict()


def test_saved_game_replays_to_the_same_final_state(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline", size=5, line=4, players=3)
    state = play_random(game, seed=3)
    path = tmp_path / "g.json"
    save_record(path, record_of(game, state, 3))
    assert replay(load_record(path)).to_dict() == state.to_dict()


def test_randomness_is_reproduced_from_the_recorded_seed(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline", size=5, line=4, blockers=True)
    state = play_random(game, seed=42)
    blockers = [c for c in state.to_dict()["cells"] if c[2] == -1]
    assert blockers, "the game should have dropped random blockers"
    path = tmp_path / "g.json"
    save_record(path, record_of(game, state, 42))
    again = replay(load_record(path))
    assert again.to_dict() == state.to_dict()


def test_replay_up_to_a_move_gives_that_position(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4)
    state = play_random(game, seed=5)
    record = record_of(game, state, 5)
    partial = game.new_state(seed=5)
    for move in state.move_stack[:3]:
        partial.push(move)
    assert replay(record, upto=3).to_dict() == partial.to_dict()
    assert replay(record, upto=0).to_dict() == game.new_state(seed=5).to_dict()
    with pytest.raises(RecordError, match="out of range"):
        replay(record, upto=len(record.moves) + 1)


def test_tampered_record_names_the_first_illegal_move_and_its_number(toy_plugins):
    game = toy_plugins.load_game("toyline", size=4)
    record = record_of(game, play_random(game, seed=5), 5)
    record.moves[3] = record.moves[1]  # a square that is already taken
    record.result = None
    with pytest.raises(RecordError, match=rf"^move 4 '{record.moves[1]}' is illegal: .*taken"):
        replay(record)


def test_unreadable_move_in_a_record_is_named_with_its_number(toy_plugins):
    game = toy_plugins.load_game("toyline")
    record = GameRecord.for_game(game, seed=0)
    record.moves = ["a1", "q9"]
    with pytest.raises(RecordError, match=r"^move 2 'q9' cannot be read"):
        replay(record)


def test_moves_after_the_end_of_the_game_are_refused(toy_plugins):
    game = toy_plugins.load_game("toyline")
    record = GameRecord.for_game(game, seed=0)
    record.moves = ["a1", "a2", "b1", "b2", "c1", "c2"]
    with pytest.raises(RecordError, match=r"^move 6 'c2' is illegal: the game was already over"):
        replay(record)


def test_a_result_that_disagrees_with_the_moves_is_caught(toy_plugins):
    game = toy_plugins.load_game("toyline")
    record = GameRecord.for_game(game, seed=0)
    record.moves = ["a1", "a2", "b1", "b2", "c1"]
    record.result = {"winners": [1], "reason": "forged"}
    with pytest.raises(RecordError, match="says a win for player 2 but replaying gives a win "
                                          "for player 1"):
        replay(record)


def test_record_with_a_starting_position_replays_from_it(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline")
    start = game.new_state(seed=0)
    start.push("b2")
    start = game.state_from_dict(start.to_dict())  # a set-up position, no move stack
    record = GameRecord.for_game(game, seed=None, start=start)
    record.moves = ["a1"]
    save_record(tmp_path / "r.json", record)
    state = replay(load_record(tmp_path / "r.json"))
    assert sorted(map(tuple, state.to_dict()["cells"])) == [(0, 0, 1), (1, 1, 0)]


def test_replay_steps_yield_every_position_in_order(toy_plugins):
    game = toy_plugins.load_game("toyline")
    record = GameRecord.for_game(game, seed=0)
    record.moves = ["a1", "b2"]
    seen = [(n, text, len(state.move_stack)) for n, text, state in replay_steps(record)]
    assert seen == [(0, "", 0), (1, "a1", 1), (2, "b2", 2)]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"{not json", r"bad\.json:1: not a hexkit game record \(invalid JSON"),
        (b"\xff\xfe\x00garbage", r"bad\.json: not a hexkit game record \(not a text file\)"),
        (b'{"hello": "world"}', r"bad\.json: not a hexkit game record \(no \"format\""),
        (b"[1, 2, 3]", r"bad\.json: not a hexkit game record"),
        (b'{"format": "hexkit-record", "version": 99, "name": "x", "moves": []}',
         r"bad\.json: record version 99 is not supported"),
        (b'{"format": "hexkit-record", "version": 1, "name": "x", "moves": "a1 b2"}',
         r"bad\.json: corrupt record: 'moves' must be a list of move texts"),
        (b'{"format": "hexkit-record", "version": 1, "name": "x", "moves": [], "seed": "7"}',
         r"bad\.json: corrupt record: 'seed' must be a whole number"),
        (b'{"format": "hexkit-record", "version": 1, "name": "x", "moves": [], '
         b'"result": {"winners": "me"}}', r"bad\.json: corrupt record: 'result' must be"),
        (b"[" * 100000, r"bad\.json"),
    ],
)
def test_corrupt_or_foreign_file_gives_one_clear_line(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(RecordError, match=message) as info:
        load_record(path)
    assert "\n" not in str(info.value)


def test_missing_file_gives_one_line(tmp_path):
    with pytest.raises(RecordError, match=r"nothere\.json: cannot read file"):
        load_record(tmp_path / "nothere.json")


def test_interrupted_save_keeps_the_previous_file_and_leaves_no_temporary(
        toy_plugins, tmp_path, monkeypatch):
    game = toy_plugins.load_game("toyline")
    path = tmp_path / "game.json"
    record = GameRecord.for_game(game, seed=1)
    record.moves = ["a1"]
    save_record(path, record)
    before = path.read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    record.moves = ["a1", "b2"]
    with pytest.raises(KeyboardInterrupt):
        save_record(path, record)
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
    assert load_record(path).moves == ["a1"]


def test_save_replaces_the_file_with_the_new_record(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline")
    path = tmp_path / "game.json"
    record = GameRecord.for_game(game, seed=1)
    save_record(path, record)
    record.moves = ["a1", "b2"]
    save_record(path, record)
    assert load_record(path).moves == ["a1", "b2"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.json"]
