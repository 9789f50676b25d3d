"""The ``hive`` bot: the search of :mod:`hive.search` (iterative deepening PVS with a
transposition table, killer and history ordering, quiescence on Queen-surround threats)
over the evaluation of :mod:`hive.evaluation`, bounded by a time and/or a depth, and five
levels for people (``hive:level=1`` for beginners ... ``hive:level=5``). ``hexkit uhp``'s
``bestmove`` uses it.

The search runs on a copy of the state's :class:`~hive.engine.HiveEngine` (its actions,
apply and undo, its stacks and cut-vertex analysis), never through the generic API's move
objects: it is the hot loop.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any

from hexkit.errors import HexkitError, OptionError
from hive.evaluation import WIN
from hive.search import WON, OutOfTime, Search, position_hash

#: Seconds kept back from a time budget for answering (the search stops this early).
MARGIN = 0.01


@dataclass(frozen=True)
class Level:
    """A difficulty level: a search budget and how much noise blurs its choice."""

    number: int
    seconds: float | None
    depth: int | None
    #: Root moves within this many points of the best are picked among at random
    #: (weighted towards the best); 0 plays the best.
    noise: int
    about: str


#: The levels, weakest first: a beginner can beat level 1 (one ply, a blurred choice; it
#: still takes a win in one), level 5 thinks 3 seconds a move.
LEVELS: tuple[Level, ...] = (
    Level(1, 1.0, 1, 90, "one ply and a blurred choice: for beginners"),
    Level(2, 1.0, 2, 25, "two plies, a little blurred"),
    Level(3, 1.0, 3, 0, "three plies (at most a second)"),
    Level(4, 1.0, None, 0, "iterative deepening for a second a move"),
    Level(5, 3.0, None, 0, "iterative deepening for 3 seconds a move"),
)


class HiveBot:
    """The ``hive`` bot; ``seconds`` and/or ``depth`` bound its search, ``noise`` blurs
    its choice (see :class:`Level`).

    :meth:`best_move` serves UHP ``bestmove``; :meth:`choose` serves hexkit's seats. The
    transposition table is kept from move to move."""

    def __init__(self, seconds: float | None = 1.0, depth: int | None = None,
                 seed: int | None = None, noise: int = 0,
                 clock: Any = time.perf_counter):
        #: The clock the time budget is read on (seconds; tests give a fake one).
        self.clock = clock
        self.seconds = seconds
        self.depth = depth
        self.noise = noise
        self.rng = random.Random(seed)
        self.nodes = 0
        #: Depth reached and score of the last search (for benchmarks and the curious).
        self.last_depth = 0
        self.last_score = 0
        self._table: dict[int, Any] = {}

    def choose(self, state: Any) -> Any:
        """The bot's move in ``state`` (left as it was)."""
        return self.best_move(state, seconds=self.seconds, depth=self.depth)

    def best_move(self, state: Any, *, seconds: float | None = None,
                  depth: int | None = None) -> Any:
        """Search for at most ``seconds`` and ``depth`` plies (None: no limit of that kind;
        neither given: one second); the best move of the deepest search finished (or of
        the unfinished one, among the moves it finished)."""
        started = self.clock()
        moves = list(state.legal_moves())
        if not moves:
            raise HexkitError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        if seconds is None and depth is None:
            seconds = 1.0
        engine = state.engine.clone()
        actions = [state.action_of(m) for m in moves]
        by_action = dict(zip(actions, moves, strict=True))
        search = Search(engine, table=self._table, history_keys=_earlier_hashes(engine))
        search.clock = self.clock
        if seconds is not None:
            search.deadline = started + max(0.0, seconds - MARGIN)
        self.rng.shuffle(actions)  # equal scores go to a random move, not the first listed
        entry = self._table.get(search.key())
        order = search.ordered(actions, entry[3] if entry else None, 0)
        best = order[0]
        self.last_depth, self.last_score = 0, 0
        scores: list[tuple[int, Any]] = []
        for d in range(1, (depth or 64) + 1):
            try:
                if self.noise:
                    score, best, scores = self._exact_root(search, order, d)
                else:
                    score, best, scores = search.root(order, d)
            except OutOfTime:
                score, partial_best, partial = search.partial
                if partial:
                    best, scores = partial_best, partial
                    self.last_score = score
                break
            self.last_depth, self.last_score = d, score
            # The best first, then the others by their scores (stable for equal ones).
            ranked = sorted(scores, key=lambda item: -item[0])
            order = [best] + [a for _, a in ranked if a != best]
            if abs(score) >= WON:
                break  # a forced result: deeper search cannot change it
        self.nodes = search.nodes
        if self.noise and scores:
            best = self._blurred(scores)
        return by_action[best]

    @staticmethod
    def _exact_root(search: Search, order: list[Any],
                    depth: int) -> tuple[int, Any, list[tuple[int, Any]]]:
        """Every root move's exact score (for a blurred choice)."""
        scores: list[tuple[int, Any]] = []
        search.partial = (-WIN - 1, order[0], scores)
        for action in order:
            search.push(action)
            try:
                score = -search.pvs(depth - 1, -WIN - 1, WIN + 1, 1)
            finally:
                search.pop()
            scores.append((score, action))
            best = max(scores, key=lambda item: item[0])
            search.partial = (best[0], best[1], scores)
        best = max(scores, key=lambda item: item[0])
        return best[0], best[1], scores

    def _blurred(self, scores: list[tuple[int, Any]]) -> Any:
        """A move within ``noise`` points of the best, the better ones likelier; a win
        found is always taken, a loss found is never chosen over a move that avoids it."""
        top = max(s for s, _ in scores)
        if top >= WON:
            return next(a for s, a in scores if s == top)
        pool = [(s, a) for s, a in scores if s >= top - self.noise and s > -WON]
        if not pool:  # every move loses: the one that loses latest
            return next(a for s, a in scores if s == top)
        weights = [math.exp(-(top - s) / max(1, self.noise / 3)) for s, _ in pool]
        return self.rng.choices([a for _, a in pool], weights)[0]


