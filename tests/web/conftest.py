"""Fixtures of the web tests: a real server on a free port (restartable on the same folder
and port), shared by a test module, and headless Chromium through Playwright, shared by
the test process (each test or module opens its own contexts in it)."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

#: Debian's Chromium (Playwright cannot download its own browser here); $HEXKIT_CHROMIUM
#: names another.
CHROMIUM = os.environ.get("HEXKIT_CHROMIUM", "/usr/bin/chromium")
#: Set to 1 (as .ci/run does) to make a missing browser a failure instead of a skip.
REQUIRE_ENV = "HEXKIT_REQUIRE_BROWSER"
#: Set to 1 (as .ci/run does) to make missing PostgreSQL/Redis a failure instead of a skip.
REQUIRE_SERVICES_ENV = "HEXKIT_REQUIRE_SERVICES"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    """``hexkit serve``'s application under uvicorn in a thread, on ``folder``."""

    def __init__(self, folder: Path, port: int):
        self.folder = folder
        self.port = port
        self.server: Any = None
        self.thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        import uvicorn

        from hexkit.web.app import create_app

        config = uvicorn.Config(create_app(self.folder), host="127.0.0.1", port=self.port,
                                log_level="warning", ws_max_size=1024 * 1024)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 60  # a wait, not a speed check: the machine may be busy
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)

    def stop(self) -> None:
        if self.server is not None and self.thread is not None:
            self.server.should_exit = True
            self.thread.join(10)
            self.server = None

    def restart(self) -> None:
        self.stop()
        self.start()


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    pytest.importorskip("uvicorn", reason="the web extra is not installed "
                        "(pip install 'hexkit-games[web]')")
    server = LiveServer(tmp_path_factory.mktemp("web-games"), free_port())
    server.start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    # One launch per test process, not per browser module: a launch and its shutdown cost
    # about 1.8 s of CPU, and contexts keep the modules' cookies and storage apart.
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"no browser at {CHROMIUM} (apt-get install -y chromium)"
    else:
        try:
            from playwright.sync_api import sync_playwright
        except ImportError:
            missing = "the playwright package is not installed (pip install playwright)"
    if missing is not None:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"browser tests cannot run: {missing}")
        pytest.skip(missing)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM)
        yield chromium
        chromium.close()


def _services_or_skip() -> None:
    missing = None
    try:
        import psycopg  # noqa: F401
        import redis  # noqa: F401

        from hexkit.web.services import missing as missing_binaries

        missing = missing_binaries()
    except ImportError as exc:
        missing = f"{exc.name} is not installed (pip install 'hexkit-games[postgres,redis]')"
    if missing is not None:
        if os.environ.get(REQUIRE_SERVICES_ENV) == "1":
            pytest.fail(f"tests of several processes cannot run: {missing}")
        pytest.skip(missing)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


@contextlib.contextmanager
def _shared(name: str, root: Path, start: Any) -> Iterator[str]:
    """One server for the whole test run, whichever pytest-xdist workers use it: the first
    starts it, the last one out stops it (a count kept beside a lock file in the run's
    temporary folder)."""
    import fcntl
    import json
    import shutil
    import signal

    lock, info = root / f"{name}.lock", root / f"{name}.json"
    with open(lock, "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        data = json.loads(info.read_text()) if info.exists() else None
        if data is None or not _alive(data["pid"]):
            service = start()
            data = {"url": service.url, "pid": service.proc.pid,
                    "folder": str(service.folder), "signal": int(service.stop_signal),
                    "users": 0}
        data["users"] += 1
        info.write_text(json.dumps(data))
    try:
        yield data["url"]
    finally:
        with open(lock, "a+") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            data = json.loads(info.read_text())
            data["users"] -= 1
            if data["users"] > 0:
                info.write_text(json.dumps(data))
            else:
                info.unlink()
                with contextlib.suppress(OSError):
                    os.kill(data["pid"], signal.Signals(data["signal"]))
                deadline = time.monotonic() + 20
                while _alive(data["pid"]) and time.monotonic() < deadline:
                    time.sleep(0.05)
                if _alive(data["pid"]):
                    with contextlib.suppress(OSError):
                        os.kill(data["pid"], signal.SIGKILL)
                shutil.rmtree(data["folder"], ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of one throw-away PostgreSQL for the test run (each test gets a database of
    its own)."""
    _services_or_skip()
    from hexkit.web.services import start_postgres

    with _shared("postgres", tmp_path_factory.getbasetemp().parent, start_postgres) as url:
        yield url


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    """The URL of a new, empty database on the run's PostgreSQL."""
    import secrets

    import psycopg

    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return postgres_server.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One throw-away Redis for the test run."""
    _services_or_skip()
    from hexkit.web.services import start_redis

    with _shared("redis", tmp_path_factory.getbasetemp().parent, start_redis) as url:
        yield url
