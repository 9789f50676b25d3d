"""Text pictures of positions: :class:`StyledText` (plain text whose runs carry what they
show, so that a terminal with colour can colour owners, the last move and highlighted
targets), and a drawing of any :class:`~hexkit.kit.view.BoardView`, the default ``render()``
of a game that only implements ``view()``.

Square boards are drawn as a grid; hex boards row by row (axial ``r``), each row shifted
half a cell per row so that neighbours stay next to each other. Each cell shows its top
piece's text, or ``.`` when empty; stacks show their height after the top piece. When the
cells have labels (coordinates, tile numbers), each row of cells has a row of labels under
it, so that what is typed can be read off the board.
"""

from __future__ import annotations

from collections.abc import Iterable

from hexkit.kit.view import BoardView, CellView

#: Roles of runs of text, beside ``seat:N`` (a piece or name of seat N): the cells of the
#: last move, cells a player asked about (targets of ``moves WHERE``), and quiet text
#: (coordinates).
LAST, TARGET, LABEL = "last", "target", "label"

Cell = tuple[int, int]


def seat_role(seat: int | None) -> str:
    """The role of a run of text owned by ``seat`` (``""`` for nobody)."""
    return "" if seat is None else f"seat:{seat}"


class StyledText:
    """Lines of plain text whose characters carry roles (``seat:N``, :data:`LAST`...), for
    a terminal that colours them. ``str()`` is the plain text, exactly as the game draws it
    without colour. A game builds it from its plain drawing and marks what it knows
    (:meth:`mark`), so that the plain text stays the game's own."""

    def __init__(self, text: str = "") -> None:
        self.lines: list[str] = []
        self.roles: list[list[str]] = []
        if text:
            self.add(text)

    def __str__(self) -> str:
        return "\n".join(self.lines)

    def add(self, text: str, role: str = "") -> None:
        """Append the lines of ``text``, each character with ``role``."""
        for line in text.split("\n"):
            self.lines.append(line)
            self.roles.append([role] * len(line))

    def add_canvas(self, canvas: Canvas) -> None:
        """Append a canvas's line (trailing spaces removed)."""
        line = "".join(canvas.chars).rstrip()
        self.lines.append(line)
        self.roles.append(canvas.roles[:len(line)])

    def extend(self, other: StyledText) -> None:
        """Append the lines of ``other``."""
        self.lines.extend(other.lines)
        self.roles.extend(other.roles)

    def mark(self, line: int, start: int, end: int, role: str) -> None:
        """Add ``role`` to the characters ``start`` to ``end`` (not included) of line number
        ``line`` (nothing outside the text)."""
        if not 0 <= line < len(self.lines):
            return
        roles = self.roles[line]
        for i in range(max(0, start), min(end, len(roles))):
            roles[i] = f"{roles[i]} {role}".strip()

    def runs(self, line: int) -> list[tuple[str, str]]:
        """Line number ``line`` as runs of characters with equal roles."""
        out: list[tuple[str, str]] = []
        for ch, role in zip(self.lines[line], self.roles[line], strict=True):
            if out and out[-1][1] == role:
                out[-1] = (out[-1][0] + ch, role)
            else:
                out.append((ch, role))
        return out


class Canvas:
    """A line of characters drawn at columns, each with its roles."""

    def __init__(self) -> None:
        self.chars: list[str] = []
        self.roles: list[str] = []

    def write(self, at: int, text: str, roles: str = "") -> None:
        """Put ``text`` at column ``at`` (the line grows as needed)."""
        end = at + len(text)
        if end > len(self.chars):
            grow = end - len(self.chars)
            self.chars += [" "] * grow
            self.roles += [""] * grow
        self.chars[at:end] = list(text)
        self.roles[at:end] = [roles] * len(text)


def _cell_text(cell: CellView) -> str:
    if not cell.pieces:
        return "."
    top = cell.pieces[-1].text or "?"
    return top if len(cell.pieces) == 1 else f"{top}{len(cell.pieces)}"


def render_view_text(view: BoardView) -> str:
    """The board, then the caption lines."""
    return str(render_view_styled(view))


def render_view_styled(view: BoardView, targets: Iterable[Cell] = (),
                       last: Iterable[Cell] | None = None) -> StyledText:
    """:func:`render_view_text` with its runs marked: pieces by owner, ``last`` (default:
    the view's highlighted cells) as the last move, ``targets`` as targets, labels as
    labels."""
    styled = StyledText()
    if view.cells:
        moved = set(view.highlight if last is None else last)
        for canvas in _board_lines(view, moved, set(targets)):
            styled.add_canvas(canvas)
    for line in view.caption:
        styled.add(line)
    return styled


def _board_lines(view: BoardView, last: set[Cell], targets: set[Cell]) -> list[Canvas]:
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
        for col, cell in sorted(cells.items()):
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
        lines.append(pieces)
        if labelled:
            lines.append(labels)
    return lines
