"""The ``hive`` bot: alpha-beta search (negamax, iterative deepening, a time budget) with a
Hive evaluation: pressure on each Queen, pieces pinned by the one-hive rule, buried under a
stack or boxed in, and the worth of the pieces free to move. ``hexkit uhp``'s ``bestmove``
uses it.

The search runs on a copy of the state's :class:`~hive.engine.HiveEngine` (its actions,
apply and undo, its stacks and cut-vertex analysis), never through the generic API's move
objects: it is the hot loop.
"""

from __future__ import annotations

import math
import random
import time
from typing import Any

from hexaround.hexgrid import OFFSETS

from hexkit.errors import HexkitError, OptionError
from hive.engine import BLACK_WON, DRAW, ONGOING, WHITE_WON
from hive.moves import ANT, BEETLE, GRASSHOPPER, LADYBUG, MOSQUITO, PILLBUG, QUEEN, SPIDER

WIN = 1_000_000
#: What each bug type is worth when free to move (pinned or buried, it is lost for now).
BUG_VALUE = {QUEEN: 14, ANT: 11, BEETLE: 8, MOSQUITO: 9, GRASSHOPPER: 5, SPIDER: 4,
             LADYBUG: 7, PILLBUG: 7}
#: Score of 0..6 pieces around a Queen (6 ends the game).
QUEEN_PRESSURE = (0, 6, 16, 34, 62, 110, 200)
#: Penalty for a root move back into a position the game has already seen (no shuffling).
REPEAT_PENALTY = 25
#: Bugs that leave a hex with five occupied neighbours anyway (over the top or by a jump).
_CLIMBERS = frozenset({BEETLE, GRASSHOPPER, MOSQUITO})
_POPCOUNT = tuple(bin(m).count("1") for m in range(64))
_AROUND = frozenset(OFFSETS)


def evaluate(engine: Any) -> int:
    """The position's score for the player to move: Queen pressure, pinned, buried and
    boxed-in pieces, the worth of free pieces."""
    stacks = engine.stacks
    nmask = engine.nmask
    code_type = engine.code_type
    cuts = engine.analysis().sep
    score = [0, 0]
    for colour in (0, 1):
        queen = engine.bpos[colour]
        if queen is None:
            continue
        around = 0.0
        for offset in OFFSETS:
            near = queen + offset
            stack = stacks.get(near)
            if not stack:
                continue
            # A friendly piece that can walk away is half a threat; anything else stays.
            if stack[-1] & 1 == colour and len(stack) == 1 and near not in cuts:
                around += 0.5
            else:
                around += 1.0
        whole = int(around)
        pressure = QUEEN_PRESSURE[whole]
        if around > whole:
            pressure += (QUEEN_PRESSURE[min(whole + 1, 6)] - pressure) // 2
        score[colour] -= pressure
    for key, stack in stacks.items():
        if not stack:
            continue
        top = stack[-1]
        owner = top & 1
        if len(stack) > 1:
            # Buried pieces are stuck while the stack stands; the piece on top holds them.
            for buried in stack[:-1]:
                score[buried & 1] -= BUG_VALUE[code_type[buried]] // 2
            score[owner] += 3
            continue
        value = BUG_VALUE[code_type[top]]
        if key in cuts:
            score[owner] -= value // 2
        elif _POPCOUNT[nmask.get(key, 0)] >= 5 and code_type[top] not in _CLIMBERS:
            score[owner] -= value // 3
        else:
            score[owner] += value // 2
    me = engine.to_move
    return score[me] - score[1 - me]


class _OutOfTime(Exception):
    pass


