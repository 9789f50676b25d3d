"""Short games to play by clicking in the browser tests: games of each built-in game that
end within a few dozen moves, found by a quick search with the rules (the web layer knows
no game; only these tests pick variants and moves that end fast)."""

from __future__ import annotations

import random
from typing import Any

from hexkit import plugins
from hexkit.game import Game, State

#: (game name, options, seed) of a short variant of each built-in game (and Hive, where
#: it is installed).
SHORT_VARIANTS: dict[str, tuple[dict[str, Any], int]] = {
    "focus": ({"captures_to_win": "1", "max_height": "2"}, 3),
    "hexbaron": ({"max_turns": "1"}, 5),
    "hexaround": ({"config": "level1"}, 1),
}
if "hive" in plugins.registry().games:
    SHORT_VARIANTS["hive"] = ({}, 1)

_NEIGHBOURS = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))


def _queen_pressure(state: State) -> int:
    """Hive: how many hexes around the queens are taken (from the game's picture)."""
    cells = state.view().cells
    taken = {c.at for c in cells if c.pieces}
    return sum((c.at[0] + dq, c.at[1] + dr) in taken for c in cells
               if any("Q" in p.text for p in c.pieces) for dq, dr in _NEIGHBOURS)


def _butterfly_pressure(state: State) -> int:
    """HexAround: how many creatures touch a butterfly (both players' together)."""
    engine = state.engine  # type: ignore[attr-defined]
    total = 0
    for x, y in ((x, y) for x, y in _cells(state) if _is_butterfly(state, x, y)):
        for dx, dy in ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1)):
            total += bool(state.stack_at(x + dx, y + dy))  # type: ignore[attr-defined]
    del engine
    return total


def _cells(state: State) -> list[tuple[int, int]]:
    return [c.at for c in state.view().cells if c.pieces]


def _is_butterfly(state: State, x: int, y: int) -> bool:
    return any(name == "BUTTERFLY" for name, _ in state.stack_at(x, y))  # type: ignore[attr-defined]


def short_game(name: str, limit: int = 60) -> tuple[Game, int, list[str]]:
    """A game, its seed and moves that end it within ``limit`` moves."""
    options, seed = SHORT_VARIANTS[name]
    game = plugins.load_game(name, **options)
    for attempt in range(200):
        rng = random.Random(attempt)
        state = game.new_state(seed)
        moves: list[str] = []
        while not state.is_over() and len(moves) < limit:
            legal = list(state.legal_moves())
            rng.shuffle(legal)
            best, best_score = legal[0], None
            for move in legal[:80]:
                state.push(move)
                pressure = (_butterfly_pressure(state) if name == "hexaround" else
                            _queen_pressure(state) if name == "hive" else 0)
                score = (state.is_over(), pressure)
                state.pop()
                if best_score is None or score > best_score:
                    best, best_score = move, score
            moves.append(str(best))
            state.push(best)
        if state.is_over():
            return game, seed, moves
    raise AssertionError(f"no short game of {name} found")
