"""Pictures of positions drawn from a game-neutral :class:`~hexkit.view.BoardView`."""

from hexkit.render.svg import render_svg

__all__ = ["render_svg"]
