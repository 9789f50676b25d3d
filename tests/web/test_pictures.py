"""The SVG pictures the browser (and hexkit render, and notebooks) show: a finished game
says who won and why; HexAround's hands name their creatures; Hex Baron's tile numbers
read on every terrain; HexAround is drawn the way its text board is, larger y on top."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

import hexkit
from hexkit.game import describe_outcome
from hexkit.render import render_state_svg, render_svg
from hexkit.render.svg import contrast_ratio, label_inks

from .short_games import SHORT_VARIANTS, short_game

SVG = "{http://www.w3.org/2000/svg}"


def finished(name: str):
    game, seed, moves = short_game(name)
    state = game.new_state(seed)
    for text in moves:
        state.push(text)
    assert state.is_over()
    return state


@pytest.mark.parametrize("name", sorted(SHORT_VARIANTS))
def test_a_finished_game_picture_says_who_won_and_why(name):
    state = finished(name)
    said = describe_outcome(state.players, state.outcome())
    for svg in (render_state_svg(state), state._repr_svg_()):
        root = ET.fromstring(svg)
        banner = [t.text for g in root.iter(f"{SVG}g") if g.get("class") == "result"
                  for t in g.iter(f"{SVG}text")]
        assert banner == [said]
        # Said once: a caption line repeating it is left out.
        assert [t.text for t in root.iter(f"{SVG}text")].count(said) == 1
    ongoing = finished(name)
    ongoing.pop()
    assert 'class="result"' not in render_state_svg(ongoing)


def test_hexaround_hands_in_the_picture_name_the_creatures():
    state = hexkit.load_game("hexaround", config="level1").new_state(1)
    state.push("place BUTTERFLY 0 0")
    texts = [t.text for t in ET.fromstring(render_state_svg(state)).iter(f"{SVG}text")]
    assert "BUTTERFLY \u00d71" in texts  # RED's, still in hand
    assert "DOVE \u00d75" in texts and "HUMMINGBIRD \u00d72" in texts
    assert not any(re.fullmatch(r"[A-Z]{3} \u00d7\d+", t or "") for t in texts)
    hands = {(h.seat, h.kind): h.count for h in state.view().hands}
    assert hands[(0, "CRAB")] == 3 and (0, "BUTTERFLY") not in hands


def test_hexbaron_tile_numbers_read_on_every_terrain():
    state = hexkit.load_game("hexbaron").new_state(1)
    view = state.view()
    fills = dict(view.terrain_colours)
    assert len({c.terrain for c in view.cells}) >= 3  # dark and light terrains both drawn
    root = ET.fromstring(render_svg(view))
    ink_of = {t.text: t.get("fill") for t in root.iter(f"{SVG}text")}
    for cell in view.cells:
        ink = ink_of[cell.label]
        ratio = contrast_ratio(ink, fills[cell.terrain])
        assert ratio >= 4.5, f"tile {cell.label} on {cell.terrain}: contrast {ratio:.1f}"
    # Any terrain colour at all, dark or light, gets a readable ink.
    for fill in ("#000000", "#4f8a3c", "#8a6d4a", "#8c8c99", "#e8e4b0", "#ffffff"):
        assert contrast_ratio(label_inks(fill)[0], fill) >= 4.5


def _centres(svg: str) -> dict[tuple[int, int], tuple[float, float]]:
    out = {}
    for polygon in ET.fromstring(svg).iter(f"{SVG}polygon"):
        at = polygon.get("data-cell")
        if at:
            points = [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]
            q, r = map(int, at.split(","))
            out[(q, r)] = (sum(x for x, _ in points) / 6, sum(y for _, y in points) / 6)
    return out


def test_hexaround_picture_has_the_text_board_orientation_larger_y_on_top():
    state = hexkit.load_game("hexaround", config="level1").new_state(1)
    for move in ("place BUTTERFLY 0 0", "place BUTTERFLY 0 1", "place CRAB 1 -1",
                 "place DOVE -1 2"):
        state.push(move)
    centres = _centres(render_svg(state.view(), interactive=True))
    lines = state.render().splitlines()

    def text_row(x: int, y: int) -> int:
        return next(i for i, line in enumerate(lines)
                    if re.search(rf"(?<![\d-]){x},{y}(?!\d)", line))

    def text_column(x: int, y: int) -> int:
        row = lines[text_row(x, y)]
        return re.search(rf"(?<![\d-]){x},{y}(?!\d)", row).start()

    occupied = [(0, 0), (0, 1), (1, -1), (-1, 2)]
    by_text_rows = sorted(occupied, key=lambda c: text_row(*c))
    by_svg_rows = sorted(occupied, key=lambda c: centres[c][1])
    assert by_text_rows == by_svg_rows == [(-1, 2), (0, 1), (0, 0), (1, -1)]
    assert centres[(0, 1)][1] < centres[(0, 0)][1]  # larger y on top
    # Left to right agrees too (the hexes of one text row).
    assert (text_column(0, 0) < text_column(1, 0)) and (centres[(0, 0)][0] < centres[(1, 0)][0])
