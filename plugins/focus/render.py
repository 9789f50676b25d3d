"""Pictures of a Focus position: plain text for terminals and a BoardView for the SVG
renderer. Stacks read bottom to top, left to right, followed by their height."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Protocol

from focus.notation import COLUMNS, ReserveMove, StackMove, square_name
from focus.rules import FocusRules
from hexkit.game import Move, Outcome, describe_outcome
from hexkit.kit.view import BoardView, CellView, HandView, PieceView
from hexkit.render.text import LAST, TARGET, StyledText, seat_role


class FocusPosition(Protocol):
    """What the pictures read of a position: a :class:`focus.game.FocusState`, which this
    module cannot name (the game module imports this one)."""

    @property
    def rules(self) -> FocusRules: ...

    @property
    def turn(self) -> int | None: ...

    def stack(self, i: int) -> Sequence[int]: ...

    def reserve(self, seat: int) -> int: ...

    def captured(self, seat: int) -> int: ...

    def controls(self, seat: int) -> int: ...

    def is_active(self, seat: int) -> bool: ...

    def last_move(self) -> Move | None: ...

    def outcome(self) -> Outcome | None: ...


def _cell_text(state: FocusPosition, i: int) -> str:
    stack = state.stack(i)
    if not stack:
        return "."
    letters = state.rules.letters
    return "".join(letters[s] for s in stack) + f":{len(stack)}"


def _layout(state: FocusPosition) -> tuple[dict[tuple[int, int], str], int, int]:
    """Each square's text, the width of a column, and the width of the row numbers."""
    rules = state.rules
    texts = {sq: _cell_text(state, i) for i, sq in enumerate(rules.squares)}
    width = max(rules.max_height + 3, *(len(t) + 1 for t in texts.values()))
    return texts, width, len(str(rules.variant.rows))


def render_text(state: FocusPosition) -> str:
    """The board with coordinates, one cell per square (``RRG:3`` = R, R, then G on top;
    ``.`` empty), then each player's reserve, captures and controlled stacks."""
    rules = state.rules
    variant = rules.variant
    texts, width, label = _layout(state)
    header = "".join(COLUMNS[c].ljust(width) for c in range(variant.cols))
    lines = [(" " * (label + 2) + header).rstrip()]
    for r in range(variant.rows):
        cells = "".join(texts.get((r, c), "").ljust(width) for c in range(variant.cols))
        lines.append(f"{r + 1:>{label}}  {cells}".rstrip())
    lines.append("")
    lines.extend(_player_lines(state))
    lines.append(_status_line(state))
    return "\n".join(lines)


def render_styled(state: FocusPosition, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
    """:func:`render_text` with each piece of a stack in its owner's colour, the squares of
    the last move and ``targets`` marked, and each player's line in their colour."""
    styled = StyledText(render_text(state))
    texts, width, label = _layout(state)
    last, wanted = set(_highlight(state)), set(targets)
    for i, (r, c) in enumerate(state.rules.squares):
        at = label + 2 + c * width
        for k, seat in enumerate(state.stack(i)):
            styled.mark(1 + r, at + k, at + k + 1, seat_role(seat))
        end = at + len(texts[(r, c)])
        if (r, c) in last:
            styled.mark(1 + r, at, end, LAST)
        if (r, c) in wanted:
            styled.mark(1 + r, at, end, TARGET)
    first = state.rules.variant.rows + 2  # the header, the rows, a blank line
    for seat in range(len(state.rules.names)):
        styled.mark(first + seat, 0, 2 + len(state.rules.names[seat]), seat_role(seat))
    return styled


def _player_lines(state: FocusPosition) -> list[str]:
    rules = state.rules
    name_width = max(len(n) for n in rules.names)
    out = []
    for seat, name in enumerate(rules.names):
        out_note = "" if state.is_active(seat) else "  (out)"
        out.append(
            f"{rules.letters[seat]} {name:<{name_width}}  reserve {state.reserve(seat)}  "
            f"captured {state.captured(seat)}  stacks {state.controls(seat)}{out_note}"
        )
    return out


def _status_line(state: FocusPosition) -> str:
    outcome = state.outcome()
    if outcome is not None:
        return describe_outcome(state.rules.names, outcome)
    rules = state.rules
    if state.turn is None:
        return "Either player may move first."
    seat = state.turn
    return f"To move: {rules.names[seat]} ({rules.letters[seat]})."


def _highlight(state: FocusPosition) -> tuple[tuple[int, int], ...]:
    move = state.last_move()
    if isinstance(move, StackMove):
        return (move.frm, move.to)
    if isinstance(move, ReserveMove):
        return (move.to,)
    return ()


@lru_cache(maxsize=1 << 14)
def _cell(sq: tuple[int, int], stack: tuple[int, ...], letters: tuple[str, ...]) -> CellView:
    # The same few stacks on the same squares, drawn after every move of every game (a
    # server): each cell's view is made once.
    return CellView(sq, square_name(sq), "", tuple(PieceView(s, letters[s]) for s in stack))


def board_view(state: FocusPosition) -> BoardView:
    """The position for game-neutral renderers: one cell per square, pieces bottom first;
    each player's reserve as their hand (where reserve moves start)."""
    rules = state.rules
    letters = tuple(rules.letters)
    cells = tuple(_cell(sq, tuple(state.stack(i)), letters)
                  for i, sq in enumerate(rules.squares))
    caption = tuple(_player_lines(state)) + (_status_line(state),)
    hands = tuple(HandView(seat, "", state.reserve(seat), "reserve")
                  for seat in range(rules.players) if state.is_active(seat))
    return BoardView("square", cells, rules.names, highlight=_highlight(state), caption=caption,
                     hands=hands)
