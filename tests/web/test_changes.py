"""hexkit serve at a class's scale, in one process: after the first whole state a browser
gets only what changed (the board as line splices, the legal moves only for the seat to
move), a resync when it asks; start-up loads no game and the lobby comes from an index."""

from __future__ import annotations

import json
import random
import sqlite3
from functools import partial
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.web.app import create_app  # noqa: E402

from .short_games import SHORT_VARIANTS, short_game  # noqa: E402
from .test_protocol import TestClient, create, join, receive_state  # noqa: E402


def apply(state: dict[str, Any], change: dict[str, Any]) -> dict[str, Any]:
    """What app.js's applyChange does."""
    assert change["base"] == state["version"]
    out = dict(state)
    for key, value in change.items():
        if key == "log":
            out["log"] = state["log"][: change["log_from"]] + value
        elif key == "svg_patch":
            lines = state["svg"].split("\n")
            for start, end, added in reversed(value):
                lines[start:end] = added
            out["svg"] = "\n".join(lines)
        elif key not in ("type", "base", "log_from"):
            out[key] = value
    out["type"] = "state"
    return out


#: What a browser that said hello also gets, between the game's messages (the play
#: features: the server's time, who is connected).
BESIDES = ('{"type": "time"', '{"type": "presence"')


def receive_game(ws: Any) -> str:
    """The next message about the game itself (time and presence messages skipped)."""
    while (raw := ws.receive_text()).startswith(BESIDES):
        pass
    return raw


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    message = json.loads(receive_game(ws))
    assert message["type"] == kind, message
    return message


def test_changes_rebuild_the_whole_state_and_carry_moves_only_to_the_mover(tmp_path):
    _, seed, moves = short_game("hexaround")
    options, _ = SHORT_VARIANTS["hexaround"]
    with TestClient(create_app(tmp_path / "g")) as client:
        made = create(client, "hexaround", options=options, seed=seed)
        second = join(client, made["id"], 1)
        tokens = [made["token"], second]
        path = f"/ws/games/{made['id']}"
        with client.websocket_connect(path) as red, client.websocket_connect(path) as green, \
                client.websocket_connect(path) as watcher:
            held = [receive_state(ws) for ws in (red, green, watcher)]
            for ws, token in ((red, [tokens[0]]), (green, [tokens[1]]), (watcher, [])):
                ws.send_json({"type": "hello", "protocol": 2, "tokens": token})
            sizes = [0, 0]  # of the changes sent, of the whole states they stand for
            first = held[0]["turn"]
            assert next_of((red, green)[first], "moves")["moves"] == held[0]["moves"]
            for ply, text in enumerate(moves[:3], start=1):
                mover = (red, green)[held[0]["turn"]]
                mover.send_json({"type": "move", "token": tokens[held[0]["turn"]],
                                 "move": text})
                for i, ws in enumerate((red, green, watcher)):
                    raw = receive_game(ws)
                    change = json.loads(raw)
                    assert change["type"] == "change"
                    held[i] = apply(held[i], change)
                    whole = client.get(f"/api/games/{made['id']}").json()
                    expected = dict(whole, moves=held[i]["moves"])
                    assert held[i] == expected
                    sizes[0] += len(raw)
                    sizes[1] += len(json.dumps(whole))
                turn = held[0]["turn"]
                assert held[turn]["moves"] == whole["moves"] and held[2]["moves"] == []
                assert held[1 - turn]["moves"] == []
                assert held[0]["ply"] == ply
            assert sizes[0] < sizes[1] / 1.5
            # A spectator asks for the moves; anyone may ask for the whole state again.
            watcher.send_json({"type": "moves"})
            assert next_of(watcher, "moves")["moves"] == whole["moves"]
            watcher.send_json({"type": "resync"})
            assert next_of(watcher, "state") == whole
            # Protocol 1 (no hello): the whole state after every change, as before.
            with client.websocket_connect(path) as old:
                receive_state(old)
                mover = (red, green)[held[0]["turn"]]
                mover.send_json({"type": "move", "token": tokens[held[0]["turn"]],
                                 "move": moves[3]})
                assert receive_state(old)["ply"] == 4


def test_undo_reaches_protocol_2_browsers_as_a_shorter_log(tmp_path):
    _, seed, moves = short_game("hexbaron")
    options, _ = SHORT_VARIANTS["hexbaron"]
    with TestClient(create_app(tmp_path / "g")) as client:
        made = create(client, "hexbaron", options=options, seed=seed)
        second = join(client, made["id"], 1)
        tokens = [made["token"], second]
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            ws.send_json({"type": "hello", "protocol": 2, "tokens": tokens})
            next_of(ws, "moves")
            for text in moves[:3]:
                ws.send_json({"type": "move", "token": tokens[state["turn"]], "move": text})
                state = apply(state, next_of(ws, "change"))
            ws.send_json({"type": "undo", "tokens": tokens})
            state = apply(state, next_of(ws, "change"))
    assert state["ply"] == 2 and [e["move"] for e in state["log"]] == moves[:2]


