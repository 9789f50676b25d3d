"""Hive's help for the bots: how the MCTS bot (``--p2 mcts``) scores an unfinished playout.

The playout policy itself is registered by plugin.py (by reference, so registering imports
none of this): short random playouts (a random Hive game wanders), then
:func:`playout_evaluate` scores the position with the ``hive`` bot's evaluation; the
tactical layer finds a Queen surrounded in one through HexAround's ``may_win`` (Hive runs
on HexAround's engine); the named levels are the ``hive`` bot's own
(:data:`hive.services.LEVELS`).
"""

from __future__ import annotations

import math
from typing import Any

from hive.evaluation import evaluate


def playout_evaluate(state: Any) -> tuple[float, float]:
    """MCTS's score of an unfinished playout (White's, Black's share, summing to 1): the
    evaluation, squashed by a logistic curve (40 points is about 3 to 1)."""
    engine = state.engine
    score = evaluate(engine)
    white = score if engine.to_move == 0 else -score
    share = 1.0 / (1.0 + math.exp(-max(-600.0, min(600.0, white / 36.0))))
    return share, 1.0 - share
