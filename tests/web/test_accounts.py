"""Accounts of a server reachable from other machines: only signed-in people create games
and take seats, sessions in signed HttpOnly SameSite cookies, sign-in attempts limited,
one-time links, an admin role, and ``hexkit users`` for the instructor."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.cli import main  # noqa: E402
from hexkit.web.app import create_app  # noqa: E402
from hexkit.web.settings import ServerSettings  # noqa: E402

from .test_protocol import TestClient, receive_state  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def cheap_passwords() -> Iterator[None]:
    """argon2id with the smallest cost (one pass over 64 KiB, one lane): the tests are
    about who may do what, and the default cost (3 passes over 64 MiB, 0.2 s of CPU for
    each hash and each check) made every sign-in the slowest step of a test."""
    argon2 = pytest.importorskip("argon2")
    cheap = functools.partial(argon2.PasswordHasher, time_cost=1, memory_cost=64,
                              parallelism=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(argon2, "PasswordHasher", cheap)
        yield


def users(folder: Path, *argv: str, capsys: Any) -> str:
    assert main(["users", "--games-dir", str(folder), *argv]) == 0
    return capsys.readouterr().out


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from hexkit.web.accounts import Accounts
    from hexkit.web.storage import FolderStorage

    place = tmp_path_factory.mktemp("class")
    accounts = Accounts(FolderStorage(place))
    accounts.add("alice", password="alice-secret")
    accounts.add("bob", password="bob-secret")
    accounts.add("teacher", password="teacher-secret", admin=True)
    return place


def server(folder: Path, **settings: Any) -> TestClient:
    return TestClient(create_app(folder, settings=ServerSettings(accounts=True, **settings)))


def sign_in(client: TestClient, name: str, password: str) -> None:
    r = client.post("/api/login", json={"name": name, "password": password})
    assert r.status_code == 200, r.text


def test_beyond_loopback_accounts_are_required_by_default():
    assert ServerSettings(host="0.0.0.0").accounts_required
    assert ServerSettings(host="192.168.1.5").accounts_required
    assert not ServerSettings(host="127.0.0.1").accounts_required
    assert not ServerSettings(host="::1").accounts_required


def test_only_signed_in_people_create_games_and_take_seats(folder):
    with server(folder, open_watching=True) as client:
        r = client.post("/api/games", json={"game": "focus"})
        assert r.status_code == 401 and "sign in to play" in r.json()["error"]
        sign_in(client, "alice", "alice-secret")
        cookie = client.cookies.jar
        made = client.post("/api/games", json={"game": "focus"}).json()
        raw = [c for c in cookie if c.name == "hexkit_session"][0]
        assert raw.has_nonstandard_attr("HttpOnly")
        assert raw._rest.get("SameSite", raw._rest.get("samesite")).lower() == "strict"
        assert client.get("/api/me").json()["name"] == "alice"
        client.post("/api/logout", json={})
        assert client.get("/api/me").json()["name"] is None
        # Not signed in: watch, never play.
        assert client.post(f"/api/games/{made['id']}/join", json={"seat": 1}).status_code \
            == 401
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            assert state["seats"][0]["player"] == "alice"
            ws.send_json({"type": "move", "token": made["token"],
                          "move": state["moves"][0]["text"]})
            assert "sign in to play" in ws.receive_json()["message"]
        sign_in(client, "bob", "bob-secret")
        seat = client.post(f"/api/games/{made['id']}/join", json={"seat": 1}).json()
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            # Bob cannot play Alice's seat even with her token.
            ws.send_json({"type": "move", "token": made["token"],
                          "move": state["moves"][0]["text"]})
            assert "sign in as alice" in ws.receive_json()["message"]
        assert seat["seat"] == 1
        mine = client.get("/api/games?mine=1").json()["games"]
        assert [g["id"] for g in mine] == [made["id"]]


def test_without_open_watching_nothing_is_shown_to_strangers(folder):
    with server(folder) as client:
        assert client.get("/api/games").status_code == 401
        assert client.get("/api/catalog").status_code == 401
        assert client.get("/").status_code == 200  # the sign-in page
        assert client.get("/api/me").json()["watching"] is False


def test_sign_in_attempts_are_limited(folder):
    with server(folder) as client:
        codes = [client.post("/api/login", json={"name": "alice", "password": "wrong-one"})
                 .status_code for _ in range(6)]
        assert codes == [401] * 5 + [429]
        r = client.post("/api/login", json={"name": "nobody", "password": "x" * 8},
                        headers={"x": "y"})
        assert r.status_code in (401, 429)


def test_a_forged_or_altered_session_cookie_is_nobody(folder):
    with server(folder) as client:
        sign_in(client, "bob", "bob-secret")
        value = client.cookies["hexkit_session"]
        key, _, mac = value.rpartition(".")
        client.cookies.set("hexkit_session", key + "x." + mac)
        assert client.get("/api/me").json()["name"] is None


def test_the_owner_or_an_admin_stops_a_game(folder):
    with server(folder) as client:
        sign_in(client, "alice", "alice-secret")
        made = client.post("/api/games", json={"game": "focus"}).json()
        sign_in(client, "bob", "bob-secret")
        assert client.post(f"/api/games/{made['id']}/stop", json={}).status_code == 403
        sign_in(client, "teacher", "teacher-secret")
        r = client.post(f"/api/games/{made['id']}/stop", json={})
        assert r.status_code == 200 and r.json()["stopped"] == "stopped by an admin"


def test_users_add_import_list_reset_remove(tmp_path, capsys):
    folder = tmp_path / "srv"
    out = users(folder, "--url", "http://class.example:8000", "add", "carol", capsys=capsys)
    assert out.startswith("added carol: one-time link http://class.example:8000/welcome#")
    key = out.strip().rsplit("#", 1)[1]
    roster = tmp_path / "roster.csv"
    roster.write_text("Name,E-mail,Student ID\ndave,dave@uni.example,\nerin,,s1234\n"
                      "bad name!,x@y,\ncarol,,\n")
    out = users(folder, "import", str(roster), capsys=capsys)
    assert "dave  http://localhost:8000/welcome#" in out and "erin  http" in out
    assert f"{roster}:4: skipped" in out and f"{roster}:5: skipped" in out
    assert "2 accounts added" in out
    listed = users(folder, "list", capsys=capsys)
    assert "dave  (waiting for its link)  dave@uni.example" in listed and "s1234" in listed
    with server(folder) as client:
        r = client.post("/api/welcome", json={"key": key, "password": "short"})
        assert r.status_code == 400 and "at least 8" in r.json()["error"]
        r = client.post("/api/welcome", json={"key": key, "password": "carols-secret"})
        assert r.status_code == 200 and client.get("/api/me").json()["name"] == "carol"
        again = client.post("/api/welcome", json={"key": key, "password": "carols-secret"})
        assert again.status_code == 404 and "used or has expired" in again.json()["error"]
    users(folder, "reset", "carol", capsys=capsys)
    users(folder, "remove", "dave", capsys=capsys)
    assert "dave" not in users(folder, "list", capsys=capsys)
    assert main(["users", "--games-dir", str(folder), "remove", "nobody"]) == 1
    assert "there is no account 'nobody'" in capsys.readouterr().err
