"""hexkit serve in a real browser (headless Chromium through Playwright): for every
built-in game two browsers join one game from the lobby and play it to the end by clicking;
a reload takes the seat back; a server restart keeps the game; a game against a bot.

Screenshots go to the folder named by $HEXKIT_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from .clicks import (  # noqa: E402
    click_move,
    create_from_lobby,
    game_state,
    join_from_lobby,
    play_by_clicking,
    wait_drawn,
    wait_ply,
)
from .short_games import SHORT_VARIANTS, short_game  # noqa: E402

SHOTS = os.environ.get("HEXKIT_SCREENSHOTS", "")


@pytest.fixture(scope="module")
def two_browsers(browser):
    """Two separate browsers (their own storage, so their own seats), for the module."""
    a, b = browser.new_context(), browser.new_context()
    yield a, b
    a.close()
    b.close()


@pytest.fixture
def two_players(two_browsers, live_server):
    pages = tuple(context.new_page() for context in two_browsers)
    errors: list[str] = []
    for page in pages:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield pages
    for page in pages:
        page.close()
    assert not errors, f"the page raised: {errors}"


def two_person_game(first: Any, second: Any, url: str,
                    name: str) -> tuple[Any, int, str, list[str]]:
    """A short game of ``name`` created from the lobby by ``first`` and joined by ``second``;
    its Game, seed, room id and the moves that play it to the end."""
    game, seed, moves = short_game(name)
    options, _ = SHORT_VARIANTS[name]
    room = create_from_lobby(first, url, name, options, seed, ["human", "human"])
    join_from_lobby(second, url, room)
    return game, seed, room, moves


def shot(name: str) -> str:
    if not SHOTS:
        return ""
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    return str(Path(SHOTS) / name)


@pytest.mark.parametrize("name", sorted(SHORT_VARIANTS))
def test_two_browsers_join_from_the_lobby_and_play_to_the_end_by_clicking(
        name, two_players, live_server):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, name)
    assert game_state(second)["seats"][1]["taken"]

    play_by_clicking({0: first, 1: second}, moves, shots=shot(name))

    for page in (first, second):
        state = game_state(page)
        assert state["over"] and state["result"].startswith("Game over")
        assert page.locator("#status").inner_text() == state["result"]
        # The finished board says who won and why, and so does the move list's last entry.
        assert state["result"] in page.locator("#board svg g.result").text_content()
        assert page.locator("#log li").count() == len(moves)
    expected = game.new_state(seed)
    for text in moves:
        expected.push(text)
    assert game_state(first)["result"].endswith(f"({expected.outcome().reason}).")
    if SHOTS:
        first.screenshot(path=shot(f"{name}-finished.png"), full_page=True)


def test_a_reload_takes_the_seat_back_and_a_refused_move_says_why(two_players, live_server,
                                                                  browser):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, "focus")
    watcher_context = browser.new_context()
    watcher = watcher_context.new_page()
    watcher.goto(f"{live_server.url}/game/{room}")
    play_by_clicking({0: first, 1: second}, moves[:1])
    wait_ply(watcher, 1)
    assert "You are watching." in watcher.locator("#seats").inner_text()
    # A spectator's clicks play nothing.
    watcher.locator("#board polygon[data-cell]").first.click()
    assert "not your turn" in watcher.locator("#message").inner_text()
    watcher_context.close()

    second.reload()
    wait_ply(second, 1)
    assert second.locator("#status").inner_text().startswith("Your move")
    # The notation box refuses as the terminal does, and nothing changes.
    second.fill("#move-text", "a1-a9x1")
    second.click("#play")
    second.wait_for_selector("#message:has-text('illegal move')")
    assert game_state(second)["ply"] == 1
    click_move(second, moves[1])
    wait_ply(first, 2)
    wait_ply(second, 2)
    # Replay steps through the game from its start and comes back to the live position.
    first.evaluate("window.hexkitReplayMs = 100")
    first.click("#replay")
    for _ in range(200):  # the positions shown, until back at the live one
        shown = first.evaluate("window.hexkitReplayed")
        if shown and shown[-1] is None:
            break
        first.wait_for_timeout(25)
    assert shown == [0, 1, None]
    assert first.locator("#history-banner").is_hidden()
    assert first.locator("#status").inner_text().startswith("Your move")


def test_a_seat_link_carries_the_seat_to_another_browser(two_players, live_server, browser):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, "focus")
    play_by_clicking({0: first, 1: second}, moves[:1])
    wait_ply(second, 1)
    second.click("#seats button.seat-link[data-seat='1']")
    second.wait_for_selector("#message:has-text('/game/')")
    message = second.locator("#message").inner_text()
    link = message[message.index("http"):]
    if SHOTS:
        second.screenshot(path=shot("seat-link.png"), full_page=True)
    assert link.startswith(f"{live_server.url}/game/{room}#seat=1&token=")

    other_device = browser.new_context()  # its own storage: it holds no seat yet
    try:
        phone = other_device.new_page()
        phone.goto(link)
        wait_ply(phone, 1)
        # The token leaves the address bar at once and the seat is this browser's now.
        assert phone.url == f"{live_server.url}/game/{room}"
        phone.wait_for_selector("#message:has-text('This browser now holds your seat')")
        assert phone.locator("#status").inner_text().startswith("Your move")
        click_move(phone, moves[1])
        wait_ply(first, 2)
        assert game_state(first)["ply"] == 2
        # A made-up token in a link holds nothing: the page says so and only watches.
        stranger = other_device.browser.new_context().new_page()
        stranger.goto(f"{live_server.url}/game/{room}#seat=0&token={'x' * 32}")
        wait_ply(stranger, 2)
        stranger.wait_for_selector("#message:has-text('holds no seat of this game')")
        assert "You are watching." in stranger.locator("#seats").inner_text()
        if SHOTS:
            stranger.screenshot(path=shot("stale-seat-link.png"), full_page=True)
        assert stranger.evaluate("localStorage.length") == 0
        assert stranger.locator("#move-text").is_disabled()
        assert game_state(first)["ply"] == 2
        stranger.context.close()
    finally:
        other_device.close()


def test_moving_through_the_move_list_keeps_the_live_game(two_players, live_server):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, "hexbaron")
    play_by_clicking({0: first, 1: second}, moves[:3])
    first.locator('#log li[data-ply="1"]').click()
    first.wait_for_selector("#history-banner:not([hidden])")
    first.keyboard.press("ArrowRight")
    first.wait_for_selector("#history-ply:has-text('2 of 3')")
    # A move is played meanwhile: the move list grows, the position looked at stays.
    play_by_clicking({0: first, 1: second}, moves[3:4], start=3)
    assert first.locator("#history-ply").inner_text() == "2 of 4"
    assert first.locator("#log li").count() == 4
    first.keyboard.press("End")
    first.wait_for_selector("#history-banner", state="hidden")
    assert first.locator("#board polygon[data-cell]").count() > 0
    # A new game from an earlier position of this one.
    first.keyboard.press("Home")
    first.wait_for_selector("#history-ply:has-text('0 of 4')")
    first.keyboard.press("ArrowRight")
    first.click("#branch")
    first.wait_for_url(lambda url: room not in url)
    wait_ply(first, 1)
    assert [e["move"] for e in game_state(first)["log"]] == moves[:1]


def test_undo_between_two_browsers_is_asked_and_accepted(two_players, live_server):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, "hexbaron")
    play_by_clicking({0: first, 1: second}, moves[:4])
    second.click("#undo")
    first.wait_for_selector("#undo-accept")
    assert "asks to take back" in first.locator("#undo-request").inner_text()
    first.click("#undo-accept")
    wait_ply(first, 3)
    wait_ply(second, 3)
    assert second.locator("#status").inner_text().startswith("Your move")


def test_a_server_restart_keeps_the_game(two_players, live_server):
    first, second = two_players
    game, seed, room, moves = two_person_game(first, second, live_server.url, "hexaround")
    play_by_clicking({0: first, 1: second}, moves[:2])

    live_server.restart()
    first.goto(live_server.url + "/")
    first.wait_for_selector(f'#games tr[data-game="{room}"]')
    first.goto(f"{live_server.url}/game/{room}")
    second.reload()
    wait_ply(first, 2)
    wait_ply(second, 2)
    play_by_clicking({0: first, 1: second}, moves[2:], start=2)
    assert game_state(second)["over"]


def test_a_game_against_a_bot_shows_it_thinking_and_ends(browser, live_server):
    context = browser.new_context()
    page = context.new_page()
    _, seed, _ = short_game("focus")
    options, _ = SHORT_VARIANTS["focus"]
    create_from_lobby(page, live_server.url, "focus", options, seed, ["human", "mcts:300"])
    # Whether the status ever says a bot is thinking, however briefly.
    page.evaluate("""() => { window.sawThinking = false;
        new MutationObserver(() => { if (document.querySelector('#status.thinking'))
            window.sawThinking = true; }).observe(document.querySelector('#status'),
            {attributes: true, childList: true, subtree: true}); }""")
    for _ in range(60):
        state = game_state(page)
        if state["over"]:
            break
        click_move(page, state["moves"][0]["text"])
        wait_drawn(page, state["ply"] + 1)  # the bot may have answered already
        page.wait_for_selector('body[data-over="true"], body[data-turn="0"][data-thinking=""]',
                               state="attached")
    state = game_state(page)
    assert state["over"], "the game against the bot did not end within 60 turns"
    assert [s["spec"] for s in state["seats"]] == ["human", "mcts:300"]
    assert page.evaluate("window.sawThinking")
    if SHOTS:
        page.screenshot(path=shot("focus-vs-bot.png"), full_page=True)
    context.close()


def test_a_saved_game_file_starts_a_game_from_the_move_chosen(browser, live_server, tmp_path):
    from hexkit.files.records import GameRecord, save_record

    game, seed, moves = short_game("hexbaron")
    state = game.new_state(seed)
    for text in moves[:4]:
        state.push(text)
    record = GameRecord.for_game(game, seed=seed, players=["human", "human"])
    record.update(state)
    save_record(tmp_path / "saved.json", record)

    context = browser.new_context()
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.set_input_files("#record-file", str(tmp_path / "saved.json"))
    page.fill("#load-upto", "2")
    page.click("#load")
    page.wait_for_url("**/game/*")
    wait_ply(page, 2)
    assert [e["move"] for e in game_state(page)["log"]] == moves[:2]
    click_move(page, moves[2])  # Player One's third command, from this browser's seat
    wait_ply(page, 3)
    # A file that is no saved game is refused in one line.
    page.goto(live_server.url + "/")
    (tmp_path / "notes.json").write_text('{"hello": 1}')
    page.set_input_files("#record-file", str(tmp_path / "notes.json"))
    page.click("#load")
    page.wait_for_selector("#lobby-message:has-text('not a hexkit game record')")
    context.close()
