"""Pictures of a Hive position: text for terminals and a BoardView for the SVG renderer.

The text draws pointy-topped hexes in rows of equal r (north at the top, as in the UHP
directions): hex (q, r) sits at half-column 2q + r, so each hex's six neighbours surround
it as on the board. A hex shows its top piece (``wQ``, ``bB1``) with ``^n`` for a stack of
n pieces; ``.`` marks an empty hex next to the hive. Stacks are listed under the board,
bottom first. A picture wider than the terminal is cut into strips of whole hexes.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable
from functools import cache
from typing import Protocol

from hexaround.hexgrid import coords_of, key_of

from hexkit.game import Outcome
from hexkit.kit.view import BoardView, CellView, HandView, PieceView
from hexkit.render.text import LAST, TARGET, StyledText, seat_role
from hive.engine import BUG_NAMES, LETTERS, ONGOING, HiveEngine
from hive.notation import game_type_string, turn_string


class HivePosition(Protocol):
    """What the pictures read of a position: a :class:`hive.game.HiveState`, which this
    module cannot name (the game module imports this one)."""

    engine: HiveEngine

    def last_hexes(self) -> tuple[tuple[int, int], ...]: ...

    def outcome(self) -> Outcome | None: ...

WIDTH = 80
_HALF = 3  # characters per half-column; a hex is two half-columns wide
_SLOT = 2 * _HALF
_COLOUR = ("White", "Black")


def _token(engine: HiveEngine, stack: list[int]) -> str:
    text = engine.code_name[stack[-1]]
    if len(stack) > 1:
        text += f"^{len(stack)}"
    return text


def board_lines(state: HivePosition, width: int = WIDTH,
                placed: list[tuple[int, int, int, tuple[int, int]]] | None = None) -> list[str]:
    """The hive and the empty hexes around it as text lines of at most ``width``.
    ``placed`` gets where each hex's token is drawn: (line, first column, end column,
    (q, r))."""
    engine = state.engine
    cells: dict[tuple[int, int], str] = {}
    for key, stack in engine.stacks.items():
        cells[coords_of(key)] = _token(engine, stack)
    for key in engine.nmask:
        if key not in engine.occ:
            cells.setdefault(coords_of(key), ".")
    if not cells:
        return []
    cols = {qr: 2 * qr[0] + qr[1] for qr in cells}
    cmin, cmax = min(cols.values()), max(cols.values())
    per_strip = max(2, (width - _SLOT) // _HALF + 1)
    strips = range(cmin, cmax + 1, per_strip)
    out: list[str] = []
    for n, c0 in enumerate(strips):
        part = {qr: t for qr, t in cells.items() if c0 <= cols[qr] < c0 + per_strip}
        if not part:
            continue
        if len(strips) > 1:
            out.append(f"[part {n + 1} of {len(strips)}]")
        rows: dict[int, list[tuple[int, int]]] = {}
        for qr in part:
            rows.setdefault(qr[1], []).append(qr)
        for r in sorted(rows):
            line = [" "] * (per_strip * _HALF + _SLOT)
            for qr in rows[r]:
                at = (cols[qr] - c0) * _HALF
                token = part[qr]
                start = at + (_SLOT - 1 - len(token)) // 2
                line[start:start + len(token)] = token
                if placed is not None:
                    placed.append((len(out), start, start + len(token), qr))
            out.append("".join(line).rstrip())
    return out


def status(state: HivePosition) -> str:
    """``Base+MLP, Black to play (Black[3])`` or the result."""
    engine = state.engine
    head = game_type_string(engine)
    if engine.result != ONGOING:
        outcome = state.outcome()
        assert outcome is not None
        if outcome.is_draw:
            return f"{head}: game over, a draw ({outcome.reason})."
        return f"{head}: game over, {_COLOUR[outcome.winners[0]]} wins ({outcome.reason})."
    p = engine.to_move
    text = f"{head}: {_COLOUR[p]} to play ({turn_string(engine)})"
    if engine.actions[p] == 3 and engine.bpos[p] is None:
        text += "; the Queen Bee must be placed now"
    if engine.last >= 0:
        text += f"; {engine.code_name[engine.last]} moved last and is frozen"
    return text + "."


def hand_text(state: HivePosition, p: int) -> str:
    """``White in hand: Q, S1 S2, B1 B2, ...`` (nothing: ``empty``)."""
    engine = state.engine
    names = [engine.code_name[k * 2 + p] for k in range(len(engine.kind_types))
             if engine.hands[p][k]]
    return f"{_COLOUR[p]} in hand: {' '.join(names) if names else 'empty'}"


_LEGEND = ("^n = n pieces on the hex (top piece shown); . = empty hex next to the hive. "
           "Q Queen Bee, S Spider, B Beetle, G Grasshopper, A Soldier Ant, M Mosquito, "
           "L Ladybug, P Pillbug.")


@cache
def _legend_lines(width: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(_LEGEND, width - 2))


def _wrap(text: str, width: int) -> list[str]:
    """Split at spaces into lines of at most ``width`` (later lines indented by two)."""
    if len(text) <= width:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent="  ")


def render_styled(state: HivePosition, targets: Iterable[tuple[int, int]] = (),
                  width: int = WIDTH) -> StyledText:
    """:func:`render_text` with each stack's top piece in its colour, the hexes of the last
    action and ``targets`` marked, and the players' hands coloured."""
    engine = state.engine
    styled = StyledText(render_text(state, width))
    placed: list[tuple[int, int, int, tuple[int, int]]] = []
    board = board_lines(state, width, placed)
    last, wanted = set(state.last_hexes()), set(targets)
    for line, start, end, qr in placed:
        stack = engine.stacks.get(key_of(*qr))
        if stack:
            styled.mark(2 + line, start, end, seat_role(stack[-1] & 1))
        if qr in last:
            styled.mark(2 + line, start, end, LAST)
        if qr in wanted:
            styled.mark(2 + line, start, end, TARGET)
    for i in range(2 + len(board), len(styled.lines)):
        for p, colour in enumerate(_COLOUR):
            if styled.lines[i].startswith(f"{colour} in hand:"):
                styled.mark(i, 0, len(colour), seat_role(p))
    return styled


