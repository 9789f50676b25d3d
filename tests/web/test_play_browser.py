"""Playing like lichess in a real browser (headless Chromium through Playwright): clocks on
both boards, resign, a draw offered and accepted, a rematch both pages follow with the seats
swapped, presence, the tab title and the sound, the last turn drawn, the terrain legend,
leaving a finished game, the lobby's bots for each game; and the layout on a 375 x 667
phone and a 1280 x 800 desktop, for every game.

Screenshots go to the folder named by $HEXKIT_SCREENSHOTS when it is set."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from .clicks import click_move, game_state, wait_ply  # noqa: E402
from .short_games import SHORT_VARIANTS  # noqa: E402
from .test_browser import shot  # noqa: E402

PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(),
                                     {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.load(answer)
        return data


def until(page: Any, script: str, timeout: float = 10_000) -> None:
    """Wait until the page's ``script`` is true (the page's security policy forbids the
    evaluated strings of Playwright's own wait_for_function)."""
    waited = 0
    while not page.evaluate(script):
        assert waited < timeout, f"never true: {script}"
        page.wait_for_timeout(50)
        waited += 50


def seat_in(page: Any, server: Any, room: str, seat: int, token: str) -> None:
    """Give the page the seat (as a seat link would), open the game there."""
    page.goto(f"{server.url}/game/{room}#seat={seat}&token={token}")
    page.wait_for_selector("#board svg")
    until(page, f"mySeats().includes({seat})")


def new_game(server: Any, game: str = "focus", **body: Any) -> tuple[str, list[str]]:
    """A game made through the API with both seats taken; its id and the seats' tokens."""
    options, seed = SHORT_VARIANTS.get(game, ({}, 1))
    made = post(f"{server.url}/api/games", {"game": game, "seed": seed,
                                            "options": body.pop("options", options), **body})
    tokens = [made["token"]]
    if made["seat"] == 0 and len(body.get("seats", ["human", "human"])) == 2 and \
            body.get("seats", ["human", "human"])[1] == "human":
        tokens.append(post(f"{server.url}/api/games/{made['id']}/join", {"seat": 1})["token"])
    return made["id"], tokens


@pytest.fixture
def pages(browser, live_server):
    """Two people's browsers, their own storage each; page errors fail the test."""
    contexts = [browser.new_context(viewport=DESKTOP) for _ in range(2)]
    opened = [c.new_page() for c in contexts]
    errors: list[str] = []
    for page in opened:
        page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield opened
    for context in contexts:
        context.close()
    assert not errors, f"the page raised: {errors}"


def test_clocks_run_on_both_boards_and_a_resigned_game_says_who_won(pages, live_server):
    red, green = pages
    room, tokens = new_game(live_server, clock="3+2")
    seat_in(red, live_server, room, 0, tokens[0])
    seat_in(green, live_server, room, 1, tokens[1])
    for page in pages:
        page.wait_for_selector("#clocks .clock[data-seat='1'] .time:has-text('3:00')")
    click_move(red, game_state(red)["moves"][0]["text"])
    wait_ply(green, 1)
    # Green's clock runs on both boards; Red's stays where it was.
    for page in pages:
        page.wait_for_selector("#clocks .clock.running[data-seat='1']")
        until(page, "document.querySelector(\"#clocks .clock[data-seat='1'] "
                               ".time\").textContent < '3:00'")
        assert page.locator("#clocks .clock[data-seat='0'] .time").inner_text() == "3:00"
    assert red.title().startswith("Green to play · focus")
    assert green.title().startswith("Your turn · focus")
    assert "(you)" in green.locator("#clocks .clock[data-seat='1']").inner_text()
    if shot(""):
        green.screenshot(path=shot("clocks-desktop.png"))

    green.once("dialog", lambda dialog: dialog.accept())
    green.click("#resign")
    for page in pages:
        page.wait_for_selector("body[data-over='true']", state="attached")
        assert page.locator("#status").inner_text() == "Game over: Red wins (Green resigned)."
        assert page.locator("#undo").is_disabled()
        assert page.title().startswith("Over · focus")
        assert page.locator("#clocks .clock.running").count() == 0


def test_a_draw_offered_and_accepted_ends_the_game_for_both(pages, live_server):
    red, green = pages
    room, tokens = new_game(live_server)
    seat_in(red, live_server, room, 0, tokens[0])
    seat_in(green, live_server, room, 1, tokens[1])
    red.click("#offer-draw")
    red.wait_for_selector("#offers:has-text('You offered a draw')")
    assert red.locator("#offer-draw").is_hidden()
    green.wait_for_selector("#draw-accept")
    assert "Red offers a draw" in green.locator("#offers").inner_text()
    green.click("#draw-accept")
    for page in pages:
        page.wait_for_selector("#status:has-text('a draw (agreed)')")


