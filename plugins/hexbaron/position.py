"""The mutable part of a Hex Baron game: tiles (terrain and piece), players (VPs and
resources) and whose command it is, with an undo journal.

Every change goes through a method that writes it to the position's
:class:`hexkit.kit.undo.Journal` (the core's journal, which the game's state shares), so a
command, built-in or from an extension, is undone exactly by rolling the journal back to
the mark taken before it ran. Tiles are plain ints (indices into the skeleton's tile list);
neighbour tables come from :func:`hexbaron.layout.grid_tables`, built once per size.
"""

from __future__ import annotations

from random import Random

from hexbaron.catalogue import Catalogue, PieceType
from hexbaron.layout import grid_tables
from hexkit.game import rng_copy
from hexkit.kit.events import GameEvent
from hexkit.kit.pieces import Piece
from hexkit.kit.undo import Journal


class Position:
    """Tiles, players and turn of one game, changed only through journaled methods.

    ``seat`` is the player giving commands (0 = Player One), ``command`` how many of the
    turn's three commands they have used, ``turns[s]`` how many turns seat ``s`` has
    finished, and ``baron_lost`` the skeleton's game-over flag (set once a baron has been
    destroyed, never cleared). ``turns`` and each player's ``resources`` are replaced on
    change, never changed in place.
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
        rng: Random,
        seat: int = 0,
        command: int = 0,
        turns: tuple[int, int] = (0, 0),
        baron_lost: bool = False,
        owned: tuple[set[int], set[int]] | None = None,
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
        #: The tiles holding each player's pieces (kept with ``pieces``, so that finding a
        #: player's pieces does not scan the grid: a size-60 grid has 1,800 tiles).
        self.owned: tuple[set[int], set[int]] = owned if owned is not None else (
            {t for t, p in enumerate(pieces) if p is not None and p.owner == 0},
            {t for t, p in enumerate(pieces) if p is not None and p.owner == 1},
        )
        self.names = names
        self.vps = vps
        self.resources = resources
        self.rng = rng
        self.seat = seat
        self.command = command
        self.turns = list(turns)
        self.baron_lost = baron_lost
        #: The undo log of every change (the game's state pushes and pops through it).
        self.journal = Journal(self)
        #: What the command being carried out did beyond itself (:meth:`emit`); the game's
        #: state hands these on as the move's events.
        self.events: list[GameEvent] = []

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

    def cell(self, tile: int) -> tuple[int, int]:
        """The tile's axial cell ``(x, z)``, as the game's view and gestures give it."""
        x, _y, z = self.cubes[tile]
        return (x, z)

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
        self.journal.on_undo("_put", tile, self.pieces[tile])
        self._put(tile, piece)

    def _put(self, tile: int, piece: Piece | None) -> None:
        """Put ``piece`` on a tile, keeping ``owned`` in step (the journal's undo of
        :meth:`set_piece`; records nothing itself)."""
        old = self.pieces[tile]
        if old is not None:
            self.owned[old.owner].discard(tile)
        if piece is not None:
            self.owned[piece.owner].add(tile)
        self.pieces[tile] = piece

    def own_tiles(self, seat: int | None = None) -> list[int]:
        """The tiles holding a player's pieces (the mover's by default), in tile order."""
        return sorted(self.owned[self.seat if seat is None else seat])

    def move_piece(self, start: int, end: int) -> None:
        """Move the piece on ``start`` to the empty tile ``end``."""
        if self.pieces[end] is not None:
            self.set_piece(end, self.pieces[start])
            self.set_piece(start, None)
            return
        # The common case in one journal entry: this runs for every move command.
        self.journal.on_undo("_step", end, start)
        self._step(start, end)

    def _step(self, start: int, end: int) -> None:
        """Move the piece on ``start`` to the empty tile ``end`` (records nothing: the undo
        of :meth:`move_piece` is the step back)."""
        pieces = self.pieces
        piece = pieces[start]
        owned = self.owned[piece.owner]
        owned.discard(start)
        owned.add(end)
        pieces[end] = piece
        pieces[start] = None

    def set_terrain(self, tile: int, symbol: str) -> None:
        """Change a tile's terrain."""
        self.journal.set_item("terrain", tile, symbol)

    def add_resource(self, name: str, delta: int, seat: int | None = None) -> None:
        """Add ``delta`` (may be negative) to a player's resource (the mover's by default)."""
        s = self.seat if seat is None else seat
        # A player's resources are replaced, never changed in place, so that the journal
        # (and copies sharing its entries) keep the old ones intact.
        res = dict(self.resources[s])
        res[name] = res.get(name, 0) + delta
        self.journal.set_item("resources", s, res)

    def add_vps(self, seat: int, points: int) -> None:
        """Give a player victory points."""
        self.journal.set_item("vps", seat, self.vps[seat] + points)

    def random(self) -> float:
        """One draw from the game's random generator (undoable)."""
        self.journal.keep_rng()
        return self.rng.random()

    def set_turn(self, seat: int, command: int, turns: list[int], baron_lost: bool) -> None:
        """Change whose command it is and the turn counters."""
        journal = self.journal
        if seat != self.seat:
            journal.set("seat", seat)
        journal.set("command", command)
        if turns != self.turns:
            journal.set("turns", list(turns))
        if baron_lost != self.baron_lost:
            journal.set("baron_lost", baron_lost)

    def emit(self, kind: str, text: str, seat: int | None = None, tiles: tuple[int, ...] |
             list[int] = (), **data: object) -> None:
        """Report a consequence of the command being carried out, for front-ends to narrate
        (kinds in :mod:`hexkit.kit.events`, e.g. a rich find of fuel: ``resource``)."""
        self.events.append(GameEvent(kind, text, seat, tuple(self.cell(t) for t in tiles),
                                     data))

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
        for tile in sorted(self.owned[0] | self.owned[1]):
            p = pieces[tile]
            if p is None:  # an owned tile holds a piece: never taken
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
    def copy(self, rng: Random | None = None) -> Position:
        """An independent copy (journal included, so the copy can undo too), drawing from
        ``rng`` (default: a copy of this position's generator)."""
        if rng is None:
            rng = rng_copy(self.rng)
        twin = Position(
            self.catalogue, self.size, list(self.terrain), list(self.pieces), list(self.names),
            list(self.vps), list(self.resources), rng, self.seat, self.command,
            (self.turns[0], self.turns[1]), self.baron_lost,
            (set(self.owned[0]), set(self.owned[1])),
        )
        twin.journal = self.journal.bound_to(twin)
        return twin
