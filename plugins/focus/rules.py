"""The rules of one Focus game, resolved from a variant and the options, with the tables
that hot code uses: square numbers, straight-line distances and every possible move
object, built once so that move generation only concatenates ready-made tuples."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from focus.notation import ReserveMove, Square, StackMove, square_name
from focus.variant import LIMITS, Variant
from hexkit.errors import OptionError
from hexkit.geometry.boards import SquareBoard


@dataclass(frozen=True)
class Settings:
    """Option values after defaults from the variant have been filled in."""

    players: int
    distance: str
    win: str
    captures_to_win: int
    max_height: int
    start_reserve: int
    layout: str
    #: Colour letter per seat, a permutation of the variant's first ``players`` colours.
    colours: str


class FocusRules:
    """Everything fixed for a game: board, seats, parameters and precomputed tables.

    ``drop_stuck`` applies Sackson's rule that a player who controls no stack and has no
    reserve is out; the course facade turns it off because the course game has no such rule.
    """

    def __init__(self, variant: Variant, settings: Settings,
                 names: Sequence[str] | None = None, drop_stuck: bool = True):
        self.variant = variant
        self.settings = settings
        self.players = settings.players
        self.exact = settings.distance == "exact"
        self.win_by_captures = settings.win == "captures"
        self.captures_to_win = settings.captures_to_win
        self.max_height = settings.max_height
        self.drop_stuck = drop_stuck
        layout = variant.layouts[settings.players]
        self.first_turn_on_empty = layout.first_turn == "enter_reserve_on_empty"
        self.start_reserve = settings.start_reserve

        palette = dict(variant.colours)
        self.letters: tuple[str, ...] = tuple(settings.colours)
        default_names = tuple(palette[letter] for letter in self.letters)
        self.names: tuple[str, ...] = tuple(names) if names is not None else default_names
        self.colour_names: tuple[str, ...] = default_names

        tables = MoveTables.for_rules(variant, self.exact, self.max_height)
        self.tables = tables
        self.board = tables.board
        self.squares = tables.squares
        self.index = tables.index
        self.size = tables.size
        self.square_names = tables.square_names
        self.ray_distance = tables.ray_distance
        self.stack_moves = tables.stack_moves
        self.drop_moves = tables.drop_moves
        self.moves_from = tables.moves_from
        # Which seat plays each picture letter A, B, ...
        order = [letter for letter, _ in variant.colours]
        if settings.layout == "player_order":
            self.seat_of_letter = tuple(range(self.players))
        else:
            self.seat_of_letter = tuple(
                self.letters.index(order[p]) for p in range(self.players)
            )
        self.initial: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.seat_of_letter[p] for p in layout.pieces.get(sq, ()))
            for sq in self.squares
        )


class MoveTables:
    """Square numbers, straight-line distances and every move object of one board under
    one distance rule and height limit, built once and shared by every game with the same
    three (only the cache of move objects for injected over-tall stacks ever grows)."""

    _built: dict[tuple[int, bool, int], tuple[Variant, MoveTables]] = {}

    @classmethod
    def for_rules(cls, variant: Variant, exact: bool, max_height: int) -> MoveTables:
        """The tables for this variant and rules, built on first use."""
        key = (id(variant), exact, max_height)
        found = cls._built.get(key)
        if found is None or found[0] is not variant:
            # The variant is kept with its tables so that its id cannot be reused.
            found = cls._built[key] = (variant, cls(variant, exact, max_height))
        return found[1]

    def __init__(self, variant: Variant, exact: bool, max_height: int):
        self.exact = exact
        self.max_height = max_height
        self.board = SquareBoard(variant.rows, variant.cols, variant.squares)
        self.squares: tuple[Square, ...] = tuple(self.board.cells)
        self.index: dict[Square, int] = dict(self.board.index)
        self.size = len(self.squares)
        self.square_names: tuple[str, ...] = tuple(square_name(sq) for sq in self.squares)
        # ray_distance[i][j]: squares travelled from i to j in a straight line (absent if none).
        self.ray_distance: tuple[dict[int, int], ...] = tuple(
            {j: d + 1 for ray in self.board.ray_index[i] for d, j in enumerate(ray)}
            for i in range(self.size)
        )
        self._move_cache: dict[tuple[int, int, int], StackMove] = {}
        # stack_moves[i][h]: every move of a stack of height h on square i.
        self.stack_moves: tuple[tuple[tuple[StackMove, ...], ...], ...] = tuple(
            tuple(self._build_moves(i, h) for h in range(max_height + 1))
            for i in range(self.size)
        )
        self.drop_moves: tuple[ReserveMove, ...] = tuple(ReserveMove(sq) for sq in self.squares)

    def _build_moves(self, i: int, height: int) -> tuple[StackMove, ...]:
        out = []
        rays = self.board.ray_index[i]
        for count in range(1, height + 1):
            for ray in rays:
                distances = (count,) if self.exact else range(1, count + 1)
                for d in distances:
                    if d > len(ray):
                        break
                    key = (i, ray[d - 1], count)
                    move = self._move_cache.get(key)
                    if move is None:
                        move = StackMove(self.squares[i], self.squares[ray[d - 1]], count)
                        self._move_cache[key] = move
                    out.append(move)
        return tuple(out)

    def moves_from(self, i: int, height: int) -> tuple[StackMove, ...]:
        """The moves of a stack of ``height`` on square ``i`` (taller than max_height only in
        injected positions, so those are built on demand)."""
        if height <= self.max_height:
            return self.stack_moves[i][height]
        return self._build_moves(i, height)


def resolve_settings(variant: Variant, options: dict[str, object]) -> Settings:
    """Fill the options' ``auto`` values from the variant and check the combination."""
    players = int(options["players"])  # type: ignore[call-overload]
    if players not in variant.layouts:
        have = ", ".join(str(p) for p in sorted(variant.layouts))
        raise OptionError(
            f"board {variant.name} has no layout for {players} players (it has: {have})"
        )
    layout = variant.layouts[players]
    distance = options["distance"]
    win = options["win"]
    settings = Settings(
        players=players,
        distance=variant.distance if distance == "auto" else str(distance),
        win=variant.win if win == "auto" else str(win),
        captures_to_win=_count(options, "captures_to_win", variant.captures_to_win, 1),
        max_height=_count(options, "max_height", variant.max_height, 1),
        start_reserve=_count(options, "start_reserve", layout.start_reserve, 0),
        layout=str(options["layout"]),
        colours=_colours(variant, players, options["colours"]),
    )
    tallest = max((len(s) for s in layout.pieces.values()), default=0)
    if tallest > settings.max_height:
        raise OptionError(
            f"option max_height: {settings.max_height} is below the tallest starting stack "
            f"({tallest}) of board {variant.name}"
        )
    return settings


def _count(options: dict[str, object], name: str, default: int, minimum: int) -> int:
    value = options.get(name)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise OptionError(f"option {name}: {value!r} is not a whole number >= {minimum}")
    if value > LIMITS[name]:
        raise OptionError(f"option {name}: {value!r} is more than {LIMITS[name]}")
    return value


def _colours(variant: Variant, players: int, value: object) -> str:
    order = "".join(letter for letter, _ in variant.colours[:players])
    if value in (None, "auto"):
        return order
    text = str(value).replace(",", "").replace(" ", "").upper()
    if sorted(text) != sorted(order):
        raise OptionError(
            f"option colours: {value!r} must list the colours {', '.join(order)} once each, "
            f"in seat order (e.g. {order[::-1] if players == 2 else order})"
        )
    return text

