"""The mutable part of a Hex Baron game: tiles (terrain and piece), players (VPs and
resources) and whose command it is, with an undo journal.

Every change goes through a method that first writes the old value to the journal, so a
command (built-in or from an extension) can be undone exactly by rolling the journal back
to the mark taken before it ran. Tiles are plain ints (indices into the skeleton's tile
list); neighbour tables come from :func:`hexbaron.layout.grid_tables`, built once per size.
"""

from __future__ import annotations

import random
from typing import Any

from hexbaron.catalogue import Catalogue, PieceType
from hexbaron.layout import grid_tables
from hexkit.pieces import Piece

#: Journal entry tags.
_PIECE, _TERRAIN, _RESOURCE, _VPS, _RNG, _TURN = range(6)


class Position:
    """Tiles, players and turn of one game, changed only through journaled methods.

    ``seat`` is the player giving commands (0 = Player One), ``command`` how many of the
    turn's three commands they have used, ``turns[s]`` how many turns seat ``s`` has
    finished, and ``baron_lost`` the skeleton's game-over flag (set once a baron has been
    destroyed, never cleared).
    """

    def __init__(
        self,
        catalogue: Catalogue,
        size: int,
        terrain: list[str],
        pieces: list[Piece | None],
        names: list[str],
        vps: list[int],
        resources: list[dict[str, int]],
        rng: random.Random,
        seat: int = 0,
        command: int = 0,
        turns: tuple[int, int] = (0, 0),
        baron_lost: bool = False,
    ):
        self.catalogue = catalogue
        self.types = catalogue.pieces
        self.size = size
        self.neighbours, self.cubes = grid_tables(size)
        self.n = len(self.neighbours)
        if len(terrain) != self.n or len(pieces) != self.n:
            raise ValueError(f"a grid of size {size} has {self.n} tiles")
        self.terrain = terrain
        self.pieces = pieces
        self.names = names
        self.vps = vps
        self.resources = resources
        self.rng = rng
        self.seat = seat
        self.command = command
        self.turns = list(turns)
        self.baron_lost = baron_lost
        self.journal: list[tuple[Any, ...]] = []

    # -- reading -----------------------------------------------------------------------
    def valid(self, tile: object) -> bool:
        """True if ``tile`` is the index of a tile (0 <= tile < number of tiles)."""
        return isinstance(tile, int) and 0 <= tile < self.n

    def piece_at(self, tile: int) -> Piece | None:
        """The piece on a tile (``Piece(owner seat, type name)``), or None."""
        return self.pieces[tile]

    def type_at(self, tile: int) -> PieceType | None:
        """The type of the piece on a tile, or None if the tile is empty."""
        p = self.pieces[tile]
        return None if p is None else self.types[p.kind]

    def terrain_at(self, tile: int) -> str:
        """The terrain symbol of a tile."""
        return self.terrain[tile]

    def own(self, tile: int) -> bool:
        """True if ``tile`` is valid and holds a piece of the player giving commands."""
        if not (isinstance(tile, int) and 0 <= tile < self.n):
            return False
        p = self.pieces[tile]
        return p is not None and p.owner == self.seat

    def resource(self, name: str, seat: int | None = None) -> int:
        """A player's amount of a resource (the mover's by default)."""
        return self.resources[self.seat if seat is None else seat].get(name, 0)

    def distance(self, a: int, b: int) -> int:
        """Tile distance: max(|dx|, |dy|, |dz|) of the cube coordinates."""
        xa, ya, za = self.cubes[a]
        xb, yb, zb = self.cubes[b]
        return max(abs(xa - xb), abs(ya - yb), abs(za - zb))

    def occupied_neighbours(self, tile: int) -> int:
        """How many neighbouring tiles hold a piece (anyone's)."""
        pieces = self.pieces
        return sum(1 for j in self.neighbours[tile] if pieces[j] is not None)

    # -- changing (journaled) ----------------------------------------------------------
    def set_piece(self, tile: int, piece: Piece | None) -> None:
        """Put ``piece`` on a tile (None empties it)."""
        self.journal.append((_PIECE, tile, self.pieces[tile]))
        self.pieces[tile] = piece

    def move_piece(self, start: int, end: int) -> None:
        """Move the piece on ``start`` to ``end``."""
        self.set_piece(end, self.pieces[start])
        self.set_piece(start, None)

    def set_terrain(self, tile: int, symbol: str) -> None:
        """Change a tile's terrain."""
        self.journal.append((_TERRAIN, tile, self.terrain[tile]))
        self.terrain[tile] = symbol

    def add_resource(self, name: str, delta: int, seat: int | None = None) -> None:
        """Add ``delta`` (may be negative) to a player's resource (the mover's by default)."""
        s = self.seat if seat is None else seat
        res = self.resources[s]
        old = res.get(name)
        self.journal.append((_RESOURCE, s, name, old))
        res[name] = (old or 0) + delta

    def add_vps(self, seat: int, points: int) -> None:
        """Give a player victory points."""
        self.journal.append((_VPS, seat, self.vps[seat]))
        self.vps[seat] += points

    def random(self) -> float:
        """One draw from the game's random generator (undoable)."""
        self.journal.append((_RNG, self.rng.getstate()))
        return self.rng.random()

    def set_turn(self, seat: int, command: int, turns: list[int], baron_lost: bool) -> None:
        """Change whose command it is and the turn counters."""
        self.journal.append((_TURN, self.seat, self.command, tuple(self.turns), self.baron_lost))
        self.seat, self.command, self.turns, self.baron_lost = seat, command, list(turns), \
            baron_lost

    def rollback(self, mark: int) -> None:
        """Undo every change made since the journal had ``mark`` entries."""
        journal = self.journal
        while len(journal) > mark:
            entry = journal.pop()
            tag = entry[0]
            if tag == _PIECE:
                self.pieces[entry[1]] = entry[2]
            elif tag == _TERRAIN:
                self.terrain[entry[1]] = entry[2]
            elif tag == _RESOURCE:
                if entry[3] is None:
                    del self.resources[entry[1]][entry[2]]
                else:
                    self.resources[entry[1]][entry[2]] = entry[3]
            elif tag == _VPS:
                self.vps[entry[1]] = entry[2]
            elif tag == _RNG:
                self.rng.setstate(entry[1])
            else:
                self.seat, self.command, turns, self.baron_lost = entry[1:]
                self.turns = list(turns)

    # -- end of turn -------------------------------------------------------------------
    def destroy_crowded(self) -> tuple[list[tuple[int, Piece]], bool]:
        """The skeleton's ``DestroyPiecesAndCountVPs``: every piece with at least
        ``destroy_at`` occupied neighbours (judged on the board before any removal) is
        removed and scores its VP value for its owner's opponent.

        Returns the destroyed (tile, piece) pairs in tile order, and whether one was a baron.
        """
        pieces = self.pieces
        types = self.types
        nbrs = self.neighbours
        doomed: list[tuple[int, Piece]] = []
        for tile, p in enumerate(pieces):
            if p is None:
                continue
            limit = types[p.kind].destroy_at
            count = 0
            for j in nbrs[tile]:
                if pieces[j] is not None:
                    count += 1
            if count >= limit:
                doomed.append((tile, p))
        baron = False
        gains = [0, 0]
        for _tile, p in doomed:
            ptype = types[p.kind]
            gains[1 - p.owner] += ptype.vp_value
            baron = baron or ptype.is_baron
        for tile, _ in doomed:
            self.set_piece(tile, None)
        for seat in (0, 1):
            if gains[seat]:
                self.add_vps(seat, gains[seat])
        return doomed, baron

    # -- copying -----------------------------------------------------------------------
    def copy(self) -> Position:
        """An independent copy (journal included, so the copy can undo too)."""
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        twin = Position(
            self.catalogue, self.size, list(self.terrain), list(self.pieces), list(self.names),
            list(self.vps), [dict(r) for r in self.resources], rng, self.seat, self.command,
            (self.turns[0], self.turns[1]), self.baron_lost,
        )
        twin.journal = list(self.journal)
        return twin
