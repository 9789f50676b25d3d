"""Alpha-beta search for any game that registers an evaluation, through the generic API.

The bot knows no game: it uses ``legal_moves``, ``push``, ``pop``, ``copy``, ``is_over``,
``outcome``, ``current_player`` and ``players``, and the ``evaluate`` function of the game's
:class:`~hexkit.bots.policy.PlayoutPolicy` (the same one MCTS scores its playouts with),
imported once when the bot is built: no pluggy hook is called during a search.

* **Tactics first** (:mod:`hexkit.bots.tactics`): a move that wins at once is played, and
  only the moves that leave the next player no win in one are searched (when some move
  does), whatever the budget.
* **Minimax by seat, not by ply parity**: a node maximises when the seat to act is the
  bot's own and minimises otherwise, so a game where the same player acts several times in
  a row (Hex Baron's three commands a turn) is searched correctly. With three or four seats
  the search is *paranoid*: every other seat is assumed to play against the bot (each
  position is scored by the bot's own share of the evaluation).
* **Iterative deepening under a node budget**: depth 1, 2, 3... until ``nodes`` positions
  have been visited (or ``depth`` is reached); an unfinished iteration keeps what it proved
  (the moves it finished, best first). The budget is counted in positions, not seconds, so
  the bot plays the same move on a loaded machine as on an idle one; a wall-clock cap
  (``time``) is only a safety net.
* **Move ordering**: the root's moves in the order of the last iteration's scores, then at
  every node two killer moves of its ply and the history heuristic.
* **Weaker on purpose** (``random=P``): with chance P a move is drawn at random among
  those the tactics allow instead of searched, as MCTS's easy levels do (so a level leaves
  pieces that a stronger one can take, yet never misses a win or allows a loss in one).
* **Leaves**: a position at the horizon is scored by the evaluation, unless the player to
  act there has a win in one among those the game names cheaply (``may_win``/``quick_win``),
  which scores it as that win (as MCTS's decisive moves do).

There is no transposition table: the generic state gives no cheap hash. The search works
on one copy of the position, pushing and popping moves (no copy per node).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from hexkit.bots.mcts import playout_policy
from hexkit.bots.policy import PlayoutPolicy, function
from hexkit.bots.tactics import Tactics, root_pick
from hexkit.errors import OptionError
from hexkit.game import Game, Move, State

__all__ = ["DEFAULT_NODES", "DEFAULT_SECONDS", "MAX_DEPTH", "MAX_NODES", "AlphaBetaBot",
           "alphabeta_factory", "bot_settings", "parse_arg"]

#: Positions visited per move when ``alphabeta`` is given no budget.
DEFAULT_NODES = 20_000
#: The largest budget a seat spec may ask for (a typo guard).
MAX_NODES = 50_000_000
#: The deepest iteration (plies).
MAX_DEPTH = 64
#: The wall-clock safety net, in seconds a move (the node budget decides the move; this
#: only stops a search the budget would let run far longer than meant).
DEFAULT_SECONDS = 60.0
#: A won position scores WIN less its ply (sooner is better); a lost one LOSS plus its ply.
WIN = 1000.0
LOSS = -1000.0
#: How many times a search reports its progress (``AlphaBetaBot.progress``).
PROGRESS_REPORTS = 100
#: ... and at least once every this many positions.
PROGRESS_EVERY = 2000


class _OutOfBudget(Exception):
    """The node budget or the wall clock ran out: the current iteration stops."""


class AlphaBetaBot:
    """Alpha-beta with iterative deepening: at most ``nodes`` positions a move, iterations
    up to ``depth`` plies, ``seconds`` of the wall clock as a safety net. ``seed`` breaks
    ties between equally scored moves (the same seed and position give the same move).
    ``randomness`` is the chance, at each move, of playing a random move among those the
    tactics allow instead of searching.
    ``progress``, when set, is called as ``progress(done, total)`` about
    :data:`PROGRESS_REPORTS` times during each search; it must not touch the state."""

    def __init__(
        self,
        policy: PlayoutPolicy,
        seed: int | None = None,
        *,
        nodes: int = DEFAULT_NODES,
        depth: int = MAX_DEPTH,
        seconds: float = DEFAULT_SECONDS,
        tactics: bool = True,
        randomness: float = 0.0,
        progress: Callable[[int, int], None] | None = None,
    ):
        evaluate = function(policy.evaluate)
        if evaluate is None:
            raise OptionError(f"alphabeta: {policy.game} registers no evaluation to search "
                              "with (use mcts)")
        if not 1 <= nodes <= MAX_NODES:
            raise OptionError(f"alphabeta: nodes=N needs 1..{MAX_NODES:,} positions a move")
        if not 1 <= depth <= MAX_DEPTH:
            raise OptionError(f"alphabeta: depth=N needs 1..{MAX_DEPTH} plies")
        if not 0.0 < seconds <= 3600.0:  # also refuses nan
            raise OptionError("alphabeta: time=S needs 0 to 3600 seconds a move")
        if not 0.0 <= randomness <= 1.0:  # also refuses nan
            raise OptionError("alphabeta: random=P needs a probability between 0 and 1")
        self.evaluate: Callable[[Any], Sequence[float]] = evaluate
        self.nodes = nodes
        self.depth = depth
        self.seconds = seconds
        self.randomness = randomness
        self.rng = random.Random(seed)
        self.progress = progress
        self.tactics: Tactics | None = Tactics(policy) if tactics else None
        self._quick = self.tactics if self.tactics is not None and self.tactics.cheap \
            else None
        #: What the last search reached (for benchmarks and tests).
        self.visited = 0
        self.reached = 0
        self._root = 0
        self._deadline = 0.0
        self._step = 1
        self._killers: list[list[Move]] = []
        self._history: dict[Move, int] = {}

    # -- the move ----------------------------------------------------------------------------
    def choose(self, state: State) -> Move:
        """The move to play (``state`` is not changed): a win in one if there is one, else
        the best of the moves the tactics allow after the search."""
        legal = list(state.legal_moves())
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        self.visited = self.reached = 0
        if len(legal) == 1:
            return legal[0]
        sim = state.copy()
        tactics = self.tactics
        moves, win = root_pick(tactics, sim, legal, self.rng)
        if win is not None:
            return win
        if self.randomness and self.rng.random() < self.randomness:
            order = list(moves)
            self.rng.shuffle(order)  # the first the tactics confirm: a random safe move
            return order[0] if tactics is None else tactics.first_confirmed(sim, order)
        if len(moves) == 1 and (tactics is None or not tactics.needs_confirm):
            return moves[0]
        ranked = self._search(sim, moves)
        return ranked[0] if tactics is None else tactics.first_confirmed(sim, ranked)

    # -- the search --------------------------------------------------------------------------
    def _search(self, sim: State, moves: list[Move]) -> list[Move]:
        """``moves`` best first: those the deepest iteration finished by their scores, then
        the rest in the order of the iteration before."""
        self._root = sim.current_player
        self._deadline = time.monotonic() + self.seconds
        # Reports (and wall-clock checks) at least every PROGRESS_EVERY positions, so a
        # caller's deadline (the web's bot pool raises from ``progress``) is kept.
        self._step = max(1, min(self.nodes // PROGRESS_REPORTS, PROGRESS_EVERY))
        self._killers = [[] for _ in range(self.depth + 2)]
        self._history = {}
        order = list(moves)
        self.rng.shuffle(order)  # ties go to a seeded choice, not to the listing order
        for depth in range(1, self.depth + 1):
            scored: list[tuple[float, int, Move]] = []
            alpha = -math.inf
            try:
                for i, move in enumerate(order):
                    value = self._child(sim, move, depth - 1, alpha, math.inf, 1)
                    scored.append((value, i, move))
                    alpha = max(alpha, value)
            except _OutOfBudget:
                pass
            scored.sort(key=lambda s: (-s[0], s[1]))
            done = {i for _, i, _ in scored}
            order = [m for _, _, m in scored] + [m for i, m in enumerate(order) if i not in done]
            if len(scored) < len(order):
                break  # the budget ran out in this iteration
            self.reached = depth
            if alpha >= WIN - MAX_DEPTH - 1 or alpha <= LOSS + MAX_DEPTH + 1:
                break  # a forced win found, or every move loses: deeper changes nothing
        return order

    def _child(self, sim: State, move: Move, depth: int, alpha: float, beta: float,
               ply: int) -> float:
        """The value for the bot of ``move`` played here, searched ``depth`` more plies."""
        self.visited += 1
        if self.visited > self.nodes:
            raise _OutOfBudget
        if self.visited % self._step == 0:
            if time.monotonic() > self._deadline:
                raise _OutOfBudget
            if self.progress is not None:
                self.progress(self.visited, self.nodes)
        sim.push(move)
        try:
            return self._value(sim, depth, alpha, beta, ply)
        finally:
            sim.pop()

    def _value(self, sim: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        if sim.is_over():
            return self._terminal(sim, ply)
        quick = self._quick
        if depth <= 0:
            if quick is not None and quick.named_win(sim) is not None:
                return LOSS + ply + 1 if sim.current_player != self._root else WIN - ply - 1
            return float(self.evaluate(sim)[self._root])
        maximising = sim.current_player == self._root
        moves = self._ordered(sim.legal_moves(), ply)
        killers = self._killers[ply]
        history = self._history
        if maximising:
            best = -math.inf
            for move in moves:
                value = self._child(sim, move, depth - 1, alpha, beta, ply + 1)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            self._cutoff(killers, history, move, depth)
                            break
            return best
        best = math.inf
        for move in moves:
            value = self._child(sim, move, depth - 1, alpha, beta, ply + 1)
            if value < best:
                best = value
                if value < beta:
                    beta = value
                    if alpha >= beta:
                        self._cutoff(killers, history, move, depth)
                        break
        return best

    def _ordered(self, moves: Sequence[Move], ply: int) -> list[Move]:
        """Killer moves of this ply first, then by the history heuristic (stable)."""
        history = self._history
        ordered = sorted(moves, key=lambda m: -history.get(m, 0)) if history else list(moves)
        killers = self._killers[ply] if ply < len(self._killers) else []
        if killers:
            front = [k for k in killers if k in moves]
            if front:
                ordered = front + [m for m in ordered if m not in front]
        return ordered

    @staticmethod
    def _cutoff(killers: list[Move], history: dict[Move, int], move: Move,
                depth: int) -> None:
        history[move] = history.get(move, 0) + depth * depth
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def _terminal(self, sim: State, ply: int) -> float:
        outcome = sim.outcome()
        winners = outcome.winners if outcome is not None else ()
        seats = len(sim.players)
        if not winners or len(winners) == seats:
            return 1.0 / seats
        if self._root in winners:
            return WIN - ply if len(winners) == 1 else 1.0 / len(winners)
        return LOSS + ply


#: The settings of ``alphabeta:...``: name -> keyword.
_SETTINGS = {"nodes": "nodes", "depth": "depth", "time": "seconds", "tactics": "tactics",
             "random": "randomness"}
#: How the settings are written, for messages and the lobby.
SETTINGS_HELP = ("alphabeta:N or alphabeta:nodes=N,depth=D,time=S,random=P,tactics=off (N "
                 f"positions a move, default {DEFAULT_NODES:,}; 20k and 1m are read too)")


def _count(key: str, value: str) -> int:
    text = value.strip().lower()
    scale = {"k": 1000, "m": 1_000_000}.get(text[-1:], 1)
    digits = text[:-1] if scale > 1 else text
    shown = value if len(value) <= 30 else value[:30] + "..."
    if not digits.isdigit() or len(digits) > 12:
        raise OptionError(f"alphabeta: {key}={shown!r} is not a whole number")
    return int(digits) * scale


def parse_arg(arg: str | None) -> dict[str, Any]:
    """``"20000"`` or ``"nodes=20k,depth=4,time=5,tactics=off"`` into AlphaBetaBot keyword
    arguments (OptionError, one line, for anything else)."""
    out: dict[str, Any] = {}
    for part in (arg or "").split(","):
        part = part.strip()
        if not part:
            continue
        key, eq, value = part.partition("=")
        if not eq:
            key, value = "nodes", part
        key = key.strip().lower()
        value = value.strip()
        shown = value if len(value) <= 30 else value[:30] + "..."
        if key not in _SETTINGS:
            raise OptionError(f"alphabeta: unknown setting {key[:30]!r} (use {SETTINGS_HELP})")
        if key == "tactics":
            low = value.lower()
            if low not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
                raise OptionError(f"alphabeta: tactics={shown!r} is not on or off")
            out["tactics"] = low in ("on", "true", "yes", "1")
        elif key in ("time", "random"):
            try:
                number = float(value) if len(value) <= 30 else math.nan
            except ValueError:
                number = math.nan
            if not math.isfinite(number):
                what = "a number of seconds" if key == "time" else "a probability"
                raise OptionError(f"alphabeta: {key}={shown!r} is not {what}")
            out[_SETTINGS[key]] = number
        else:
            out[_SETTINGS[key]] = _count(key, value)
    return out


def bot_settings(arg: str | None) -> dict[str, Any]:
    """The keyword arguments the bot is built with from its setting text: those of
    :func:`parse_arg`, with the node budget always given (``depth=D`` alone lifts it to
    :data:`MAX_NODES`: every iteration up to D plies)."""
    kwargs = parse_arg(arg)
    if "nodes" not in kwargs:
        kwargs["nodes"] = MAX_NODES if "depth" in kwargs else DEFAULT_NODES
    return kwargs


def alphabeta_factory(game: Game, arg: str | None, seed: int | None) -> AlphaBetaBot:
    """The registered ``alphabeta`` bot: ``alphabeta``, ``alphabeta:50000``,
    ``alphabeta:nodes=50k,depth=4``, ``alphabeta:depth=3`` (three plies, whatever they
    cost: no node budget but :data:`MAX_NODES`); refused in one line for a game with no
    evaluation."""
    kwargs = bot_settings(arg)
    policy = playout_policy(game.name)
    if policy is None or policy.evaluate is None:
        raise OptionError(f"alphabeta: {game.name} registers no evaluation to search with "
                          "(use mcts)")
    return AlphaBetaBot(policy, seed, **kwargs)
