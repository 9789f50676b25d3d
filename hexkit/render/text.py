"""Text pictures of positions: :class:`StyledText` (plain text whose runs carry what they
show, so that a terminal with colour can colour owners, the last move and highlighted
targets), and a drawing of any :class:`~hexkit.view.BoardView`, the default ``render()``
of a game that only implements ``view()``.

Square boards are drawn as a grid; hex boards row by row (axial ``r``), each row shifted
half a cell per row so that neighbours stay next to each other. Each cell shows its top
piece's text, or ``.`` when empty; stacks show their height after the top piece. When the
cells have labels (coordinates, tile numbers), each row of cells has a row of labels under
it, so that what is typed can be read off the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from hexkit.view import BoardView, CellView

#: Roles of runs of text, beside ``seat:N`` (a piece or name of seat N): the cells of the
#: last move, cells a player asked about (targets of ``moves WHERE``), and quiet text
#: (coordinates).
LAST, TARGET, LABEL = "last", "target", "label"

Cell = tuple[int, int]


def seat_role(seat: int | None) -> str:
    """The role of a run of text owned by ``seat`` (``""`` for nobody)."""
    return "" if seat is None else f"seat:{seat}"


@dataclass
class StyledText:
    """Lines of runs ``(text, roles)``; ``roles`` is a space-separated set of roles (``""``
    for plain text). ``str()`` is the plain text, exactly as the game draws it without
    colour."""

    lines: list[list[tuple[str, str]]] = field(default_factory=list)

    def __str__(self) -> str:
        return "\n".join("".join(text for text, _ in line) for line in self.lines)

    def add(self, text: str, roles: str = "") -> None:
        """Append plain or styled lines (``text`` may hold several)."""
        for line in text.split("\n"):
            self.lines.append([(line, roles)] if line else [])

    def extend(self, other: StyledText) -> None:
        """Append the lines of ``other``."""
        self.lines.extend(other.lines)

    @classmethod
    def plain(cls, text: str) -> StyledText:
        """``text`` without any role."""
        styled = cls()
        styled.add(text)
        return styled


class Canvas:
    """A line of characters drawn at columns, each with its roles; :meth:`runs` gives the
    line as runs of equal roles, without trailing spaces (as ``str.rstrip``)."""

    def __init__(self, width: int = 0) -> None:
        self.chars: list[str] = [" "] * width
        self.roles: list[str] = [""] * width

    def write(self, at: int, text: str, roles: str = "", *, over_spaces: bool = True) -> None:
        """Put ``text`` at column ``at`` (the line grows as needed). With
        ``over_spaces`` False, a space in ``text`` leaves what is there."""
        end = at + len(text)
        if end > len(self.chars):
            grow = end - len(self.chars)
            self.chars += [" "] * grow
            self.roles += [""] * grow
        for i, ch in enumerate(text):
            if at + i < 0 or (ch == " " and not over_spaces):
                continue
            self.chars[at + i] = ch
            self.roles[at + i] = roles

    def mark(self, start: int, end: int, role: str) -> None:
        """Add ``role`` to the columns ``start`` to ``end`` (not included)."""
        for i in range(max(0, start), min(end, len(self.chars))):
            self.roles[i] = f"{self.roles[i]} {role}".strip()

    def runs(self) -> list[tuple[str, str]]:
        """The line as runs of equal roles, trailing spaces removed."""
        size = len("".join(self.chars).rstrip())
        out: list[tuple[str, str]] = []
        for ch, role in zip(self.chars[:size], self.roles[:size], strict=True):
            if out and out[-1][1] == role:
                out[-1] = (out[-1][0] + ch, role)
            else:
                out.append((ch, role))
        return out


def _cell_text(cell: CellView) -> str:
    if not cell.pieces:
        return "."
    top = cell.pieces[-1].text or "?"
    return top if len(cell.pieces) == 1 else f"{top}{len(cell.pieces)}"


def render_view_text(view: BoardView) -> str:
    """The board, then the caption lines."""
    return str(render_view_styled(view))


def render_view_styled(view: BoardView, targets: Iterable[Cell] = ()) -> StyledText:
    """:func:`render_view_text` with its runs marked: pieces by owner, the view's
    highlighted cells as the last move, ``targets`` as targets, labels as labels."""
    styled = StyledText()
    if view.cells:
        styled.lines.extend(_board_lines(view, set(view.highlight), set(targets)))
    for line in view.caption:
        styled.add(line)
    return styled


def _board_lines(view: BoardView, last: set[Cell], targets: set[Cell]
                 ) -> list[list[tuple[str, str]]]:
    labelled = any(cell.label for cell in view.cells)
    width = max(len(_cell_text(c)) for c in view.cells) + 1
    if labelled:  # room for a label under each cell, and a space between two labels
        width = max(width, max(len(c.label) for c in view.cells) + 1)
    by_row: dict[int, dict[int, CellView]] = {}
    for cell in view.cells:
        row, col = (cell.at[1], cell.at[0]) if view.topology == "hex" else cell.at
        by_row.setdefault(row, {})[col] = cell
    low = min(col for row in by_row.values() for col in row)
    top_row = min(by_row)
    lines = []
    for row in sorted(by_row):
        # Axial hex rows lean: shifting each row by half a cell keeps columns aligned.
        shift = (row - top_row) * width // 2 if view.topology == "hex" else 0
        cells = by_row[row]
        pieces, labels = Canvas(), Canvas()
        for col in range(low, max(cells) + 1):
            cell = cells.get(col)
            if cell is None:
                continue
            at = shift + (col - low) * width
            text = _cell_text(cell)
            roles = " ".join(r for r in (
                seat_role(cell.pieces[-1].owner) if cell.pieces else "",
                LAST if cell.at in last else "", TARGET if cell.at in targets else "") if r)
            if labelled:
                pieces.write(at + (width - len(text)) // 2, text, roles)
                labels.write(at + (width - len(cell.label)) // 2, cell.label, LABEL)
            else:
                pieces.write(at, text, roles)
        lines.append(pieces.runs())
        if labelled:
            lines.append(labels.runs())
    return lines
