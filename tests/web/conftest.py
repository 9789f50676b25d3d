"""Fixtures of the web tests: a real server on a free port (restartable on the same folder
and port) and headless Chromium through Playwright, both shared by a test module."""

from __future__ import annotations

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
        deadline = time.monotonic() + 10
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


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
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


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[Any]:
    """One throw-away PostgreSQL for the session (each test gets a database of its own)."""
    _services_or_skip()
    from hexkit.web.services import start_postgres

    service = start_postgres()
    yield service
    service.stop()


@pytest.fixture
def postgres_url(postgres_server: Any) -> str:
    """The URL of a new, empty database on the session's PostgreSQL."""
    import secrets

    import psycopg

    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server.url, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    return postgres_server.url.rsplit("/", 1)[0] + f"/{name}"


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """One throw-away Redis for the session."""
    _services_or_skip()
    from hexkit.web.services import start_redis

    service = start_redis()
    yield service.url
    service.stop()
