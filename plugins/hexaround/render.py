"""Pictures of a HexAround position: ASCII text for terminals and a BoardView for renderers.

The text picture draws pointy-topped hexes in rows of equal y, larger y on top; hex (x, y)
sits at half-column 2x + y, so the six neighbours surround it as on the board. Each hex
shows ``B-CRA`` (owner, creature code) with ``^2`` for a stack of two, and its coordinates
underneath; ``.`` marks the empty hexes next to the colony. A picture wider than 80
columns is cut into strips of whole hexes.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from hexaround.config import PLAYERS
from hexaround.engine import coords_of
from hexkit.view import BoardView, CellView, HandView, PieceView

if TYPE_CHECKING:
    from hexaround.game import HexAroundState

WIDTH = 80
_HALF = 4  # characters per half-column; a hex is two half-columns wide
_SLOT = 2 * _HALF


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


def _token(stack: list[tuple[str, str]], codes: dict[str, str]) -> str:
    name, owner = stack[-1]
    text = f"{owner[0]}-{codes[name]}"
    if len(stack) > 1:
        text += f"^{len(stack)}"
    return text


def board_lines(state: HexAroundState, width: int = WIDTH) -> list[str]:
    """The colony (and the empty hexes around it) as text lines of at most ``width``."""
    engine = state.engine
    codes = creature_codes(engine.names)
    cells: dict[tuple[int, int], str] = {}
    for key in engine.stacks:
        x, y = coords_of(key)
        cells[(x, y)] = _token(state.stack_at(x, y), codes)
    for key in engine.nmask:
        if key not in engine.occ:
            cells.setdefault(coords_of(key), ".")
    if not cells:
        return []
    cols = {xy: 2 * xy[0] + xy[1] for xy in cells}
    cmin, cmax = min(cols.values()), max(cols.values())
    per_strip = max(2, (width - _SLOT) // _HALF + 1)
    out: list[str] = []
    strips = range(cmin, cmax + 1, per_strip)
    for n, c0 in enumerate(strips):
        part = {xy: t for xy, t in cells.items() if c0 <= cols[xy] < c0 + per_strip}
        if not part:
            continue
        if len(strips) > 1:
            out.append(f"[part {n + 1} of {len(strips)}]")
        ys = sorted({y for _, y in part}, reverse=True)
        for y in ys:
            row = sorted((xy for xy in part if xy[1] == y), key=lambda xy: cols[xy])
            top = [" "] * (per_strip * _HALF + _SLOT)
            bottom = list(top)
            for xy in row:
                at = (cols[xy] - c0) * _HALF
                _write(top, at, part[xy].center(_SLOT - 1))
                _write(bottom, at, f"{xy[0]},{xy[1]}".center(_SLOT - 1))
            out.append("".join(top).rstrip())
            out.append("".join(bottom).rstrip())
    return out


def _write(line: list[str], at: int, text: str) -> None:
    for i, ch in enumerate(text):
        if 0 <= at + i < len(line) and ch != " ":
            line[at + i] = ch


def render_text(state: HexAroundState, width: int = WIDTH) -> str:
    """The whole picture: status, board, legend, stacks and hands."""
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
            f"the colony. {legend}", width - 2))
        stacks = []
        for key in sorted(engine.stacks, key=coords_of):
            if len(engine.stacks[key]) > 1:
                x, y = coords_of(key)
                inside = ", ".join(f"{p} {c}" for c, p in state.stack_at(x, y))
                stacks.append(f"({x}, {y}): {inside}")
        if stacks:
            lines.extend(textwrap.wrap("Stacks, bottom first: " + "; ".join(stacks),
                                       width - 2, subsequent_indent="  "))
    else:
        lines.append("")
        lines.append("The board is empty: BLUE's first creature may go on any hex "
                     "(e.g. place BUTTERFLY 0 0).")
    lines.append("")
    for p, player in enumerate(PLAYERS):
        hand = ", ".join(f"{n} {engine.hands[p][i]}" for i, n in enumerate(engine.names)
                         if engine.hands[p][i])
        lines.extend(textwrap.wrap(f"{player} hand: {hand or 'empty'}", width - 2,
                                   subsequent_indent="  "))
    return "\n".join(lines)


def _status(state: HexAroundState) -> str:
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


def board_view(state: HexAroundState) -> BoardView:
    """Occupied hexes with their stacks (pieces labelled by creature code) and the empty
    hexes next to them, larger y on top
    as in the text picture, and each player's hand by creature name (the origins of
    placements in a browser)."""
    engine = state.engine
    codes = creature_codes(engine.names)
    cells = []
    for key in sorted(engine.stacks, key=coords_of):
        x, y = coords_of(key)
        pieces = tuple(PieceView(PLAYERS.index(p), codes[c]) for c, p in state.stack_at(x, y))
        cells.append(CellView((x, y), f"{x},{y}", "", pieces))
    # The empty hexes next to the colony (the text picture's dots) are where creatures
    # can go: cells to click. On an empty board, the hexes the first creature may take.
    empty = {coords_of(key) for key in engine.nmask if key not in engine.occ}
    if not engine.stacks:
        empty.update(g.target for g in map(state.gesture, state.legal_moves())
                     if g is not None and g.target is not None)
    cells.extend(CellView(xy, f"{xy[0]},{xy[1]}") for xy in sorted(empty))
    caption = [_status(state)]
    hands = []
    for p, player in enumerate(PLAYERS):
        held = [(n, engine.hands[p][i]) for i, n in enumerate(engine.names) if engine.hands[p][i]]
        hands.extend(HandView(p, n, count, n) for n, count in held)
        if not held:
            caption.append(f"{player} hand: empty")
    return BoardView("hex", tuple(cells), PLAYERS, "pointy", tuple(state.last_hexes()),
                     tuple(caption), hands=tuple(hands), y_up=True)
