r"""Pictures of a HexAround position: ASCII text for terminals and a BoardView for renderers.

The text picture draws the hexes in rows of equal y, larger y on top (as in the docs and the
SVG); hex (x, y) sits at half-column 2x + y, so its six neighbours surround it as on the
board: (x, y+1) upper right, (x-1, y+1) upper left, (x-1, y) and (x+1, y) beside it,
(x, y-1) lower left, (x+1, y-1) lower right. Each occupied hex is a small hexagon of two
lines holding ``B-CRA`` (owner, creature code, ``^2`` for a stack of two) over its own
coordinates::

    / R-TUR \/ B-CRA \
    \  0,1  /\  1,1  /

``.`` marks the empty hexes next to the colony, with their coordinates too. The picture
takes the terminal's width: when the colony is wider, the empty hexes are left out first,
then it is cut into strips of whole hexes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

from hexaround.config import PLAYERS
from hexaround.engine import Engine
from hexaround.hexgrid import coords_of
from hexkit.game import Move, Outcome
from hexkit.kit.gestures import Gesture
from hexkit.kit.view import BoardView, CellView, HandView, PieceView
from hexkit.render.text import LAST, TARGET, StyledText, seat_role


class HexAroundPosition(Protocol):
    """What the pictures read of a position: a :class:`hexaround.game.HexAroundState`, which
    this module cannot name (the game module imports this one)."""

    engine: Engine

    def stack_at(self, x: int, y: int) -> Sequence[tuple[str, str]]: ...

    def last_hexes(self) -> Sequence[tuple[int, int]]: ...

    def outcome(self) -> Outcome | None: ...

    def legal_moves(self) -> Sequence[Move]: ...

    def gesture(self, move: Any) -> Gesture | None: ...

#: Width when the terminal's is unknown (output to a file or a pipe).
WIDTH = 80
_HALF = 5  # characters per half-column; a hex is two half-columns wide
_SLOT = 2 * _HALF
_INSIDE = _SLOT - 2  # room inside a hexagon's frame

#: How to read the text picture (``help`` shows it with the creatures).
LEGEND = (
    "Each hex shows the owner of its top creature (B- BLUE, R- RED) and the creature's "
    "code, ^n when n creatures are stacked there, and the hex's coordinates x,y under it. "
    "A '.' is an empty hex next to the colony (with its coordinates): where creatures can go.",
    "Larger y is higher up. The six neighbours of (x, y): (x-1, y+1) and (x, y+1) above, "
    "(x-1, y) and (x+1, y) beside, (x, y-1) and (x+1, y-1) below. Type coordinates as "
    "drawn, x then y.",
)


#: The legend is wrapped at most this wide, however wide the terminal (easier to read).
LEGEND_WIDTH = 100


def terminal_width() -> int:
    """The terminal's width (``COLUMNS`` if set), or :data:`WIDTH` when not a terminal."""
    import shutil

    return shutil.get_terminal_size((WIDTH, 24)).columns


def creature_codes(names: tuple[str, ...]) -> dict[str, str]:
    """A distinct code of at most three characters per creature type."""
    codes: dict[str, str] = {}
    taken: set[str] = set()
    for name in names:
        options = [name[:3]]
        options += [name[0] + a + b for i, a in enumerate(name[1:], 1) for b in name[i + 1:]]
        options += [name[:2] + str(d) for d in range(10)]
        options += [name[0] + str(d) for d in range(100)]
        code = next(c for c in options if c not in taken)
        taken.add(code)
        codes[name] = code
    return codes


def _token(stack: Sequence[tuple[str, str]], codes: dict[str, str]) -> str:
    name, owner = stack[-1]
    text = f"{owner[0]}-{codes[name]}"
    if len(stack) > 1:
        text += f"^{len(stack)}"
    return text


def _hexagon(token: str | None, xy: tuple[int, int]) -> tuple[str, str]:
    """The two lines of one hex: a framed hexagon for a stack, a bare dot for an empty hex."""
    where = f"{xy[0]},{xy[1]}"
    if token is None:
        return (" " + ".".center(_INSIDE) + " ", " " + where.center(_INSIDE) + " ")
    return ("/" + token.center(_INSIDE) + "\\", "\\" + where.center(_INSIDE) + "/")