def test_a_rematch_asked_and_accepted_takes_both_pages_to_the_new_game_seats_swapped(
        pages, live_server):
    red, green = pages
    room, tokens = new_game(live_server, clock="5+0")
    seat_in(red, live_server, room, 0, tokens[0])
    seat_in(green, live_server, room, 1, tokens[1])
    red.once("dialog", lambda dialog: dialog.accept())
    red.click("#resign")
    green.wait_for_selector("#rematch:not([hidden])")
    assert green.locator("#leave-game").is_visible()
    green.click("#rematch")
    red.wait_for_selector("#rematch-accept")
    red.click("#rematch-accept")
    for page in pages:
        page.wait_for_url(lambda url: room not in url and "/game/" in url)
        page.wait_for_selector("#board svg")
    assert red.url == green.url
    # The player who had Red plays Green now, with the same clock.
    until(red, "mySeats().join() === '1'")
    until(green, "mySeats().join() === '0'")
    assert green.locator("#status").inner_text().startswith("Your move")
    assert game_state(red)["play"]["clock"]["control"] == "5+0"


def test_presence_shows_who_is_connected_and_how_many_watch(pages, live_server, browser):
    red, green = pages
    room, tokens = new_game(live_server)
    seat_in(red, live_server, room, 0, tokens[0])
    red.wait_for_selector("#seats li.online[data-seat='0']")
    red.wait_for_selector("#seats li.offline[data-seat='1']")
    seat_in(green, live_server, room, 1, tokens[1])
    red.wait_for_selector("#seats li.online[data-seat='1']")
    watcher = browser.new_context().new_page()
    watcher.goto(f"{live_server.url}/game/{room}")
    red.wait_for_selector("#watching:has-text('1 watching')")
    watcher.context.close()
    red.wait_for_selector("#watching:has-text('nobody else watching')")
    green.close()
    red.wait_for_selector("#seats li.offline[data-seat='1']")


def test_the_sound_is_off_by_default_and_when_on_tells_the_turn(pages, live_server):
    red, green = pages
    room, tokens = new_game(live_server)
    seat_in(red, live_server, room, 0, tokens[0])
    seat_in(green, live_server, room, 1, tokens[1])
    assert not green.locator("#sound").is_checked()
    click_move(red, game_state(red)["moves"][0]["text"])
    wait_ply(green, 1)
    assert green.evaluate("window.hexkitBeeps || 0") == 0
    green.check("#sound")  # sounds once, to say it is on
    click_move(green, game_state(green)["moves"][0]["text"])
    wait_ply(green, 2)
    red.check("#sound")
    beeps = red.evaluate("window.hexkitBeeps")
    click_move(red, game_state(red)["moves"][0]["text"])
    until(green, "window.hexkitBeeps === 2")
    assert red.evaluate("window.hexkitBeeps") == beeps


def test_the_last_turn_is_drawn_and_hex_barons_terrain_has_a_legend(pages, live_server):
    red, _ = pages
    room, tokens = new_game(live_server, "hexbaron", seats=["human", "human"])
    seat_in(red, live_server, room, 0, tokens[0])
    assert sorted(red.locator("#legend li").all_inner_texts()) == ["bog", "field", "forest"]
    moved = next(m for m in game_state(red)["moves"] if m["origin"] and m["target"])
    click_move(red, moved["text"])
    wait_ply(red, 1)
    for kind, at in (("from", moved["origin"]), ("to", moved["target"])):
        mark = red.locator(f"#board polygon.hk-last-{kind}")
        assert mark.count() == 1
        cell = red.locator(f"#board polygon[data-cell='{at[0]},{at[1]}']")
        assert mark.get_attribute("points") == cell.get_attribute("points")
    # The caption lines are said once: in the panel, not on the board too.
    caption = [" ".join(line.split()) for line in game_state(red)["caption"]]
    assert red.locator("#caption li").all_inner_texts() == caption
    board = " ".join(red.locator("#board svg").text_content().split())
    assert caption and not any(line in board for line in caption)


def test_a_player_leaves_a_finished_game_and_is_back_in_the_lobby(pages, live_server):
    red, green = pages
    room, tokens = new_game(live_server)
    seat_in(red, live_server, room, 0, tokens[0])
    assert red.locator("#leave-game").is_hidden()
    red.once("dialog", lambda dialog: dialog.accept())
    red.click("#resign")
    red.wait_for_selector("#leave-game:not([hidden])")
    red.click("#leave-game")
    red.wait_for_url(f"{live_server.url}/")
    assert red.evaluate(f"localStorage.getItem('hexkit.tokens.{room}')") is None
    state = post(f"{live_server.url}/api/games/{room}/seats", {"tokens": tokens})
    assert state["held"] == [None, 1]


