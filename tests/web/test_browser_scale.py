"""Two browsers on two ``hexkit serve`` processes (one PostgreSQL, one Redis) play one game
by clicking, through the lobby of each; undo asked on one process is answered on the
other; a page that missed a change asks for the whole state again. Headless Chromium, real
servers on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from .clicks import create_from_lobby, game_state, join_from_lobby, play_by_clicking, wait_ply
from .short_games import SHORT_VARIANTS, short_game
from .test_scale import start, stop


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory, postgres_server: str,
                  redis_url: str) -> Iterator[tuple[str, str]]:
    import secrets

    import psycopg

    name = f"b_{secrets.token_hex(6)}"
    with psycopg.connect(postgres_server, autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}")
    url = postgres_server.rsplit("/", 1)[0] + f"/{name}"
    tmp: Path = tmp_path_factory.mktemp("two-processes")
    a, url_a = start(tmp, url, redis_url, "a")
    b, url_b = start(tmp, url, redis_url, "b")
    yield url_a, url_b
    stop(a)
    stop(b)


def test_two_browsers_on_two_processes_play_one_game_by_clicking(browser, two_processes):
    url_a, url_b = two_processes
    _, seed, moves = short_game("hexbaron")
    options, _ = SHORT_VARIANTS["hexbaron"]
    contexts = [browser.new_context(), browser.new_context()]
    red, blue = (context.new_page() for context in contexts)
    try:
        room = create_from_lobby(red, url_a, "hexbaron", {k: str(v) for k, v in options.items()},
                                 seed, ["human", "human"])
        join_from_lobby(blue, url_b, room)
        assert game_state(blue)["seats"][0]["taken"]
        play_by_clicking({0: red, 1: blue}, moves[:4])
        # Undo asked on process B, accepted on process A.
        asker = 1 if game_state(red)["log"][-1]["seat"] == 1 else 0
        pages = (red, blue)
        pages[asker].click("#undo")
        pages[1 - asker].wait_for_selector("#undo-accept")
        pages[1 - asker].click("#undo-accept")
        for page in pages:
            wait_ply(page, 3)
        # A page that missed a change (its version forged) resyncs and shows the game.
        blue.evaluate("S.version = -7")
        play_by_clicking({0: red, 1: blue}, moves[3:], start=3)
        assert game_state(blue) ["over"] and game_state(red)["over"]
        assert game_state(blue)["log"] == game_state(red)["log"]
        assert blue.inner_text("#status") == red.inner_text("#status")
    finally:  # (nothing of this test left running in the shared browser)
        for context in contexts:
            context.close()
