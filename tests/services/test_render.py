"""SVG pictures from BoardViews, for any topology; hexkit render on saved games."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hexkit.kit.view import BoardView, CellView, PieceView
from hexkit.render import render_svg

from .conftest import error_lines, run_hexkit

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def texts(root: ET.Element) -> list[str]:
    return [t.text or "" for t in root.iter(f"{SVG}text")]


def cell_polygons(root: ET.Element) -> list[ET.Element]:
    return [p for p in root.iter(f"{SVG}polygon") if p.find(f"{SVG}title") is not None]


def points(polygon: ET.Element) -> list[tuple[float, float]]:
    return [tuple(map(float, p.split(","))) for p in polygon.get("points").split()]


def hex_view(orientation="pointy", **kw) -> BoardView:
    cells = (
        CellView((0, 0), "0,0", "field", (PieceView(0, "Q"),)),
        CellView((1, 0), "1,0", "lake", (PieceView(1, "A"), PieceView(0, "B"), PieceView(1, "C"))),
        CellView((0, 1), "0,1"),
    )
    return BoardView("hex", cells, ("Ann", "Bob"), orientation, **kw)


def test_hex_cells_are_hexagons_with_their_labels():
    root = parse(render_svg(hex_view()))
    polygons = cell_polygons(root)
    assert len(polygons) == 3
    assert all(len(points(p)) == 6 for p in polygons)
    assert {"0,0", "1,0", "0,1"} <= set(texts(root))


def test_pointy_and_flat_orientation_put_corners_differently():
    pointy = points(cell_polygons(parse(render_svg(hex_view("pointy"))))[0])
    flat = points(cell_polygons(parse(render_svg(hex_view("flat"))))[0])
    # A pointy hexagon has a corner straight above its centre; a flat one has a flat top.
    top_pointy = sorted(pointy, key=lambda p: p[1])[:2]
    top_flat = sorted(flat, key=lambda p: p[1])[:2]
    assert abs(top_pointy[0][1] - top_pointy[1][1]) > 5
    assert abs(top_flat[0][1] - top_flat[1][1]) < 0.2


def test_neighbouring_hexes_share_an_edge():
    polygons = cell_polygons(parse(render_svg(hex_view())))
    a = {(round(x), round(y)) for x, y in points(polygons[0])}
    b = {(round(x), round(y)) for x, y in points(polygons[1])}
    assert len(a & b) == 2


def test_square_board_cells_are_squares_and_missing_cells_are_not_drawn():
    cells = tuple(
        CellView((r, c), f"{r}{c}") for r in range(3) for c in range(3) if (r, c) != (0, 0)
    )
    root = parse(render_svg(BoardView("square", cells, ("A", "B"))))
    polygons = cell_polygons(root)
    assert len(polygons) == 8
    assert all(len(points(p)) == 4 for p in polygons)


def test_pieces_are_drawn_in_their_owners_colours_with_their_text():
    root = parse(render_svg(hex_view()))
    fills = [c.get("fill") for c in root.iter(f"{SVG}circle")]
    ellipses = [e.get("fill") for e in root.iter(f"{SVG}ellipse")]
    assert "#c62828" in fills  # seat 0's single piece (and the legend)
    assert {"#c62828", "#1565c0"} <= set(ellipses)  # the stack holds both owners
    assert "Q" in texts(root) and "C" in texts(root)


def test_stack_height_is_shown_as_a_badge():
    root = parse(render_svg(hex_view()))
    assert "3" in texts(root)
    pile = tuple(PieceView(0, "x") for _ in range(9))
    tall = BoardView("square", (CellView((0, 0), "", "", pile),), ("A",))
    assert "9" in texts(parse(render_svg(tall)))


def test_last_move_is_highlighted():
    plain = parse(render_svg(hex_view()))
    marked = parse(render_svg(hex_view(highlight=((1, 0),))))
    outline = [p for p in marked.iter(f"{SVG}polygon") if p.get("fill") == "none"]
    assert len(outline) == 1
    assert not [p for p in plain.iter(f"{SVG}polygon") if p.get("fill") == "none"]


def test_terrain_colours_come_from_the_view_or_a_default_palette():
    view = hex_view(terrain_colours=(("lake", "#0000ff"),))
    polygons = cell_polygons(parse(render_svg(view)))
    fills = {p.find(f"{SVG}title").text: p.get("fill") for p in polygons}
    assert fills["1,0 (lake)"] == "#0000ff"
    assert fills["0,0 (field)"] not in ("#0000ff", fills["0,1"])


def test_players_and_caption_are_written():
    root = parse(render_svg(hex_view(caption=("Ann to move", "reserve: 2"))))
    assert {"Ann", "Bob", "Ann to move", "reserve: 2"} <= set(texts(root))


def test_text_is_escaped_and_control_characters_dropped():
    cells = (CellView((0, 0), "<a&b>", "", (PieceView(None, '"&<'),)),)
    svg = render_svg(BoardView("square", cells, ("x<y",), caption=("bell\x07 & co",)))
    root = parse(svg)
    assert "<a&b>" in texts(root) and "x<y" in texts(root) and "bell & co" in texts(root)


def test_empty_view_still_makes_a_valid_picture():
    root = parse(render_svg(BoardView("hex", (), ("A", "B"))))
    assert root.tag == f"{SVG}svg"


def test_state_repr_svg_draws_the_position(toy_plugins):
    state = toy_plugins.load_game("toyline").new_state(seed=0)
    state.push("b2")
    root = parse(state._repr_svg_())
    assert len(cell_polygons(root)) == 9
    assert "X" in texts(root)


def test_render_command_writes_the_position_after_a_move(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\na1\nc1\n",
               cwd=tmp_path)
    out = run_hexkit("render", "g.json", "--move", "1", "-o", "board.svg", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    root = parse((tmp_path / "board.svg").read_text(encoding="utf-8"))
    assert texts(root).count("X") == 1 and "O" not in texts(root)
    assert "toyline after move 1" in texts(root)
    final = run_hexkit("render", "g.json", cwd=tmp_path)
    assert final.returncode == 0
    assert texts(parse(final.stdout)).count("X") == 2


def test_render_of_a_move_out_of_range_or_a_corrupt_file_is_one_line(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\n", cwd=tmp_path)
    out = run_hexkit("render", "g.json", "--move", "5", "-o", "b.svg", cwd=tmp_path)
    assert error_lines(out) == [
        "hexkit: error: g.json: move 5 is out of range: the record has 1 moves"]
    assert not (tmp_path / "b.svg").exists()
    (tmp_path / "bad.json").write_text("[")
    out = run_hexkit("render", "bad.json", "-o", "b.svg", cwd=tmp_path)
    assert out.returncode == 1
    assert error_lines(out) == [
        "hexkit: error: bad.json:1: not a hexkit game record (invalid JSON: Expecting value)"]


def test_render_of_a_finished_game_says_who_won_and_why(tmp_path):
    played = run_hexkit("play", "focus", "--seed", "1", "--p1", "random", "--p2", "random",
                        "--save", "g.json", cwd=tmp_path, toy=False)
    assert played.returncode == 0, played.stderr
    out = run_hexkit("render", "g.json", cwd=tmp_path, toy=False)
    assert out.returncode == 0, out.stderr
    said = " ".join(texts(parse(out.stdout)))
    assert "Game over" in said and " wins " in said
