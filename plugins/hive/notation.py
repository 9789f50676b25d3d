"""The Universal Hive Protocol's notation (spec hive.md §6): GameTypeString, GameStateString,
TurnString, GameString and MoveString, read and written against a :class:`HiveEngine`.

Reading a MoveString is two steps: :func:`parse_move_string` checks the syntax alone and
gives a :class:`MoveText`; :func:`resolve` finds the action it names in a position (any
reference piece that names the destination is accepted). :func:`move_string` writes an
action with the canonical reference piece (Mzinga's choice), so move lists compare equal as
strings with other engines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hexaround.hexgrid import OFFSETS, coords_of

from hexkit.errors import HexkitError, IllegalMoveError, MoveParseError
from hive.directions import DIRECTION_OF, PASS_STRING, move_string, written
from hive.engine import (
    BLACK_WON,
    DRAW,
    EXPANSION_OF,
    LETTERS,
    ONGOING,
    PASS,
    WHITE_WON,
    HiveEngine,
)

#: The eight game types, in the spec's order.
GAME_TYPES: tuple[str, ...] = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP",
                               "Base+LP", "Base+MLP")
#: The expansions option's values, in the same order as :data:`GAME_TYPES`.
EXPANSION_CHOICES: tuple[str, ...] = ("none", "M", "L", "P", "ML", "MP", "LP", "MLP")
GAME_STATES: tuple[str, ...] = ("NotStarted", "InProgress", "Draw", "WhiteWins", "BlackWins")

_PIECE = r"[wWbB][QSBGAMLPqsbgamlp][1-3]?"
_MOVE = re.compile(
    rf"\s*(?P<piece>{_PIECE})"
    rf"(?:\s+(?P<before>[-/\\])?(?P<ref>{_PIECE})(?P<after>[-/\\])?)?\s*\Z")
_TURN = re.compile(r"(White|Black)\[(\d{1,6})\]\Z")


class NotationError(HexkitError, ValueError):
    """A GameTypeString or GameString that cannot be read (one line, says what is wrong)."""


@dataclass(frozen=True)
class MoveText:
    """A MoveString read for its syntax: the piece, and the reference piece with the
    direction of the destination from it (None: on top of it). ``piece`` is empty for a
    pass; ``ref`` is empty for a first move written as the piece alone."""

    piece: str
    ref: str = ""
    direction: int | None = None

    @property
    def is_pass(self) -> bool:
        """True for ``pass``."""
        return not self.piece

    def __str__(self) -> str:
        if self.is_pass:
            return PASS_STRING
        if not self.ref:
            return self.piece
        return f"{self.piece} {written(self.ref, self.direction)}"


def _piece_name(text: str) -> str:
    """``wq`` -> ``wQ``: colour lower case, bug upper case."""
    return text[0].lower() + text[1].upper() + text[2:]


def parse_move_string(text: str) -> MoveText:
    """Read a MoveString's syntax (MoveParseError with the reason if it is not one)."""
    if not isinstance(text, str):
        raise MoveParseError("a move must be text such as 'wA1 -bG2' or 'pass'")
    if text.strip().lower() == PASS_STRING:
        return MoveText("")
    m = _MOVE.match(text)
    if m is None:
        shown = text.strip()[:40]
        raise MoveParseError(
            f"{shown!r} is not a Hive move: write the piece, a space and where it goes "
            f"next to a piece on the board (e.g. 'wA1 -bG2', 'bB1 wQ', 'wS1' for the first "
            f"move, or 'pass')")
    before, after = m.group("before"), m.group("after")
    if before and after:
        raise MoveParseError(f"{text.strip()!r}: a separator goes either before or after the "
                             f"reference piece, not both")
    piece = _piece_name(m.group("piece"))
    _check_number(piece)
    ref = m.group("ref")
    if ref is None:
        return MoveText(piece)
    ref = _piece_name(ref)
    _check_number(ref)
    if before:
        return MoveText(piece, ref, DIRECTION_OF[(before, True)])
    if after:
        return MoveText(piece, ref, DIRECTION_OF[(after, False)])
    return MoveText(piece, ref, None)


