"""What a web client cannot do to a ``hexkit serve`` server, attack by attack (issue 21):
start a program, read a server file, pass for the server by another name, or take more
than its share. Each test is the attack as a client makes it, through Starlette's
in-process client (the real-server attacks are in test_trust_server.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.web.app import create_app  # noqa: E402
from hexkit.web.settings import BotCaps, Limits, ServerSettings  # noqa: E402

from .test_protocol import TestClient, receive_state  # noqa: E402

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.fixture
def jail(tmp_path, monkeypatch):
    """The server's working folder: a program started by an attack would leave its file
    here."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def client_for(folder: Path | None, **settings: Any) -> TestClient:
    return TestClient(create_app(folder, settings=ServerSettings(**settings)))


@pytest.fixture
def client(tmp_path):
    with client_for(tmp_path / "games") as c:
        yield c


def post(client: TestClient, path: str, body: Any, status: int | None = None, **kw: Any):
    r = client.post(path, json=body, **kw)
    if status is not None:
        assert r.status_code == status, r.text
    return r


def one_line(r: Any) -> str:
    message = r.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


# -- no program starts from a request, a record, a seat file or a database -----------------
def test_a_request_naming_a_program_seat_is_refused_and_runs_nothing(client, jail):
    r = post(client, "/api/games", {"game": "hive", "seats": ["uhp:touch PWNED", "human"]},
             400)
    assert "starts a program" in one_line(r)
    r = post(client, "/api/games", {"game": "hive", "seats": ["UHP :touch PWNED", "human"]})
    assert r.status_code == 400
    assert not (jail / "PWNED").exists()
    assert client.get("/api/games").json()["games"] == []


def test_an_uploaded_record_naming_a_program_loads_with_a_person_in_that_seat(client, jail):
    record = {"format": "hexkit-record", "version": 1, "name": "hive", "options": {},
              "players": ["uhp:sh -c 'id > X'", "random"], "moves": []}
    r = post(client, "/api/games/load", {"record": record}, 201)
    assert r.json()["notes"] == ["seat 0 (uhp) is played by a person"]
    seats = client.get(f"/api/games/{r.json()['id']}").json()["seats"]
    assert [s["bot"] for s in seats] == [False, True]
    assert not (jail / "X").exists()


def test_a_seats_file_naming_a_program_loads_the_game_with_a_person_there(tmp_path, jail):
    folder = tmp_path / "games"
    with client_for(folder) as client:
        made = post(client, "/api/games", {"game": "hive", "seats": ["human", "random"]},
                    201).json()
    seats_file = folder / f"{made['id']}.seats.json"
    data = json.loads(seats_file.read_text())
    data["seats"][1]["spec"] = "uhp:touch PWNED"
    seats_file.write_text(json.dumps(data))
    app = create_app(folder)
    room = app.state.store.load_room(made["id"])  # games are loaded when first opened
    assert room.seats[1].is_human
    [problem] = app.state.store.problems
    assert "seat 1 (uhp) is played by a person now" in problem
    assert not (jail / "PWNED").exists()


def test_an_engine_the_operator_named_is_offered_by_name_and_plays(tmp_path):
    command = f"uhp:depth=1:{sys.executable} -m hexkit uhp"
    with client_for(tmp_path / "g", engines={"self": command}) as client:
        offered = {b["name"]: b for b in client.get("/api/catalog").json()["bots"]}
        assert offered["self"]["engine"] and "uhp" not in offered
        made = post(client, "/api/games", {"game": "hive", "seats": ["self", "human"],
                                           "take": 1}, 201).json()
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            while state["ply"] < 1:
                state = receive_state(ws)
        assert state["seats"][0]["spec"] == "self"
        assert command not in json.dumps(state)
        r = post(client, "/api/games", {"game": "hive", "seats": ["self:rm -rf /", "human"]})
        assert r.status_code == 400 and "takes no setting" in one_line(r)


def test_play_load_of_a_record_naming_a_program_gives_that_seat_to_a_person(
        tmp_path, jail, monkeypatch, capsys):
    import io

    from hexkit.cli import main

    record = {"format": "hexkit-record", "version": 1, "name": "focus", "options": {},
              "players": ["human", "uhp:touch PWNED"], "moves": []}
    (tmp_path / "g.json").write_text(json.dumps(record))
    monkeypatch.setattr(sys, "stdin", io.StringIO("quit\n"))
    main(["play", "--load", str(tmp_path / "g.json")])
    out = capsys.readouterr().out
    assert "Seat 2 of the saved game was an external program (uhp); a person plays it" in out
    assert not (jail / "PWNED").exists()


