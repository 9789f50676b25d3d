"""Drawing the grid as text: the skeleton's exact drawing, and a wider one with tile numbers.

Tiles are drawn row by row in index order: ``size`` rows of ``size / 2`` tiles, even rows
(x = 0, 2, 4...) and odd rows (x = 1, 3, 5..., drawn half a hex lower) alternating.
"""

from __future__ import annotations

from collections.abc import Sequence


def classic_grid(size: int, cells: Sequence[str]) -> str:
    """The skeleton's ``GetGridAsString`` for an even ``size``: ``cells[i]`` is tile i's
    terrain string followed by its piece letter (or a space).

    The text starts with a line break and ends with the bottom line's line break; the
    skeleton prints it with ``print``, which adds one more.
    """
    h = size // 2
    parts = ["\n", "  " + "__    " * h, "\n"]
    i = 0
    for row in range(size):
        row_cells = cells[i:i + h]
        i += h
        if row % 2 == 0:
            end = "\\__" if row == 0 else "\\__/"
            parts.append(" /" + "\\__/".join(row_cells) + end + "\n")
        elif h == 1:
            # The skeleton's odd-row code closes a one-tile row with an extra "\__/".
            parts.append(" \\__/" + row_cells[0] + "\\__/\\\n")
        else:
            parts.append(" \\__/" + "\\__/".join(row_cells) + "\\\n")
    parts.append("   " + " \\__/ " * h + "\n")
    return "".join(parts)


def wide_grid(size: int, cells: Sequence[str], width: int) -> list[str]:
    """The same drawing with cells ``width`` characters wide (every cell must be exactly
    that wide), as lines without trailing spaces."""
    h = size // 2
    bar = "_" * width
    sep = "\\" + bar + "/"
    lines = ["  " + (bar + " " * (width + 2)) * h]
    i = 0
    for row in range(size):
        row_cells = cells[i:i + h]
        i += h
        if row % 2 == 0:
            end = "\\" + bar if row == 0 else sep
            lines.append(" /" + sep.join(row_cells) + end)
        else:
            lines.append(" " + sep + sep.join(row_cells) + "\\")
    lines.append(" " * (width + 2) + (sep + " " * width) * h)
    return [line.rstrip() for line in lines]


def numbered_cells(terrain: Sequence[str], letters: Sequence[str]) -> tuple[list[str], int]:
    """Cells showing terrain, piece letter and tile number (right-aligned), and their width."""
    digits = len(str(len(terrain) - 1))
    cells = [
        (t[:1] or " ") + letter + str(i).rjust(digits)
        for i, (t, letter) in enumerate(zip(terrain, letters, strict=True))
    ]
    return cells, digits + 2


def tile_number_map(size: int, tiles: int) -> list[str]:
    """Only the tile numbers, laid out as on the grid (the 'grid with tile numbers' view)."""
    width = max(2, len(str(tiles - 1)))
    return wide_grid(size, [str(i).rjust(width) for i in range(tiles)], width)
