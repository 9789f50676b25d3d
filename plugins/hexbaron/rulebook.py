"""Hex Baron's rules in words, written from a game's catalogue (so the pieces, commands,
terrains and resources that extension plugins add are described too): the help of
``hexkit play`` and :meth:`HexBaronGame.describe`."""

from __future__ import annotations

import textwrap

from hexbaron.catalogue import Catalogue

WIDTH = 78


def _wrapped(text: str, first: str, rest: str) -> list[str]:
    return textwrap.wrap(text, WIDTH - 2, initial_indent=first, subsequent_indent=rest)


def command_lines(catalogue: Catalogue) -> list[str]:
    """One entry per command: how to type it, what it does and costs."""
    cmds = list(catalogue.commands.values())
    width = max(len(c.syntax or c.verb) for c in cmds)
    out = []
    for c in cmds:
        out += _wrapped(c.help, f"  {(c.syntax or c.verb):<{width}}  ", " " * (width + 4))
    return out


def piece_lines(catalogue: Catalogue) -> list[str]:
    """One entry per piece type: letter, movement, abilities, VP value and how it is made."""
    out = []
    for p in catalogue.pieces.values():
        made = ""
        if p.upgrade_word:
            costs = ", ".join(f"{a} {r}" for r, a in p.upgrade_cost.items()) or "free"
            sources = " or ".join(s.lower() for s in p.upgrade_from)
            made = f"; made with 'upgrade {p.upgrade_word}' from a {sources} ({costs})"
        vps = f"{p.vp_value} VP{'s' if p.vp_value != 1 else ''}"
        text = (f"{p.name}: {p.help}; destroyed with {p.destroy_at} or more occupied "
                f"neighbours, giving the opponent {vps}{made}")
        out += _wrapped(text, f"  {p.letter}  ", "     ")
    return out


def terrain_line(catalogue: Catalogue) -> str:
    """The terrains as the grid draws them."""
    return "Terrain: " + ", ".join(f"'{t.symbol}' {t.name}" for t in catalogue.terrains.values())


END_RULE = ("Pieces are destroyed at the end of every turn (anyone's pieces count as "
            "neighbours). Once a baron is destroyed the game ends when both players have had "
            "the same number of turns; the most VPs wins.")


def move_help(catalogue: Catalogue) -> str:
    """How to give commands, and what the pieces do (``help`` in ``hexkit play``)."""
    out = ["Each turn you give three commands; each is carried out at once, in order.",
           "A refused command changes nothing and does not count: type another.",
           "Commands:", *command_lines(catalogue),
           "Pieces (upper case: Player One, lower case: Player Two):", *piece_lines(catalogue),
           terrain_line(catalogue)]
    out += textwrap.wrap(END_RULE, WIDTH)
    return "\n".join(out)


def describe(catalogue: Catalogue, ties_to_player_two: bool, max_turns: int) -> str:
    """The whole game for someone learning it: the aim, the turn, every command with its
    cost, every piece kind, the terrains and resources, how the grid is drawn, and how
    this variant ends."""
    out = textwrap.wrap(
        "Hex Baron (AQA A-level 2021). Two players command pieces on a grid of hexagonal "
        "tiles. Each turn a player gives three commands, carried out one at a time and in "
        "order, so later commands see what earlier ones did. A refused command changes "
        "nothing and does not count; 'pass' uses one up.", WIDTH)
    out += ["", "Commands (tile numbers as drawn in the grid):", *command_lines(catalogue)]
    out += ["", "Pieces (upper case: Player One, lower case: Player Two):",
            *piece_lines(catalogue)]
    out += ["", "Terrains:"]
    for t in catalogue.terrains.values():
        blocked = "" if t.passable else "; no piece can move onto it"
        out += _wrapped(f"{t.name}: {t.help or 'no resource'}{blocked}", f"  '{t.symbol}'  ",
                        "        ")
    out += ["", "Resources (each player's, shown under the grid):"]
    for r in catalogue.resources.values():
        out += _wrapped(f"{r.label}: {r.help}", "  ", "    ")
    out += [""]
    out += textwrap.wrap(
        "The grid: each hex shows its terrain symbol, the letter of the piece on it (if "
        "any) and its tile number, e.g. '#L12' is tile 12, a forest, with Player One's "
        "LESS. Type 'ids' in hexkit play to see only the tile numbers.", WIDTH)
    out += [""]
    out += textwrap.wrap(END_RULE, WIDTH)
    if ties_to_player_two:
        out.append("Equal VPs at the end: Player Two wins (the AQA program's rule).")
    else:
        out.append("Equal VPs at the end: a draw.")
    if max_turns:
        out.append(f"This game also ends after {max_turns} turns each.")
    return "\n".join(out)
