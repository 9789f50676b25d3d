"""Hex Baron's fixed action space: each command verb over the tiles of the grid.

Blocks in the catalogue's order of verbs (extension verbs included): ``move`` is a tile and
one of its (up to) six neighbours, numbered in the grid's neighbour order; ``upgrade`` a
target word and a tile; ``pass`` a single action; any verb that takes one tile number
(``spawn``, ``saw``, ``dig``, an extension's ``mine``) a tile. An extension verb with
arguments of another shape has no numbers (its commands are left out of the mask).
"""

from __future__ import annotations

from typing import Any

from hexbaron.notation import Command
from hexbaron.rules import MoveCommand, PassCommand, UpgradeCommand
from hexbaron.verbs import CommandType
from hexkit.game import Game, Move, State
from hexkit.kit.actions import ActionSpace, ActionSpaceError

#: Neighbours a tile has at most.
SIDES = 6


class HexBaronActions(ActionSpace):
    """Verb blocks over the tiles of one game's grid."""

    def __init__(self, game: Game):
        probe = game.new_state(seed=0)
        pos = probe.pos  # type: ignore[attr-defined]
        self.tiles = n = pos.n
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(tuple(x) for x in pos.neighbours)
        self.words = tuple(pos.catalogue.upgrades())
        #: verb -> (first action, shape); shapes: "pair", "word", "none", "tile".
        self.blocks: dict[str, tuple[int, str]] = {}
        self.order: list[tuple[int, str, str]] = []
        self.skipped: list[str] = []
        start = 0
        for verb, ctype in pos.catalogue.commands.items():
            shape = _shape(ctype)
            if shape is None:
                self.skipped.append(verb)
                continue
            size = {"pair": n * SIDES, "word": len(self.words) * n, "none": 1, "tile": n}[shape]
            self.blocks[verb] = (start, shape)
            self.order.append((start, verb, shape))
            start += size
        self.num_actions = start
        #: Every action's command, in order (None where a tile has fewer neighbours than
        #: six): a pickle writes a game's moves as these numbers, read back through it.
        self.moves: tuple[Command | None, ...] = tuple(map(self._command, range(start)))

    def action_of(self, move: Move) -> int:
        verb = getattr(move, "verb", None)
        found = self.blocks.get(verb) if isinstance(verb, str) else None
        if found is None:
            raise ActionSpaceError(f"{move} has no number in Hex Baron's action space")
        base, shape = found
        args = move.args  # type: ignore[attr-defined]
        try:
            if shape == "none":
                if args:
                    raise ValueError
                return base
            if shape == "tile":
                (tile,) = args
                return base + self._tile(tile)
            if shape == "word":
                word, tile = args
                return base + self.words.index(word) * self.tiles + self._tile(tile)
            a, b = args
            return base + self._tile(a) * SIDES + self.neighbours[a].index(b)
        except (ValueError, TypeError, IndexError):
            raise ActionSpaceError(f"{move} has no number in Hex Baron's action space") from None

    def _tile(self, tile: Any) -> int:
        if isinstance(tile, bool) or not isinstance(tile, int) or not 0 <= tile < self.tiles:
            raise ValueError(tile)
        return tile

    def move_of(self, action: int, state: State) -> Move:
        """The command numbered ``action`` (legal or not: ``push`` says why not)."""
        self.check_range(action)
        action = int(action)
        move = self.moves[action]
        if move is None:
            base = next(b[0] for b in reversed(self.order) if action >= b[0])
            tile, side = divmod(action - base, SIDES)
            raise ActionSpaceError(f"action {action}: tile {tile} has no neighbour {side}")
        return move

    def _command(self, action: int) -> Command | None:
        """The command numbered ``action`` (None for a side a tile does not have)."""
        base, verb, shape = next(b for b in reversed(self.order) if action >= b[0])
        offset = action - base
        if shape == "none":
            return Command(verb, ())
        if shape == "tile":
            return Command(verb, (offset,))
        if shape == "word":
            return Command(verb, (self.words[offset // self.tiles], offset % self.tiles))
        tile, side = divmod(offset, SIDES)
        near = self.neighbours[tile]
        return Command(verb, (tile, near[side])) if side < len(near) else None

    def describe(self) -> str:
        n = self.tiles
        parts = []
        for base, verb, shape in self.order:
            if shape == "pair":
                parts.append(f"{base}: {verb} FROM TO, FROM * 6 + the side of TO ({n * SIDES})")
            elif shape == "word":
                parts.append(f"{base}: {verb} WORD TILE, word ({'/'.join(self.words)}) * {n} "
                             f"+ tile ({len(self.words) * n})")
            elif shape == "none":
                parts.append(f"{base}: {verb} (1)")
            else:
                parts.append(f"{base}: {verb} TILE ({n})")
        skipped = f"; no numbers for {', '.join(self.skipped)}" if self.skipped else ""
        return f"{self.num_actions} actions on {n} tiles; blocks from " + "; ".join(parts) \
            + skipped + "."


def _shape(ctype: CommandType) -> str | None:
    if isinstance(ctype, MoveCommand):
        return "pair"
    if isinstance(ctype, UpgradeCommand):
        return "word"
    if isinstance(ctype, PassCommand):
        return "none"
    if type(ctype).parse is CommandType.parse:
        return "tile"
    return None
