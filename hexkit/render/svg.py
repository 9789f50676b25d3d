"""SVG pictures of any game's position, drawn from a :class:`~hexkit.kit.view.BoardView` with
the standard library only.

Geometry lives here, not in the boards (Red Blob Games' layout): hex cells at axial
``(q, r)`` become flat- or pointy-topped hexagons, square cells ``(row, col)`` squares.
Cells are filled by terrain, pieces drawn as discs in their owner's colour with their text,
stacks as piled discs (bottom first) with a height badge, the last move's cells outlined,
and the players and caption lines written above and below the board.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from hexkit.kit.view import BoardView, CellView, HandView


# Written here, not imported from xml.sax.saxutils: that module imports urllib, http and
# email, half the start-up of a command that draws a board (``hexkit play`` at a terminal
# draws through hexkit.render).
def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities (as ``xml.sax.saxutils.escape``)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def quoteattr(text: str) -> str:
    """``text`` escaped (newlines, returns and tabs too) and quoted as an attribute value,
    in double quotes unless it holds one (as ``xml.sax.saxutils.quoteattr``)."""
    text = escape(text).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")
    if '"' not in text:
        return f'"{text}"'
    if "'" not in text:
        return f"'{text}'"
    return '"' + text.replace('"', "&quot;") + '"'


#: Seat colours (seat 0 first); neutral pieces are grey.
PLAYER_COLOURS: tuple[str, ...] = (
    "#c62828", "#1565c0", "#2e7d32", "#ef8f00", "#6a1b9a", "#00838f",
)
NEUTRAL_COLOUR = "#757575"
#: Colour words in players' names, and how they are drawn.
NAMED_COLOURS: dict[str, str] = {
    "red": "#c62828", "green": "#2e7d32", "blue": "#1565c0", "yellow": "#f9c80e",
    "orange": "#ef6c00", "purple": "#6a1b9a", "white": "#f5f5f5", "black": "#212121",
    "brown": "#6d4c41", "pink": "#d81b60", "cyan": "#00838f", "grey": "#9e9e9e",
    "gray": "#9e9e9e",
}
#: Fill of a cell without terrain.
PLAIN_FILL = "#f3efe6"
#: Fills given, in sorted name order, to terrains the view names no colour for.
TERRAIN_PALETTE: tuple[str, ...] = (
    "#d8c99b", "#b9d7a8", "#a9c8e0", "#e0b4a8", "#c9b8dd", "#e8e0a0", "#b0b0b0",
)
HIGHLIGHT_COLOUR = "#ffb300"
GRID_COLOUR = "#5d5346"
TEXT_COLOUR = "#2b2b2b"
SQRT3 = math.sqrt(3.0)
#: Piles taller than this show their top pieces only (the badge gives the height).
MAX_DRAWN_PIECES = 5


def render_svg(view: BoardView, *, cell_size: float = 30.0, title: str = "",
               result: str = "", interactive: bool = False,
               hands_wrap: float | None = None) -> str:
    """The picture of ``view`` as a standalone SVG document.

    ``cell_size`` is a hexagon's centre-to-corner distance (a square's side is twice
    that); ``title`` is an optional heading above the players' legend; ``result`` (who won
    and why) is written in bold under the legend. ``interactive`` marks every cell polygon
    with ``data-cell="a,b"`` and every piece in hand with ``data-seat``/``data-kind`` for a
    click-to-move page, and lets clicks on pieces fall through to their cell.
    ``hands_wrap`` (in font sizes) wraps each seat's pieces in hand onto lines no wider
    than that or the board, so that many kinds in hand do not shrink the board (a phone).
    """
    return "\n".join(svg_lines(view, cell_size=cell_size, title=title, result=result,
                                interactive=interactive, hands_wrap=hands_wrap)) + "\n"


def svg_lines(view: BoardView, *, cell_size: float = 30.0, title: str = "",
              result: str = "", interactive: bool = False, hands_wrap: float | None = None,
              blocks: list[int] | None = None) -> list[str]:
    """The lines of :func:`render_svg`'s picture, without their newlines. With ``blocks``,
    the index of the line that starts each part of the picture is appended to it: the
    board's frame, its last-move marks, each cell's contents (an empty part for an empty
    cell), the pieces in hand and the captions; so two pictures of one board with the
    same cells have as many parts, and a server sends only the parts that changed."""
    mark = blocks.append if blocks is not None else _no_mark
    r = float(cell_size)
    shapes, (min_x, max_x, min_y, max_y) = _frame(
        view.topology, view.orientation, view.y_up, tuple(cell.at for cell in view.cells), r)
    margin = r * 0.5
    font = max(11.0, r * 0.45)
    hand_rows = _hand_rows(view)
    if hands_wrap is not None:
        limit = max(hands_wrap * font, max_x - min_x)
        hand_rows = _wrapped(view, hand_rows, font, limit)
    result_lines = [result] if result else []
    # A caption line that only repeats the result is said once, in the banner.
    caption = [line for line in view.caption if not result or line.strip() != result.strip()]
    header = (font * 1.6 if title else 0.0) + font * 1.7 + font * 1.5 * len(result_lines)
    hands_h = font * 1.9 * len(hand_rows) + (margin * 0.5 if hand_rows else 0.0)
    footer = font * 1.45 * len(caption) + (margin if caption else 0.0)
    board_w = max_x - min_x
    legend_w = _legend_width(view.players, font)
    title_w = _text_width(title, font * 1.1) * 1.1 if title else 0.0
    result_w = _text_width(result, font) * 1.1 + 2 * margin if result else 0.0
    width = max(board_w + 2 * margin, legend_w + 2 * margin, _caption_width(caption, font),
                title_w + 2 * margin, result_w, _hands_width(view, hand_rows, font) + 2 * margin)
    height = header + (max_y - min_y) + 2 * margin + hands_h + footer
    # Board centred horizontally under the legend.
    dx = (width - board_w) / 2 - min_x
    dy = header + margin - min_y

    out: list[str] = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="0 0 {_n(width)} {_n(height)}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f'<rect x="0" y="0" width="{_n(width)}" height="{_n(height)}" fill="#ffffff"/>',
    ]
    y = font * 1.2
    if title:
        out.append(_text(width / 2, y, title, font * 1.1, anchor="middle", weight="bold"))
        y += font * 1.6
    palette = tuple(seat_colours(view.players))
    out.extend(_legend_lines(tuple(view.players), palette, width, y, font))
    for line in result_lines:
        y += font * 1.5
        banner = _text(width / 2, y, line, font, anchor="middle", weight="bold", fill="#1b1b1b")
        out.append(f'<g class="result">{banner}</g>')

    fills = terrain_fills(view)
    mark(len(out))
    out.append(f'<g transform="translate({_n(dx)},{_n(dy)})">')
    out.append(f'<g stroke="{GRID_COLOUR}" stroke-width="{_n(r * 0.05)}">')
    for cell in view.cells:
        out.append(_cell_polygon(shapes[cell.at][1], fills.get(cell.terrain, PLAIN_FILL),
                                 cell.at, cell.label, cell.terrain, interactive))
    out.append("</g>")
    highlight = set(view.highlight)
    mark(len(out))
    for cell in view.cells:
        if cell.at in highlight:
            _, corners = shapes[cell.at]
            out.append(
                f'<polygon points="{_points(_shrink(corners, shapes[cell.at][0], 0.92))}" '
                f'fill="none" stroke="{HIGHLIGHT_COLOUR}" stroke-width="{_n(r * 0.14)}" '
                f'stroke-linejoin="round"/>'
            )
    # Clicks on a cell's label or pieces reach the cell itself.
    out.append('<g pointer-events="none">' if interactive else "<g>")
    square = view.topology == "square"
    for cell in view.cells:
        mark(len(out))
        if cell.label or cell.pieces:
            out.extend(_cell_lines(square, cell, shapes[cell.at][0], r, palette,
                                   fills.get(cell.terrain, PLAIN_FILL)))
    mark(len(out))
    out.append("</g>")
    out.append("</g>")

    y = header + (max_y - min_y) + 2 * margin + font * 0.6
    named: set[int] = set()
    for seat, hands in hand_rows:
        out.extend(_hand_row(_hand_name(view, seat), seat, tuple(hands), margin, y, font,
                             palette, interactive, seat not in named))
        named.add(seat)
        y += font * 1.9
    y += (margin * 0.5 if hand_rows else 0.0) + font * 0.4
    for line in caption:
        out.append(_text(margin, y, line, font * 0.85))
        y += font * 1.45
    out.append("</svg>")
    return out


def _no_mark(index: int) -> None:
    pass


# -- geometry ------------------------------------------------------------------------------
Point = tuple[float, float]


# A server draws the same cells of many games after every move: a cell's shape, polygon
# and contents are pure functions of a few hashable values, so each is made once (the
# caches are bounded; the pictures are the same byte for byte).
#: Cells (shapes, polygons, contents) remembered by each cache.
CELLS_CACHED = 1 << 15


@lru_cache(maxsize=256)
def _frame(topology: str, orientation: str, y_up: bool, cells: tuple[tuple[int, int], ...],
           r: float) -> tuple[dict[tuple[int, int], tuple[Point, tuple[Point, ...]]],
                          tuple[float, float, float, float]]:
    """Each cell's shape and the corners' bounds (x, then y) of a board's cells (the
    same for every position of most games: shared, never changed)."""
    shapes = {at: _shape(topology, orientation, y_up, at, r) for at in cells}
    xs = [x for centre, corners in shapes.values() for x, _ in corners] or [0.0]
    ys = [y for centre, corners in shapes.values() for _, y in corners] or [0.0]
    return shapes, (min(xs), max(xs), min(ys), max(ys))


@lru_cache(maxsize=CELLS_CACHED)
def _shape(topology: str, orientation: str, y_up: bool, at: tuple[int, int], r: float
           ) -> tuple[Point, tuple[Point, ...]]:
    a, b = at
    if topology == "square":
        side = 2 * r
        cx, cy = b * side + r, a * side + r
        return (cx, cy), ((cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r),
                          (cx - r, cy + r))
    if orientation == "flat":
        cx, cy = r * 1.5 * a, r * SQRT3 * (b + a / 2)
        start = 0.0
    else:
        cx, cy = r * SQRT3 * (a + b / 2), r * 1.5 * b
        start = 30.0
    if y_up:
        cy = -cy
    corners = tuple(
        (cx + r * math.cos(math.radians(start + 60 * i)),
         cy + r * math.sin(math.radians(start + 60 * i)))
        for i in range(6)
    )
    return (cx, cy), corners


@lru_cache(maxsize=CELLS_CACHED)
def _cell_polygon(corners: tuple[Point, ...], fill: str, at: tuple[int, int], label: str,
                  terrain: str, interactive: bool) -> str:
    """A cell's polygon, filled by its terrain, with its name as a tooltip."""
    tip = escape(_xml_safe((label or str(at)) + (f" ({terrain})" if terrain else "")))
    data = f' data-cell="{at[0]},{at[1]}"' if interactive else ""
    return (f'<polygon points="{_points(corners)}" fill="{fill}"{data}><title>{tip}</title>'
            "</polygon>")


