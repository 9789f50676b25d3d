"""Helpers for the HexAround tests: write a configuration, build a game manager, set up a
position directly (for rules that need a particular board)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from hexaround import MoveResult, build_game_manager
from hexaround.manager import GameManager

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO / ".." / "shared"
CONFIGS = REPO / "configs" / "hexaround"

COURSE_RULES = {"butterfly_deadline_blocks_moves": False, "kamikaze_survives": True}

#: A small menagerie used by many rule tests: one creature type per feature.
CREATURES = {
    "BUTTERFLY": {"max_distance": 1, "properties": ["WALKING", "QUEEN"]},
    "CRAB": {"max_distance": 3, "properties": ["WALKING"]},
    "SPIDER": {"max_distance": 2, "properties": ["WALKING"]},
    "HORSE": {"max_distance": 3, "properties": ["RUNNING"]},
    "DOVE": {"max_distance": 3, "properties": ["FLYING"]},
    "FROG": {"max_distance": 3, "properties": ["JUMPING"]},
    "TURTLE": {"max_distance": 2, "properties": ["WALKING", "INTRUDING"]},
    "BEETLE": {"max_distance": 1, "properties": ["WALKING", "TRAPPING"]},
    "CUCKOO": {"max_distance": 3, "properties": ["FLYING", "SWAPPING"]},
    "WASP": {"max_distance": 3, "properties": ["FLYING", "KAMIKAZE"]},
    "HEN": {"max_distance": 1, "properties": ["WALKING", "HATCHING"]},
}
STOCK = {"BUTTERFLY": 1, "CRAB": 4, "SPIDER": 2, "HORSE": 2, "DOVE": 3, "FROG": 2, "TURTLE": 2,
         "BEETLE": 2, "CUCKOO": 2, "WASP": 2, "HEN": 2}


def write_config(folder: Path, creatures: dict[str, Any] | None = None,
                 players: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
                 name: str = "test.yaml") -> Path:
    """Write a YAML configuration and return its path."""
    data: dict[str, Any] = {
        "creatures": creatures if creatures is not None else CREATURES,
        "players": players if players is not None else {"BLUE": STOCK, "RED": STOCK},
    }
    if rules:
        data["rules"] = rules
    path = folder / name
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


def manager(folder: Path, **kwargs: Any) -> GameManager:
    """A game manager for a configuration written with :func:`write_config`."""
    return build_game_manager(write_config(folder, **kwargs))


def position(folder: Path, board: dict[tuple[int, int], list[tuple[str, str]]],
             to_move: str = "BLUE", turns: int = 5, **kwargs: Any) -> GameManager:
    """A game manager whose board is set up directly (bottom-first stacks per hex).

    Each player has made about ``turns`` actions (so the butterfly deadline has passed);
    hands hold the stock minus what is on the board."""
    gm = manager(folder, **kwargs)
    on_board: Counter[tuple[str, str]] = Counter()
    for stack in board.values():
        for creature, player in stack:
            on_board[(creature, player)] += 1
    hands = {}
    for player in ("BLUE", "RED"):
        stock = gm.config.stocks[player]
        hands[player] = {c: stock[c] - on_board[(c, player)] for c in stock}
        assert min(hands[player].values()) >= 0, f"{player} does not have those creatures"
    blue, red = (turns, turns) if to_move == "BLUE" else (turns + 1, turns)
    data = {
        "board": [[x, y, [list(p) for p in stack]] for (x, y), stack in sorted(board.items())],
        "hands": hands,
        "actions": [blue, red],
        "result": "ONGOING",
        "reason": "",
        "rng": gm.state.to_dict()["rng"],
    }
    gm.state = gm.game.state_from_dict(data)
    return gm


def play(gm: GameManager, *steps: tuple[Any, ...]) -> None:
    """Run ('place', name, x, y) / ('move', name, fx, fy, tx, ty) steps that must be OK."""
    for step in steps:
        kind, *args = step
        response = gm.place_creature(*args) if kind == "place" else gm.move_creature(*args)
        assert response.move_result is MoveResult.OK, (step, response)


def refused(response: Any, *words: str) -> None:
    """Assert a MOVE_ERROR whose message contains every given word (case-insensitive)."""
    assert response.move_result is MoveResult.MOVE_ERROR, response
    assert response.message, "a refused request must say why"
    for word in words:
        assert word.lower() in response.message.lower(), (word, response.message)


@pytest.fixture
def shared_dir() -> Path:
    """The course material beside the repository (CI clones it as ../shared)."""
    if not (SHARED / "reference" / "hexaround").is_dir():
        pytest.skip("the shared course material is not beside the repository")
    return SHARED
