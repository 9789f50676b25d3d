"""Several ``hexkit serve`` processes on one PostgreSQL and one Redis: two browsers on two
processes play one game, moves to one game are applied one at a time across processes
(none lost, none twice), a bot's turn is played once, accounts are shared, and a process
killed mid-game loses no acknowledged move. Real servers on 127.0.0.1, bounded in time."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.errors import OptionError  # noqa: E402

from .conftest import free_port  # noqa: E402


def start(tmp: Path, storage: str, broadcast: str, name: str, *more: str) -> tuple[Any, str]:
    port = free_port()
    log = open(tmp / f"{name}.log", "w")  # noqa: SIM115 (closed with the process)
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", "serve", "--port", str(port), "--games-dir",
         str(tmp / name), "--storage", storage, "--broadcast", broadcast, *more],
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(url + "/api/me", timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("a server did not start: "
                                   + (tmp / f"{name}.log").read_text()[-2000:]) from None
            time.sleep(0.1)


def stop(proc: Any) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def call(url: str, body: Any = None, method: str = "POST") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"},
                                     method=method if body is not None else "GET")
    with urllib.request.urlopen(request, timeout=20) as answer:
        return json.load(answer)


class Browser:
    """A game's socket that speaks protocol 2 and keeps the state as app.js does."""

    def __init__(self, url: str, room: str, tokens: list[str]):
        from websockets.sync.client import connect

        self.opened = connect(url.replace("http", "ws") + f"/ws/games/{room}",
                              open_timeout=20)
        self.ws = self.opened.__enter__()
        self.state: dict[str, Any] = self.next("state")
        self.ws.send(json.dumps({"type": "hello", "protocol": 2, "tokens": tokens}))

    def next(self, *kinds: str) -> dict[str, Any]:
        while True:
            message = json.loads(self.ws.recv(timeout=20))
            assert message["type"] != "error", message
            if message["type"] in kinds:
                return message
            if message["type"] == "moves":
                self.state["moves"] = message["moves"]

    def until(self, ply: int) -> dict[str, Any]:
        """Apply changes until the game has ``ply`` moves."""
        while self.state["ply"] < ply:
            change = self.next("change", "state")
            if change["type"] == "state":
                self.state = change
                continue
            assert change["base"] == self.state["version"]
            for key, value in change.items():
                if key == "log":
                    self.state["log"] = self.state["log"][: change["log_from"]] + value
                elif key not in ("type", "base", "log_from", "svg_patch"):
                    self.state[key] = value
        return self.state

    def moves(self) -> list[str]:
        self.ws.send(json.dumps({"type": "moves"}))
        return [m["text"] for m in self.next("moves")["moves"]]

    def close(self) -> None:
        self.opened.__exit__(None, None, None)


def test_two_processes_play_one_game_and_a_killed_one_loses_no_acknowledged_move(
        tmp_path, postgres_url, redis_url):
    # Behind an HTTPS reverse proxy on this machine, as docs/scaling.md sets them up.
    proxied = ("--proxy", "127.0.0.1", "--allowed-host", "games.example")
    a, url_a = start(tmp_path, postgres_url, redis_url, "a", *proxied)
    b, url_b = start(tmp_path, postgres_url, redis_url, "b", *proxied)
    browsers: list[Browser] = []
    try:
        request = urllib.request.Request(
            url_a + "/api/games", json.dumps({"game": "focus", "seed": 5,
                                              "seats": ["human", "human"]}).encode(),
            {"Content-Type": "application/json", "Host": "games.example",
             "Origin": "https://games.example", "X-Forwarded-Proto": "https"})
        with urllib.request.urlopen(request, timeout=20) as answer:
            made = json.load(answer)
        joined = call(f"{url_b}/api/games/{made['id']}/join", {"seat": 1})
        tokens = [made["token"], joined["token"]]
        # The lobby of either process lists the game, with both seats taken.
        lobby = call(url_b + "/api/games")["games"]
        assert [g["id"] for g in lobby] == [made["id"]] and lobby[0]["free"] == []
        browsers = [Browser(url_a, made["id"], [tokens[0]]),
                    Browser(url_b, made["id"], [tokens[1]])]
        acknowledged: list[str] = []
        for ply in range(6):
            mover = ply % 2
            move = browsers[mover].moves()[ply % 3]
            browsers[mover].ws.send(json.dumps({"type": "move", "token": tokens[mover],
                                                "move": move}))
            seen = [br.until(ply + 1) for br in browsers]
            assert seen[0]["log"] == seen[1]["log"] and seen[0]["turn"] == seen[1]["turn"]
            acknowledged.append(seen[0]["log"][-1]["move"])
        # Process A is killed while its player's move is on the way.
        move = browsers[0].moves()[0]
        browsers[0].ws.send(json.dumps({"type": "move", "token": tokens[0], "move": move}))
        a.send_signal(signal.SIGKILL)
        a.wait(10)
        record = call(f"{url_b}/api/games/{made['id']}/record")
        assert record["moves"][:6] == acknowledged and len(record["moves"]) in (6, 7)
        # The player of A comes back through B and the game goes on from where it is.
        browsers[0].close()
        browsers[0] = Browser(url_b, made["id"], [tokens[0]])
        ply = browsers[0].state["ply"]
        mover = browsers[0].state["turn"]
        browsers[1].until(ply)
        move = browsers[mover].moves()[0]
        browsers[mover].ws.send(json.dumps({"type": "move", "token": tokens[mover],
                                            "move": move}))
        assert browsers[0].until(ply + 1)["ply"] == browsers[1].until(ply + 1)["ply"]
        record = call(f"{url_b}/api/games/{made['id']}/record")
        assert record["moves"][:6] == acknowledged and len(record["moves"]) == ply + 1
    finally:
        for br in browsers:
            br.close()
        stop(a)
        stop(b)


