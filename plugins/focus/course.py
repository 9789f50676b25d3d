"""``FocusGame``: the OSU CS 162 (Fall 2020) portfolio-project class, exactly.

It runs the course's checks in the order and with the messages of ``specs/focus.md`` §8,
then applies the move through the same engine as the generic ``focus`` game
(:class:`focus.state.FocusState`). A refused call changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from focus.game import Focus, FocusState
from hexkit.game import GameSpec

SUCCESS = "successfully moved"
NOT_YOUR_TURN = "not your turn"
INVALID_LOCATION = "invalid location"
INVALID_NUMBER = "invalid number of pieces"
NO_RESERVE = "no pieces in reserve"

COLOURS = ("R", "G")
DISTANCES = ("up_to", "exact")
LAYOUTS = ("colour_fixed", "player_order")


#: The course class is no registered game: its games are built straight from the rules.
COURSE_SPEC = GameSpec("focus", "the OSU CS 162 FocusGame (course facade)", Focus)


class CourseFocus(Focus):
    """The game of a course facade: the course rules, fixed by the assignment, given in
    full rather than taken from the course variant's defaults (only the board and layout
    come from it). It pickles as the arguments that make it (its spec declares no options,
    so the game's own pickle, its spec and options, could not make it again)."""

    def __init__(self, names: tuple[str, str], colours: str, distance: str, layout: str):
        options = {
            "board": "course", "players": 2, "distance": distance, "win": "captures",
            "captures_to_win": 6, "max_height": 5, "start_reserve": 0, "layout": layout,
            "colours": colours,
        }
        super().__init__(COURSE_SPEC, options, names=names, drop_stuck=False)
        self.course_args = (names, colours, distance, layout)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_course_game, self.course_args)


@lru_cache(maxsize=64)
def _course_game(names: tuple[str, str], colours: str, distance: str,
                 layout: str) -> CourseFocus:
    """The course game of these arguments (one per process: its states share it)."""
    return CourseFocus(names, colours, distance, layout)


def _player(player: Any, which: str) -> tuple[str, str]:
    if not isinstance(player, (tuple, list)) or len(player) != 2:
        raise ValueError(f"{which} player must be a (name, colour) tuple, not {player!r}")
    name, colour = player
    if not isinstance(name, str):
        raise ValueError(f"{which} player's name must be text, not {name!r}")
    if not isinstance(colour, str) or colour.upper() not in COLOURS:
        raise ValueError(f"{which} player's colour must be R or G, not {colour!r}")
    return name, colour.upper()


def _is_position(pos: Any) -> bool:
    return (isinstance(pos, (tuple, list)) and len(pos) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in pos))


