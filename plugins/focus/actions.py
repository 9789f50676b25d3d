"""Focus's fixed action space: every stack move of every square, then every reserve entry.

The moves come from the rules' own tables (:class:`focus.rules.MoveTables`), in board
order: for each square, the moves of a stack of the tallest height (every count, every
distance allowed), then one reserve entry per square. The course board has 1,356 actions
(1,320 stack moves and 36 entries), the cross 620 (568 and 52).
"""

from __future__ import annotations

from hexkit.game import Game
from hexkit.kit.actions import TableActionSpace


def action_space(game: Game) -> TableActionSpace:
    """The action space of a Focus game (its rules' move tables)."""
    rules = game.rules  # type: ignore[attr-defined]
    stack = [m for i in range(rules.size) for m in rules.stack_moves[i][rules.max_height]]
    drops = list(rules.drop_moves)
    text = (
        f"{len(stack) + len(drops)} actions: 0..{len(stack) - 1} stack moves (for each "
        f"square in board order, every count 1..{rules.max_height} and every distance the "
        f"rules allow, along each line), {len(stack)}..{len(stack) + len(drops) - 1} a "
        "reserve piece entered on each square in board order."
    )
    return TableActionSpace([*stack, *drops], text)