def test_moves_to_one_game_are_applied_once_across_processes(postgres_url):
    """Two stores on one database, as two processes: a stale process's move is checked
    against the game as stored (none lost, none applied twice)."""
    from hexkit import plugins
    from hexkit.web.pgstorage import PostgresStorage
    from hexkit.web.rooms import RoomError, RoomStore
    from hexkit.web.storage import Conflict

    registry = plugins.registry()
    one = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    two = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    try:
        game = registry.game_spec("focus").make_game({})
        room, _, red = one.create(game, ["human", "human"], seed=3, take=0)
        green = one._work(room, lambda: room.take_seat(1))
        stale = two.load_room(room.id)
        first, second = (str(m) for m in room.state.legal_moves()[:2])
        one._work(room, lambda: room.play(red, first))
        # Committed without catching up: refused by the version check, and taken back.
        with pytest.raises(Conflict):
            stale.play(red, second)
        assert stale.record.moves == [] and stale.state.move_stack == []
        # Through the store it catches up first: Red has moved, it is Green's turn.
        with pytest.raises(RoomError, match="Green's turn"):
            two._work(stale, lambda: stale.play(red, second))
        reply = str(stale.state.legal_moves()[0])
        two._work(stale, lambda: stale.play(green, reply))
        one._work(room, lambda: None)
        assert room.record.moves == stale.record.moves == [first, reply]
        assert [e.move for e in room.log] == [first, reply]
        # A bot's turn is claimed by one process only.
        assert one.storage.claim_bot(room.id, room.seq, 5.0)
        assert not two.storage.claim_bot(room.id, room.seq, 5.0)
    finally:
        one.close()
        two.close()


def test_a_move_to_a_process_that_missed_a_commit_is_judged_on_the_stored_game(
        postgres_url):
    """A move goes to the database without a query first when no other process said it
    committed since: a stale copy's move is still refused or accepted as the stored game
    says (the commit's version check, then the move again on the fresh game)."""
    from hexkit import plugins
    from hexkit.web.pgstorage import PostgresStorage
    from hexkit.web.rooms import RoomError, RoomStore

    registry = plugins.registry()
    one = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    two = RoomStore(None, registry, storage=PostgresStorage(postgres_url), workers=1)
    try:
        game = registry.game_spec("focus").make_game({})
        room, _, red = one.create(game, ["human", "human"], seed=5, take=0)
        green = one._work(room, lambda: room.take_seat(1))
        stale = two.load_room(room.id)
        first, second = (str(m) for m in room.state.legal_moves()[:2])
        one._work(room, lambda: room.play(red, first), checked=True)
        # Legal on the stale copy (Red to move there), not on the stored game.
        with pytest.raises(RoomError, match="Green's turn"):
            two._work(stale, lambda: stale.play(red, second), checked=True)
        assert stale.record.moves == [first]
        reply = str(room.state.legal_moves()[0])
        one._work(room, lambda: room.play(green, reply), checked=True)
        # Refused on the stale copy (Green to move there), legal on the stored game.
        answer = str(room.state.legal_moves()[0])
        two._work(stale, lambda: stale.play(red, answer), checked=True)
        one._work(room, lambda: None)
        assert room.record.moves == stale.record.moves == [first, reply, answer]
        assert [e.move for e in stale.log] == [first, reply, answer]
    finally:
        one.close()
        two.close()


def test_accounts_and_sessions_live_in_the_shared_store(postgres_url):
    from hexkit.web.accounts import Accounts
    from hexkit.web.pgstorage import PostgresStorage

    here, there = Accounts(PostgresStorage(postgres_url)), Accounts(PostgresStorage(postgres_url))
    here.add("ada", password="correct horse battery")
    key = there.sign_in("ada", "correct horse battery", "127.0.0.1")
    assert here.person(here.cookie_value(key)).name == "ada"
    assert here.secret == there.secret


def test_without_the_extras_one_line_says_how_to_install(monkeypatch):
    from hexkit.web.backends import open_broadcast, open_storage

    monkeypatch.setitem(sys.modules, "psycopg", None)
    monkeypatch.setitem(sys.modules, "redis.asyncio", None)
    with pytest.raises(OptionError, match=r"pip install 'hexkit-games\[postgres\]'"):
        open_storage("postgresql://nobody@127.0.0.1:1/x", None)
    with pytest.raises(OptionError, match=r"pip install 'hexkit-games\[redis\]'"):
        open_broadcast("redis://127.0.0.1:1/0")
    with pytest.raises(OptionError, match="not a storage"):
        open_storage("mysql://x", None)


def test_an_unreachable_database_is_one_line_naming_no_password(tmp_path):
    from hexkit.errors import HexkitError
    from hexkit.web.app import create_app
    from hexkit.web.settings import ServerSettings

    url = f"postgresql://nobody:secret@127.0.0.1:{free_port()}/x?connect_timeout=3"
    with pytest.raises(HexkitError) as refused:
        create_app(tmp_path, settings=ServerSettings(storage=url))
    message = str(refused.value)
    assert "cannot use the database" in message and "\n" not in message
    assert "secret" not in message