def _shrink(corners: Sequence[Point], centre: Point, k: float) -> list[Point]:
    cx, cy = centre
    return [(cx + (x - cx) * k, cy + (y - cy) * k) for x, y in corners]


# -- cell contents -------------------------------------------------------------------------
@lru_cache(maxsize=CELLS_CACHED)
def _cell_lines(square: bool, cell: CellView, centre: Point, r: float,
                colours: tuple[str, ...], fill: str) -> tuple[str, ...]:
    return tuple(_cell_contents(square, cell, centre, r, colours, fill))


def _cell_contents(square: bool, cell: CellView, centre: Point, r: float,
                   colours: Sequence[str], fill: str = PLAIN_FILL) -> list[str]:
    out: list[str] = []
    cx, cy = centre
    if cell.label:
        # Black or white, whichever reads better on the terrain: no halo is needed (and
        # renderers without paint-order would draw a halo over the glyphs).
        size = r * (0.3 if square else 0.29)
        ink = label_inks(fill)[0]
        if square:
            out.append(_text(cx - r * 0.9, cy - r * 0.62, cell.label, size, fill=ink))
        else:
            out.append(_text(cx, cy + r * 0.76, cell.label, size, anchor="middle", fill=ink))
    pieces = cell.pieces
    if not pieces:
        return out
    shown = pieces[-MAX_DRAWN_PIECES:]
    if len(pieces) == 1:
        piece = pieces[0]
        colour = _owner_colour(piece.owner, colours)
        base_y = cy - r * 0.06
        out.append(
            f'<circle cx="{_n(cx)}" cy="{_n(base_y)}" r="{_n(r * 0.5)}" fill="{colour}" '
            f'stroke="#222222" stroke-width="{_n(r * 0.05)}"/>'
        )
        out.append(_piece_label(cx, base_y, piece.text, r, colour))
        return out
    rx, ry, step = r * 0.52, r * 0.26, r * (0.22 if square else 0.18)
    base_y = cy + r * 0.18 if not square else cy + r * 0.3
    for i, piece in enumerate(shown):
        y = base_y - i * step
        colour = _owner_colour(piece.owner, colours)
        # A coin seen from the side: its rim below, its face on top.
        out.append(
            f'<ellipse cx="{_n(cx)}" cy="{_n(y + step * 0.45)}" rx="{_n(rx)}" ry="{_n(ry)}" '
            f'fill="{_darker(colour)}" stroke="#222222" stroke-width="{_n(r * 0.04)}"/>'
        )
        out.append(
            f'<ellipse cx="{_n(cx)}" cy="{_n(y)}" rx="{_n(rx)}" ry="{_n(ry)}" fill="{colour}" '
            f'stroke="#222222" stroke-width="{_n(r * 0.04)}"/>'
        )
    top_y = base_y - (len(shown) - 1) * step
    top_colour = _owner_colour(shown[-1].owner, colours)
    out.append(_piece_label(cx, top_y, shown[-1].text, r, top_colour, small=True))
    # Height badge at the upper right.
    bx, by = cx + r * (0.62 if not square else 0.68), cy - r * (0.5 if not square else 0.66)
    out.append(
        f'<circle cx="{_n(bx)}" cy="{_n(by)}" r="{_n(r * 0.24)}" fill="#ffffff" '
        f'stroke="#222222" stroke-width="{_n(r * 0.04)}"/>'
    )
    out.append(_text(bx, by + r * 0.1, str(len(pieces)), r * 0.3, anchor="middle",
                     weight="bold"))
    return out


