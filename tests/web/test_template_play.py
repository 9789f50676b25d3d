"""A game made by ``hexkit new-plugin`` is played in the browser by clicking its board, as
its author would right after generating it: the hexes carry their labels, every stone is
put by a click on its hex (no list of move buttons), and the game ends with its result.

Screenshots go to the folder named by $HEXKIT_SCREENSHOTS when it is set."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexkit import plugins
from hexkit.tools.scaffold import write_plugin

pytest.importorskip("uvicorn", reason="the web extra is not installed "
                    "(pip install 'hexkit-games[web]')")

from .clicks import create_from_lobby, game_state  # noqa: E402

NAME = "clickrow"


@pytest.fixture(scope="module")
def generated_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A fresh ``hexkit new-plugin`` package, loaded as a plugins-folder file (the way
    ``hexkit --plugins-dir`` loads one) into this process, where the test server runs."""
    root = tmp_path_factory.mktemp("new-plugin")
    package = write_plugin(NAME, root)
    folder = root / "plugins"
    folder.mkdir()
    (folder / f"{NAME}_plugin.py").write_text(f"from {NAME}.plugin import *  # noqa\n")
    sys.path.insert(0, str(package))
    saved = list(plugins._plugin_dirs)
    plugins.configure([*saved, folder])
    try:
        yield NAME
    finally:
        plugins.configure(saved)
        sys.path.remove(str(package))


def test_a_generated_game_is_played_in_the_browser_by_clicking_its_hexes(
        generated_game, browser, live_server):
    context = browser.new_context()
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        create_from_lobby(page, live_server.url, generated_game, {}, 5, ["human", "random"])
        board = page.locator("#board svg")
        labels = board.locator("text").all_text_contents()
        assert "0,0" in labels and "-2,2" in labels  # the hexes' labels, as typed
        ply = 0
        while not game_state(page)["over"]:
            state = game_state(page)
            assert state["turn"] == 0, state["turn"]
            # Nothing to pick from a list: every legal move is a click on its hex.
            assert page.locator("#other-moves button").count() == 0
            move = state["moves"][0]
            assert move["origin"] is None and move["target"] is not None
            q, r = move["target"]
            cell = page.locator(f'#board polygon[data-cell="{q},{r}"]')
            assert "hk-target" in (cell.get_attribute("class") or "")
            cell.click()
            # The click is played, and the bot answers (the page may show both at once).
            page.wait_for_function("n => Number(document.body.dataset.ply) > n", arg=ply)
            page.wait_for_function("() => S.over || S.turn === 0")
            ply = game_state(page)["ply"]
            assert ply <= 19
        state = game_state(page)
        assert state["result"].startswith("Game over: ")
        assert page.locator("#status").inner_text() == state["result"]
        assert page.locator("#log li").count() == ply
        shots = os.environ.get("HEXKIT_SCREENSHOTS", "")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(Path(shots) / "new-plugin-finished.png"), full_page=True)
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"
