"""Pictures of positions drawn from a game-neutral :class:`~hexkit.kit.view.BoardView`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from hexkit.kit.view import BoardView
from hexkit.render.svg import render_svg
from hexkit.spec import Outcome, describe_outcome

__all__ = ["render_state_svg", "render_svg"]


class Pictured(Protocol):
    """What a picture needs of a state (every game's ``State`` has it): its view, its seats'
    names and how the game ended. Named here, not as ``State``, so that the state API can
    name the text pictures of this package without a loop between the two."""

    @property
    def players(self) -> Sequence[str]: ...

    def view(self) -> BoardView: ...

    def outcome(self) -> Outcome | None: ...


def render_state_svg(state: Pictured, *, cell_size: float = 30.0, title: str = "",
                     interactive: bool = False) -> str:
    """The SVG picture of a game's position; a finished game says who won and why."""
    outcome = state.outcome()
    result = "" if outcome is None else describe_outcome(state.players, outcome)
    return render_svg(state.view(), cell_size=cell_size, title=title,
                      result=result, interactive=interactive)
