"""hexkit serve's latency: from a click on a move's target to the new board on the screen
of both players' browsers, for every built-in game (headless Chromium through Playwright).

Two browser contexts join one game; the player to act clicks a piece and then the target of
a random legal move (moves whose click pair is unambiguous, so no chooser is involved). The
time runs from the target click's event to the animation frame that shows the new position,
in whichever of the two pages shows it last (both pages read the same clock). Games are
restarted with new seeds until enough moves are measured.

    python benchmarks/web_latency.py [--moves 30] [--games focus,hexbaron,hexaround]

Goal (issue 14): median under 100 ms on the 2-core test machine.
"""

from __future__ import annotations

import argparse
import random
import socket
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

CHROMIUM = "/usr/bin/chromium"
#: The variant of each game measured: the ones people play (not the tests' short ones).
VARIANTS: dict[str, dict[str, str]] = {
    "focus": {},
    "hexbaron": {},
    "hexaround": {"config": "level3"},
    "hive": {},  # measured where it is installed
}


def start_server(folder: Path) -> tuple[Any, threading.Thread, str]:
    import uvicorn

    from hexkit.web.app import create_app

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(folder), host="127.0.0.1", port=port,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, f"http://127.0.0.1:{port}"


def new_game(request: Any, url: str, name: str, seed: int) -> tuple[str, list[str]]:
    made = request.post(f"{url}/api/games", data={
        "game": name, "options": VARIANTS.get(name, {}), "seed": seed, "seats": ["human", "human"]})
    assert made.ok, made.text()
    room = made.json()
    joined = request.post(f"{url}/api/games/{room['id']}/join", data={"seat": 1})
    assert joined.ok, joined.text()
    return room["id"], [room["token"], joined.json()["token"]]


def open_seat(page: Any, url: str, room: str, seat: int, token: str) -> None:
    page.goto(url + "/")
    page.evaluate("([room, seat, token]) => localStorage.setItem(`hexkit.tokens.${room}`, "
                  "JSON.stringify({[seat]: token}))", [room, seat, token])
    page.goto(f"{url}/game/{room}")
    page.wait_for_selector("#board svg")


def measure(browser: Any, url: str, name: str, wanted: int, rng: random.Random) -> list[float]:
    times: list[float] = []
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    request = contexts[0].request
    while len(times) < wanted:
        room, tokens = new_game(request, url, name, rng.randrange(2**31))
        for seat, page in enumerate(pages):
            open_seat(page, url, room, seat, tokens[seat])
        for _ in range(200):
            state = pages[0].evaluate("S")
            if state["over"] or len(times) >= wanted:
                break
            pairs: dict[tuple[str, str], int] = {}
            for m in state["moves"]:
                key = (repr(m["origin"]), repr(m["target"]))
                pairs[key] = pairs.get(key, 0) + 1
            clean = [m for m in state["moves"] if m["target"] is not None
                     and m["origin"] is not None
                     and pairs[(repr(m["origin"]), repr(m["target"]))] == 1]
            page = pages[state["turn"]]
            ply = state["ply"]
            if not clean:  # pass, or only chooser moves: play one by its notation
                page.fill("#move-text", state["moves"][0]["text"])
                page.click("#play")
            else:
                move = rng.choice(clean)
                origin, target = move["origin"], move["target"]
                if isinstance(origin, dict):
                    page.locator(f'#board g.hand[data-seat="{origin["seat"]}"]'
                                 f'[data-kind="{origin["kind"]}"]').click()
                else:
                    page.locator(f'#board polygon[data-cell="{origin[0]},{origin[1]}"]').click()
                page.locator(f'#board polygon[data-cell="{target[0]},{target[1]}"]').click()
            shown = []
            for p in pages:
                p.wait_for_selector(f'body[data-ply="{ply + 1}"]', state="attached")
                for _ in range(100):
                    at = p.evaluate(f"(window.hexkitDrawn || {{}})[{ply + 1}]")
                    if at is not None:
                        break
                    time.sleep(0.005)
                shown.append(at)
            if clean:
                clicked = page.evaluate("window.hexkitClickAt")
                times.append(max(shown) - clicked)
    for c in contexts:
        c.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moves", type=int, default=30, help="moves measured per game")
    ap.add_argument("--games", default="", help="games, comma-separated (default: the "
                    "built-in ones, and Hive where installed)")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    from hexkit import plugins

    names = args.games.split(",") if args.games else \
        [n for n in VARIANTS if n in plugins.registry().games]
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        server, thread, url = start_server(Path(folder))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM)
                print(f"{'game':<11} {'moves':>5} {'median ms':>10} {'p90 ms':>8} {'max ms':>8}")
                for name in names:
                    times = sorted(measure(browser, url, name, args.moves, rng))
                    p90 = times[int(0.9 * (len(times) - 1))]
                    print(f"{name:<11} {len(times):>5} {statistics.median(times):>10.1f} "
                          f"{p90:>8.1f} {times[-1]:>8.1f}", flush=True)
                browser.close()
        finally:
            server.should_exit = True
            thread.join(10)


if __name__ == "__main__":
    main()