class HiveBot:
    """Alpha-beta search with iterative deepening; ``seconds`` and/or ``depth`` bound it.

    :meth:`best_move` serves UHP ``bestmove``; :meth:`choose` serves hexkit's seats."""

    def __init__(self, seconds: float | None = 1.0, depth: int | None = None,
                 seed: int | None = None):
        self.seconds = seconds
        self.depth = depth
        self.rng = random.Random(seed)
        self.nodes = 0
        #: Depth reached and score of the last search (for benchmarks and the curious).
        self.last_depth = 0
        self.last_score = 0
        self._deadline: float | None = None
        self._seen: set[str] = set()

    def choose(self, state: Any) -> Any:
        """The bot's move in ``state`` (left as it was)."""
        return self.best_move(state, seconds=self.seconds, depth=self.depth)

    def best_move(self, state: Any, *, seconds: float | None = None,
                  depth: int | None = None) -> Any:
        """Search for at most ``seconds`` and ``depth`` plies (None: no limit of that kind;
        neither given: one second); the best move of the deepest finished depth."""
        moves = list(state.legal_moves())
        if not moves:
            raise HexkitError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        if seconds is None and depth is None:
            seconds = 1.0
        started = time.perf_counter()
        self._deadline = None if seconds is None else started + seconds * 0.9
        self.nodes = 0
        engine = state.engine.clone()
        actions = [state.action_of(m) for m in moves]
        self._seen = _earlier_positions(engine)
        order = list(range(len(moves)))
        self.rng.shuffle(order)  # equal scores go to a random move, not the first listed
        order = _ordered(engine, actions, order)
        best = order[0]
        for d in range(1, (depth or 64) + 1):
            try:
                score, index = self._root(engine, actions, order, d)
            except _OutOfTime:
                break
            best = index
            self.last_depth, self.last_score = d, score
            order.remove(index)
            order.insert(0, index)
            if abs(score) >= WIN // 2:
                break  # a forced result: deeper search cannot change it
        return moves[best]

    def _root(self, engine: Any, actions: list[Any], order: list[int],
              depth: int) -> tuple[int, int]:
        alpha, beta = -WIN - 1, WIN + 1
        best_index = order[0]
        seen = self._seen
        for index in order:
            engine.legal_actions()
            engine.apply(actions[index])
            try:
                penalty = REPEAT_PENALTY if engine.position_key() in seen else 0
                score = -self._search(engine, depth - 1, -beta, -alpha - penalty, 1) - penalty
            finally:
                engine.undo()
            if score > alpha:
                alpha, best_index = score, index
        return alpha, best_index

    def _search(self, engine: Any, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.nodes += 1
        if self._deadline is not None and self.nodes & 127 == 0 and \
                time.perf_counter() > self._deadline:
            raise _OutOfTime
        result = engine.result
        if result != ONGOING:
            if result == DRAW:
                return 0
            winner = 0 if result == WHITE_WON else 1 if result == BLACK_WON else -1
            # Sooner wins score higher, later losses lower.
            return WIN - ply if winner == engine.to_move else -WIN + ply
        if depth <= 0:
            return evaluate(engine)
        actions = engine.legal_actions()
        apply, undo = engine.apply, engine.undo
        for index in _ordered(engine, actions, range(len(actions))):
            apply(actions[index])
            try:
                score = -self._search(engine, depth - 1, -beta, -alpha, ply + 1)
            finally:
                undo()
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha


def _earlier_positions(engine: Any) -> set[str]:
    """The position keys of every position before this one in the game."""
    back = engine.clone()
    seen = set()
    while back.history:
        back.undo()
        seen.add(back.position_key())
    return seen


def _ordered(engine: Any, actions: list[Any], indices: Any) -> list[int]:
    """Likely good actions first: next to the enemy Queen, then away from one's own; a
    piece that leaves the enemy Queen's side last."""
    me = engine.to_move
    enemy = engine.bpos[1 - me]
    own = engine.bpos[me]
    if enemy is None and own is None:
        return list(indices)
    keyed = []
    for i in indices:
        code, src, dst = actions[i]
        key = 0
        if code >= 0:
            if enemy is not None and dst - enemy in _AROUND:
                key -= 3
            if src is not None:
                if own is not None and src - own in _AROUND:
                    key -= 1
                if enemy is not None and src - enemy in _AROUND:
                    key += 3
        keyed.append((key, i))
    keyed.sort()
    return [i for _, i in keyed]


def playout_evaluate(state: Any) -> tuple[float, float]:
    """MCTS's score of an unfinished playout (White's, Black's share, summing to 1): the
    evaluation, squashed by a logistic curve (40 points is about 3 to 1)."""
    engine = state.engine
    score = evaluate(engine)
    white = score if engine.to_move == 0 else -score
    share = 1.0 / (1.0 + math.exp(-max(-600.0, min(600.0, white / 36.0))))
    return share, 1.0 - share


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
    budget: dict[str, float | int] = {}
    for item in (arg or "").split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        if not eq or key not in BUDGET_KEYS:
            raise OptionError(f"hive bot: unknown setting {item!r} (time=S, depth=N)")
        budget[key] = parse_budget("hive bot", key, value)
    if not budget:
        return 1.0, None
    return budget.get("time"), budget.get("depth")  # type: ignore[return-value]


def hive_bot_factory(game: Any, arg: str | None, seed: int | None) -> HiveBot:
    """``hive``, ``hive:time=S``, ``hive:depth=N``."""
    if getattr(game, "name", None) != "hive":
        raise OptionError(f"the hive bot plays Hive only, not {getattr(game, 'name', game)}")
    seconds, depth = parse_bot_arg(arg)
    return HiveBot(seconds=seconds, depth=depth, seed=seed)
