"""Clocks whose time runs out in a game nobody has open: after a restart the server loads
no game until it is opened, so the lobby's index keeps each clock's deadline and the
server flags the games whose deadline passed."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.web.app import create_app  # noqa: E402

from .test_play_flow import first_move, room_of, send, two_people  # noqa: E402
from .test_protocol import TestClient, receive_state  # noqa: E402


def lobby_entry(client: TestClient, room: str) -> dict:
    games = client.get("/api/games").json()["games"]
    return next(g for g in games if g["id"] == room)


def test_a_flag_falls_after_a_restart_in_a_game_nobody_opens(tmp_path):
    folder = tmp_path / "games"
    with TestClient(create_app(folder)) as client:
        room, tokens = two_people(client, clock="3+0")
        with client.websocket_connect(f"/ws/games/{room}") as ws:
            state = receive_state(ws)
            send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        live = room_of(client, room)

        def nearly_out() -> None:  # Green has 0.3 s left when the server stops
            live.flow.clock.left[1] = 0.3
            live.save_seats()
            live.changed(save=False)

        client.portal.call(client.app.state.store.run, live, nearly_out)
    started = time.time()
    with TestClient(create_app(folder)) as client:
        assert room not in client.app.state.store.rooms
        entry = lobby_entry(client, room)
        assert not entry["over"]
        while not entry["over"] and time.time() - started < 10:
            time.sleep(0.1)
            entry = lobby_entry(client, room)
        flagged = time.time() - started
        assert entry["result"] == "Game over: Red wins (Green ran out of time)."
        # Not charged for the time the server was down, and decided without anyone opening
        # the game: within the sweep's second of the clock's deadline.
        assert 0.3 <= flagged < 3.0
        state = client.get(f"/api/games/{room}").json()
        assert state["over"] and state["play"]["ended"] == {"winners": [0], "reason":
                                                            "Green ran out of time"}


def test_a_game_without_a_running_clock_is_never_due(tmp_path):
    with TestClient(create_app(tmp_path / "games")) as client:
        timed, _ = two_people(client, clock="3+0")  # no move yet: the clock waits
        untimed, tokens = two_people(client)
        with client.websocket_connect(f"/ws/games/{untimed}") as ws:
            state = receive_state(ws)
            send(ws, {"type": "move", "token": tokens[0], "move": first_move(state)})
        storage = client.app.state.store.storage
        assert storage.due_clocks(time.time() + 10**6) == []
        assert not lobby_entry(client, timed)["over"]


def test_across_processes_one_process_applies_a_flag_in_a_game_nobody_watches(postgres_url):
    """Two stores on one database, as two processes that both find the clock ran out:
    the storage's version check lets one commit the flag; the other catches up."""
    from hexkit import plugins
    from hexkit.web.pgstorage import PostgresStorage
    from hexkit.web.play import TimeControl
    from hexkit.web.rooms import RoomStore
    from hexkit.web.storage import Conflict

    registry = plugins.registry()
    one = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    two = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    try:
        game = registry.game_spec("focus").make_game({})
        room, _, red = one.create(game, ["human", "human"], seed=3, take=0,
                                  clock=TimeControl(3, 0))
        one._work(room, lambda: room.take_seat(1))
        first = str(room.state.legal_moves()[0])
        one._work(room, lambda: room.play(red, first))

        def nearly_out() -> None:
            room.flow.clock.left[1] = 0.2
            room.save_seats()

        one._work(room, nearly_out)
        assert two.storage.due_clocks(time.time()) == []
        time.sleep(0.25)
        assert two.storage.due_clocks(time.time()) == [room.id]
        there = two.load_room(room.id)
        assert two._work(there, there.check_time)
        # The first process decides without catching up: its commit is refused...
        with pytest.raises(Conflict):
            room.check_time()
        assert room.flow.ended is None
        # ...and through its store it catches up: the game is over, decided once.
        assert not one._work(room, room.check_time)
        assert room.finished and room.flow.ended == there.flow.ended
        assert one.storage.due_clocks(time.time()) == []
    finally:
        one.close()
        two.close()
