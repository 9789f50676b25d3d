"""The generic hexkit game ``focus``: options, the Game class and its GameSpec."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from focus.rules import FocusRules, resolve_settings
from focus.state import FocusState
from focus.variant import DISTANCES, WINS, load_variant
from hexkit.game import Game, GameSpec, Option

OPTIONS = (
    Option("board", "course",
           "variant: course (central 6x6), cross (52 squares), another configs/focus "
           "name, or a path to a variant YAML file"),
    Option("players", 2, "number of players (3 and 4 need board=cross)", int, (2, 3, 4)),
    Option("distance", "auto",
           "up_to: at most as far as the pieces moved; exact: exactly that far "
           "(auto: the board's rule, up_to on course, exact on cross)",
           str, ("auto", *DISTANCES)),
    Option("win", "auto",
           "captures: first to captures_to_win; last_mover: the last player able to move "
           "(auto: captures on course, last_mover on cross)", str, ("auto", *WINS)),
    Option("captures_to_win", None, "captures needed with win=captures (default 6)", int),
    Option("layout", "colour_fixed",
           "colour_fixed: colours keep their starting squares; player_order: the first "
           "seat takes the first colour's squares", str, ("colour_fixed", "player_order")),
    Option("colours", "auto",
           "colour letter of each seat in seat order, e.g. GR (auto: R G B Y in order)"),
    Option("max_height", None, "tallest stack; pieces beyond it leave from the bottom "
           "(default 5)", int),
    Option("start_reserve", None,
           "pieces each player starts with in reserve (default 1 for 3 players, else 0)", int),
)

RULES = """\
Focus (Sid Sackson, 1963; Milton Bradley's Domination). Players move stacks they control
(their colour on top): take the top k pieces and move them in a straight orthogonal line,
up to k squares (course, distance=up_to) or exactly k squares (Sackson, distance=exact),
jumping over anything between, onto any square. A stack taller than 5 loses pieces from
the bottom: the mover's own go to the mover's reserve, others are captured. Instead of
moving, a player may enter a reserve piece on any square.
Course game (board=course): 2 players on the central 6x6, the first to capture 6 wins.
Real game (board=cross): 52 squares, 2 to 4 players; a player with no stack on top and no
reserve is out; the last player able to move wins. With 3 players each keeps one piece
in reserve and enters it on an empty square on their first turn."""


class Focus(Game):
    """Focus with its options fixed: the variant, the rules tables and the seats."""

    def __init__(self, spec: GameSpec, options: Mapping[str, Any], *,
                 names: Sequence[str] | None = None, drop_stuck: bool = True):
        super().__init__(spec, options)
        self.variant = load_variant(str(self.options["board"]))
        self.settings = resolve_settings(self.variant, self.options)
        self.rules = FocusRules(self.variant, self.settings, names=names, drop_stuck=drop_stuck)

    def new_state(self, seed: int | None = None) -> FocusState:
        """The starting layout; the first seat moves first."""
        return FocusState.initial(self, self.rules, random.Random(seed))

    def state_from_dict(self, data: Mapping[str, Any]) -> FocusState:
        """Rebuild a position from ``to_dict()`` output (RecordError if corrupt)."""
        return FocusState.from_dict(self, self.rules, data)


SPEC = GameSpec(
    name="focus",
    description="Sid Sackson's stacking game: the OSU CS 162 FocusGame and the 2-4 player cross",
    factory=Focus,
    options=OPTIONS,
    min_players=2,
    max_players=4,
    version="1",
    rules=RULES,
)
