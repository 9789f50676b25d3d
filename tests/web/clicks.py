"""Playing in the page as a person does: through the lobby, then click a piece (on the
board or in hand) and its target, and pick from the chooser when it asks."""

from __future__ import annotations

from typing import Any

SCREENSHOTS = "HEXKIT_SCREENSHOTS"


def game_state(page: Any) -> dict[str, Any]:
    """The game as the page last received it."""
    return page.evaluate("S")


def create_from_lobby(page: Any, url: str, game: str, options: dict[str, str], seed: int,
                      seats: list[str]) -> str:
    """Fill in the game picker, create the game and return its id (the page is on it)."""
    page.goto(url + "/")
    page.wait_for_selector("#game-name option", state="attached")
    page.select_option("#game-name", game)
    for name, value in options.items():
        field = page.locator(f'#options [name="{name}"]')
        if field.evaluate("n => n.tagName") == "SELECT":
            field.select_option(value)
        else:
            field.fill(value)
        field.dispatch_event("change")
    page.fill("#seed", str(seed))
    rows = page.locator("#seat-pickers .seat-row")
    assert rows.count() == len(seats)
    for i, spec in enumerate(seats):
        name, _, arg = spec.partition(":")
        rows.nth(i).locator(".seat-who").select_option(name)
        if arg:
            rows.nth(i).locator(".seat-arg").fill(arg)
    page.click("#create")
    page.wait_for_url("**/game/*")
    page.wait_for_selector("#board svg")
    return page.url.rsplit("/", 1)[1]


def join_from_lobby(page: Any, url: str, room: str) -> None:
    """Open the lobby and join the game's first free seat."""
    page.goto(url + "/")
    page.locator(f'#games tr[data-game="{room}"] button.join').first.click()
    page.wait_for_url(f"**/game/{room}")
    page.wait_for_selector("#board svg")


def wait_ply(page: Any, ply: int, timeout: float = 10_000) -> None:
    page.wait_for_selector(f'body[data-ply="{ply}"]', state="attached", timeout=timeout)


def wait_drawn(page: Any, ply: int, timeout: float = 10_000) -> None:
    """Wait until the page shows move ``ply`` or a later one, and check that it drew the
    position after move ``ply`` on the way. A bot may answer within one frame of the move
    before it (its win in one is found without a search), so that position can be on the
    screen too briefly for a selector's polling to see it."""
    page.wait_for_function("n => Number(document.body.dataset.ply) >= n", arg=ply,
                           timeout=timeout)
    assert page.evaluate(f"() => {ply} in (window.hexkitDrawn || {{}})"), \
        f"the page never drew the position after move {ply}"


def click_move(page: Any, text: str) -> None:
    """Play the move ``text`` by clicking: its piece, its target, the chooser if asked."""
    state = game_state(page)
    move = next((m for m in state["moves"] if m["text"] == text), None)
    assert move is not None, f"{text} is not legal in the page's position"
    origin, target = move["origin"], move["target"]
    if origin is None and target is None:
        page.locator("#other-moves button.move-button", has_text=text).first.click()
        return
    if isinstance(origin, dict):
        page.locator(f'#board g.hand[data-seat="{origin["seat"]}"]'
                     f'[data-kind="{origin["kind"]}"]').click()
    elif origin is not None:
        page.locator(f'#board polygon[data-cell="{origin[0]},{origin[1]}"]').click()
    if target is not None:
        cell = page.locator(f'#board polygon[data-cell="{target[0]},{target[1]}"]')
        assert "hk-target" in (cell.get_attribute("class") or ""), \
            f"the target of {text} is not highlighted"
        cell.click()
    same = [m for m in state["moves"] if m["origin"] == origin and m["target"] == target]
    if len(same) > 1 or target is None:
        page.locator("#choices button.choice", has_text=text).first.click()


def play_by_clicking(pages: dict[int, Any], moves: list[str], *, shots: str = "",
                     mid: int = 2, start: int = 0) -> None:
    """Play ``moves`` in order, each clicked in the page of the seat to act; every page
    shows each move before the next. ``pages`` maps seats to pages (a page may hold
    several seats); with ``shots``, a screenshot after move ``mid`` (``shots``-mid.png).
    ``start`` is the number of moves played before."""
    all_pages = list({id(p): p for p in pages.values()}.values())
    for ply, text in enumerate(moves, start=start + 1):
        turn = game_state(all_pages[0])["turn"]
        assert turn is not None, f"the game ended before {text}"
        click_move(pages[turn], text)
        for page in all_pages:
            wait_ply(page, ply)
        if shots and ply == mid:
            all_pages[0].screenshot(path=f"{shots}-mid.png", full_page=True)
