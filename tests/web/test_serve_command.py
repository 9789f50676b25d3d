"""``hexkit serve`` as a user starts it: the address it prints, this machine only by
default, its games kept in the folder given, and one line when the web extra is missing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request

import pytest

from hexkit.errors import OptionError

from .conftest import free_port


def test_without_the_web_extra_serve_says_how_to_install_it(monkeypatch, capsys):
    import hexkit.web
    from hexkit.commands import serve

    monkeypatch.setattr(hexkit.web, "missing_dependency", lambda: "starlette")
    args = type("Args", (), {"host": "127.0.0.1", "port": 8000, "open": False,
                             "games_dir": None})()
    with pytest.raises(OptionError) as err:
        serve.run(args)
    assert str(err.value) == "hexkit serve needs the web extra: pip install 'hexkit-games[web]'"


def test_serve_listens_on_this_machine_and_keeps_its_games_in_the_folder(tmp_path):
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    port = free_port()
    folder = tmp_path / "games"
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", "serve", "--port", str(port), "--games-dir",
         str(folder)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "HEXKIT_PLUGINS_DIR": ""})
    try:
        first = proc.stdout.readline() + proc.stdout.readline()
        assert f"open http://localhost:{port}/" in first, first + proc.stderr.read()
        url = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "/api/games", timeout=2)
                break
            except OSError:
                time.sleep(0.05)
        body = json.dumps({"game": "focus", "seats": ["human", "random"]}).encode()
        request = urllib.request.Request(url + "/api/games", body,
                                         {"Content-Type": "application/json"})
        made = json.load(urllib.request.urlopen(request, timeout=5))
        assert (folder / f"{made['id']}.json").is_file()
        # Bound to the loopback address only.
        listening = subprocess.run(["ss", "-ltn"], capture_output=True, text=True).stdout \
            if os.path.exists("/usr/bin/ss") or os.path.exists("/bin/ss") else ""
        if listening:
            lines = [line for line in listening.splitlines() if f":{port} " in line]
            assert lines and all("127.0.0.1:" in line for line in lines), lines
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(10)
    assert proc.returncode == 0, proc.stderr.read()


def test_a_port_in_use_is_said_in_one_line(tmp_path):
    pytest.importorskip("uvicorn", reason="the web extra is not installed")
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run([sys.executable, "-m", "hexkit", "serve", "--port", str(port),
                              "--games-dir", str(tmp_path)], capture_output=True, text=True,
                             timeout=60)
    assert out.returncode == 1
    assert out.stderr.strip().splitlines() == [
        f"hexkit: error: cannot listen on 127.0.0.1:{port}: address already in use "
        "(choose another with --port)"]


def test_a_real_server_answers_an_oversized_message_and_a_foreign_origin_in_one_line(
        live_server):
    pytest.importorskip("websockets", reason="the web extra is not installed")
    from websockets.sync.client import connect

    body = json.dumps({"game": "focus"}).encode()
    request = urllib.request.Request(live_server.url + "/api/games", body,
                                     {"Content-Type": "application/json"})
    room = json.load(urllib.request.urlopen(request, timeout=5))["id"]
    ws_url = f"ws://127.0.0.1:{live_server.port}/ws/games/{room}"
    with connect(ws_url, max_size=None) as ws:
        assert json.loads(ws.recv())["type"] == "state"
        ws.send(json.dumps({"type": "ping", "pad": "x" * 200_000}))
        answer = json.loads(ws.recv())
        assert answer["type"] == "error" and "too large" in answer["message"]
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv()) == {"type": "pong"}
    with connect(ws_url, origin="http://evil.example") as ws:
        assert "another site" in json.loads(ws.recv())["message"]


@pytest.mark.parametrize(("argv", "said"), [
    (["--broadcast", "redis://127.0.0.1:6379/0"], "share a --storage postgresql://"),
    (["--storage", "mysql://db/x"], "not a storage"),
    (["--proxy", "the-proxy"], "an IP address"),
])
def test_storage_broadcast_and_proxy_mistakes_are_one_line(argv, said, tmp_path, capsys):
    from hexkit.cli import main

    assert main(["serve", "--games-dir", str(tmp_path), "--port", str(free_port()),
                 *argv]) != 0
    err = capsys.readouterr().err.strip()
    assert said in err and len(err.splitlines()) == 1


def test_an_event_loop_that_is_not_installed_is_one_line(tmp_path, capsys, monkeypatch):
    import importlib.util

    from hexkit.cli import main

    found = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "uvloop" else found(name, *a))
    assert main(["serve", "--games-dir", str(tmp_path), "--port", str(free_port()),
                 "--loop", "uvloop"]) != 0
    err = capsys.readouterr().err.strip()
    assert "pip install uvloop" in err and len(err.splitlines()) == 1
    assert not (tmp_path / "server.sqlite3").exists()  # refused before anything is made