def _piece_label(cx: float, cy: float, text: str, r: float, colour: str,
                 small: bool = False) -> str:
    if not text:
        return ""
    size = r * (0.36 if small else 0.42)
    if len(text) > 2:
        size *= max(0.45, 2.6 / (len(text) + 0.6))
    ink = "#111111" if _luminance(colour) > 0.6 else "#ffffff"
    return _text(cx, cy + size * 0.36, text, size, anchor="middle", fill=ink, weight="bold")


@lru_cache(maxsize=256)
def label_inks(fill: str) -> tuple[str, str]:
    """The ink of a cell label on a cell of colour ``fill``, and its opposite: black or
    white, whichever contrasts more (at least 4.58:1, above the WCAG 4.5 for text,
    whatever the terrain's colour)."""
    if contrast_ratio("#000000", fill) >= contrast_ratio("#ffffff", fill):
        return "#000000", "#ffffff"
    return "#ffffff", "#000000"


def contrast_ratio(a: str, b: str) -> float:
    """The WCAG contrast ratio of two ``#rrggbb`` colours (1 to 21)."""
    la, lb = _relative_luminance(a), _relative_luminance(b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def _relative_luminance(colour: str) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(int(colour[i:i + 2], 16) / 255) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _owner_colour(owner: int | None, colours: Sequence[str]) -> str:
    if owner is None or owner < 0 or not colours:
        return NEUTRAL_COLOUR
    return colours[owner % len(colours)]


def seat_colours(players: Sequence[str]) -> list[str]:
    """Each seat's colour: a player named after a colour ("Red", "BLUE", "Player Green")
    is drawn in it; the others take the first unused colours of :data:`PLAYER_COLOURS`."""
    named: list[str | None] = []
    for name in players:
        words = re.findall(r"[a-z]+", name.lower())
        named.append(next((NAMED_COLOURS[w] for w in words if w in NAMED_COLOURS), None))
    if len({c for c in named if c}) != len([c for c in named if c]):
        named = [None] * len(players)  # two players share a colour word: ignore the words
    spare = [c for c in PLAYER_COLOURS if c not in named]
    out: list[str] = []
    for colour in named:
        if colour is None:
            colour = spare.pop(0) if spare else PLAYER_COLOURS[len(out) % len(PLAYER_COLOURS)]
        out.append(colour)
    return out


def _luminance(colour: str) -> float:
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b


def _darker(colour: str) -> str:
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{int(c * 0.72):02x}" for c in rgb)


def terrain_fills(view: BoardView) -> dict[str, str]:
    """Each terrain of ``view`` with the colour it is drawn in (the view's own colours,
    then the palette's for terrains it names none for)."""
    fills = {name: colour for name, colour in view.terrain_colours}
    unnamed = sorted({c.terrain for c in view.cells if c.terrain and c.terrain not in fills})
    for i, name in enumerate(unnamed):
        fills[name] = TERRAIN_PALETTE[i % len(TERRAIN_PALETTE)]
    return fills


# -- legend and text -----------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _legend_lines(players: tuple[str, ...], colours: tuple[str, ...], width: float, y: float,
                  font: float) -> tuple[str, ...]:
    return tuple(_legend(players, colours, width, y, font))


