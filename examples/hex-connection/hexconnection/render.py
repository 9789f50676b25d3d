"""Pictures of a Hex position: the text board for terminals, and the BoardView that hexkit's
SVG renderer and browser draw (each player's stones in hand are where moves start).

The functions draw a :class:`hexconnection.game.HexState`. The game module imports this
one, so this one cannot import it: :class:`HexPosition` says what the pictures read of a
state, and a type checker checks that a HexState has it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from hexkit import BoundedHexBoard, Move, Outcome
from hexkit.kit.gestures import Gesture
from hexkit.kit.view import BoardView, CellView, HandView, PieceView

#: How a cell is drawn: '.' empty (-1), else the first letter of its owner's name.
SYMBOLS = {-1: ".", 0: "R", 1: "B"}
EDGE_COLOURS = (("red edge", "#f4cccc"), ("blue edge", "#cfe2f3"), ("corner", "#e1d5e7"))


class HexTables(Protocol):
    """What the pictures read of the game (a HexGame)."""

    size: int
    board: BoundedHexBoard

    @property
    def places(self) -> Sequence[Move]: ...


class HexPosition(Protocol):
    """What the pictures read of a position (a HexState)."""

    stones: list[int]
    swapped: bool

    @property
    def game(self) -> HexTables: ...

    @property
    def move_stack(self) -> Sequence[Move]: ...

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def current_player(self) -> int: ...

    def outcome(self) -> Outcome | None: ...

    def gesture(self, move: Any) -> Gesture: ...


def render_text(state: HexPosition) -> str:
    """The slanted board with its coordinates, then what happened and who is to move."""
    n = state.game.size
    letters = " ".join(str(place)[0] for place in state.game.places[:n])  # a1, b1, c1...
    lines = [f"    {letters}"]
    for r in range(n):
        row = " ".join(SYMBOLS[s] for s in state.stones[r * n:(r + 1) * n])
        lines.append(f"{' ' * r}{r + 1:>2}  {row}  {r + 1}")
    lines.append(f"{' ' * (n + 3)}{letters}")
    lines.append("Red (R) joins top and bottom; Blue (B) joins left and right.")
    lines.extend(_status(state))
    return "\n".join(lines)


def board_view(state: HexPosition) -> BoardView:
    """Cells at axial (q, r) with their names, each player's edges coloured, the last move
    highlighted."""
    game = state.game
    n = game.size
    cells = []
    for i, (q, r) in enumerate(game.board.cells):
        colour = state.stones[i]
        pieces = () if colour < 0 else (PieceView(colour, SYMBOLS[colour]),)
        cells.append(CellView((q, r), str(game.places[i]), _edge(q, r, n), pieces))
    empty = state.stones.count(-1)
    return BoardView(
        topology="hex",
        cells=tuple(cells),
        players=state.players,
        orientation="pointy",
        highlight=_last_cells(state),
        caption=("Red joins top and bottom; Blue joins left and right.", *_status(state)),
        terrain_colours=EDGE_COLOURS,
        hands=tuple(HandView(seat, "stone", empty, "stones") for seat in (0, 1)),
    )


def _edge(q: int, r: int, n: int) -> str:
    red_edge = r in (0, n - 1)
    blue_edge = q in (0, n - 1)
    if red_edge and blue_edge:
        return "corner"
    return "red edge" if red_edge else "blue edge" if blue_edge else ""


def _last_cells(state: HexPosition) -> tuple[tuple[int, int], ...]:
    """The cell the last stone went on; after a swap, also the cell Red's stone left."""
    if not state.move_stack:
        return ()
    target = state.gesture(state.move_stack[-1]).target
    if target is None:  # a swap
        q, r = state.game.board.cells[state.stones.index(1)]
        return ((q, r), (r, q))
    return (target,)


def _status(state: HexPosition) -> list[str]:
    lines = []
    if state.move_stack:
        lines.append(f"Last move: {state.players[1 - state.current_player]} "
                     f"{state.move_stack[-1]}")
    if state.swapped:
        lines.append("Blue took Red's opening stone (swap).")
    outcome = state.outcome()
    if outcome is not None:
        lines.append(f"{state.players[outcome.winners[0]]} wins: {outcome.reason}.")
    else:
        lines.append(f"{state.players[state.current_player]} to move.")
    return lines
