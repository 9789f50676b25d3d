"""A plain-text drawing of any :class:`~hexkit.view.BoardView`: the default ``render()`` of
a game that only implements ``view()``.

Square boards are drawn as a grid; hex boards row by row (axial ``r``), each row shifted
half a cell per row so that neighbours stay next to each other. Each cell shows its top
piece's text, or ``.`` when empty; stacks show their height after the top piece.
"""

from __future__ import annotations

from hexkit.view import BoardView, CellView


def _cell_text(cell: CellView) -> str:
    if not cell.pieces:
        return "."
    top = cell.pieces[-1].text or "?"
    return top if len(cell.pieces) == 1 else f"{top}{len(cell.pieces)}"


def render_view_text(view: BoardView) -> str:
    """The board, then the caption lines."""
    lines: list[str] = []
    if view.cells:
        width = max(len(_cell_text(c)) for c in view.cells) + 1
        by_row: dict[int, dict[int, CellView]] = {}
        for cell in view.cells:
            row, col = (cell.at[1], cell.at[0]) if view.topology == "hex" else cell.at
            by_row.setdefault(row, {})[col] = cell
        cols = [col for row in by_row.values() for col in row]
        low = min(cols)
        top_row = min(by_row)
        for row in sorted(by_row):
            # Axial hex rows lean: shifting each row by half a cell keeps columns aligned.
            shift = (row - top_row) * width // 2 if view.topology == "hex" else 0
            cells = by_row[row]
            text = "".join(
                (_cell_text(cells[c]) if c in cells else "").ljust(width)
                for c in range(low, max(cells) + 1)
            )
            lines.append((" " * shift + text).rstrip())
    lines.extend(view.caption)
    return "\n".join(lines)