def _legend(players: Sequence[str], colours: Sequence[str], width: float, y: float,
            font: float) -> Iterable[str]:
    total = _legend_width(players, font)
    x = (width - total) / 2
    for seat, name in enumerate(players):
        yield (f'<circle cx="{_n(x + font * 0.45)}" cy="{_n(y - font * 0.32)}" '
               f'r="{_n(font * 0.42)}" fill="{_owner_colour(seat, colours)}" stroke="#222222" '
               f'stroke-width="1"/>')
        yield _text(x + font * 1.1, y, name, font * 0.9)
        x += _text_width(name, font * 0.9) + font * 2.2


def _legend_width(players: Sequence[str], font: float) -> float:
    return sum(_text_width(p, font * 0.9) + font * 2.2 for p in players)


def _caption_width(caption: Sequence[str], font: float) -> float:
    return max((_text_width(line, font * 0.85) for line in caption), default=0.0) + font


# -- pieces in hand ------------------------------------------------------------------------
def _hand_rows(view: BoardView) -> list[tuple[int, list[HandView]]]:
    """Each seat's pieces in hand or reserve (seats with none left out), in seat order."""
    rows: dict[int, list[HandView]] = {}
    for hand in view.hands:
        rows.setdefault(hand.seat, []).append(hand)
    return sorted(rows.items())