_NUMBERED = {"S": 2, "B": 2, "G": 3, "A": 3}


def _check_number(name: str) -> None:
    bug = name[1]
    most = _NUMBERED.get(bug)
    if most is None:
        if len(name) > 2:
            raise MoveParseError(f"{name}: the {bug} is a single piece, written without a "
                                 f"number ({name[:2]})")
    elif len(name) == 2:
        raise MoveParseError(f"{name}: say which one ({name}1 to {name}{most})")
    elif int(name[2]) > most:
        raise MoveParseError(f"{name}: there are only {most} of that bug ({name[:2]}1 to "
                             f"{name[:2]}{most})")


def resolve(engine: HiveEngine, move: MoveText) -> tuple[int, int | None, int]:
    """The action a MoveString names in this position, or IllegalMoveError saying why it
    names nothing here (a piece not in this game type, a reference piece not on the board).
    Whether the action is legal is the caller's business."""
    if move.is_pass:
        return PASS
    code = engine.code_of.get(move.piece)
    if code is None:
        raise IllegalMoveError(f"there is no {move.piece} in {game_type_string(engine)}")
    src = engine.where.get(code)
    if not move.ref:
        if engine.occ:
            raise IllegalMoveError(f"'{move.piece}' alone is only the first move of a game; "
                                   f"say where it goes, e.g. '{move.piece} wQ-'")
        return (code, src, 0)
    ref = engine.code_of.get(move.ref)
    if ref is None:
        raise IllegalMoveError(f"there is no {move.ref} in {game_type_string(engine)}")
    at = engine.where.get(ref)
    if at is None:
        raise IllegalMoveError(f"the reference piece {move.ref} is not on the board")
    dst = at if move.direction is None else at + OFFSETS[move.direction]
    return (code, src, dst)


# -- game types, states, turns and game strings ---------------------------------------------

def expansions_of(choice: str) -> str:
    """The expansion letters of an ``expansions`` option value (``none`` -> ``""``)."""
    return "" if choice == "none" else choice


def game_type_string(engine_or_expansions: HiveEngine | str) -> str:
    """``Base``, ``Base+M``... for an engine or an expansions string."""
    exp = engine_or_expansions if isinstance(engine_or_expansions, str) else \
        engine_or_expansions.expansions
    exp = expansions_of(exp)
    return "Base" + ("+" + exp if exp else "")


def parse_game_type(text: str) -> str:
    """The expansions (``""``, ``"M"``... ``"MLP"``) of a GameTypeString; the letters may
    come in any order or case. NotationError if it is not one."""
    if not isinstance(text, str):
        raise NotationError("a game type is text such as 'Base+MLP'")
    raw = text.strip()
    base, plus, letters = raw.partition("+")
    if base.lower() != "base" or (plus and not letters):
        raise NotationError(f"{raw[:40]!r} is not a game type (one of {', '.join(GAME_TYPES)})")
    found = letters.upper()
    if any(ch not in "MLP" for ch in found) or len(set(found)) != len(found):
        raise NotationError(f"{raw[:40]!r} is not a game type: the expansions are M "
                            f"(Mosquito), L (Ladybug) and P (Pillbug), each at most once")
    return "".join(ch for ch in "MLP" if ch in found)


def game_state_string(engine: HiveEngine) -> str:
    """``NotStarted``, ``InProgress``, ``Draw``, ``WhiteWins`` or ``BlackWins``."""
    r = engine.result
    if r == ONGOING:
        return "NotStarted" if engine.move_number == 0 else "InProgress"
    return {DRAW: "Draw", WHITE_WON: "WhiteWins", BLACK_WON: "BlackWins"}[r]


