"""The Universal Hive Protocol's strings (spec §6): GameTypeString, GameStateString,
TurnString and GameString, read and written for hexkit's Hive states.

Only the generic game API is used (the moves played and their text, the outcome and the
``expansions`` option), so the engine, the ``uhp:`` seat and the tests share one reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hexkit.errors import HexkitError

#: The expansion letters in the order GameTypeStrings write them.
EXPANSION_LETTERS = "MLP"
#: What ``info`` says the engine supports.
CAPABILITIES = "Mosquito;Ladybug;Pillbug"


class UhpStringError(HexkitError, ValueError):
    """A GameTypeString or GameString that cannot be read (one line saying why)."""


def expansions_of_type(game_type: str) -> str:
    """The ``expansions`` option value of a GameTypeString: ``Base`` -> ``none``,
    ``Base+MLP`` -> ``MLP`` (UhpStringError for anything else)."""
    text = game_type.strip()
    base, plus, letters = text.partition("+")
    if base != "Base" or (plus and not letters):
        raise UhpStringError(f"unknown game type {text!r}: expected Base or Base+ and any of "
                             f"M, L, P in that order (Base+MLP)")
    if letters:
        if any(c not in EXPANSION_LETTERS for c in letters) or letters != "".join(
                c for c in EXPANSION_LETTERS if c in letters):
            raise UhpStringError(f"unknown game type {text!r}: the expansions are M, L and P, "
                                 f"each at most once, in that order (Base+MLP)")
    return letters or "none"


def type_of_expansions(expansions: str) -> str:
    """The GameTypeString of an ``expansions`` option value (``none`` -> ``Base``)."""
    letters = "" if expansions in ("", "none", None) else str(expansions).upper()
    return "Base" + (f"+{letters}" if letters else "")


def game_type_of(game: Any) -> str:
    """The GameTypeString of a loaded Hive game."""
    return type_of_expansions(game.options.get("expansions", "none"))


def turn_string(plies: int) -> str:
    """``White[n]`` or ``Black[n]`` after ``plies`` actions (n goes up after Black acts)."""
    return f"{'White' if plies % 2 == 0 else 'Black'}[{plies // 2 + 1}]"


def game_state_string(state: Any) -> str:
    """``NotStarted``, ``InProgress``, ``Draw``, ``WhiteWins`` or ``BlackWins``."""
    outcome = state.outcome()
    if outcome is not None:
        if not outcome.winners or len(outcome.winners) > 1:
            return "Draw"
        return "WhiteWins" if outcome.winners[0] == 0 else "BlackWins"
    return "NotStarted" if not state.move_stack else "InProgress"


def game_string(state: Any, move_texts: Sequence[str] | None = None) -> str:
    """The GameString of a state: ``GameType;GameState;Turn;Move1;...;MoveN``.

    ``move_texts`` are the MoveStrings as they were written when played (default:
    ``str()`` of each move on the stack)."""
    texts = [str(m) for m in state.move_stack] if move_texts is None else list(move_texts)
    head = [game_type_of(state.game), game_state_string(state), turn_string(len(texts))]
    return ";".join(head + texts)


@dataclass(frozen=True)
class ParsedGameString:
    """A GameString taken apart: the ``expansions`` value and the MoveStrings."""

    expansions: str
    moves: tuple[str, ...]
    game_state: str | None = None
    turn: str | None = None


def parse_game_string(text: str) -> ParsedGameString:
    """Read a GameTypeString alone or a whole GameString (UhpStringError if malformed).

    The GameState and Turn fields are checked for form here; whether they agree with the
    moves is for the caller, who replays them."""
    parts = [p.strip() for p in text.strip().split(";")]
    expansions = expansions_of_type(parts[0])
    if len(parts) == 1:
        return ParsedGameString(expansions, ())
    if len(parts) < 3:
        raise UhpStringError(f"a GameString has GameType;GameState;Turn[;moves], "
                             f"not {text.strip()!r}")
    game_state, turn = parts[1], parts[2]
    if game_state not in ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins"):
        raise UhpStringError(f"unknown game state {game_state!r} (NotStarted, InProgress, "
                             f"Draw, WhiteWins, BlackWins)")
    colour, _, rest = turn.partition("[")
    if colour not in ("White", "Black") or not rest.endswith("]") or not rest[:-1].isdigit():
        raise UhpStringError(f"unreadable turn {turn!r} (White[n] or Black[n])")
    moves = tuple(parts[3:])
    if any(not m for m in moves):
        raise UhpStringError("a GameString has an empty move (two ';' in a row or a trailing ';')")
    return ParsedGameString(expansions, moves, game_state, turn)