class FocusGame:
    """Focus for two players on the central 6x6, first to capture six pieces wins.

    ``FocusGame(("PlayerA", "R"), ("PlayerB", "G"))``; colours are R and G in either case.
    ``distance="up_to"`` (the assignment: a stack of k pieces moves up to k squares) or
    ``"exact"`` (Sackson: exactly k). ``layout="colour_fixed"`` keeps R on the (0, 0)
    pattern; ``"player_order"`` puts the first player's colour there. Either player may
    make the first successful move; then turns alternate.
    """

    def __init__(self, player1: Sequence[str], player2: Sequence[str],
                 distance: str = "up_to", layout: str = "colour_fixed"):
        (name1, colour1), (name2, colour2) = _player(player1, "first"), _player(player2, "second")
        if name1 == name2:
            raise ValueError(f"the two players need different names, both are {name1!r}")
        if colour1 == colour2:
            raise ValueError(f"the two players need different colours, both are {colour1!r}")
        if distance not in DISTANCES:
            raise ValueError(f"distance must be 'up_to' or 'exact', not {distance!r}")
        if layout not in LAYOUTS:
            raise ValueError(f"layout must be 'colour_fixed' or 'player_order', not {layout!r}")
        self._names = (name1, name2)
        self._seats = {name1: 0, name2: 1}
        self._game = _course_game(self._names, colour1 + colour2, distance, layout)
        self._rules = self._game.rules
        self._squares = self._rules.index
        self._rays = self._rules.ray_distance
        self._exact = self._rules.exact
        self._letters = self._rules.letters
        self._state = FocusState.initial(self._game, self._rules, random.Random(0), turn=None)

    @classmethod
    def from_position(
        cls,
        player1: Sequence[str],
        player2: Sequence[str],
        board: Mapping[Any, Sequence[str]] | None = None,
        reserve: Mapping[str, int] | None = None,
        captured: Mapping[str, int] | None = None,
        turn: str | None = None,
        distance: str = "up_to",
        layout: str = "colour_fixed",
    ) -> FocusGame:
        """A game in a given position: ``board`` lists every non-empty square's pieces,
        bottom first; ``reserve``/``captured`` map names to counts (missing = 0); ``turn``
        names the player to act, or None if either may. ValueError for malformed input;
        the position need not be reachable, and it is never over at construction."""
        game = cls(player1, player2, distance=distance, layout=layout)
        game._state = game._position(board or {}, reserve or {}, captured or {}, turn)
        return game

    def _position(self, board: Mapping[Any, Sequence[str]], reserve: Mapping[str, int],
                  captured: Mapping[str, int], turn: str | None) -> FocusState:
        rules = self._rules
        if not isinstance(board, Mapping):
            raise ValueError("board must map (row, col) squares to lists of pieces")
        stacks: list[list[int]] = [[] for _ in rules.squares]
        for pos, pieces in board.items():
            i = self._index(pos)
            if i is None:
                raise ValueError(f"board square {pos!r} is not on the 6x6 board")
            stacks[i] = self._pieces(pos, pieces)
        if turn is not None and self._seat(turn) is None:
            raise ValueError(f"turn {turn!r} is not a player's name")
        return FocusState(
            self._game, rules, stacks, reserve=self._counts(reserve, "reserve"),
            captured=self._counts(captured, "captured"),
            turn=None if turn is None else self._seat(turn), rng=random.Random(0),
        )

    def _pieces(self, pos: Any, pieces: Any) -> list[int]:
        if not isinstance(pieces, (list, tuple)):
            raise ValueError(f"the pieces on {pos!r} must be a list such as ['R', 'G']")
        letters = self._rules.letters
        out = []
        for piece in pieces:
            if not isinstance(piece, str) or piece.upper() not in letters:
                raise ValueError(f"piece {piece!r} on {pos!r} is not R or G")
            out.append(letters.index(piece.upper()))
        return out

    def _counts(self, given: Mapping[str, int], what: str) -> list[int]:
        if not isinstance(given, Mapping):
            raise ValueError(f"{what} must map player names to counts")
        out = [0, 0]
        for name, count in given.items():
            seat = self._seat(name)
            if seat is None:
                raise ValueError(f"{what}: {name!r} is not a player's name")
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise ValueError(f"{what} of {name!r} must be a whole number >= 0, not {count!r}")
            out[seat] = count
        return out

    # -- helpers --------------------------------------------------------------------------
    # The course API is called in tight loops by graders and tests: the common argument
    # types (a str name, a tuple of two ints, an int count) take a path of plain type
    # tests and dict look-ups, and anything else the general checks.
    def _seat(self, name: Any) -> int | None:
        """The seat of a player name, matched exactly; None if it is nobody's."""
        if type(name) is str:
            return self._seats.get(name)
        for seat, known in enumerate(self._names):
            if isinstance(name, str) and name == known:
                return seat
        return None

    def _index(self, pos: Any) -> int | None:
        """The square number of a ``(row, col)`` on the board, or None."""
        if type(pos) is tuple and len(pos) == 2 and type(pos[0]) is int \
                and type(pos[1]) is int:
            return self._squares.get(pos)
        if not _is_position(pos):
            return None
        return self._squares.get((pos[0], pos[1]))

    def _over(self) -> str:
        winner = self._state.winner
        assert winner is not None, "asked for the result of a game that goes on"
        return f"{self._names[winner]} Wins"

    # -- the course API -------------------------------------------------------------------
    def move_piece(self, name: str, from_pos: Sequence[int], to_pos: Sequence[int],
                   count: int) -> str:
        """Move the top ``count`` pieces of ``from_pos`` to ``to_pos`` in a straight line.

        Returns 'successfully moved', '<name> Wins', 'not your turn', 'invalid location' or
        'invalid number of pieces' (checked in that order, see docs/focus.md)."""
        state = self._state
        if state._winner is not None:
            return self._over()
        seat = self._seat(name)
        if seat is None or (state._turn is not None and state._turn != seat):
            return NOT_YOUR_TURN
        i, j = self._index(from_pos), self._index(to_pos)
        if i is None or j is None or i == j:
            return INVALID_LOCATION
        distance = self._rays[i].get(j)
        stack = state._stacks[i]
        if distance is None or not stack or stack[-1] != seat:
            return INVALID_LOCATION
        if type(count) is not int and (isinstance(count, bool) or not isinstance(count, int)):
            return INVALID_NUMBER
        if not 1 <= count <= len(stack):
            return INVALID_NUMBER
        if distance > count or (self._exact and distance != count):
            return INVALID_LOCATION
        state.play(seat, i, j, count, record=False)
        return SUCCESS if state._winner is None else self._over()

    def reserved_move(self, name: str, pos: Sequence[int]) -> str:
        """Place one piece from the player's reserve on any square, on top.

        Returns 'successfully moved', '<name> Wins', 'not your turn', 'no pieces in
        reserve' or 'invalid location' (the reserve is checked before the turn)."""
        state = self._state
        if state._winner is not None:
            return self._over()
        seat = self._seat(name)
        if seat is None:
            return NOT_YOUR_TURN
        if not state._reserve[seat]:
            return NO_RESERVE
        if state._turn is not None and state._turn != seat:
            return NOT_YOUR_TURN
        j = self._index(pos)
        if j is None:
            return INVALID_LOCATION
        state.play(seat, -1, j, 1, record=False)
        return SUCCESS if state._winner is None else self._over()

    def show_pieces(self, pos: Sequence[int]) -> list[str] | str:
        """The pieces on a square, bottom first ('R'/'G'); 'invalid location' if off board."""
        i = self._index(pos)
        if i is None:
            return INVALID_LOCATION
        letters = self._letters
        return [letters[s] for s in self._state._stacks[i]]

    def show_reserve(self, name: str) -> int:
        """Pieces in the player's reserve (0 for an unknown name)."""
        seat = self._seat(name)
        return 0 if seat is None else self._state._reserve[seat]

    def show_captured(self, name: str) -> int:
        """Pieces the player has captured (0 for an unknown name)."""
        seat = self._seat(name)
        return 0 if seat is None else self._state._captured[seat]

    # -- beyond the course API ------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The position as JSON-safe data (the generic ``focus`` state format)."""
        return self._state.to_dict()

    def render(self) -> str:
        """The board as text, stacks bottom to top, with reserves and captures."""
        return self._state.render()

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        (a, b) = self._names
        letters = self._rules.letters
        return f"FocusGame(({a!r}, {letters[0]!r}), ({b!r}, {letters[1]!r}))"
