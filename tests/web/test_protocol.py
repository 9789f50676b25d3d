"""hexkit serve's HTTP API and WebSocket protocol, through Starlette's in-process client:
seats and tokens, moves checked by the rules on the server and pushed to every browser,
undo between two people, bots, saving as records, reloading after a restart, and hostile
requests that get one clear line and change nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from starlette.testclient import TestClient as _TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from hexkit.files.records import load_record, replay  # noqa: E402
from hexkit.plugins import build_registry  # noqa: E402
from hexkit.web.app import create_app  # noqa: E402
from hexkit.web.protocol import MAX_MESSAGE  # noqa: E402

from .short_games import SHORT_VARIANTS, short_game  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]


class TestClient(_TestClient):
    """Starlette's test client, calling the server by a name it answers to (a server
    answers only to its own names: loopback by default), on HTTP and WebSocket."""

    __test__ = False

    def __init__(self, app: Any, **kwargs: Any):
        super().__init__(app, base_url="http://127.0.0.1", **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:
        return super().websocket_connect(f"ws://127.0.0.1{url}" if url.startswith("/")
                                         else url, *args, **kwargs)


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "games")) as c:
        yield c


def create(client: TestClient, game: str, seats=("human", "human"), **body: Any) -> dict:
    r = client.post("/api/games", json={"game": game, "seats": list(seats), **body})
    assert r.status_code == 201, r.text
    return r.json()


def join(client: TestClient, room: str, seat: int) -> str:
    r = client.post(f"/api/games/{room}/join", json={"seat": seat})
    assert r.status_code == 200, r.text
    return r.json()["token"]


def short(client: TestClient, name: str) -> tuple[dict, str, list[str]]:
    """A short game of ``name`` with both seats taken: (creation answer, seat 1's token,
    moves that end it)."""
    _, seed, moves = short_game(name)
    options, _ = SHORT_VARIANTS[name]
    made = create(client, name, options=options, seed=seed)
    return made, join(client, made["id"], 1), moves


def receive_state(ws: Any) -> dict:
    message = ws.receive_json()
    assert message["type"] == "state", message
    return message


def play_moves(ws: Any, tokens: list[str], moves: list[str]) -> dict:
    """Play ``moves`` over the socket, each with the token of the seat on turn (``tokens``
    by seat); the state after the last."""
    state = receive_state(ws)
    for text in moves:
        ws.send_json({"type": "move", "token": tokens[state["turn"]], "move": text})
        state = receive_state(ws)
    return state


# -- the game picker and the lobby ---------------------------------------------------------
def test_the_picker_lists_every_installed_game_with_its_options_help_and_the_bots(client):
    data = client.get("/api/catalog").json()
    games = {g["name"]: g for g in data["games"]}
    assert {"focus", "hexaround", "hexbaron"} <= set(games)
    board = next(o for o in games["focus"]["options"] if o["name"] == "board")
    assert board["help"] and board["default"] == "course"
    assert {"random", "mcts"} <= {b["name"] for b in data["bots"]}


def test_a_new_game_gives_its_creator_a_seat_and_the_lobby_shows_the_free_one(client):
    made = create(client, "focus", seed=3)
    assert made["seat"] == 0 and made["token"] and made["url"] == f"/game/{made['id']}"
    listed = client.get("/api/games").json()["games"]
    assert [g["id"] for g in listed] == [made["id"]]
    assert listed[0]["free"] == [1]
    token = join(client, made["id"], 1)
    assert token != made["token"]
    assert client.get("/api/games").json()["games"][0]["free"] == []
    again = client.post(f"/api/games/{made['id']}/join", json={"seat": 1})
    assert again.status_code == 409 and "already taken" in again.json()["error"]


def test_a_browser_learns_which_seats_its_tokens_hold(client):
    made = create(client, "focus", seed=3)
    other = join(client, made["id"], 1)
    seats = f"/api/games/{made['id']}/seats"
    got = client.post(seats, json={"tokens": [other, "x" * 32, made["token"], 7]})
    assert got.status_code == 200 and got.json()["held"] == [1, None, 0, None]
    for bad in ({"tokens": "abc"}, {"tokens": ["t"] * 17}, ["abc"]):
        r = client.post(seats, json=bad)
        assert r.status_code == 400 and "tokens" in r.json()["error"]
    assert client.post("/api/games/nosuch/seats", json={"tokens": []}).status_code == 404


def test_the_page_and_its_scripts_are_served_with_a_strict_content_policy(client):
    page = client.get(f"/game/{create(client, 'focus')['id']}")
    assert page.status_code == 200 and "app.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200


# -- moves over the WebSocket --------------------------------------------------------------
def test_a_move_is_checked_on_the_server_and_pushed_to_every_browser(client):
    made, second, moves = short(client, "focus")
    room = made["id"]
    with client.websocket_connect(f"/ws/games/{room}") as a, \
            client.websocket_connect(f"/ws/games/{room}") as b, \
            client.websocket_connect(f"/ws/games/{room}") as watcher:
        start = receive_state(a)
        receive_state(b), receive_state(watcher)
        assert start["ply"] == 0 and start["turn"] == 0
        legal = {m["text"] for m in start["moves"]}
        assert moves[0] in legal
        a.send_json({"type": "move", "token": made["token"], "move": moves[0]})
        for ws in (a, b, watcher):
            after = receive_state(ws)
            assert after["ply"] == 1 and after["turn"] == 1
            assert after["log"][0]["move"] == moves[0]
        b.send_json({"type": "move", "token": second, "move": moves[1]})
        assert receive_state(a)["ply"] == 2


def test_a_slow_lobby_index_never_holds_back_the_boards(client, monkeypatch):
    """The browsers get a move as soon as it is durable: the game's lobby row, written
    after, may be slow (a busy index) without delaying the boards."""
    import threading

    from hexkit.web.storage import FolderStorage

    made, _, moves = short(client, "focus")
    written = FolderStorage.put_row
    release, done = threading.Event(), threading.Event()

    def blocked(self: FolderStorage, game_id: str, row: Any) -> None:
        if game_id == made["id"]:
            release.wait(10)
        written(self, game_id, row)
        if game_id == made["id"]:
            done.set()

    monkeypatch.setattr(FolderStorage, "put_row", blocked)
    timer = threading.Timer(10, release.set)  # a failing test ends, it never hangs
    timer.start()
    try:
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            receive_state(ws)
            ws.send_json({"type": "move", "token": made["token"], "move": moves[0]})
            after = receive_state(ws)
            assert not release.is_set()  # the row is still on its way
            assert after["ply"] == 1
            release.set()
            assert done.wait(10)
    finally:
        release.set()
        timer.cancel()
    lobby = client.get("/api/games").json()
    listed = [g for g in lobby["games"] if g["id"] == made["id"]]
    assert listed and listed[0]["ply"] == 1


def test_a_browser_told_of_a_move_finds_it_in_the_games_record_file(client, tmp_path,
                                                                     monkeypatch):
    """The boards are told once the move is durable and the game's files hold it, even
    when writing the files is slow: a record read at that moment has the move."""
    import threading

    from hexkit.web import storage

    made, _, moves = short(client, "focus")
    written = storage.write_in_place

    def slow(fd: int, text: str) -> None:
        threading.Event().wait(0.2)
        written(fd, text)

    monkeypatch.setattr(storage, "write_in_place", slow)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "token": made["token"], "move": moves[0]})
        assert receive_state(ws)["ply"] == 1
        record = load_record(tmp_path / "games" / f"{made['id']}.json")
        assert record.moves == moves[:1]


def test_every_legal_move_says_where_it_starts_and_ends_on_the_clickable_board(client):
    made = create(client, "hexaround", options={"config": "level1"}, seed=1)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
    svg = state["svg"]
    for move in state["moves"]:
        origin, target = move["origin"], move["target"]
        assert f'data-cell="{target[0]},{target[1]}"' in svg
        if isinstance(origin, dict):  # a creature in hand, clickable by its name
            assert f'data-seat="{origin["seat"]}" data-kind="{origin["kind"]}"' in svg
    assert "BUTTERFLY" in svg


@pytest.mark.parametrize("name", sorted(SHORT_VARIANTS))
def test_a_whole_game_plays_to_its_result_through_the_socket(client, name):
    made, second, moves = short(client, name)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = play_moves(ws, [made["token"], second], moves)
    assert state["over"] and state["result"].startswith("Game over: ")
    assert state["log"][-1]["events"][-1]["kind"] == "game_over"
    assert state["result"] in state["svg"]


def refused(ws: Any, message: Any) -> str:
    if isinstance(message, str | bytes):
        ws.send_text(message) if isinstance(message, str) else ws.send_bytes(message)
    else:
        ws.send_json(message)
    answer = ws.receive_json()
    assert answer["type"] == "error", answer
    assert "\n" not in answer["message"]
    return answer["message"]


def test_hostile_messages_get_one_line_and_change_nothing(client, tmp_path):
    made, second, moves = short(client, "focus")
    room = made["id"]
    saved = (tmp_path / "games" / f"{room}.json").read_bytes()
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        before = receive_state(ws)
        assert "not a JSON message" in refused(ws, "{not json")
        # Numbers of thousands of digits and deep nesting: refused, never a crash.
        assert "too long" in refused(ws, '{"type": "ping", "n": ' + "9" * 5000 + "}")
        assert "nested more than" in refused(ws, "[" * 5000 + "]" * 5000)
        assert "unknown message type" in refused(ws, {"type": "castle"})
        assert "needs 'move'" in refused(ws, {"type": "move", "token": made["token"]})
        assert "needs 'token'" in refused(ws, {"type": "move", "token": 7, "move": moves[0]})
        assert "a JSON object" in refused(ws, [1, 2])
        assert "too large" in refused(ws, json.dumps({"type": "ping", "pad": "x" * MAX_MESSAGE}))
        # A move for another seat, with no seat, or that the rules refuse.
        assert "Green's turn" not in refused(
            ws, {"type": "move", "token": second, "move": moves[0]})
        assert "it is Red's turn, not Green's" == refused(
            ws, {"type": "move", "token": second, "move": moves[0]})
        assert "holds no seat" in refused(ws, {"type": "move", "token": "guess",
                                               "move": moves[0]})
        assert refused(ws, {"type": "move", "token": made["token"], "move": "a1-a9x1"}) \
            .startswith("illegal move: ")
        assert refused(ws, {"type": "move", "token": made["token"], "move": "hello"}) \
            .startswith("cannot read that move: ")
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
    after = client.get(f"/api/games/{room}").json()
    assert after["ply"] == 0 and after["moves"] == before["moves"]
    assert (tmp_path / "games" / f"{room}.json").read_bytes() == saved


def test_an_unknown_game_and_a_foreign_origin_are_refused(client):
    assert client.get("/api/games/0123456789").status_code == 404
    assert client.get("/api/games/../../etc").status_code == 404
    with client.websocket_connect("/ws/games/0123456789") as ws:
        assert "no game" in ws.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    made = create(client, "focus")
    foreign = {"origin": "http://evil.example"}
    with client.websocket_connect(f"/ws/games/{made['id']}", headers=foreign) as ws:
        assert "another site" in ws.receive_json()["message"]
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()
    r = client.post(f"/api/games/{made['id']}/join", json={"seat": 1}, headers=foreign)
    assert r.status_code == 403
    assert client.get("/api/games").json()["games"][0]["free"] == [1]
    own = {"origin": "http://127.0.0.1"}
    with client.websocket_connect(f"/ws/games/{made['id']}", headers=own) as ws:
        assert receive_state(ws)["id"] == made["id"]


def test_bad_requests_name_the_problem_in_one_line(client):
    def error(body: Any, status: int = 400, path: str = "/api/games") -> str:
        r = client.post(path, content=body if isinstance(body, bytes) else json.dumps(body),
                        headers={"content-type": "application/json"})
        assert r.status_code == status, r.text
        return r.json()["error"]

    assert "not JSON" in error(b"{")
    assert "too long" in error(b'{"game": "focus", "seed": ' + b"9" * 5000 + b"}")
    assert "unknown game 'fokus'; did you mean 'focus'?" in error({"game": "fokus"}, 404)
    assert error({"game": "focus", "options": {"players": "5"}}) == \
        "option players: 5 is not one of 2, 3, 4"
    assert error({"game": "focus", "options": {"nosuch": "5"}}).startswith(
        "game focus has no option 'nosuch'")
    assert "2 seats" in error({"game": "focus", "seats": ["human"]})
    assert "unknown bot" in error({"game": "focus", "seats": ["human", "deep-blue"]})
    assert "'seed'" in error({"game": "focus", "seed": "abc"})
    assert "too large" in error(b"[" + b" " * (3 * 1024 * 1024) + b"]", 413)
    assert "not a hexkit game record" in error({"record": {"moves": []}},
                                                path="/api/games/load")


# -- undo ----------------------------------------------------------------------------------
def test_undo_between_two_people_is_a_request_the_other_accepts(client):
    made, second, moves = short(client, "hexbaron")
    room = made["id"]
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        play_moves(ws, [made["token"], second], moves[:4])
        ws.send_json({"type": "undo", "tokens": [second]})
        asked = receive_state(ws)
        assert asked["undo_request"] == 1 and asked["ply"] == 4
        assert "answers your undo" in refused(
            ws, {"type": "undo_answer", "token": second, "accept": True})
        ws.send_json({"type": "undo_answer", "token": made["token"], "accept": False})
        assert receive_state(ws)["ply"] == 4
        ws.send_json({"type": "undo", "tokens": [second]})
        receive_state(ws)
        ws.send_json({"type": "undo_answer", "token": made["token"], "accept": True})
        back = receive_state(ws)
    assert back["ply"] == 3 and back["turn"] == 1 and back["undo_request"] is None
    assert load_record(Path(client.app.state.store.folder) / f"{room}.json").moves == moves[:3]


def test_undo_against_a_bot_is_at_once_and_takes_back_its_reply_too(client):
    made = create(client, "focus", seats=["human", "random"], seed=2)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        ws.send_json({"type": "move", "token": made["token"], "move": state["moves"][0]["text"]})
        while not (state["ply"] == 2 and state["thinking"] is None):
            state = receive_state(ws)
        ws.send_json({"type": "undo", "tokens": [made["token"]]})
        back = receive_state(ws)
    assert back["ply"] == 0 and back["turn"] == 0


def test_one_browser_holding_both_seats_undoes_its_last_move_at_once(client):
    made, second, moves = short(client, "focus")
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        receive_state(ws)
        for token, text in zip([made["token"], second], moves[:2], strict=True):
            ws.send_json({"type": "move", "token": token, "move": text})
            receive_state(ws)
        ws.send_json({"type": "undo", "tokens": [made["token"], second]})
        back = receive_state(ws)
    assert back["ply"] == 1 and back["undo_request"] is None and back["turn"] == 1


# -- bots ----------------------------------------------------------------------------------
def test_a_bot_seat_thinks_visibly_then_moves(client):
    made = create(client, "focus", seats=["human", "random"], seed=4)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        ws.send_json({"type": "move", "token": made["token"], "move": state["moves"][0]["text"]})
        seen = [receive_state(ws) for _ in range(3)]
    assert [(s["ply"], s["thinking"]) for s in seen] == [(1, None), (1, 1), (2, None)]
    assert seen[-1]["log"][-1]["seat"] == 1
    assert all(s["seats"][1]["bot"] for s in seen)


def test_a_bot_against_a_bot_plays_a_whole_game_unattended(client):
    _, seed, _ = short_game("focus")
    options, _ = SHORT_VARIANTS["focus"]
    made = create(client, "focus", seats=["random", "random"], seed=seed, options=options)
    assert made["seat"] is None
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        while not state["over"]:
            state = receive_state(ws)
    assert state["result"]


# -- saving, restarting, records -----------------------------------------------------------
def test_every_move_is_saved_as_a_record_and_a_restart_keeps_games_and_seats(tmp_path):
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as client:
        made, second, moves = short(client, "hexaround")
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            receive_state(ws)
            ws.send_json({"type": "move", "token": made["token"], "move": moves[0]})
            receive_state(ws)
        record = load_record(folder / f"{made['id']}.json")
        assert record.moves == moves[:1] and record.name == "hexaround"
        assert len(replay(record).move_stack) == 1
        seats_file = (folder / f"{made['id']}.seats.json").read_text()
        assert made["token"] not in seats_file and second not in seats_file

    with TestClient(create_app(folder)) as client:
        lobby = client.get("/api/games").json()["games"]
        assert [g["id"] for g in lobby] == [made["id"]] and lobby[0]["ply"] == 1
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            assert state["log"][0]["move"] == moves[0]
            assert "holds no seat" in refused(ws, {"type": "move", "token": made["token"] + "x",
                                                   "move": moves[1]})
            ws.send_json({"type": "move", "token": second, "move": moves[1]})
            assert receive_state(ws)["ply"] == 2


def test_a_broken_saved_game_is_reported_and_the_others_load(tmp_path):
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as client:
        good = create(client, "focus")["id"]
        bad = create(client, "focus")["id"]
    (folder / f"{bad}.json").write_text("{ torn")
    app = create_app(folder)  # games are loaded when first opened
    with TestClient(app) as client:
        assert client.get(f"/api/games/{good}").status_code == 200
        broken = client.get(f"/api/games/{bad}")
        assert broken.status_code == 500 and "\n" not in broken.json()["error"]
    assert list(app.state.store.rooms) == [good]
    [problem] = app.state.store.problems
    assert bad in problem and "\n" not in problem


def test_a_seats_file_nested_thousands_deep_is_a_broken_game_not_a_crash(tmp_path):
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as client:
        bad = create(client, "focus")["id"]
    (folder / f"{bad}.seats.json").write_text("[" * 5000 + "]" * 5000)
    app = create_app(folder)  # games are loaded when first opened
    with TestClient(app) as client:
        assert client.get(f"/api/games/{bad}").status_code == 500
    assert not app.state.store.rooms
    [problem] = app.state.store.problems
    assert bad in problem and "nested more than" in problem


def test_a_saved_record_starts_a_new_game_from_any_of_its_moves(client):
    made, second, moves = short(client, "hexbaron")
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        play_moves(ws, [made["token"], second], moves[:4])
    record = client.get(f"/api/games/{made['id']}/record").json()
    assert record["moves"] == moves[:4]
    r = client.post("/api/games/load", json={"record": record, "upto": 2})
    assert r.status_code == 201, r.text
    loaded = client.get(f"/api/games/{r.json()['id']}").json()
    assert loaded["ply"] == 2 and [e["move"] for e in loaded["log"]] == moves[:2]
    record["moves"][1] = "move 99 98"
    bad = client.post("/api/games/load", json={"record": record})
    assert bad.status_code == 400 and "move 2 'move 99 98'" in bad.json()["error"]
    out_of_range = client.post("/api/games/load", json={"record": record, "upto": 40})
    assert out_of_range.status_code == 400


def test_pictures_of_any_move_and_the_svg_download(client):
    made, second, moves = short(client, "focus")
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = play_moves(ws, [made["token"], second], moves)
    room = made["id"]
    start = client.get(f"/api/games/{room}/position?ply=0").json()
    assert start["ply"] == 0 and start["result"] == ""
    svg = client.get(f"/api/games/{room}/svg")
    assert svg.headers["content-type"].startswith("image/svg+xml")
    assert "attachment" in svg.headers["content-disposition"]
    assert state["result"] in svg.text and "data-cell" not in svg.text
    assert client.get(f"/api/games/{room}/position?ply=99").status_code == 400
    assert client.get(f"/api/games/{room}/position?ply=-1").status_code == 400


# -- any plugin ----------------------------------------------------------------------------
@pytest.fixture
def plugin_registry(tmp_path, monkeypatch, request):
    """A registry with the example plugin or a fresh ``hexkit new-plugin`` game, imported
    from its folder (nothing installed) and forgotten afterwards."""
    if request.param == "example":
        folder, package, name = ROOT / "examples" / "hex-connection", "hexconnection", "hex"
        options = {"size": 5}
    else:
        from hexkit.tools.scaffold import write_plugin

        write_plugin("webtoy", tmp_path)
        folder, package, name = tmp_path / "webtoy", "webtoy", "webtoy"
        options = {}
    monkeypatch.syspath_prepend(str(folder))
    import importlib

    module = importlib.import_module(f"{package}.plugin")
    yield build_registry(extra=[(package, module)]), name, options
    for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[loaded]


@pytest.mark.parametrize("plugin_registry", ["example", "new-plugin"], indirect=True)
def test_a_plugin_the_web_layer_never_heard_of_plays_to_the_end(tmp_path, plugin_registry):
    registry, name, options = plugin_registry
    with TestClient(create_app(tmp_path / "games", registry)) as client:
        made = create(client, name, seed=1, options=options)
        tokens = [made["token"], join(client, made["id"], 1)]
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            for _ in range(400):
                if state["over"]:
                    break
                ws.send_json({"type": "move", "token": tokens[state["turn"]],
                              "move": state["moves"][-1]["text"]})
                state = receive_state(ws)
    assert state["over"] and state["result"].startswith("Game over")


def _installed_games() -> list[str]:
    from hexkit import plugins

    return sorted(plugins.registry().games)


@pytest.mark.parametrize("name", _installed_games())
def test_every_installed_game_is_clickable_move_after_move(client, name):
    """For any installed game (Hive too, once installed): every legal move's target is a
    clickable cell of the picture and its origin a cell or a piece in hand drawn there;
    random moves sent over the socket are played."""
    import random
    import re

    made = create(client, name, seed=7)
    tokens = {made["seat"]: made["token"]}
    for seat in client.get(f"/api/games/{made['id']}").json()["seats"]:
        if not seat["taken"]:
            tokens[seat["seat"]] = join(client, made["id"], seat["seat"])
    rng = random.Random(7)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        for _ in range(30):
            if state["over"]:
                break
            cells = set(re.findall(r'data-cell="(-?\d+,-?\d+)"', state["svg"]))
            hands = set(re.findall(r'data-seat="(\d+)" data-kind="([^"]*)"', state["svg"]))
            for move in state["moves"]:
                origin, target = move["origin"], move["target"]
                if target is not None:
                    assert f"{target[0]},{target[1]}" in cells, move
                if isinstance(origin, dict):
                    assert (str(origin["seat"]), origin["kind"]) in hands, move
                elif origin is not None:
                    assert f"{origin[0]},{origin[1]}" in cells, move
            move = rng.choice(state["moves"])
            ws.send_json({"type": "move", "token": tokens[state["turn"]], "move": move["text"]})
            state = receive_state(ws)
            assert state["log"][-1]["move"] == move["text"]
