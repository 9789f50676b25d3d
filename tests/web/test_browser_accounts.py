"""A class server in real browsers (headless Chromium): a student from the roster opens
the one-time link, chooses a password and is signed in; two signed-in students play a game
to its end by clicking while a third person, not signed in, can only watch."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from hexkit.cli import main  # noqa: E402

from .clicks import (  # noqa: E402
    create_from_lobby,
    game_state,
    join_from_lobby,
    play_by_clicking,
)
from .conftest import free_port  # noqa: E402
from .short_games import short_game  # noqa: E402
from .test_accounts import cheap_passwords  # noqa: E402, F401 (argon2 at its smallest cost)


class ClassServer:
    """A server requiring accounts (as beyond loopback) with open watching, in a thread."""

    def __init__(self, folder: Path):
        import uvicorn

        from hexkit.web.app import create_app
        from hexkit.web.settings import ServerSettings

        self.folder = folder
        self.port = free_port()
        settings = ServerSettings(port=self.port, accounts=True, open_watching=True)
        config = uvicorn.Config(create_app(folder, settings=settings), host="127.0.0.1",
                                port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive()
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture(scope="module")
def roster_links(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A class imported from a roster: each student's one-time link key."""
    import contextlib
    import io

    folder = tmp_path_factory.mktemp("class-server")
    roster = folder / "roster.csv"
    roster.write_text("name,email\nana,ana@uni.example\nben,ben@uni.example\n")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["users", "--games-dir", str(folder), "import", str(roster)]) == 0
    links = {}
    for line in out.getvalue().splitlines():
        if "#" in line:
            name, _, link = line.partition("  ")
            links[name] = link.rsplit("#", 1)[1]
    return folder, links


@pytest.fixture(scope="module")
def class_server(roster_links) -> Iterator[ClassServer]:
    server = ClassServer(roster_links[0])
    yield server
    server.stop()


def welcome(page: Any, url: str, key: str, password: str) -> None:
    page.goto(f"{url}/welcome#{key}")
    page.fill("#welcome-password", password)
    page.fill("#welcome-again", password)
    page.click("#welcome-button")
    page.wait_for_selector("#signed-in-as")


def test_a_roster_student_chooses_a_password_signs_out_and_in_again(
        browser, class_server, roster_links):
    _, links = roster_links
    context = browser.new_context()
    page = context.new_page()
    try:
        page.goto(class_server.url + "/")
        page.wait_for_selector("#sign-in")
        assert page.locator("#picker").is_hidden()  # not signed in: no game picker
        welcome(page, class_server.url, links["ana"], "ana-password-1")
        assert page.inner_text("#signed-in-as").strip() == "ana"
        assert page.evaluate("location.hash") == ""
        page.click("#sign-out")
        page.wait_for_selector("#sign-in")
        page.goto(class_server.url + "/login")
        page.fill("#login-name", "ana")
        page.fill("#login-password", "wrong password")
        page.click("#login-button")
        page.locator("#login-message", has_text="wrong name or password").wait_for()
        page.fill("#login-password", "ana-password-1")
        page.click("#login-button")
        page.wait_for_selector("#signed-in-as")
        cookies = {c["name"]: c for c in context.cookies()}
        session = cookies["hexkit_session"]
        assert session["httpOnly"] and session["sameSite"] == "Strict"
    finally:
        context.close()


def test_two_signed_in_students_play_while_a_stranger_only_watches(
        browser, class_server, roster_links):
    _, links = roster_links
    contexts = [browser.new_context() for _ in range(3)]
    ana, ben, stranger = (c.new_page() for c in contexts)
    try:
        ana.goto(class_server.url + "/login")
        ana.fill("#login-name", "ana")
        ana.fill("#login-password", "ana-password-1")
        ana.click("#login-button")
        ana.wait_for_selector("#signed-in-as")
        welcome(ben, class_server.url, links["ben"], "ben-password-1")
        game, seed, moves = short_game("focus")
        from .short_games import SHORT_VARIANTS

        options, _ = SHORT_VARIANTS["focus"]
        room = create_from_lobby(ana, class_server.url, "focus", options, seed,
                                 ["human", "human"])
        join_from_lobby(ben, class_server.url, room)
        stranger.goto(f"{class_server.url}/game/{room}")
        stranger.wait_for_selector("#board svg")
        assert "sign in to play" in stranger.inner_text("#seats")
        assert stranger.locator("#seats .take").count() == 0
        # The stranger's page offers no move, and a move sent by hand is refused.
        assert stranger.locator("#move-text").is_disabled()
        seats = game_state(stranger)["seats"]
        assert [s["player"] for s in seats] == ["ana", "ben"]
        play_by_clicking({0: ana, 1: ben}, moves)
        stranger.wait_for_selector('body[data-over="true"]', state="attached")
        assert game_state(stranger)["over"]
    finally:
        for c in contexts:
            c.close()