def test_the_lobby_offers_each_game_its_own_bots_levels_and_placeholders(pages, live_server):
    page = pages[0]
    page.goto(live_server.url + "/")
    page.wait_for_selector("#game-name option", state="attached")
    page.select_option("#game-name", "focus")
    seat = page.locator("#seat-pickers .seat-row").nth(1)
    offered = seat.locator(".seat-who option").evaluate_all("os => os.map(o => o.value)")
    assert "hive" not in offered and "uhp" not in offered
    assert {"bot:easy", "bot:medium", "bot:hard", "mcts", "random"} <= set(offered)
    assert seat.locator(".seat-arg").is_hidden()
    seat.locator(".seat-who").select_option("mcts")
    assert seat.locator(".seat-arg").get_attribute("placeholder") == "e.g. 400"
    seat.locator(".seat-who").select_option("bot:easy")
    assert seat.locator(".seat-arg").is_hidden()
    page.select_option("#clock", "3+2")
    page.click("#create")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#clocks .clock")
    state = game_state(page)
    assert [s["spec"] for s in state["seats"]] == ["human", "bot:easy"]
    assert state["play"]["clock"]["control"] == "3+2"
    if "hive" in SHORT_VARIANTS:
        page.goto(live_server.url + "/")
        page.wait_for_selector("#game-name option", state="attached")
        page.select_option("#game-name", "hive")
        row = page.locator("#seat-pickers .seat-row").nth(1)
        row.locator(".seat-who").select_option("hive")
        assert row.locator(".seat-arg").get_attribute("placeholder") == "e.g. depth=2"


# -- layout --------------------------------------------------------------------------------
def no_overflow(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"the page is {width} px wide"


def small_targets(page: Any) -> list[str]:
    """Visible buttons, selects and text boxes less than 44 px tall."""
    return page.evaluate("""() => [...document.querySelectorAll(
        'button, select, input:not([type=file]):not([type=checkbox])')]
        .filter(n => n.offsetParent !== null && n.getBoundingClientRect().height < 44)
        .map(n => n.id || n.className || n.tagName)""")


def test_the_lobby_fits_a_phone(browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    new_game(live_server)  # the list has a game in it
    page.goto(live_server.url + "/")
    page.wait_for_selector("#games tbody tr")
    no_overflow(page)
    assert small_targets(page) == []
    font = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.help'))"
                         ".fontSize)")
    assert font >= 12
    if shot(""):
        page.screenshot(path=shot("lobby-phone.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("name", sorted(SHORT_VARIANTS))
def test_on_a_phone_the_board_fills_the_width_with_turn_clocks_and_moves_above_it(
        name, browser, live_server):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    room, tokens = new_game(live_server, name, clock="5+3", options={})
    seat_in(page, live_server, room, 0, tokens[0])
    click_move(page, game_state(page)["moves"][0]["text"])
    wait_ply(page, 1)
    no_overflow(page)
    board = page.locator("#board svg").bounding_box()
    assert board["width"] >= 0.9 * PHONE["width"]
    for part in ("#status", "#clocks", "#log li"):
        box = page.locator(part).first.bounding_box()
        assert box["y"] + box["height"] <= board["y"] + 1, f"{part} is not above the board"
    assert small_targets(page) == []
    if shot(""):
        page.screenshot(path=shot(f"{name}-phone.png"))
        page.screenshot(path=shot(f"{name}-phone-full.png"), full_page=True)
    context.close()


@pytest.mark.parametrize("name", sorted(SHORT_VARIANTS))
def test_on_a_desktop_the_panel_stands_beside_the_board(name, browser, live_server):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    room, tokens = new_game(live_server, name, clock="5+3", options={})
    seat_in(page, live_server, room, 0, tokens[0])
    click_move(page, game_state(page)["moves"][0]["text"])
    wait_ply(page, 1)
    no_overflow(page)
    board = page.locator("#board-area").bounding_box()
    panel = page.locator("#panel").bounding_box()
    assert panel["x"] >= board["x"] + board["width"] and panel["y"] < board["y"] + 10
    assert page.locator("#clocks").is_visible() and page.locator("#log li").count() == 1
    if shot(""):
        page.screenshot(path=shot(f"{name}-desktop.png"))
    context.close()


def test_the_page_names_its_icon_and_the_server_has_it(pages, live_server):
    page = pages[0]
    page.goto(live_server.url + "/")
    href = page.locator("link[rel=icon]").first.get_attribute("href")
    assert href == "/favicon.ico"
    answer = page.request.get(live_server.url + href)
    assert answer.status == 200 and answer.body()[:4] == b"\x00\x00\x01\x00"