def turn_string(engine: HiveEngine) -> str:
    """``White[n]`` / ``Black[n]``: whose turn and the turn number (up after Black acts)."""
    n = engine.move_number
    return f"{'White' if n % 2 == 0 else 'Black'}[{n // 2 + 1}]"


def game_string(engine: HiveEngine, moves: list[str]) -> str:
    """``GameType;GameState;Turn;Move1;...;MoveN`` for a position and its move list."""
    head = [game_type_string(engine), game_state_string(engine), turn_string(engine)]
    return ";".join(head + list(moves))


@dataclass(frozen=True)
class GameStringParts:
    """A GameString split up: the expansions, the stated game state and turn (None when the
    string gives only the game type) and the MoveStrings."""

    expansions: str
    state: str | None
    turn: str | None
    moves: tuple[str, ...]


def split_game_string(text: str) -> GameStringParts:
    """Split a GameString (or a bare GameTypeString) and check its header's syntax."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty game string (expected e.g. 'Base;NotStarted;White[1]')")
    parts = [p.strip() for p in text.strip().split(";")]
    expansions = parse_game_type(parts[0])
    if len(parts) == 1:
        return GameStringParts(expansions, None, None, ())
    if len(parts) < 3:
        raise NotationError("a game string is GameType;GameState;Turn[;moves...]")
    state, turn = parts[1], parts[2]
    if state not in GAME_STATES:
        raise NotationError(f"{state[:40]!r} is not a game state (one of "
                            f"{', '.join(GAME_STATES)})")
    if not _TURN.match(turn):
        raise NotationError(f"{turn[:40]!r} is not a turn (expected White[n] or Black[n])")
    moves = tuple(parts[3:])
    if any(not m for m in moves):
        raise NotationError("a game string has an empty move (two ';' in a row, or a "
                            "trailing ';')")
    return GameStringParts(expansions, state, turn, moves)


def play_game_string(engine: HiveEngine, parts: GameStringParts) -> list[str]:
    """Play a split GameString's moves on a fresh engine of its game type; return the moves
    in canonical form. NotationError names the first move that is unreadable or illegal,
    or a header that disagrees with the moves."""
    canonical = []
    for i, text in enumerate(parts.moves, 1):
        try:
            action = resolve(engine, parse_move_string(text))
            if action not in engine.legal_actions():
                raise IllegalMoveError(why_illegal(engine, action))
        except (MoveParseError, IllegalMoveError) as exc:
            raise NotationError(f"move {i} {text[:40]!r}: {exc}") from None
        canonical.append(move_string(engine, action))
        engine.apply(action)
    check_header(engine, parts)
    return canonical


def check_header(engine: HiveEngine, parts: GameStringParts) -> None:
    """NotationError if the GameString's stated game state or turn is not the engine's."""
    if parts.state is not None and parts.state != game_state_string(engine):
        raise NotationError(f"the game string says {parts.state} but after its moves the "
                            f"game is {game_state_string(engine)}")
    if parts.turn is not None and parts.turn != turn_string(engine):
        raise NotationError(f"the game string says {parts.turn} but after its moves it is "
                            f"{turn_string(engine)}")


def why_illegal(engine: HiveEngine, action: tuple[int, int | None, int],
                where: str = "") -> str:
    """A one-line reason why an action is not legal now (it is known not to be);
    ``where``: its destination as the player wrote it, named so in the reason."""
    from hive.reasons import reason_for

    return reason_for(engine, action, where)


def hex_text(key: int) -> str:
    """``(q, r)`` of a hex, for messages."""
    q, r = coords_of(key)
    return f"({q}, {r})"


__all__ = [
    "EXPANSION_CHOICES", "EXPANSION_OF", "GAME_STATES", "GAME_TYPES", "LETTERS", "MoveText",
    "NotationError", "GameStringParts", "check_header", "expansions_of", "game_state_string",
    "game_string",
    "game_type_string", "move_string", "parse_game_type", "parse_move_string",
    "play_game_string", "resolve", "split_game_string", "turn_string", "why_illegal",
    "written",
]
