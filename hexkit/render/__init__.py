"""Pictures of positions drawn from a game-neutral :class:`~hexkit.kit.view.BoardView`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hexkit.render.svg import render_svg

if TYPE_CHECKING:
    from hexkit.game import State

__all__ = ["render_state_svg", "render_svg"]


def render_state_svg(state: State, *, cell_size: float = 30.0, title: str = "",
                     interactive: bool = False) -> str:
    """The SVG picture of a game's position; a finished game says who won and why."""
    from hexkit.game import result_text

    return render_svg(state.view(), cell_size=cell_size, title=title,
                      result=result_text(state), interactive=interactive)