def _span(cells: dict[tuple[int, int], str | None]) -> int:
    """Characters a picture of ``cells`` takes in one strip."""
    cols = [2 * x + y for x, y in cells]
    return (max(cols) - min(cols)) * _HALF + _SLOT


def board_lines(state: HexAroundPosition, width: int | None = None,
                placed: list[tuple[int, int, int, tuple[int, int]]] | None = None) -> list[str]:
    """The colony (and the empty hexes around it) as text lines of at most ``width``
    characters (default: the terminal's width). ``placed`` gets where each hex's token
    (or dot) is drawn: (line, first column, end column, (x, y))."""
    width = terminal_width() if width is None else width
    engine = state.engine
    codes = creature_codes(engine.names)
    cells: dict[tuple[int, int], str | None] = {}
    for key in engine.occupied():
        x, y = coords_of(key)
        cells[(x, y)] = _token(state.stack_at(x, y), codes)
    if not cells:
        return []
    for key in engine.border():
        cells.setdefault(coords_of(key), None)
    if _span(cells) > width:  # the empty hexes go first, then the picture is cut
        cells = {xy: t for xy, t in cells.items() if t is not None}
    cols = {xy: 2 * xy[0] + xy[1] for xy in cells}
    cmin, cmax = min(cols.values()), max(cols.values())
    per_strip = max(2, (width - _SLOT) // _HALF + 1)
    out: list[str] = []
    strips = [c0 for c0 in range(cmin, cmax + 1, per_strip)
              if any(c0 <= c < c0 + per_strip for c in cols.values())]
    for n, c0 in enumerate(strips):
        part = {xy: t for xy, t in cells.items() if c0 <= cols[xy] < c0 + per_strip}
        if len(strips) > 1:
            out.append(f"[part {n + 1} of {len(strips)}]")
        for y in sorted({y for _, y in part}, reverse=True):
            row = sorted((xy for xy in part if xy[1] == y), key=lambda xy: cols[xy])
            top = [" "] * (per_strip * _HALF + _SLOT)
            bottom = list(top)
            for xy in row:
                at = (cols[xy] - c0) * _HALF
                upper, lower = _hexagon(part[xy], xy)
                _write(top, at, upper)
                _write(bottom, at, lower)
                if placed is not None:
                    token = part[xy] or "."
                    start = at + upper.index(token)
                    placed.append((len(out), start, start + len(token), xy))
            out.append("".join(top).rstrip())
            out.append("".join(bottom).rstrip())
    return out


def _write(line: list[str], at: int, text: str) -> None:
    for i, ch in enumerate(text):
        if 0 <= at + i < len(line) and ch != " ":
            line[at + i] = ch


def render_text(state: HexAroundPosition, width: int | None = None) -> str:
    """The whole picture: status, board, legend, stacks and hands (creature names), at most
    ``width`` characters wide (default: the terminal's width)."""
    width = terminal_width() if width is None else width
    engine = state.engine
    lines = [_status(state)]
    board = board_lines(state, width)
    if board:
        lines.append("")
        lines.extend(board)
        lines.append("")
        codes = creature_codes(engine.names)
        legend = "  ".join(f"{codes[n]}={n}" for n in engine.names)
        lines.extend(textwrap.wrap(
            f"B-/R- = BLUE/RED on top, ^n = n creatures on the hex, . = empty hex next to "
            f"the colony, larger y up ('help' says more). {legend}",
            max(20, min(width, LEGEND_WIDTH) - 2)))
        stacks = []
        for key in sorted(engine.occupied(), key=coords_of):
            if engine.height(key) > 1:
                x, y = coords_of(key)
                inside = ", ".join(f"{p} {c}" for c, p in state.stack_at(x, y))
                stacks.append(f"({x}, {y}): {inside}")
        if stacks:
            lines.extend(textwrap.wrap("Stacks, bottom first: " + "; ".join(stacks),
                                       max(20, width - 2), subsequent_indent="  "))
    else:
        lines.append("")
        lines.extend(textwrap.wrap("The board is empty: BLUE's first creature may go on any "
                                   "hex (e.g. place BUTTERFLY 0 0).", max(20, width - 2)))
    lines.append("")
    for p, player in enumerate(PLAYERS):
        hand = ", ".join(f"{n} {engine.in_hand(p, i)}" for i, n in enumerate(engine.names)
                         if engine.in_hand(p, i))
        lines.extend(textwrap.wrap(f"{player} hand: {hand or 'empty'}", max(20, width - 2),
                                   subsequent_indent="  "))
    return "\n".join(lines)


def render_styled(state: HexAroundPosition, targets: Iterable[tuple[int, int]] = (),
                  width: int | None = None) -> StyledText:
    """:func:`render_text` with each stack's top creature in its owner's colour, the hexes
    of the last move and ``targets`` marked, and the players' hands coloured."""
    width = terminal_width() if width is None else width
    text = render_text(state, width)
    styled = StyledText(text)
    placed: list[tuple[int, int, int, tuple[int, int]]] = []
    board = board_lines(state, width, placed)
    last, wanted = set(state.last_hexes()), set(targets)
    for line, start, end, (x, y) in placed:
        roles = []
        stack = state.stack_at(x, y)
        if stack:
            roles.append(seat_role(PLAYERS.index(stack[-1][1])))
        if (x, y) in last:
            roles.append(LAST)
        if (x, y) in wanted:
            roles.append(TARGET)
        for role in roles:
            styled.mark(2 + line, start, end, role)
    for i in range(2 + len(board), len(styled.lines)):
        for p, player in enumerate(PLAYERS):
            if styled.lines[i].startswith(f"{player} hand:"):
                styled.mark(i, 0, len(player), seat_role(p))
    return styled


def _status(state: HexAroundPosition) -> str:
    engine = state.engine
    outcome = state.outcome()
    if outcome is not None:
        if outcome.is_draw:
            return f"Game over: a draw ({outcome.reason})."
        return f"Game over: {PLAYERS[outcome.winners[0]]} wins ({outcome.reason})."
    p = engine.to_move
    text = f"{PLAYERS[p]} to act (turn {engine.turn_number(p)})"
    if engine.under_obligation(p):
        text += ": the BUTTERFLY must be placed now"
    return text + "."


def board_view(state: HexAroundPosition) -> BoardView:
    """Occupied hexes with their stacks (pieces labelled by creature code) and the empty
    hexes next to them, larger y on top as in the text picture, and each player's hand by
    creature name (the origins of placements in a browser; drawn beside the board, so the
    caption says only an empty one)."""
    engine = state.engine
    codes = creature_codes(engine.names)
    cells = []
    for key in sorted(engine.occupied(), key=coords_of):
        x, y = coords_of(key)
        pieces = tuple(PieceView(PLAYERS.index(p), codes[c]) for c, p in state.stack_at(x, y))
        cells.append(CellView((x, y), f"{x},{y}", "", pieces))
    # The empty hexes next to the colony (the text picture's dots) are where creatures
    # can go: cells to click. On an empty board, the hexes the first creature may take.
    empty = {coords_of(key) for key in engine.border()}
    if not engine.occupied():
        empty.update(g.target for g in map(state.gesture, state.legal_moves())
                     if g is not None and g.target is not None)
    cells.extend(CellView(xy, f"{xy[0]},{xy[1]}") for xy in sorted(empty))
    caption = [_status(state)]
    hands: list[HandView] = []
    for p, player in enumerate(PLAYERS):
        held = [(n, engine.in_hand(p, i)) for i, n in enumerate(engine.names)
                if engine.in_hand(p, i)]
        hands.extend(HandView(p, n, count, n) for n, count in held)
        if not held:
            caption.append(f"{player} hand: empty")
    return BoardView("hex", tuple(cells), PLAYERS, "pointy", tuple(state.last_hexes()),
                     tuple(caption), hands=tuple(hands), y_up=True)