def render_text(state: HivePosition, width: int = WIDTH) -> str:
    """Status, board, stacks and hands."""
    engine = state.engine
    lines = [status(state), ""]
    board = board_lines(state, width)
    if board:
        lines.extend(board)
        lines.append("")
        stacks = []
        for key in sorted(engine.stacks, key=coords_of):
            s = engine.stacks[key]
            if len(s) > 1:
                stacks.append(" < ".join(engine.code_name[c] for c in s))
        if stacks:
            lines.extend(_wrap("Stacks, bottom first: " + "; ".join(stacks), width - 2))
        lines.extend(_legend_lines(width))
    else:
        lines.append("The board is empty: White's first piece goes on the origin "
                     "(write it alone, e.g. 'wS1'; not the Queen).")
    lines.append("")
    for p in (0, 1):
        lines.extend(_wrap(hand_text(state, p), width - 2))
    return "\n".join(lines)


def board_view(state: HivePosition) -> BoardView:
    """Stacks (bottom first, each piece labelled with its bug and number; a stack's label
    names the pieces under its top), the empty hexes next to the hive (where moves may
    end), and the hands."""
    engine = state.engine
    cells = []
    for key in sorted(engine.stacks, key=coords_of):
        stack = engine.stacks[key]
        pieces = tuple(PieceView(c & 1, engine.code_name[c][1:]) for c in stack)
        # The pieces under the top one, bottom first (the discs show the top one's name).
        label = ",".join(engine.code_name[c] for c in stack[:-1])
        cells.append(CellView(coords_of(key), label, "", pieces))
    empty = sorted((k for k in engine.nmask if k not in engine.occ), key=coords_of)
    if not engine.stacks:
        empty = [0]
    cells.extend(CellView(coords_of(k)) for k in empty)
    hands: list[HandView] = []
    for p in (0, 1):
        counts: dict[int, int] = {}
        for k, t in enumerate(engine.kind_types):
            if engine.hands[p][k]:
                counts[t] = counts.get(t, 0) + 1
        hands.extend(HandView(p, LETTERS[t], n, BUG_NAMES[t]) for t, n in counts.items())
    caption = (status(state), hand_text(state, 0), hand_text(state, 1))
    return BoardView("hex", tuple(cells), _COLOUR, "pointy", state.last_hexes(), caption,
                     (), tuple(hands))
