"""A game's help for the MCTS bot: playout move choice, evaluation and playout depth.

A plugin registers a :class:`PlayoutPolicy` per game through
``hexkit_register_playout_policies`` (see :mod:`hexkit.hookspecs`); the hook is called once
at start-up. ``choose`` and ``evaluate`` may be given as ``"package.module:function"`` so
that registering them imports nothing: they are imported when an MCTS bot is built.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from hexkit.game import Move, State, import_object

#: ``choose(state, legal_moves, rng) -> move`` picks a playout move.
PlayoutChooser = Callable[[State, Sequence[Move], random.Random], Move]
#: ``evaluate(state) -> per-seat rewards in 0..1`` scores an unfinished playout.
Evaluator = Callable[[State], Sequence[float]]


@dataclass(frozen=True)
class PlayoutPolicy:
    """A game's help for MCTS, registered by the game's plugin.

    ``game`` is the registered game name it applies to. ``choose`` replaces the uniform
    random playout move; ``evaluate`` scores a position when a playout stops at ``depth``
    moves (per seat, 0..1, e.g. a material estimate) instead of calling it a draw;
    ``depth`` overrides the default playout length. Each is optional; ``choose`` and
    ``evaluate`` may be ``"package.module:function"`` references.
    """

    game: str
    choose: PlayoutChooser | str | None = None
    evaluate: Evaluator | str | None = None
    depth: int | None = None
    plugin: str = ""

    def resolved(self) -> PlayoutPolicy:
        """This policy with its function references imported."""
        choose, evaluate = self.choose, self.evaluate
        if isinstance(choose, str):
            choose = import_object(choose)
        if isinstance(evaluate, str):
            evaluate = import_object(evaluate)
        return replace(self, choose=choose, evaluate=evaluate)