def _wrapped(view: BoardView, rows: list[tuple[int, list[HandView]]], font: float,
             limit: float) -> list[tuple[int, list[HandView]]]:
    """Each seat's row cut into lines of at most ``limit`` wide (one chip at least)."""
    size = font * 0.8
    out: list[tuple[int, list[HandView]]] = []
    for seat, hands in rows:
        start = _text_width(_hand_name(view, seat) + ":", size) + size
        line: list[HandView] = []
        width = start
        for hand in hands:
            w = _text_width(_chip_text(hand), size) + size * 1.6
            if line and width + w > limit:
                out.append((seat, line))
                line, width = [], start
            line.append(hand)
            width += w
        out.append((seat, line))
    return out


def _hand_name(view: BoardView, seat: int) -> str:
    return view.players[seat] if 0 <= seat < len(view.players) else f"Player {seat + 1}"


def _chip_text(hand: HandView) -> str:
    return f"{hand.label or hand.kind or 'piece'} \u00d7{hand.count}"


def _hands_width(view: BoardView, rows: Sequence[tuple[int, Sequence[HandView]]],
                 font: float) -> float:
    size = font * 0.8
    widest = 0.0
    for seat, hands in rows:
        w = _text_width(_hand_name(view, seat) + ":", size) + size
        w += sum(_text_width(_chip_text(h), size) + size * 1.6 for h in hands)
        widest = max(widest, w)
    return widest


