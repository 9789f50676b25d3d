"""A Focus variant in words (:meth:`focus.game.Focus.describe`): the board, the seats and
their colours, how stacks move and overflow, the reserve, how the game is won, and the
notation of moves and of the text board."""

from __future__ import annotations

import textwrap

from focus.notation import MOVE_HELP
from focus.rules import FocusRules

WIDTH = 78


def describe(rules: FocusRules) -> str:
    """The rules of the variant and options in ``rules``, for someone learning them."""
    variant = rules.variant
    seats = ", ".join(f"{name} ({letter})" for name, letter in zip(rules.names, rules.letters,
                                                                    strict=True))
    how_far = ("exactly as many squares as pieces moved" if rules.exact
               else "up to as many squares as pieces moved")
    paragraphs = [
        f"Focus on the {variant.name} board ({len(rules.squares)} squares, "
        f"{variant.description}). Players: {seats}.",
        "A stack belongs to the player whose piece is on top. On your turn either move "
        f"the top 1 to n pieces of one of your stacks of n, {how_far}, in a straight line "
        "up, down, left or right, jumping over anything between, onto any square (empty or "
        "not, where they go on top); or enter one piece from your reserve on top of any "
        "square.",
        f"A stack taller than {rules.max_height} loses pieces from the bottom: your own go to "
        "your reserve, the others' are captured by you.",
    ]
    if rules.first_turn_on_empty:
        paragraphs.append("On your first turn you enter your reserve piece on an empty "
                          "square.")
    if rules.win_by_captures:
        paragraphs.append(f"The first player to capture {rules.captures_to_win} pieces "
                          "wins.")
    else:
        paragraphs.append("A player who has no stack on top and no piece in reserve is out; "
                          "the last player able to move wins.")
    if rules.start_reserve:
        many = "piece" if rules.start_reserve == 1 else "pieces"
        paragraphs.append(f"Each player starts with {rules.start_reserve} {many} in reserve.")
    out: list[str] = []
    for text in paragraphs:
        out += textwrap.wrap(text, WIDTH)
        out.append("")
    out += MOVE_HELP.splitlines()
    out.append("")
    example = rules.letters[0] + rules.letters[1 % len(rules.letters)]
    out += textwrap.wrap(
        f"The text board shows each stack bottom to top with its height: '{example}:2' is "
        f"{rules.names[0]} at the bottom and {rules.names[1 % len(rules.names)]} on top "
        "(that player's stack); '.' is an empty square. Under it, each player's reserve, "
        "captures and stacks on top, '(out)' for a player who is out.", WIDTH)
    return "\n".join(out)
