"""Build Hive positions for rule tests: a board of stacks, whose turn, the frozen piece."""

from __future__ import annotations

import random
from collections.abc import Mapping

from hexaround.hexgrid import coords_of
from hive.game import HiveState

import hexkit
from hexkit.game import rng_to_json


def position(board: Mapping[tuple[int, int], str], to_move: str = "w",
             last: str | None = None, expansions: str = "MLP",
             repetition_draw: bool = False) -> HiveState:
    """A state with ``board`` ({(q, r): "bA1" or "wQ bB1" bottom first}), ``to_move`` "w" or
    "b" to play, ``last`` the piece moved on the previous turn (frozen)."""
    game = hexkit.load_game("hive", expansions=expansions, repetition_draw=repetition_draw)
    cells = [[q, r, names.split()] for (q, r), names in board.items()]
    placed = {"w": 0, "b": 0}
    for names in board.values():
        for name in names.split():
            placed[name[0]] += 1
    n = max(6, placed["w"], placed["b"] + 1)
    actions = [n, n] if to_move == "w" else [n, n - 1]
    data = {"game_type": game.game_type, "board": cells, "actions": actions, "last": last,
            "result": "InProgress", "reason": "", "moves": [],
            "rng": rng_to_json(random.Random(0))}
    return game.state_from_dict(data)


def destinations(state: HiveState, piece: str) -> set[tuple[int, int]]:
    """Where ``piece`` may end up among the legal actions (its moves and throws)."""
    engine = state.engine
    code = engine.code_of[piece]
    return {coords_of(d) for c, _, d in engine.legal_actions() if c == code}


def movers(state: HiveState) -> set[str]:
    """Names of the pieces on the board that some legal action moves."""
    engine = state.engine
    return {engine.code_name[c] for c, s, _ in engine.legal_actions() if s is not None}


def play(state: HiveState, piece: str, to: tuple[int, int]) -> None:
    """Push the legal action that puts ``piece`` on ``to`` (by its canonical MoveString)."""
    from hexaround.hexgrid import key_of
    from hive import notation

    engine = state.engine
    action = engine.action_for(engine.code_of[piece], key_of(*to))
    state.push(notation.move_string(engine, action))


#: A reference position (MzingaCpp's random game) where White has one winning move,
#: wA3 bM\\ (Black's Queen's last free neighbour), among 45.
WIN_IN_ONE = (
    r"Base+M;InProgress;White[20];wB1;bA1 wB1-;wS1 \wB1;bQ bA1-;wM /wB1;bM \bQ;wQ /wM;"
    r"bS1 bQ-;wA1 \wS1;bB1 bQ\;wA1 wS1/;bS2 bB1\;wA1 bS1/;bM -wA1;wS2 wQ\;bG1 -bM;"
    r"wB2 wS1/;bS1 bS2\;wA1 \wB2;bA2 bS1-;wA1 bA1\;bA2 bM-;wG1 /wS2;bA3 \bM;wA2 -wQ;"
    r"bA2 -wM;wA3 wB2/;bB2 bS1/;wA2 wB1\;bA2 bA3/;wA3 -bA2;bS1 wA2\;wG2 -wB2;bA2 wA1\;"
    r"wG3 -wM;bA2 /wG2;wB2 -bG1;bG2 -bA2"
)
