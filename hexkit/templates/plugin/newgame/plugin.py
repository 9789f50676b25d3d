"""What hexkit sees of the game: its spec, registered through hexkit's hook. The rules are
named by reference, so hexkit imports them only when a game is built."""

from __future__ import annotations

from collections.abc import Callable

from hexkit import GameSpec, Option, hookimpl

RULES = """\
Players take turns putting one stone of their colour on an empty hex of a hexagonal board
(option radius). The first player with `line` stones in a straight line along any of the
three directions of the grid wins. When the board is full without such a line, the game is
a draw. Type a move as the hex's coordinates q,r (for example 0,0 for the centre)."""

SPEC = GameSpec(
    name="newgame",
    description="three in a row on a hexagon of hexes",
    factory="newgame.game:NewgameGame",
    options=(
        Option("radius", 2, "rings of hexes around the centre", int, bounds=(1, 5)),
        Option("line", 3, "stones in a row needed to win", int, bounds=(2, 6)),
    ),
    player_names=("Red", "Blue"),
    rules=RULES,
)


@hookimpl
def hexkit_register_games(register: Callable[[GameSpec], None]) -> None:
    """Hand the game to hexkit (called once, when hexkit starts)."""
    register(SPEC)
