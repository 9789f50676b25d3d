"""Play beyond the rules on ``hexkit serve``, through Starlette's in-process client: clocks
decided on the server and kept over a restart, resigning, draw offers, rematches with the
seats swapped, presence, undo only while the game goes on, leaving a finished game, what a
board marks of the last turn, the lobby's bots for each game, and the favicon."""

from __future__ import annotations

import time
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.web.app import create_app  # noqa: E402
from hexkit.web.settings import BotCaps, ServerSettings  # noqa: E402

from .test_protocol import TestClient, create, join, receive_state  # noqa: E402


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "games")) as c:
        yield c


def two_people(client: TestClient, game: str = "focus", **body: Any) -> tuple[str, list[str]]:
    made = create(client, game, seed=3, **body)
    return made["id"], [made["token"], join(client, made["id"], 1)]


def send(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    """Send a message; the next message received (a state or an error)."""
    ws.send_json(message)
    return ws.receive_json()


def first_move(state: dict[str, Any]) -> str:
    return state["moves"][0]["text"]


def room_of(client: TestClient, room: str) -> Any:
    return client.app.state.store.rooms[room]


# -- clocks --------------------------------------------------------------------------------
def test_a_clock_starts_with_the_first_move_runs_for_the_seat_to_act_and_adds_the_increment(
        client):
    room, tokens = two_people(client, clock="1+2")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        clock = state["play"]["clock"]
        assert clock == {"control": "1+2", "running": None, "since": 0.0,
                         "left": [60.0, 60.0]}
        before = time.time()
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        clock = state["play"]["clock"]
        # The page gets ``since`` to the millisecond.
        assert clock["running"] == 1
        assert before - 0.001 <= clock["since"] <= time.time() + 0.001
        # The first turn is not timed (and earns no increment).
        assert clock["left"] == [60.0, 60.0]
        state = send(ws, {"type": "move", "token": tokens[1], "move": first_move(state)})
        clock = state["play"]["clock"]
        assert clock["running"] == 0 and 61.0 < clock["left"][1] <= 62.0  # 2 s added


def test_a_move_after_the_time_ran_out_is_refused_and_the_other_player_wins(client):
    room, tokens = two_people(client, clock="3+0")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        room_of(client, room).flow.clock.since -= 181  # Green thought for 181 s
        ended = send(ws, {"type": "move", "token": tokens[1], "move": first_move(state)})
        assert ended["type"] == "state" and ended["over"]  # the flag, to every browser
        assert ws.receive_json() == {"type": "error", "message": "time is up: Game over: "
                                     "Red wins (Green ran out of time)."}
    state = client.get(f"/api/games/{room}").json()
    assert state["over"] and state["ply"] == 1 and state["play"]["clock"]["left"][1] == 0
    assert state["play"]["ended"] == {"winners": [0], "reason": "Green ran out of time"}
    # The record keeps the moves as the rules played them: no result the rules did not give.
    assert client.get(f"/api/games/{room}/record").json()["result"] is None


def test_the_server_flags_a_clock_that_runs_out_while_nobody_acts(client):
    room, tokens = two_people(client, clock="3+0")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        live = room_of(client, room)

        def later() -> None:  # Green has a tenth of a second left
            live.flow.clock.since -= 179.9
            live.changed(save=False)

        client.portal.call(client.app.state.store.run, live, later)
        assert not receive_state(ws)["over"]  # that change, shown
        state = receive_state(ws)  # sent by the server when the time ran out
        assert state["over"] and state["result"] == ("Game over: Red wins (Green ran out "
                                                     "of time).")


def test_a_restart_keeps_each_clock_and_charges_no_time_while_the_server_was_down(tmp_path):
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as client:
        room, tokens = two_people(client, clock="5+3")
        with client.websocket_connect(f"/ws/games/{room}") as ws:
            state = receive_state(ws)
            state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
            state = send(ws, {"type": "move", "token": tokens[1], "move": first_move(state)})
        saved = state["play"]["clock"]["left"]
    with TestClient(create_app(folder)) as client:
        after = client.get(f"/api/games/{room}").json()["play"]["clock"]
    assert after["left"] == saved and after["running"] == 0
    assert after["since"] >= state["play"]["clock"]["since"]


def test_a_bots_clock_runs_while_it_thinks(client):
    made = create(client, "focus", seats=("human", "random"), seed=3, clock="1+0")
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        ws.send_json({"type": "move", "token": made["token"], "move": first_move(state)})
        while state["ply"] < 2 or state["thinking"] is not None:
            state = receive_state(ws)
    clock = state["play"]["clock"]
    assert clock["running"] == 0 and clock["left"][0] == 60.0 and clock["left"][1] < 60.0


def test_a_clock_is_chosen_from_what_the_server_offers_and_refused_in_one_line(client):
    assert "5+3" in client.get("/api/catalog").json()["clocks"]
    for bad, words in (("fast", "minutes+increment"), ("900+0", "from 0.25 to 180"),
                       ({"minutes": "5"}, "numbers")):
        r = client.post("/api/games", json={"game": "focus", "clock": bad})
        assert r.status_code == 400 and words in r.json()["error"], r.text
    r = client.post("/api/games", json={"game": "focus", "options": {"board": "cross",
                                                                     "players": 3},
                                        "seats": ["human"] * 3, "clock": "5+0"})
    assert r.status_code == 400 and "two-player" in r.json()["error"]
    assert client.get("/api/games").json()["total"] == 0


# -- resign, draw, undo --------------------------------------------------------------------
def test_a_resigned_game_is_won_by_the_other_and_takes_no_more_moves_or_undos(client):
    room, tokens = two_people(client)
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        move = first_move(state)
        state = send(ws, {"type": "resign", "token": tokens[0]})
        assert state["over"] and state["turn"] is None and state["moves"] == []
        assert state["result"] == "Game over: Green wins (Red resigned)."
        assert send(ws, {"type": "move", "token": tokens[1], "move": move})["message"] == \
            "the game is over: no more moves"
        assert "no longer taken back" in send(ws, {"type": "undo",
                                                   "tokens": [tokens[0]]})["message"]
        assert "game is over" in send(ws, {"type": "resign", "token": tokens[1]})["message"]
        assert "holds no seat" in send(ws, {"type": "resign", "token": "x" * 32})["message"]
    assert client.get(f"/api/games/{room}").json()["ply"] == 1


def test_an_accepted_undo_request_of_a_game_that_ended_meanwhile_is_refused(client):
    room, tokens = two_people(client, "hexbaron")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        for _ in range(3):
            state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        state = send(ws, {"type": "undo", "tokens": [tokens[0]]})
        assert state["undo_request"] == 0
        send(ws, {"type": "resign", "token": tokens[1]})
        cleared = send(ws, {"type": "undo_answer", "token": tokens[1], "accept": True})
        assert cleared["undo_request"] is None  # the request is dropped, saved, shown
        assert "no longer taken back" in ws.receive_json()["message"]
    assert client.get(f"/api/games/{room}").json()["ply"] == 3


def test_a_draw_offer_is_accepted_or_lapses_when_the_other_player_moves(client):
    room, tokens = two_people(client)
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        state = send(ws, {"type": "draw", "token": tokens[0]})
        assert state["play"]["draw_offer"] == 0
        assert "offered a draw already" in send(ws, {"type": "draw",
                                                     "token": tokens[0]})["message"]
        assert "answers your draw offer" in send(ws, {"type": "draw_answer",
                                                      "token": tokens[0],
                                                      "accept": True})["message"]
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        assert state["play"]["draw_offer"] == 0  # one's own move keeps one's offer
        state = send(ws, {"type": "move", "token": tokens[1], "move": first_move(state)})
        assert state["play"]["draw_offer"] is None  # declined by playing on
        assert "nobody offered" in send(ws, {"type": "draw_answer", "token": tokens[0],
                                             "accept": True})["message"]
        send(ws, {"type": "draw", "token": tokens[1]})
        state = send(ws, {"type": "draw_answer", "token": tokens[0], "accept": True})
        assert state["over"] and state["result"] == "Game over: a draw (agreed)."


def test_a_bot_is_offered_no_draw(client):
    made = create(client, "focus", seats=("human", "random"), seed=3)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        receive_state(ws)
        assert "bots play on" in send(ws, {"type": "draw", "token": made["token"]})["message"]


# -- rematch and leaving -------------------------------------------------------------------
def test_a_rematch_agreed_by_both_swaps_the_seats_with_the_same_secrets_and_clock(client):
    room, tokens = two_people(client, clock="10+5")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        receive_state(ws)
        assert "once it is over" in send(ws, {"type": "rematch",
                                              "tokens": [tokens[0]]})["message"]
        send(ws, {"type": "resign", "token": tokens[1]})
        state = send(ws, {"type": "rematch", "tokens": [tokens[0]]})
        assert state["play"]["rematch_offer"] == 0 and state["play"]["rematch"] is None
        state = send(ws, {"type": "rematch_answer", "token": tokens[1], "accept": True})
    new = state["play"]["rematch"]
    assert new and new != room
    held = client.post(f"/api/games/{new}/seats", json={"tokens": tokens}).json()["held"]
    assert held == [1, 0]  # Red's player plays Green now, and the other way round
    again = client.get(f"/api/games/{new}").json()
    assert again["game"] == state["game"] and again["play"]["clock"]["control"] == "10+5"
    assert again["ply"] == 0 and not again["over"]


def test_a_rematch_against_a_bot_is_made_at_once_with_the_bot_in_the_other_seat(client):
    made = create(client, "focus", seats=("human", "random"), seed=3)
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        receive_state(ws)
        state = send(ws, {"type": "resign", "token": made["token"]})
        while state.get("type") != "state" or not state["play"]["rematch"]:
            if state.get("type") == "state" and state["play"]["rematch"] is None:
                ws.send_json({"type": "rematch", "tokens": [made["token"]]})
            state = ws.receive_json()
    new = client.get(f"/api/games/{state['play']['rematch']}").json()
    assert [s["spec"] for s in new["seats"]] == ["random", "human"]
    assert new["seats"][1]["taken"]


def test_players_leave_a_finished_game_and_the_last_one_out_archives_it(client):
    room, tokens = two_people(client)
    leave = f"/api/games/{room}/leave"
    r = client.post(leave, json={"tokens": [tokens[0]]})
    assert r.status_code == 409 and "resign first" in r.json()["error"]
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        receive_state(ws)
        send(ws, {"type": "resign", "token": tokens[0]})
    r = client.post(leave, json={"tokens": [tokens[0]]})
    assert r.json() == {"id": room, "left": True, "archived": False}
    state = client.get(f"/api/games/{room}").json()
    assert state["play"]["left"] == [0] and not state["seats"][0]["taken"]
    assert client.post(leave, json={"tokens": [tokens[0]]}).status_code == 403
    assert client.post(leave, json={"tokens": [tokens[1]]}).json()["archived"] is True
    assert client.get(f"/api/games/{room}").status_code == 404
    assert client.get(f"/api/games/{room}/record").status_code == 200


# -- presence ------------------------------------------------------------------------------
def test_presence_says_which_seats_are_connected_and_counts_spectators(client):
    room, tokens = two_people(client)
    with client.websocket_connect(f"/ws/games/{room}") as a:
        receive_state(a)
        assert send(a, {"type": "hello", "protocol": 1,
                        "tokens": [tokens[0]]})["type"] == "time"
        assert a.receive_json()["type"] == "moves"  # it holds the seat to move
        assert a.receive_json() == {"type": "presence", "seats": [True, False],
                                    "spectators": 0}
        with client.websocket_connect(f"/ws/games/{room}") as watcher:
            receive_state(watcher)
            assert a.receive_json() == {"type": "presence", "seats": [True, False],
                                        "spectators": 1}
            with client.websocket_connect(f"/ws/games/{room}") as b:
                receive_state(b)
                a.receive_json()
                b.send_json({"type": "hello", "protocol": 1, "tokens": [tokens[1], "x" * 20]})
                assert a.receive_json() == {"type": "presence", "seats": [True, True],
                                            "spectators": 1}
            assert a.receive_json()["seats"] == [True, False]
        assert a.receive_json()["spectators"] == 0


# -- what the board shows ------------------------------------------------------------------
def test_the_last_turn_is_marked_from_and_to_with_the_pieces_it_removed(client):
    room, tokens = two_people(client, "hexbaron")
    with client.websocket_connect(f"/ws/games/{room}") as ws:
        state = receive_state(ws)
        assert state["last"] == []
        moved = [m for m in state["moves"] if m["origin"] and m["target"]][0]
        state = send(ws, {"type": "move", "token": tokens[0], "move": moved["text"]})
        assert state["last"] == [{"origin": moved["origin"], "target": moved["target"],
                                  "via": moved["via"], "removed": []}]
        state = send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        assert len(state["last"]) == 2  # Hex Baron's turn: each command so far
    # Hex Baron's terrain gets a legend, in the colours the board is drawn in.
    names = [name for name, colour in state["terrain"]]
    assert names and all(colour.startswith("#") for _, colour in state["terrain"])
    assert all(f">{line}<" not in state["svg"] for line in state["caption"])


def test_removed_pieces_are_the_cells_of_the_events_that_removed_them(client):
    from hexkit.plugins import load_game

    game = load_game("focus", captures_to_win="1", max_height="2")
    found = None
    for seed in range(40):  # a Focus game whose first capture comes early
        state = game.new_state(seed)
        played = []
        for _ in range(40):
            move = state.legal_moves()[0]
            state.push(move)
            played.append(str(move))
            captured = [e for e in state.events() if e.kind in ("captured", "reserved")]
            if captured or state.is_over():
                break
        if any(e.kind == "captured" for e in state.events()):
            found = seed, played, [list(c) for e in state.events() if e.kind == "captured"
                                   for c in e.cells]
            break
    assert found is not None
    seed, played, cells = found
    made = create(client, "focus", seed=seed,
                  options={"captures_to_win": "1", "max_height": "2"})
    tokens = [made["token"], join(client, made["id"], 1)]
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        state = receive_state(ws)
        for text in played:
            state = send(ws, {"type": "move", "token": tokens[state["turn"]], "move": text})
    assert state["last"][-1]["removed"] == cells


# -- the lobby -----------------------------------------------------------------------------
def test_the_lobby_offers_each_game_only_its_bots_with_settings_and_named_levels(tmp_path):
    settings = ServerSettings(bots=BotCaps(max_simulations=2000, max_nodes=3000))
    with TestClient(create_app(None, settings=settings)) as client:
        games = {g["name"]: g for g in client.get("/api/catalog").json()["games"]}
        focus = games["focus"]
        assert "hive" not in {b["name"] for b in focus["bots"]}
        mcts = next(b for b in focus["bots"] if b["name"] == "mcts")
        assert mcts["placeholder"] == "400" and "simulations" in mcts["settings"]
        # Only the levels within this server's caps of 2,000 simulations and 3,000 nodes.
        assert [lv["spec"] for lv in focus["levels"]] == ["bot:easy", "bot:level=2",
                                                          "bot:medium"]
        if "hive" in games:
            hive = next(b for b in games["hive"]["bots"] if b["name"] == "hive")
            assert hive["placeholder"] == "depth=2"
        r = client.post("/api/games", json={"game": "focus", "seats": ["human", "hive"]})
        assert r.status_code == 400 and "does not play focus" in r.json()["error"]
        r = client.post("/api/games", json={"game": "focus", "seats": ["human", "bot:hard"]})
        assert r.status_code == 400 and "bot:hard is alphabeta:" in r.json()["error"]
        assert "cap of 3,000" in r.json()["error"]
        assert client.post("/api/games", json={"game": "focus", "seats": [
            "human", "bot:easy"]}).status_code == 201


def test_a_server_where_watching_needs_an_account_does_not_say_strangers_may_watch(
        tmp_path):
    for open_watching, said in ((False, "sign in to play on this server"),
                                (True, "sign in to play on this server (people who are "
                                       "not signed in can only watch)")):
        settings = ServerSettings(accounts=True, open_watching=open_watching)
        with TestClient(create_app(None, settings=settings)) as client:
            r = client.post("/api/games", json={"game": "focus"})
            assert r.status_code == 401 and r.json()["error"] == said


def test_the_favicon_is_served(client):
    r = client.get("/favicon.ico")
    assert r.status_code == 200 and r.headers["content-type"] == "image/x-icon"
    assert r.content[:4] == b"\x00\x00\x01\x00"
