"""Pictures of a Hex Baron position: the skeleton's exact grid, the wider grid with tile
numbers, the players' status lines, and the :class:`~hexkit.kit.view.BoardView` for renderers.

Tiles are drawn row by row in index order: ``size`` rows of ``size / 2`` tiles, even rows
(x = 0, 2, 4...) and odd rows (x = 1, 3, 5..., drawn half a hex lower) alternating. In the
view, tile ``(x, y, z)`` is the flat-topped hex at axial ``(x, z)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from hexbaron.catalogue import FUEL, LUMBER, SUPPLY, Catalogue
from hexbaron.notation import Command
from hexbaron.position import Position
from hexbaron.rules import COMMANDS_PER_TURN, SPAWN_TYPE
from hexkit.kit.view import BoardView, CellView, HandView, PieceView
from hexkit.render.text import LAST, TARGET, StyledText, seat_role


class Options(Protocol):
    """What the pictures read of the game (a :class:`hexbaron.game.HexBaronGame`)."""

    show_ids: bool


class BaronPosition(Protocol):
    """What the pictures read of a position: a :class:`hexbaron.game.HexBaronState`, which
    this module cannot name (the game module imports this one)."""

    catalogue: Catalogue
    pos: Position
    notes: list[tuple[int, Command, str]]

    @property
    def game(self) -> Options: ...

    @property
    def move_stack(self) -> Sequence[Command]: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    def is_over(self) -> bool: ...


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


def letters(state: BaronPosition) -> list[str]:
    """Each tile's piece letter (upper case Player One, lower case Player Two) or ' '."""
    types = state.catalogue.pieces
    out = []
    for p in state.pos.pieces:
        if p is None:
            out.append(" ")
        else:
            letter = types[p.kind].letter
            out.append(letter if p.owner == 0 else letter.lower())
    return out


def grid_lines(state: BaronPosition, show_ids: bool) -> list[str]:
    """The grid drawing, with tile numbers in each hex unless ``show_ids`` is False."""
    pos = state.pos
    marks = letters(state)
    if show_ids:
        cells, width = numbered_cells(pos.terrain, marks)
    else:
        cells = [(t[:1] or " ") + letter for t, letter in zip(pos.terrain, marks, strict=True)]
        width = 2
    return wide_grid(pos.size, cells, width)


def status_lines(state: BaronPosition) -> list[str]:
    """One line per player: VPs and resources."""
    pos = state.pos
    extra = [r for r in state.catalogue.resources.values()
             if r.name not in (FUEL, LUMBER, SUPPLY)]
    width = max(len(n) for n in pos.names)
    lines = []
    for s in (0, 1):
        res = pos.resources[s]
        parts = [f"VPs {pos.vps[s]}", f"fuel {res.get(FUEL, 0)}",
                 f"lumber {res.get(LUMBER, 0)}", f"pieces in supply {res.get(SUPPLY, 0)}"]
        parts += [f"{r.label.lower()} {res.get(r.name, 0)}" for r in extra]
        lines.append(f"{pos.names[s]:<{width}}  " + "   ".join(parts))
    return lines


def turn_line(state: BaronPosition) -> str:
    """Whose command it is, or the final VPs once the game is over."""
    pos = state.pos
    if state.is_over():
        return f"Final VPs: {pos.names[0]} {pos.vps[0]}, {pos.names[1]} {pos.vps[1]}."
    turn = pos.turns[pos.seat] + 1
    last = " (the last turn)" if pos.baron_lost else ""
    return (f"{pos.names[pos.seat]} to give command {pos.command + 1} of "
            f"{COMMANDS_PER_TURN}, turn {turn}{last}.")


def render_text(state: BaronPosition) -> str:
    """The grid (with tile numbers unless ``show_ids=false``), the players' VPs and
    resources, what the last command did, and whose command it is."""
    lines = grid_lines(state, state.game.show_ids)
    lines.append("")
    lines += status_lines(state)
    if state.notes:
        mover, command, note = state.notes[-1]
        lines.append(f"Last: {state.pos.names[mover]}: {command}: " + note.replace("\n", "; "))
    lines.append(turn_line(state))
    return "\n".join(lines)


def render_styled(state: BaronPosition, targets: Iterable[tuple[int, int]] = ()) -> StyledText:
    """:func:`render_text` with each piece letter in its owner's colour, the tiles of the
    last command and ``targets`` (view cells) marked, and the players' names coloured."""
    styled = StyledText(render_text(state))
    pos = state.pos
    half = pos.size // 2
    width = len(str(pos.n - 1)) + 2 if state.game.show_ids else 2
    last = set(state.move_stack[-1].tiles()) if state.move_stack else set()
    wanted = set(targets)
    for tile in range(pos.n):
        row, k = divmod(tile, half)
        # As wide_grid draws it: " /" and cells joined by "\___/" (2 * width + 2 apart),
        # odd rows one separator further right.
        at = (2 if row % 2 == 0 else width + 3) + k * (2 * width + 2)
        piece = pos.pieces[tile]
        if piece is not None:
            styled.mark(1 + row, at + 1, at + 2, seat_role(piece.owner))
        if tile in last:
            styled.mark(1 + row, at, at + width, LAST)
        if pos.cell(tile) in wanted:
            styled.mark(1 + row, at, at + width, TARGET)
    first = pos.size + 3  # the grid's lines and a blank line
    for seat in (0, 1):
        styled.mark(first + seat, 0, len(pos.names[seat]), seat_role(seat))
    if state.notes:
        mover = state.notes[-1][0]
        styled.mark(first + 2, 6, 6 + len(pos.names[mover]), seat_role(mover))
    return styled


def board_view(state: BaronPosition) -> BoardView:
    """The grid for renderers: flat-topped hexes at axial (x, z), tile numbers as labels,
    and each player's supply of serfs as the hand that spawns come from."""
    pos = state.pos
    terrains = state.catalogue.terrains
    marks = letters(state)
    last = set(state.move_stack[-1].tiles()) if state.move_stack else set()
    cells = []
    highlight = []
    for tile in range(pos.n):
        at = pos.cell(tile)
        t = terrains.get(pos.terrain[tile])
        p = pos.pieces[tile]
        pieces = () if p is None else (PieceView(p.owner, marks[tile]),)
        cells.append(CellView(at, str(tile), t.name if t else pos.terrain[tile], pieces))
        if tile in last:
            highlight.append(at)
    hands = tuple(
        HandView(seat, SPAWN_TYPE, pos.resources[seat].get(SUPPLY, 0), "serfs in supply")
        for seat in (0, 1)
    )
    return BoardView(
        topology="hex", cells=tuple(cells), players=state.players, orientation="flat",
        highlight=tuple(highlight),
        caption=(*status_lines(state), turn_line(state)),
        terrain_colours=tuple((t.name, t.colour) for t in terrains.values()),
        hands=hands,
    )
