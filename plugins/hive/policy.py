"""Hive's help for the bots: the MCTS playout policy (``--p2 mcts``), registered through
hexkit's hook (plugin.py re-exports the hookimpl). Registering imports no rules: the
evaluation and the tactical layer are named by reference and imported when a bot plays.

Short random playouts (a random Hive game wanders), then the ``hive`` bot's evaluation
(:func:`hive.bot.playout_evaluate`) scores the position; the tactical layer finds a Queen
surrounded in one through HexAround's ``may_win`` (Hive runs on HexAround's engine); the
named levels are the ``hive`` bot's own (:data:`hive.services.LEVELS`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from hexkit.bots.policy import PlayoutPolicy
from hexkit.hookspecs import hookimpl
from hive.services import LEVELS

#: Plies of a random playout before the evaluation scores the position.
PLAYOUT_DEPTH = 10

HIVE_PLAYOUTS = PlayoutPolicy("hive", evaluate="hive.bot:playout_evaluate",
                              depth=PLAYOUT_DEPTH, may_win="hexaround.policy:may_win",
                              levels=LEVELS)


@hookimpl
def hexkit_register_playout_policies(register: Callable[[Any], None]) -> None:
    """Register :data:`HIVE_PLAYOUTS` for the game ``hive``."""
    register(HIVE_PLAYOUTS)