def test_hello_is_checked_like_every_message(tmp_path):
    with TestClient(create_app(tmp_path / "g")) as client:
        made = create(client, "focus")
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            receive_state(ws)
            for bad in ({"type": "hello", "protocol": 9, "tokens": []},
                        {"type": "hello", "protocol": True, "tokens": []},
                        {"type": "hello", "tokens": [1]},
                        {"type": "hello", "tokens": ["x"] * 17}):
                ws.send_json(bad)
                answer = next_of(ws, "error")
                assert "\n" not in answer["message"]
            ws.send_json({"type": "hello", "tokens": ["not a seat's token"]})
            ws.send_json({"type": "ping"})
            assert next_of(ws, "pong") == {"type": "pong"}  # holds no seat: no moves sent


def test_start_up_loads_no_game_and_the_lobby_lists_live_games_first(tmp_path):
    folder = tmp_path / "g"
    with TestClient(create_app(folder)) as client:
        made = [create(client, "focus")["id"] for _ in range(3)]
        stopped = create(client, "focus")
        r = client.post(f"/api/games/{stopped['id']}/stop",
                        json={"owner_token": stopped["owner_token"]})
        assert r.status_code == 200
    (folder / f".{made[0]}.json.x1y2.tmp").write_text("{ torn")  # a killed save's leftover
    app = create_app(folder)
    assert app.state.store.rooms == {}
    assert not list(folder.glob(".*.tmp"))
    with TestClient(app) as client:
        lobby = client.get("/api/games?limit=2").json()
        assert lobby["total"] == 4 and app.state.store.rooms == {}
        assert {g["id"] for g in lobby["games"]} <= set(made)
        everything = client.get("/api/games").json()["games"]
        assert [g["over"] for g in everything] == [False, False, False, True]
        assert client.get(f"/api/games/{made[1]}").json()["id"] == made[1]
        assert list(app.state.store.rooms) == [made[1]]


def test_games_saved_before_the_lobby_index_are_indexed_in_the_background(tmp_path):
    folder = tmp_path / "g"
    with TestClient(create_app(folder)) as client:
        made = create(client, "focus")["id"]
    with sqlite3.connect(folder / "server.sqlite3") as db:
        db.execute("DELETE FROM games")
    with TestClient(create_app(folder)) as client:
        for _ in range(200):
            lobby = client.get("/api/games").json()
            if lobby["total"]:
                break
            import time

            time.sleep(0.02)
        assert [g["id"] for g in lobby["games"]] == [made]
        assert lobby["games"][0]["players"] == ["Red", "Green"]


def test_a_focus_board_goes_as_the_lines_of_the_cells_that_changed(tmp_path):
    """A Focus move's board is sent as the lines of the few cells it changed (compared part
    by part, no line diff), and those splices rebuild the picture byte for byte, every
    move, the end of the game included; the full picture is render_svg's."""
    from hexkit import plugins
    from hexkit.render.svg import render_svg, svg_lines
    from hexkit.web import rooms

    store = rooms.RoomStore(tmp_path / "g")
    room, _, token = store.create(plugins.load_game("focus"), ["human", "human"], seed=5,
                                  take=0)
    tokens = [token, room.take_seat(1)]
    rng = random.Random(5)
    patched = 0
    for _ in range(40):
        before = room.published
        assert before is not None
        if before.data["over"]:
            break
        move = rng.choice(before.data["moves"])["text"]
        store._work(room, partial(room.play, tokens[before.data["turn"]], move))
        now = room.published
        assert now is not None
        change = json.loads(now.others)
        assert apply(before.data, change)["svg"] == now.data["svg"]
        if "svg_patch" in change:
            expected = rooms.block_patch(before.lines, before.blocks, now.lines, now.blocks)
            patched += change["svg_patch"] == expected
            assert len(change["svg_patch"]) <= 4  # the two cells, the last move's marks
    assert patched >= 30
    store.close()
    view = plugins.load_game("focus").new_state(seed=1).view()
    blocks: list[int] = []
    assert "\n".join(svg_lines(view, blocks=blocks)) + "\n" == render_svg(view)
    assert blocks == sorted(blocks) and len(blocks) == len(view.cells) + 3


@pytest.mark.parametrize("name", ["hexaround", "hive", "hexbaron"])
def test_the_legal_moves_listed_are_each_positions_own_though_their_entries_are_shared(
        tmp_path, name):
    """Entries are made once per move and gesture and shared by every game: what a browser
    is sent is still each position's legal moves (moves of two types that compare equal,
    HexAround's tuples, keep their own notation), and their JSON is that of the list."""
    from hexkit import plugins
    from hexkit.web import rooms

    game = plugins.load_game(name, **SHORT_VARIANTS.get(name, ({}, None))[0])
    store = rooms.RoomStore(tmp_path / "g")
    rng = random.Random(3)
    for seed in (1, 2):
        room, _, token = store.create(game, ["human", "human"], seed=seed, take=0)
        tokens = [token, room.take_seat(1)]
        for _ in range(12):
            published = room.published
            assert published is not None
            state = room.state
            fresh = [] if published.data["over"] else [
                rooms._entry.__wrapped__(type(m), m, state.gesture(m))[0]
                for m in state.legal_moves()]
            assert published.data["moves"] == fresh
            assert json.loads(published.moves)["moves"] == fresh
            if not fresh:
                break
            move = rng.choice(fresh)["text"]
            store._work(room, partial(room.play, tokens[published.data["turn"]], move))
    store.close()
