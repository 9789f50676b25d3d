"""Attacks on a real ``hexkit serve`` on 127.0.0.1, with raw sockets where a well-behaved
client library would not misbehave enough: a spectator that stops reading, greedy bots and
Ctrl-C, running out of file descriptors. Each is bounded in time."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from .conftest import free_port  # noqa: E402


def start_server(folder: Path, *args: str, fd_limit: int | None = None
                 ) -> tuple[subprocess.Popen[str], str]:
    port = free_port()

    def limit() -> None:
        if fd_limit is not None:
            import resource

            resource.setrlimit(resource.RLIMIT_NOFILE, (fd_limit, fd_limit))

    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", "serve", "--port", str(port), "--games-dir",
         str(folder), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=limit)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/api/me", timeout=2)
            return proc, url
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the server did not start: " + proc.stderr.read()) from None
            time.sleep(0.1)


def stop(proc: subprocess.Popen[str]) -> None:
    if proc.poll() is None:
        proc.kill()
    proc.wait(10)


def post(url: str, body: Any) -> Any:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    return json.load(urllib.request.urlopen(request, timeout=10))


def raw_websocket(port: int, path: str, receive_buffer: int = 2048) -> socket.socket:
    """A WebSocket opened by hand, with a tiny receive buffer, that never reads."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.connect(("127.0.0.1", port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    return sock


def test_a_spectator_that_stops_reading_is_dropped_and_the_game_goes_on(tmp_path):
    from websockets.sync.client import connect

    proc, url = start_server(tmp_path / "g", "--ply-cap", "400")
    port = int(url.rsplit(":", 1)[1])
    stuck: list[socket.socket] = []
    try:
        made = post(url + "/api/games", {"game": "hexaround", "seats": ["human", "random"],
                                         "seed": 3})
        stuck = [raw_websocket(port, f"/ws/games/{made['id']}") for _ in range(3)]
        time.sleep(0.3)
        with connect(f"ws://127.0.0.1:{port}/ws/games/{made['id']}", max_size=None) as ws:
            state = json.loads(ws.recv(timeout=10))
            while state["ply"] < 20 and not state["over"]:
                if state["turn"] == 0 and state["thinking"] is None:
                    ws.send(json.dumps({"type": "move", "token": made["token"],
                                        "move": state["moves"][0]["text"]}))
                state = json.loads(ws.recv(timeout=10))
    finally:
        for s in stuck:
            s.close()
        stop(proc)


def test_ctrl_c_stops_the_server_within_two_seconds_while_bots_think(tmp_path):
    proc, url = start_server(tmp_path / "g", "--max-simulations", "1000000",
                             "--bot-seconds", "60")
    try:
        post(url + "/api/games", {"game": "focus",
                                  "seats": ["mcts:1000000", "mcts:1000000"]})
        time.sleep(0.5)  # the bot is deep in thought
        proc.send_signal(signal.SIGINT)
        # No clock: a server that waited for its bots would wait their whole minute (a
        # million simulations each), far past this.
        proc.wait(20)
        assert proc.returncode == 0, proc.stderr.read()
    finally:
        stop(proc)


def test_running_out_of_file_descriptors_answers_503_without_flooding_the_log(tmp_path):
    proc, url = start_server(tmp_path / "g", fd_limit=96)
    port = int(url.rsplit(":", 1)[1])
    held: list[socket.socket] = []
    try:
        for _ in range(110):
            try:
                held.append(socket.create_connection(("127.0.0.1", port), timeout=2))
            except OSError:
                break
        time.sleep(1.0)
        answers = []
        for s in held[-5:]:
            try:
                s.sendall(f"GET /api/me HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                s.settimeout(3)
                answers.append(s.recv(200).split(b"\r\n")[0])
            except OSError:
                answers.append(b"")
        assert any(b" 503 " in a for a in answers) or not any(answers), answers
        for s in held:
            s.close()
        held = []
        time.sleep(0.5)
        assert urllib.request.urlopen(url + "/api/me", timeout=5).status == 200
    finally:
        for s in held:
            s.close()
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=10)
        finally:
            stop(proc)
    assert len(err) < 5000, err[-2000:]