def _earlier_hashes(engine: Any) -> set[int]:
    """The hashes of every position before this one in the game (repetitions)."""
    back = engine.clone()
    seen = set()
    while back.history:
        back.undo()
        seen.add(position_hash(back))
    return seen


#: The settings a search budget takes: ``time=S`` (seconds a move) and ``depth=N`` (plies).
BUDGET_KEYS = ("time", "depth")


def parse_budget(who: str, key: str, value: str) -> float | int:
    """One search-budget setting: ``time`` in (0, 3600] seconds or ``depth`` 1..64.

    Shared by the ``hive`` bot and the ``uhp`` seat; OptionError names ``who``."""
    try:
        if key == "time":
            seconds = float(value)
            if not 0 < seconds <= 3600:  # also refuses nan, which compares false
                raise ValueError
            return seconds
        depth = int(value)
        if not 1 <= depth <= 64:
            raise ValueError
        return depth
    except ValueError:
        wanted = "a time in seconds (0..3600]" if key == "time" else "a depth 1..64"
        raise OptionError(f"{who}: {key}={value.strip()!r} is not {wanted}") from None


def parse_bot_arg(arg: str | None) -> tuple[float | None, int | None]:
    """``time=S``, ``depth=N`` or both (``time=2,depth=4``); default one second."""
    level, seconds, depth = parse_bot_settings(arg)
    if level is not None:
        raise OptionError("hive bot: a level is not a time or depth budget")
    return seconds, depth


#: The default level of ``--p2 hive``.
DEFAULT_LEVEL = 4


def parse_bot_settings(arg: str | None) -> tuple[Level | None, float | None, int | None]:
    """``level=N`` (1..5, or ``N`` alone), ``time=S``, ``depth=N`` or time and depth
    together (``time=2,depth=4``); nothing: level 4 (iterative deepening, 1 s a move)."""
    budget: dict[str, float | int] = {}
    level: Level | None = None
    for item in (arg or "").split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq and key.isdigit():
            key, value, eq = "level", key, "="
        if eq and key == "level":
            number = value.strip()
            if not number.isdigit() or not 1 <= int(number) <= len(LEVELS):
                raise OptionError(f"hive bot: level={number[:20]!r} is not a level "
                                  f"(1..{len(LEVELS)})")
            level = LEVELS[int(number) - 1]
            continue
        if not eq or key not in BUDGET_KEYS:
            raise OptionError(f"hive bot: unknown setting {item[:40]!r} (level=1..5, "
                              f"time=S, depth=N)")
        budget[key] = parse_budget("hive bot", key, value)
    if level is not None and budget:
        raise OptionError("hive bot: give a level or a time/depth budget, not both")
    if level is None and not budget:
        return None, 1.0, None
    return level, budget.get("time"), budget.get("depth")  # type: ignore[return-value]


def hive_bot_factory(game: Any, arg: str | None, seed: int | None) -> HiveBot:
    """``hive`` (1 s a move), ``hive:level=1..5``, ``hive:time=S``, ``hive:depth=N``."""
    if getattr(game, "name", None) != "hive":
        raise OptionError(f"the hive bot plays Hive only, not {getattr(game, 'name', game)}")
    level, seconds, depth = parse_bot_settings(arg)
    if level is not None:
        return HiveBot(seconds=level.seconds, depth=level.depth, seed=seed,
                       noise=level.noise)
    return HiveBot(seconds=seconds, depth=depth, seed=seed)
