"""Monte-Carlo tree search (UCT with random playouts) for any game, through the generic API.

The bot knows no game: it uses ``legal_moves``, ``push``, ``copy``, ``is_over``,
``outcome``, ``current_player`` and ``players`` only. Rewards are per seat, so it plays
games of two to four players (each seat maximises its own share of the result).

Chance: a game's randomness comes only from ``state.rng``. Each simulation gives its copy
a fresh seed drawn from the bot's own generator, so the search samples the dice instead of
peeking at the draws the real game will make; the tree is *open loop* (children keyed by
move, and only the moves legal in the current sample are considered), which is plain UCT
for games without chance.

Playouts are bounded (``depth`` moves, then the position is scored by the game's
evaluation if it registered one, else as a draw). A game may register a cheaper or smarter
playout policy (:class:`~hexkit.bots.policy.PlayoutPolicy`) through the hook
``hexkit_register_playout_policies``, called once at start-up, never during a search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from hexkit.bots.policy import PlayoutPolicy
from hexkit.errors import OptionError
from hexkit.game import Game, Move, State

#: Simulations per move when ``mcts`` is given no number.
DEFAULT_SIMULATIONS = 1000
#: Playout moves before the position is scored without finishing the game.
DEFAULT_DEPTH = 200
#: UCT exploration constant (rewards are in 0..1).
DEFAULT_EXPLORATION = 1.0

def playout_policy(game_name: str, source: Any = None) -> PlayoutPolicy | None:
    """The policy a plugin registered for ``game_name``, if any, with its functions
    imported. ``source`` is a :class:`~hexkit.plugins.Registry` or its plugin manager
    (default: the process-wide registry); the policies were collected at start-up."""
    from hexkit import plugins

    registry = plugins.registry_of(source)
    policy = registry.policies.get(game_name)
    return None if policy is None else policy.resolved()


class _Node:
    __slots__ = ("mover", "children", "visits", "reward", "available")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that made the move leading here
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # total reward of ``mover`` over the visits
        self.available = 0  # times this node's move was legal when its parent was visited


#: How many times a search reports its progress (``MctsBot.progress``).
PROGRESS_REPORTS = 100


class MctsBot:
    """UCT: ``simulations`` searches per move from the bot's own seeded generator, so the
    same seed and the same position give the same move.

    ``depth`` (playout moves before scoring) is, in order: the one given, the game's
    registered policy's, :data:`DEFAULT_DEPTH`. ``progress``, when set, is called as
    ``progress(done, total)`` about :data:`PROGRESS_REPORTS` times during each search (the
    terminal shows how far the bot is); it must not touch the state."""

    def __init__(
        self,
        simulations: int = DEFAULT_SIMULATIONS,
        seed: int | None = None,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        depth: int | None = None,
        policy: PlayoutPolicy | None = None,
        progress: Callable[[int, int], None] | None = None,
    ):
        if simulations < 1:
            raise OptionError("mcts needs at least 1 simulation per move")
        if depth is not None and depth < 0:
            raise OptionError("mcts playout depth cannot be negative")
        self.simulations = simulations
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.policy = policy
        self.progress = progress
        if depth is None:
            depth = policy.depth if policy is not None and policy.depth is not None \
                else DEFAULT_DEPTH
        self.depth = depth
        self._choose = policy.choose if policy is not None else None
        self._evaluate = policy.evaluate if policy is not None else None

    def choose(self, state: State) -> Move:
        """The most visited move at the root after the search (``state`` is not changed)."""
        legal = list(state.legal_moves())
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        if len(legal) == 1:
            return legal[0]
        root = _Node(-1)
        total = self.simulations
        progress = self.progress
        if progress is None:
            for _ in range(total):
                self._simulate(state, root)
        else:
            step = max(1, total // PROGRESS_REPORTS)
            for done in range(1, total + 1):
                self._simulate(state, root)
                if done % step == 0 or done == total:
                    progress(done, total)
        best = None
        best_key: tuple[int, float] = (-1, -1.0)
        for move in legal:
            child = root.children.get(move)
            if child is None:
                continue
            key = (child.visits, child.reward / child.visits if child.visits else 0.0)
            if key > best_key:
                best, best_key = move, key
        return best if best is not None else legal[0]

    # -- one simulation ----------------------------------------------------------------
    def _simulate(self, root_state: State, root: _Node) -> None:
        sim = root_state.copy()
        if sim.rng is not root_state.rng:
            sim.rng.seed(self.rng.getrandbits(64))
        rng = self.rng
        path = [root]
        node = root
        while not sim.is_over():
            legal = sim.legal_moves()
            untried = [m for m in legal if m not in node.children]
            for m in legal:
                child = node.children.get(m)
                if child is not None:
                    child.available += 1
            mover = sim.current_player
            if untried:
                move = untried[rng.randrange(len(untried))]
                child = _Node(mover)
                child.available = 1
                node.children[move] = child
                sim.push(move)
                path.append(child)
                break
            move, child = self._select(node, legal)
            sim.push(move)
            path.append(child)
            node = child
        rewards = self._playout(sim)
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += rewards[n.mover]

    def _select(self, node: _Node, legal: Sequence[Move]) -> tuple[Move, _Node]:
        c = self.exploration
        best_move = legal[0]
        best_child = node.children[best_move]
        best_score = -math.inf
        for move in legal:
            child = node.children[move]
            score = child.reward / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best_score, best_move, best_child = score, move, child
        return best_move, best_child

    def _playout(self, sim: State) -> list[float]:
        rng = self.rng
        choose = self._choose
        for _ in range(self.depth):
            if sim.is_over():
                break
            moves = sim.legal_moves()
            if choose is not None:
                sim.push(choose(sim, moves, rng))
            else:
                sim.push(moves[rng.randrange(len(moves))])
        seats = len(sim.players)
        outcome = sim.outcome() if sim.is_over() else None
        if outcome is not None:
            if not outcome.winners:
                return [1.0 / seats] * seats
            share = 1.0 / len(outcome.winners)
            rewards = [0.0] * seats
            for w in outcome.winners:
                rewards[w] = share
            return rewards
        if self._evaluate is not None:
            return [float(x) for x in self._evaluate(sim)]
        return [1.0 / seats] * seats


def parse_arg(arg: str | None) -> dict[str, Any]:
    """``"2000"`` or ``"sims=2000,c=0.7,depth=100"`` into MctsBot keyword arguments."""
    out: dict[str, Any] = {}
    if not arg:
        return out
    names = {"sims": "simulations", "simulations": "simulations", "c": "exploration",
             "depth": "depth"}
    for part in arg.split(","):
        part = part.strip()
        key, eq, value = part.partition("=")
        if not eq:
            key, value = "sims", part
        key = key.strip().lower()
        if key not in names:
            raise OptionError(
                f"mcts: unknown setting {key!r} (use mcts:N or mcts:sims=N,c=X,depth=N)"
            )
        try:
            out[names[key]] = float(value) if key == "c" else int(value)
        except ValueError:
            raise OptionError(f"mcts: {key}={value!r} is not a number") from None
    return out


def mcts_factory(game: Game, arg: str | None, seed: int | None) -> MctsBot:
    """The registered ``mcts`` bot: ``mcts``, ``mcts:2000``, ``mcts:sims=500,c=0.7``."""
    kwargs = parse_arg(arg)
    return MctsBot(seed=seed, policy=playout_policy(game.name), **kwargs)
