"""Commands as text: the :class:`Command` move and how a typed line becomes one.

A command is a verb and its arguments, ``Command("move", (0, 4))``, written ``move 0 4``:
the verb in any case, then words separated by spaces, tile numbers in plain decimal digits.
The verb's :class:`~hexbaron.verbs.CommandType` reads the words after it
(:meth:`~hexbaron.verbs.CommandType.parse`); the readers below are the syntax of the
built-in verbs, and :func:`read_tile` the one of a tile number, for extensions too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexkit.errors import MoveParseError
from hexkit.game import Move

if TYPE_CHECKING:
    from hexbaron.catalogue import Catalogue, PieceType

_DIGITS = re.compile(r"[0-9]+")
#: The longest verb shown back in an error message.
_SHOWN = 20


@dataclass(frozen=True)
class Command(Move):
    """One command: ``verb`` and its arguments (tile numbers are ints).

    ``str()`` gives the text a player types: ``move 0 4``, ``upgrade less 8``, ``pass``.
    """

    verb: str
    args: tuple[Any, ...] = ()

    def __str__(self) -> str:
        return " ".join([self.verb, *(str(a) for a in self.args)])

    def __repr__(self) -> str:
        return f"Command({self.verb!r}, {self.args!r})"

    def tiles(self) -> tuple[int, ...]:
        """The tile numbers among the arguments."""
        return tuple(a for a in self.args if isinstance(a, int))


def read_tile(word: str, what: str = "tile") -> int:
    """A tile number written in plain decimal digits (MoveParseError otherwise)."""
    if not _DIGITS.fullmatch(word):
        raise MoveParseError(f"{what} must be a tile number, not {word!r}")
    if len(word) > 12:
        raise MoveParseError(f"{what} {word[:12]}... is far too large to be a tile number")
    return int(word)


def read_one_tile(words: Sequence[str], verb: str, syntax: str) -> tuple[int]:
    """``VERB TILE``: the default syntax of a command type."""
    if len(words) != 1:
        raise MoveParseError(f"{verb} takes one tile number: {syntax}")
    return (read_tile(words[0]),)


def read_move(words: Sequence[str], syntax: str) -> tuple[int, int]:
    """``move FROM TO``."""
    if len(words) != 2:
        raise MoveParseError(f"move takes two tile numbers: {syntax}")
    return (read_tile(words[0], "FROM"), read_tile(words[1], "TO"))


def read_upgrade(words: Sequence[str], upgrades: Mapping[str, PieceType]) -> tuple[str, int]:
    """``upgrade WORD TILE``, WORD one of ``upgrades`` (any case; returned in lower case)."""
    choices = "|".join(upgrades) or "(none)"
    if len(words) != 2:
        raise MoveParseError(f"upgrade takes a piece type and a tile: upgrade {choices} TILE")
    word = words[0].lower()
    if word not in upgrades:
        raise MoveParseError(f"cannot upgrade to {words[0]!r}: upgrade {choices} TILE")
    return (word, read_tile(words[1]))


def read_nothing(words: Sequence[str], verb: str) -> tuple[()]:
    """A verb with no arguments (``pass``)."""
    if words:
        raise MoveParseError(f"{verb} takes nothing after it")
    return ()


def parse_command(text: str, catalogue: Catalogue) -> Command:
    """Read a typed command with the verbs of ``catalogue``: ``move 0 4``, ``UPGRADE less 8``,
    ``pass`` (MoveParseError naming the problem if it is not one)."""
    if not isinstance(text, str):
        raise MoveParseError(f"a command is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise MoveParseError("empty command")
    verb = words[0].lower()
    ctype = catalogue.commands.get(verb)
    if ctype is None:
        verbs = ", ".join(catalogue.commands)
        shown = words[0] if len(words[0]) <= _SHOWN else words[0][:_SHOWN] + "..."
        raise MoveParseError(f"unknown command {shown!r} (commands: {verbs})")
    return Command(verb, ctype.parse(words[1:], catalogue))
