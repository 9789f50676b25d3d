"""The course's game-manager API (WPI CS4233's ``IHexAroundGameManager``), in Python.

>>> gm = build_game_manager("configs/hexaround/level1.yaml")   # doctest: +SKIP
>>> gm.place_creature("BUTTERFLY", 0, 0).move_result           # doctest: +SKIP
<MoveResult.OK: 'OK'>

Every request returns a :class:`MoveResponse`; a refused request is ``MOVE_ERROR`` with a
message saying why, changes nothing, and the same player acts again.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from hexaround.config import PLAYERS, HexAroundConfig, load_config
from hexaround.engine import BLUE_WON, DRAW, RED_WON
from hexaround.game import HexAroundGame, HexAroundState, MoveCreature, PlaceCreature
from hexaround.hexgrid import hex_distance, key_of
from hexkit.errors import IllegalMoveError


class MoveResult(Enum):
    """The result of a place or move request."""

    OK = "OK"
    MOVE_ERROR = "MOVE_ERROR"
    BLUE_WON = "BLUE_WON"
    RED_WON = "RED_WON"
    DRAW = "DRAW"


class PlayerName(Enum):
    """The two players; the facade also accepts their names as text in any case."""

    BLUE = "BLUE"
    RED = "RED"


@dataclass(frozen=True)
class MoveResponse:
    """What a request returns: the result and a message (non-empty on MOVE_ERROR)."""

    move_result: MoveResult
    message: str

    # The course's Java record is read as moveResult(); keep both spellings usable.
    @property
    def moveResult(self) -> MoveResult:  # noqa: N802
        """Alias of :attr:`move_result`."""
        return self.move_result


_RESULTS = {BLUE_WON: MoveResult.BLUE_WON, RED_WON: MoveResult.RED_WON, DRAW: MoveResult.DRAW}
_OK_MESSAGE = "Legal move"
_LIMIT = 2**31


def _error(message: str) -> MoveResponse:
    return MoveResponse(MoveResult.MOVE_ERROR, message)


def _is_coord(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -_LIMIT < v < _LIMIT


class GameManager:
    """One game of HexAround driven through the course's API.

    Build it with :func:`build_game_manager`. Blue acts first; after ``MOVE_ERROR`` the same
    player acts again; after the end every request is ``MOVE_ERROR``. Queries never change
    the game.
    """

    def __init__(self, config: HexAroundConfig):
        self.config = config
        self.game = HexAroundGame.from_config(config)
        self.state: HexAroundState = self.game.new_state(seed=0)

    # -- requests ----------------------------------------------------------------------
    def place_creature(self, creature: Any, x: int, y: int) -> MoveResponse:
        """The player to act puts ``creature`` from the hand on hex (x, y)."""
        name = self._name(creature)
        if name is None:
            return _error(self._unknown(creature))
        if not (_is_coord(x) and _is_coord(y)):
            return _error("coordinates must be 32-bit integers")
        return self._request(PlaceCreature(name, x, y))

    def move_creature(self, creature: Any, from_x: int, from_y: int, to_x: int,
                      to_y: int) -> MoveResponse:
        """The player to act moves its ``creature`` from (from_x, from_y) to (to_x, to_y)."""
        name = self._name(creature)
        if name is None:
            return _error(self._unknown(creature))
        if not all(_is_coord(v) for v in (from_x, from_y, to_x, to_y)):
            return _error("coordinates must be 32-bit integers")
        return self._request(MoveCreature(name, from_x, from_y, to_x, to_y))

    def _request(self, move: PlaceCreature | MoveCreature) -> MoveResponse:
        if self.state.is_over():
            return _error("the game is over")
        try:
            self.state.push(move)
        except IllegalMoveError as exc:
            return _error(str(exc))
        engine = self.state.engine
        result = _RESULTS.get(engine.result)
        if result is None:
            return MoveResponse(MoveResult.OK, _OK_MESSAGE)
        if result is MoveResult.DRAW:
            return MoveResponse(result, f"Draw: {engine.reason}")
        winner = "BLUE" if result is MoveResult.BLUE_WON else "RED"
        return MoveResponse(result, f"{winner} wins: {engine.reason}")

    def _name(self, creature: Any) -> str | None:
        if isinstance(creature, Enum):
            creature = creature.name
        if not isinstance(creature, str):
            return None
        name = creature.strip().upper()
        return name if name in self.state.engine.kind_index else None

    def _unknown(self, creature: Any) -> str:
        known = ", ".join(self.state.engine.names)
        return f"there is no creature {creature!s} in this game (creatures: {known})"

    # -- queries -----------------------------------------------------------------------
    def get_creature_at(self, x: int, y: int) -> str | None:
        """Name of the top creature on (x, y), or None if the hex is empty."""
        stack = self.state.stack_at(x, y)
        return stack[-1][0] if stack else None

    def is_occupied(self, x: int, y: int) -> bool:
        """True if any creature is on (x, y)."""
        return self.state.engine.is_occupied(key_of(x, y))

    def has_property(self, x: int, y: int, prop: Any) -> bool:
        """True if the top creature on (x, y) has that property (QUEEN for the butterfly;
        TRAPPING for a bare intruder when ``intruding_traps_by_default`` is set)."""
        stack = self.state.stack_at(x, y)
        if not stack:
            return False
        if isinstance(prop, Enum):
            prop = prop.name
        if not isinstance(prop, str):
            return False
        ctype = self.config.creature(stack[-1][0])
        assert ctype is not None
        return prop.strip().upper() in ctype.effective_properties(self.config.rules)

    def can_reach(self, x1: int, y1: int, x2: int, y2: int) -> bool:
        """True if (x2, y2) is within the max distance of the creature on (x1, y1).

        Only the hex distance is compared (the course's Submission-1 query): no path, turn
        or rule check. False if (x1, y1) is empty.
        """
        stack = self.state.stack_at(x1, y1)
        if not stack:
            return False
        ctype = self.config.creature(stack[-1][0])
        assert ctype is not None
        return hex_distance(key_of(x1, y1), key_of(x2, y2)) <= ctype.max_distance

    def stack_at(self, x: int, y: int) -> list[tuple[str, str]]:
        """(creature, "BLUE"|"RED") for each creature on (x, y), bottom first."""
        return self.state.stack_at(x, y)

    def in_hand(self, player: Any, creature: Any) -> int:
        """How many creatures of that type the player still has to place (0 if none)."""
        if isinstance(player, Enum):
            player = player.name
        if not isinstance(player, str) or player.strip().upper() not in PLAYERS:
            raise ValueError(f"unknown player {player!r} (expected BLUE or RED)")
        name = self._name(creature)
        if name is None:
            return 0
        engine = self.state.engine
        return engine.in_hand(PLAYERS.index(player.strip().upper()), engine.kind_index[name])

    # -- extras beyond the course API ----------------------------------------------------
    @property
    def player_to_act(self) -> str:
        """"BLUE" or "RED"."""
        return PLAYERS[self.state.current_player]

    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.state.is_over()

    def render(self) -> str:
        """The board as text."""
        return self.state.render()


def build_game_manager(config: str | Path | HexAroundConfig, **rules: Any) -> GameManager:
    """A game manager for a configuration file (``.yaml``, ``.yml`` or ``.hgc``).

    Keyword arguments override the file's rule options, e.g. ``kamikaze_survives=True``.
    A bad file raises :class:`hexkit.ConfigError` (a ValueError) naming file:line of every
    problem.
    """
    cfg = config if isinstance(config, HexAroundConfig) else load_config(config)
    if rules:
        cfg = cfg.with_rules(**rules)
    return GameManager(cfg)
