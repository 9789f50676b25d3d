"""Positions for the bot tests, each built by a few moves or set up directly."""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import hexkit
from hexkit.game import State, rng_to_json

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def hexaround_state(board: dict[tuple[int, int], list[tuple[str, str]]],
                    to_move: str = "BLUE", empty_hand: str | None = None) -> State:
    """A HexAround level3 position with ``board`` (bottom-first stacks), each player past
    the butterfly deadline, hands holding the rest of the stock (none for ``empty_hand``)."""
    game = hexkit.load_game("hexaround")
    stock = game.new_state(seed=0).to_dict()["hands"]
    used: Counter[tuple[str, str]] = Counter(p for stack in board.values() for p in stack)
    hands = {player: {name: 0 if player == empty_hand else n - used[(name, player)]
                      for name, n in kinds.items()}
             for player, kinds in stock.items()}
    actions = [6, 6] if to_move == "BLUE" else [7, 6]
    return game.state_from_dict({
        "board": [[x, y, [list(p) for p in stack]] for (x, y), stack in sorted(board.items())],
        "hands": hands, "actions": actions, "result": "ONGOING", "reason": "",
        "rng": rng_to_json(random.Random(0)),
    })


def butterfly_crowding(state: State, seat: int) -> int:
    """How many of the six hexes around ``seat``'s butterfly are taken."""
    engine = state.engine  # type: ignore[attr-defined]
    return engine.crowding(engine.butterfly_at(seat))


#: BLUE's butterfly on (0, 0) has five of its six neighbours taken; RED's DUCK on (3, 0)
#: can fly to the last one, (0, 1). BLUE must free a neighbour.
BLUE_THREATENED = {
    (0, 0): [("BUTTERFLY", "BLUE")], (1, 0): [("TURTLE", "RED")], (1, -1): [("HORSE", "RED")],
    (0, -1): [("GRASSHOPPER", "BLUE")], (-1, 0): [("RABBIT", "RED")],
    (-1, 1): [("HORSE", "BLUE")], (2, 0): [("BUTTERFLY", "RED")], (3, 0): [("DUCK", "RED")],
}
#: The same with the colours swapped and BLUE to move: BLUE's DUCK wins at (0, 1).
RED_SURROUNDABLE = {
    hexes: [(name, "RED" if player == "BLUE" else "BLUE") for name, player in stack]
    for hexes, stack in BLUE_THREATENED.items()
}

#: RED has nothing left in hand and only its butterfly on the board, on (0, 1) beside BLUE's
#: on (0, 0): it can still walk. BLUE's DUCK on (-1, 0) flies to a hex next to RED's
#: butterfly alone ((1, 1), (0, 2) or (-1, 2)), which then holds the colony together and may
#: not move: RED can neither place nor move, and loses (HexAround's stuck rule).
RED_STRANDABLE = {
    (0, 0): [("BUTTERFLY", "BLUE")], (-1, 0): [("DUCK", "BLUE")],
    (0, 1): [("BUTTERFLY", "RED")],
}
#: BLUE has nothing left in hand; 5 of its 12 moves let RED's butterfly or DUCK pin both of
#: BLUE's creatures (each would split the colony), leaving BLUE no action.
BLUE_STRANDABLE = {
    (0, 0): [("BUTTERFLY", "BLUE")], (-1, 1): [("BUTTERFLY", "RED")],
    (1, 0): [("DUCK", "RED")], (-1, 2): [("TURTLE", "BLUE")],
}