@lru_cache(maxsize=CELLS_CACHED)
def _hand_row(name: str, seat: int, hands: tuple[HandView, ...], x: float, y: float,
              font: float, colours: tuple[str, ...], interactive: bool,
              named: bool = True) -> tuple[str, ...]:
    """``BLUE: [BUTTERFLY ×1] [ANT ×3]``: one chip per kind of piece, in the seat's colour
    (an empty kind is drawn faded); a wrapped line (not ``named``) is indented alike;
    ``name``, the seat's."""
    size = font * 0.8
    colour = _owner_colour(seat, colours)
    name = name + ":"
    out = [_text(x, y + size * 0.35, name, size, weight="bold")] if named else []
    x += _text_width(name, size) + size
    ink = "#111111" if _luminance(colour) > 0.6 else "#ffffff"
    for hand in hands:
        label = _chip_text(hand)
        w = _text_width(label, size) + size
        data = (f' class="hand" data-seat="{hand.seat}" data-kind={quoteattr(hand.kind)}'
                if interactive else "")
        faded = ' opacity="0.35"' if hand.count <= 0 else ""
        out.append(
            f'<g{data}{faded}><rect x="{_n(x)}" y="{_n(y - size * 0.75)}" width="{_n(w)}" '
            f'height="{_n(size * 1.5)}" rx="{_n(size * 0.5)}" fill="{colour}" '
            f'stroke="#222222" stroke-width="1"/>'
            f'{_text(x + w / 2, y + size * 0.35, label, size, anchor="middle", fill=ink)}</g>'
        )
        x += w + size * 0.6
    return tuple(out)


def _text_width(text: str, size: float) -> float:
    return len(text) * size * 0.6


def _text(x: float, y: float, text: str, size: float, *, anchor: str = "start",
          fill: str = TEXT_COLOUR, weight: str = "normal", halo: str = "") -> str:
    weight_attr = f' font-weight="{weight}"' if weight != "normal" else ""
    anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
    # A light outline under the glyphs keeps small labels readable on dark terrain.
    halo_attr = (f' stroke="{halo}" stroke-opacity="0.75" stroke-width="{_n(size * 0.22)}" '
                 f'paint-order="stroke" stroke-linejoin="round"') if halo else ""
    return (f'<text x="{_n(x)}" y="{_n(y)}" font-size="{_n(size)}" fill={quoteattr(fill)}'
            f"{anchor_attr}{weight_attr}{halo_attr}>{escape(_xml_safe(text))}</text>")


def _xml_safe(text: str) -> str:
    # XML 1.0 forbids most control characters even when escaped.
    return "".join(ch for ch in text if ch in "\t\n" or ord(ch) >= 32)


def _points(corners: Iterable[Point]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in corners)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return text[:-2] if text.endswith(".0") else text
