"""How a command verb is defined: :class:`CommandType`, the base of the built-in commands
(``hexbaron.rules``) and of the ones extension plugins register."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from hexbaron.notation import read_one_tile
from hexkit.kit.gestures import Gesture

if TYPE_CHECKING:
    from hexbaron.catalogue import Catalogue
    from hexbaron.position import Position


class CommandType:
    """One verb. Subclass it and override the methods below; the defaults describe a verb
    that takes a single tile number.

    * :meth:`parse` reads the words after the verb (syntax only; ``hexbaron.notation`` has
      the readers of the built-in verbs, e.g. :func:`~hexbaron.notation.read_tile`).
    * :meth:`check` says why the command is not allowed now, or returns None. It must not
      change anything.
    * :meth:`apply` carries out an allowed command through the position's journaled methods
      (``set_piece``, ``set_terrain``, ``add_resource``, ``random``...) and returns a short
      description of what happened.
    * :meth:`candidates` lists argument tuples worth trying; :meth:`legal` keeps those that
      pass :meth:`check`. Override :meth:`legal` directly when that is faster.
    * :meth:`gesture` says where a click-to-move interface starts and ends the command.
    """

    verb: str = ""
    #: How to type it, e.g. ``"saw TILE"``.
    syntax: str = ""
    #: One line: what it does and what it costs.
    help: str = ""
    #: The skeleton's message when the command fails (classic console only).
    classic_failure: str = "Couldn't do that"

    def parse(self, words: Sequence[str], catalogue: Catalogue) -> tuple[Any, ...]:
        """Arguments from the words that follow the verb (MoveParseError if malformed)."""
        return read_one_tile(words, self.verb, self.syntax)

    def check(self, pos: Position, args: tuple[Any, ...]) -> str | None:
        """None if the command is allowed now, else the reason it is refused."""
        return None

    def apply(self, pos: Position, args: tuple[Any, ...]) -> str:
        """Carry out an allowed command; returns what happened, e.g. '+1 lumber'."""
        raise NotImplementedError

    def candidates(self, pos: Position) -> Iterable[tuple[Any, ...]]:
        """Argument tuples that might be legal now (filtered by :meth:`check`)."""
        return ()

    def legal(self, pos: Position) -> Iterator[tuple[Any, ...]]:
        """Every argument tuple that is legal now."""
        for args in self.candidates(pos):
            if self.check(pos, args) is None:
                yield args

    def gesture(self, pos: Position, args: tuple[Any, ...]) -> Gesture | None:
        """Where the command starts and ends for a click-to-move interface, in the axial
        cells of the game's view (:meth:`Position.cell`). Default: from the tile numbers
        among the arguments, the first being the acting piece's tile (the origin) and the
        last the target (``move 0 4``: from tile 0 to 4; ``saw 5``: tile 5 to itself);
        the kind is the type of the piece on the origin. None without a tile (``pass``)."""
        tiles = [a for a in args if isinstance(a, int)]
        if not tiles:
            return None
        piece = pos.pieces[tiles[0]]
        kind = "" if piece is None else piece.kind
        return Gesture(pos.cell(tiles[0]), pos.cell(tiles[-1]), kind)

    def __repr__(self) -> str:
        return f"<CommandType {self.verb}>"