def test_resuming_a_tournament_whose_database_names_a_program_needs_it_on_the_command_line(
        tmp_path, jail, capsys):
    from hexkit.cli import main
    from hexkit.tournament.runner import TournamentConfig
    from hexkit.tournament.store import ResultStore

    db = str(tmp_path / "t.sqlite")
    config = TournamentConfig("focus", {}, ("random", "uhp:touch PWNED"))
    ResultStore.create(db, config.to_dict()).close()
    assert main(["tournament", "--resume", db, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "starts a program, which runs only when given on the command line" in err
    assert main(["tournament", "--resume", db, "--bots", "random", "mcts"]) == 1
    assert "--bots differs from the bots stored" in capsys.readouterr().err
    assert not (jail / "PWNED").exists()


# -- no server file is read ----------------------------------------------------------------
def test_an_option_naming_a_server_file_is_refused_without_reading_it(client, tmp_path):
    secret = tmp_path / "exam.yaml"
    secret.write_text("secret: 42\n")
    for options in ({"config": str(secret)}, {"config": "../exam.yaml"},
                    {"config": "exam.yaml"}, {"config": "~/exam"}):
        r = post(client, "/api/games", {"game": "hexaround", "options": options}, 400)
        message = one_line(r)
        assert "installed variants only" in message and "level1" in message
        assert str(tmp_path) not in message
    for game, key in (("hexbaron", "setup"), ("focus", "board")):
        r = post(client, "/api/games", {"game": game, "options": {key: "/etc/passwd"}}, 400)
        assert "/etc/passwd" not in one_line(r) or "installed" in one_line(r)
    assert client.get("/api/games").json()["total"] == 0


def test_an_uploaded_record_reads_only_its_own_carried_files_then_removes_them(
        client, tmp_path, monkeypatch):
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    secret = tmp_path / "exam.yaml"
    secret.write_text((CONFIGS / "hexaround" / "level1.yaml").read_text())
    bare = {"format": "hexkit-record", "version": 1, "name": "hexaround",
            "options": {"config": str(secret)}, "moves": []}
    r = post(client, "/api/games/load", {"record": bare}, 400)
    assert "installed variants only" in one_line(r) and str(tmp_path) not in one_line(r)
    # The same options with the file carried: read from a private folder, removed at once.
    carried = {**bare, "files": {"config": {"name": "..", "text": secret.read_text()}}}
    made = post(client, "/api/games/load", {"record": carried}, 201).json()
    long = {**bare, "files": {"config": {"name": "x" * 300 + ".yaml",
                                         "text": secret.read_text()}}}
    post(client, "/api/games/load", {"record": long}, 201)
    broken = {**bare, "files": {"config": {"name": "c.yaml", "text": "creatures: [\n"}}}
    r = post(client, "/api/games/load", {"record": broken}, 400)
    assert "carried by the record" in one_line(r) and str(tmp_path) not in one_line(r)
    assert list((tmp_path / "tmp").iterdir()) == []
    record = client.get(f"/api/games/{made['id']}/record").json()
    assert record["files"]["config"]["text"] == secret.read_text()


def test_a_scenario_game_string_cannot_name_a_file_outside_its_folder(tmp_path):
    from hexkit.tools.scenarios import ScenarioFailure, load_scenarios, run_scenario

    path = tmp_path / "s.yaml"
    path.write_text('game: "hexbaron(setup=/etc/passwd)"\nscenarios:\n  - name: x\n'
                    '    moves: []\n')
    [scenario] = load_scenarios(path)
    with pytest.raises(ScenarioFailure) as failure:
        run_scenario(scenario)
    assert "outside the scenario file's folder" in str(failure.value)


def test_a_failed_save_names_no_server_path_and_keeps_nothing(client, tmp_path):
    made = post(client, "/api/games", {"game": "focus", "seats": ["human", "human"],
                                       "seed": 1}, 201).json()
    room = client.app.state.store.rooms[made["id"]]
    record = tmp_path / "games" / f"{made['id']}.json"
    saved = record.read_bytes()
    record.chmod(0o444)
    move = room.state.legal_moves()[0]
    with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
        receive_state(ws)
        ws.send_json({"type": "move", "token": made["token"], "move": str(move)})
        answer = ws.receive_json()
    assert answer["type"] == "error" and "could not be saved" in answer["message"]
    assert str(tmp_path) not in answer["message"]
    assert client.get(f"/api/games/{made['id']}").json()["ply"] == 0
    assert room.record.moves == [] and record.read_bytes() == saved


# -- Host and Origin -----------------------------------------------------------------------
def test_dns_rebinding_a_foreign_host_is_refused_on_http_and_websocket(client):
    made = post(client, "/api/games", {"game": "focus"}, 201).json()
    evil = {"host": "evil.example:8000", "origin": "http://evil.example:8000"}
    r = client.get("/api/games", headers=evil)
    assert r.status_code == 421 and "does not answer to the name" in one_line(r)
    r = client.post(f"/api/games/{made['id']}/join", json={"seat": 1}, headers=evil)
    assert r.status_code == 421
    with client.websocket_connect(f"ws://evil.example:8000/ws/games/{made['id']}",
                                  headers={"origin": "http://evil.example:8000"}) as ws:
        assert "does not answer" in ws.receive_json()["message"]
    assert client.get("/api/games").json()["games"][0]["free"] == [1]


@pytest.mark.parametrize("origin", ["https://127.0.0.1", "http://127.0.0.1:9999",
                                    "http://localhost", "null", "http://127.0.0.1/x"])
def test_an_origin_other_than_the_servers_own_scheme_host_and_port_is_refused(client, origin):
    r = client.post("/api/games", json={"game": "focus"}, headers={"origin": origin})
    assert r.status_code == 403 and "another site" in one_line(r)


def test_the_hosts_the_operator_names_are_answered(tmp_path):
    with client_for(None, allowed_hosts=("games.example.edu",)) as client:
        r = client.get("https://games.example.edu/api/games",
                       headers={"origin": "https://games.example.edu"})
        assert r.status_code == 200


def test_every_answer_carries_the_security_headers(client):
    for r in (client.get("/"), client.get("/nosuch"), client.put("/api/games"),
              client.get("/static/app.js"), client.get("/static/nosuch.js"),
              client.get("/api/games/0123456789")):
        assert r.headers["x-content-type-options"] == "nosniff", r.url
        assert "default-src 'self'" in r.headers["content-security-policy"]


def test_a_form_of_another_site_cannot_post(client):
    r = client.post("/api/games", content=b"game=focus",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415 and "JSON" in one_line(r)


# -- bots: allow-list and caps -------------------------------------------------------------
def test_a_bot_beyond_the_servers_caps_is_refused_naming_the_cap(tmp_path):
    caps = BotCaps(allowed=("random", "mcts", "hive"), max_simulations=500, seconds=2,
                   max_depth=3)
    with client_for(None, bots=caps) as client:
        def refusal(seat: str, game: str = "focus") -> str:
            r = post(client, "/api/games", {"game": game, "seats": [seat, "human"]}, 400)
            return one_line(r)

        assert "cap of 500 (--max-simulations)" in refusal("mcts:100000000")
        assert "cap of 500" in refusal("mcts:sims=501,c=1")
        assert "cap of 2 s a move (--bot-seconds)" in refusal("hive:time=30", "hive")
        assert "cap of 3 (--max-depth)" in refusal("hive:depth=9", "hive")
        assert "cap of 3,000,000 (--max-nodes)" in refusal("hive:nodes=10000000000", "hive")
        assert "cap of 3,000,000 (--max-nodes)" in refusal("hive:time=1,nodes=4M", "hive")
        post(client, "/api/games", {"game": "focus", "seats": ["mcts:500", "human"]}, 201)
        post(client, "/api/games", {"game": "hive", "seats": ["hive:nodes=2M", "human"]}, 201)
    with client_for(None, bots=BotCaps(allowed=("random",))) as client:
        assert "not offered on this server" in one_line(
            post(client, "/api/games", {"game": "focus", "seats": ["mcts", "human"]}, 400))
        assert [b["name"] for b in client.get("/api/catalog").json()["bots"]] == ["random"]


def test_a_bot_past_its_deadline_gets_a_random_move_and_the_game_goes_on():
    import asyncio
    import threading

    from hexkit import load_game
    from hexkit.web.bots import BotPool

    release, finished = threading.Event(), threading.Event()

    class Stuck:
        """Thinks until the test lets it go (no clock: the answer must come first)."""

        def choose(self, state: Any) -> Any:
            release.wait(60)
            finished.set()
            return state.legal_moves()[0]

    async def run() -> Any:
        pool = BotPool(thinking=1, seconds=0.2)
        state = load_game("focus").new_state(seed=1)
        return await pool.choose(Stuck(), state)

    try:
        move, why = asyncio.run(run())
        assert not finished.is_set()  # the pool answered while the bot was still thinking
    finally:
        release.set()
    assert move is None and why == "late"


# -- greedy clients ------------------------------------------------------------------------
def test_games_per_client_and_in_all_are_capped(tmp_path):
    with client_for(None, limits=Limits(games_per_client=2, games_total=3)) as client:
        for _ in range(2):
            post(client, "/api/games", {"game": "focus"}, 201)
        r = post(client, "/api/games", {"game": "focus"}, 429)
        assert "2 games going on already" in one_line(r)


def test_requests_beyond_the_rate_get_429(tmp_path):
    with client_for(None, limits=Limits(rate=1, burst=5)) as client:
        codes = [client.get("/api/games").status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and 429 in codes[5:]


def test_sockets_per_client_are_capped(tmp_path):
    with client_for(None, limits=Limits(sockets_per_client=2)) as client:
        made = post(client, "/api/games", {"game": "focus"}, 201).json()
        url = f"/ws/games/{made['id']}"
        with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
            receive_state(a), receive_state(b)
            with client.websocket_connect(url) as c:
                assert "connections open already" in c.receive_json()["message"]


def test_the_lobby_is_a_page_at_a_time(tmp_path):
    with client_for(None, limits=Limits(page_size=3, games_per_client=10)) as client:
        made = [post(client, "/api/games", {"game": "focus"}, 201).json()["id"]
                for _ in range(5)]
        first = client.get("/api/games").json()
        assert first["total"] == 5 and len(first["games"]) == 3
        rest = client.get("/api/games?offset=3&limit=3").json()
        assert {g["id"] for g in first["games"] + rest["games"]} == set(made)
        assert client.get("/api/games?offset=²").status_code == 400


def test_a_game_without_a_person_stops_at_the_ply_cap(tmp_path):
    with client_for(tmp_path / "g", limits=Limits(bot_only_plies=6)) as client:
        made = post(client, "/api/games", {"game": "focus", "seats": ["random", "random"]},
                    201).json()
        with client.websocket_connect(f"/ws/games/{made['id']}") as ws:
            state = receive_state(ws)
            while not state["over"]:
                state = receive_state(ws)
    assert state["ply"] == 6 and "6 moves without a person" in state["result"]
    app = create_app(tmp_path / "g")
    # and a restart does not resume it (games are loaded when first opened)
    assert app.state.store.load_room(made["id"]).stopped


def test_the_owner_stops_and_deletes_a_game_and_nobody_else_can(client, tmp_path):
    made = post(client, "/api/games", {"game": "focus"}, 201).json()
    room = made["id"]
    r = post(client, f"/api/games/{room}/stop", {"owner_token": "guess"}, 403)
    assert "owner" in one_line(r)
    post(client, f"/api/games/{room}/stop", {"owner_token": made["owner_token"]}, 200)
    state = client.get(f"/api/games/{room}").json()
    assert state["over"] and state["result"] == "Stopped: stopped by its owner"
    r = client.request("DELETE", f"/api/games/{room}", json={"owner_token": "x"})
    assert r.status_code == 403
    r = client.request("DELETE", f"/api/games/{room}", json={"owner_token": made["owner_token"]})
    assert r.status_code == 200
    assert client.get(f"/api/games/{room}").status_code == 404
    assert not (tmp_path / "games" / f"{room}.json").exists()


def test_idle_finished_games_are_archived_and_still_downloadable(client):
    made = post(client, "/api/games", {"game": "focus"}, 201).json()
    post(client, f"/api/games/{made['id']}/stop", {"owner_token": made["owner_token"]}, 200)
    store = client.app.state.store
    for room in store.idle_finished(0):
        store.archive(room)
    assert client.get("/api/games").json()["total"] == 0
    archived = client.get("/api/games?archived=1").json()
    assert [g["id"] for g in archived["games"]] == [made["id"]]
    record = client.get(f"/api/games/{made['id']}/record")
    assert record.status_code == 200 and record.json()["name"] == "focus"


# -- smaller defects -----------------------------------------------------------------------
def test_digits_are_ascii_digits_only(client):
    assert "'seed'" in one_line(post(client, "/api/games", {"game": "focus", "seed": "²"},
                                     400))
    made = post(client, "/api/games", {"game": "focus"}, 201).json()
    for ply in ("²", "٣", "1e3"):
        r = client.get(f"/api/games/{made['id']}/position?ply={ply}")
        assert r.status_code == 400 and "'ply'" in one_line(r)


def test_integer_options_refuse_fractions(client):
    for options in ({"max_height": 3.5}, {"players": 2.9}, {"max_height": "3.5"}):
        r = post(client, "/api/games", {"game": "focus", "options": options}, 400)
        assert "is not a valid int" in one_line(r)


def test_a_refused_create_leaves_nothing(client, tmp_path):
    for take in (5, True, "x"):
        r = post(client, "/api/games", {"game": "focus", "take": take})
        assert r.status_code in (400, 409)
    made = post(client, "/api/games", {"game": "focus", "seats": ["human", "random"],
                                       "take": 1})
    assert made.status_code == 409
    assert client.get("/api/games").json()["total"] == 0
    assert not list((tmp_path / "games").glob("*.json"))


def test_stray_temporaries_are_removed_when_the_server_starts(tmp_path):
    folder = tmp_path / "g"
    folder.mkdir()
    stray = folder / ".0123456789.json.abcd.tmp"
    stray.write_text("{")
    create_app(folder)
    assert not stray.exists()


def test_argument_errors_are_one_line(capsys):
    from hexkit.cli import main

    for argv in (["play", "focus", "--seed", "abc"], ["serve", "--port", "abc"],
                 ["play", "focus", "--seed", "²"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "invalid int value" in err[0], err


def test_text_the_terminal_cannot_encode_is_escaped_not_fatal(tmp_path):
    import subprocess

    env = {**os.environ, "PYTHONIOENCODING": "ascii:strict"}
    out = subprocess.run([sys.executable, "-m", "hexkit", "play", "focus"],
                         input="café\nquit\n", capture_output=True, text=True,
                         encoding="utf-8", env=env, timeout=60)
    assert "unexpected" not in out.stderr and "Traceback" not in out.stderr
    assert out.returncode == 0, out.stderr


def test_a_browser_whose_send_never_ends_is_dropped_after_the_send_timeout():
    """A browser that stops reading leaves its send hanging: after the send timeout it is
    dropped and its socket closed, while the other browsers of the game are sent to."""
    import asyncio

    from hexkit.web.bots import BotPool
    from hexkit.web.hub import Hub
    from hexkit.web.rooms import RoomStore

    class Socket:
        def __init__(self, stuck: bool):
            self.stuck, self.sent, self.closed = stuck, [], False

        async def send_text(self, text: str) -> None:
            if self.stuck:
                await asyncio.Event().wait()
            self.sent.append(text)

        async def close(self, code: int = 1000) -> None:
            self.closed = True

    async def scene() -> None:
        store = RoomStore(None)
        hub = Hub(store, Limits(send_timeout=0.2), BotPool(1, 1.0))
        stuck = hub.join(Socket(stuck=True), "a", "0123456789")
        fine = hub.join(Socket(stuck=False), "b", "0123456789")
        hub.send(stuck, "one")
        await asyncio.sleep(0.1)
        assert not stuck.dropped  # within its time
        for _ in range(40):
            await asyncio.sleep(0.05)
            hub.send(fine, "tick")
            if stuck.dropped:
                break
        await asyncio.sleep(0.05)
        assert stuck.dropped and stuck.socket.closed
        assert hub.peers["0123456789"] == {fine} and not fine.dropped
        assert fine.socket.sent and set(fine.socket.sent) == {"tick"}
        await hub.shutdown()
        store.close()

    asyncio.run(scene())
