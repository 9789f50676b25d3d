"""Monte-Carlo tree search (UCT with decisive moves, batched expansion and guided playouts)
for any game, through the generic API.

The bot knows no game: it uses ``legal_moves``, ``push``, ``pop``, ``copy``, ``is_over``,
``outcome``, ``current_player`` and ``players`` only. Rewards are per seat, so it plays
games of two to four players (each seat maximises its own share of the result).

**Tactics first** (:mod:`hexkit.bots.tactics`): before searching, the bot plays a move that
wins at once if it has one, and searches only the moves that leave the next player no win
in one (when some move does). Inside the tree a node whose player to act has a winning move
is scored as that win (a *decisive move*), so the search sees losses two moves away too.

**Batched simulations**: the search works on one copy of the position, pushing moves down
the tree and popping them back (no copy per simulation), and when it reaches a node with
untried moves it expands a batch of them: each is pushed, scored by a playout (or the
game's evaluation) and popped, and counts as one simulation, as UCT would try each untried
move once before choosing among them. One descent serves the whole batch; batches grow
with the node's visits, so the well-visited nodes are widened fastest.

Chance: a game's randomness comes only from ``state.rng``. Each descent reseeds the
working copy's generator from the bot's own, so the search samples the dice instead of
peeking at the draws the real game will make; the tree is *open loop* (children keyed by
move, and only the moves legal in the current sample are considered), which is plain UCT
for games without chance.

Playouts are bounded (``depth`` moves, then the position is scored by the game's
evaluation if it registered one, else as a draw) and guided by the game's registered
``choose``; where the game names its possible winning moves (``may_win``) a playout also
takes a win in one whenever there is one. A game registers this help
(:class:`~hexkit.bots.policy.PlayoutPolicy`) through ``hexkit_register_playout_policies``,
called once at start-up, never during a search.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any

from hexkit.bots.policy import PlayoutPolicy, function
from hexkit.bots.tactics import Tactics, root_pick, wins_for
from hexkit.errors import OptionError
from hexkit.game import Game, Move, State

__all__ = ["DEFAULT_DEPTH", "DEFAULT_EXPLORATION", "DEFAULT_SIMULATIONS", "MAX_SIMULATIONS",
           "MctsBot", "PlayoutPolicy", "mcts_factory", "parse_arg", "playout_policy"]

#: Simulations per move when ``mcts`` is given no number.
DEFAULT_SIMULATIONS = 1000
#: The most simulations per move a seat spec may ask for (a typo guard: a million take
#: hours in most games).
MAX_SIMULATIONS = 1_000_000
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
    __slots__ = ("mover", "children", "visits", "reward", "available", "decisive")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that made the move leading here
        self.children: dict[Move, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # total reward of ``mover`` over the visits
        self.available = 0  # times this node's move was legal when its parent was visited
        #: A move that wins at once for the player to act here, once one is found.
        self.decisive: Move | None = None


#: A node with ``v`` visits expands up to ``v // BATCH_SHARE`` untried moves in one descent.
BATCH_SHARE = 8
#: How many times a search reports its progress (``MctsBot.progress``).
PROGRESS_REPORTS = 100


class MctsBot:
    """UCT: ``simulations`` simulations per move from the bot's own seeded generator, so the
    same seed and the same position give the same move.

    ``depth`` (playout moves before scoring) is, in order: the one given, the game's
    registered policy's, :data:`DEFAULT_DEPTH`. ``tactics`` (default on) is the layer of
    decisive and anti-decisive moves. ``randomness`` is the chance, at each move, of
    playing a random move among those the tactics allow instead of searching (the easiest
    levels play weaker on purpose, yet never miss a win in one). ``progress``, when set, is
    called as ``progress(done, total)`` about :data:`PROGRESS_REPORTS` times during each
    search (the terminal shows how far the bot is); it must not touch the state."""

    def __init__(
        self,
        simulations: int = DEFAULT_SIMULATIONS,
        seed: int | None = None,
        *,
        exploration: float = DEFAULT_EXPLORATION,
        depth: int | None = None,
        policy: PlayoutPolicy | None = None,
        progress: Callable[[int, int], None] | None = None,
        tactics: bool = True,
        randomness: float = 0.0,
    ):
        if simulations < 1:
            raise OptionError("mcts needs at least 1 simulation per move")
        if simulations > MAX_SIMULATIONS:
            raise OptionError(f"mcts: {simulations} simulations a move is more than "
                              f"{MAX_SIMULATIONS:,}")
        if depth is not None and depth < 0:
            raise OptionError("mcts playout depth cannot be negative")
        if not 0.0 <= randomness <= 1.0:  # also refuses nan
            raise OptionError("mcts: random=P needs a probability between 0 and 1")
        if not exploration >= 0.0 or math.isinf(exploration):
            raise OptionError("mcts: c=X needs an exploration constant of 0 or more")
        self.simulations = simulations
        self.exploration = exploration
        self.rng = random.Random(seed)
        self.policy = policy
        self.progress = progress
        self.randomness = randomness
        if depth is None:
            depth = policy.depth if policy is not None and policy.depth is not None \
                else DEFAULT_DEPTH
        self.depth = depth
        self._choose = function(policy.choose) if policy is not None else None
        self._evaluate = function(policy.evaluate) if policy is not None else None
        self.tactics: Tactics | None = Tactics(policy) if tactics else None
        # In-tree and playout checks for wins in one, only where the game makes them cheap.
        self._quick = self.tactics if self.tactics is not None and self.tactics.cheap else None
        self._root_moves: list[Move] = []
        self._reseed = False
        self._done = 0
        self._total = 0
        self._step = 1

    def choose(self, state: State) -> Move:
        """The move to play (``state`` is not changed): a win in one if there is one, else
        the most visited of the moves the tactics allow after the search."""
        legal = list(state.legal_moves())
        if not legal:
            raise ValueError("the game is over: there is no move to choose")
        if len(legal) == 1:
            return legal[0]
        sim = state.copy()
        self._reseed = sim.rng is not state.rng
        tactics = self.tactics
        moves, win = root_pick(tactics, sim, legal, self.rng)
        if win is not None:
            return win
        if self.randomness and self.rng.random() < self.randomness:
            first = moves[self.rng.randrange(len(moves))]
            if tactics is None or not tactics.needs_confirm or tactics.confirm(sim, first):
                return first
            order = list(moves)
            self.rng.shuffle(order)
            return self._confirmed(sim, order)
        if len(moves) == 1:
            return moves[0]
        return self._confirmed(sim, self._search(sim, moves))

    def _confirmed(self, sim: State, ranked: list[Move]) -> Move:
        """The first of ``ranked`` that the tactics confirm allows no loss in one (the
        game's costly check, made for the move about to be played only), else the first."""
        tactics = self.tactics
        return ranked[0] if tactics is None else tactics.first_confirmed(sim, ranked)

    # -- the search ----------------------------------------------------------------------
    def _search(self, sim: State, moves: list[Move]) -> list[Move]:
        """``moves`` best first after the search: a decisive move found at the root, then by
        visits, then by mean reward (moves never tried last)."""
        root = _Node(-1)
        self._root_moves = moves
        self._done, self._total = 0, self.simulations
        self._step = max(1, self.simulations // PROGRESS_REPORTS)
        while self._done < self._total:
            self._descend(sim, root)
        if root.decisive is not None:
            return [root.decisive]
        children = root.children

        def key(move: Move) -> tuple[int, float]:
            child = children.get(move)
            if child is None:
                return (-1, -1.0)
            return (child.visits, child.reward / child.visits if child.visits else 0.0)

        # sorted() is stable: among equal keys the first listed wins, as before.
        return sorted(moves, key=key, reverse=True) if len(moves) > 1 else list(moves)

    def _count(self) -> None:
        self._done += 1
        progress = self.progress
        if progress is not None and (self._done % self._step == 0 or self._done == self._total):
            progress(self._done, self._total)

    def _descend(self, sim: State, root: _Node) -> None:
        """One descent from the root: select by UCT down to a node with untried moves (or
        the end of the game), expand them all, back up each one's result; the working
        state is left as it was."""
        if self._reseed:
            sim.rng.seed(self.rng.getrandbits(64))
        path = [root]
        node = root
        pushed = 0
        try:
            while True:
                if sim.is_over():
                    self._backup(path, self._result(sim))
                    self._count()
                    return
                legal = self._root_moves if node is root else sim.legal_moves()
                decisive = node.decisive
                if decisive is not None and decisive in legal:
                    move = decisive
                    child = node.children.get(move)
                    if child is None:
                        child = node.children[move] = _Node(sim.current_player)
                    child.available += 1
                else:
                    children = node.children
                    untried = []
                    for m in legal:
                        child = children.get(m)
                        if child is None:
                            untried.append(m)
                        else:
                            child.available += 1
                    if untried:
                        self._expand(sim, node, path, untried)
                        return
                    move, child = self._select(node, legal)
                sim.push(move)
                pushed += 1
                path.append(child)
                node = child
        finally:
            for _ in range(pushed):
                sim.pop()

    def _expand(self, sim: State, node: _Node, path: list[_Node], untried: list[Move]) -> None:
        """Try a batch of untried moves once each, drawn at random (while the budget lasts):
        one move at a node's first visits, more as the node proves worth visiting (a batch
        of :data:`BATCH_SHARE` of its visits), so the search stays as adaptive as plain UCT.
        A move that wins at once becomes the node's decisive move and ends the batch."""
        rng = self.rng
        batch = min(len(untried), max(1, node.visits // BATCH_SHARE))
        if batch < len(untried):
            untried = rng.sample(untried, batch)
        else:
            rng.shuffle(untried)
        mover = sim.current_player
        for move in untried:
            if self._done >= self._total:
                return
            child = _Node(mover)
            child.available = 1
            node.children[move] = child
            sim.push(move)
            try:
                if sim.is_over():
                    rewards = self._result(sim)
                    if wins_for(sim, mover):
                        node.decisive = move
                else:
                    rewards = self._leaf(sim, child)
            finally:
                sim.pop()
            path.append(child)
            self._backup(path, rewards)
            path.pop()
            self._count()
            if node.decisive is not None:
                return

    def _leaf(self, sim: State, child: _Node) -> list[float]:
        """The result of a new node: a win in one for its player to act (where the game
        makes that cheap to find), else a playout or the evaluation."""
        quick = self._quick
        if quick is not None:
            win = quick.named_win(sim)
            if win is not None:
                child.decisive = win
                sim.push(win)
                try:
                    return self._result(sim)
                finally:
                    sim.pop()
        return self._playout(sim)

    def _select(self, node: _Node, legal: Sequence[Move]) -> tuple[Move, _Node]:
        c = self.exploration
        log, sqrt = math.log, math.sqrt
        children = node.children
        best_move = legal[0]
        best_child = children[best_move]
        best_score = -math.inf
        for move in legal:
            child = children[move]
            visits = child.visits
            score = child.reward / visits + c * sqrt(log(child.available) / visits)
            if score > best_score:
                best_score, best_move, best_child = score, move, child
        return best_move, best_child

    @staticmethod
    def _backup(path: list[_Node], rewards: Sequence[float]) -> None:
        for n in path:
            n.visits += 1
            if n.mover >= 0:
                n.reward += rewards[n.mover]

    def _result(self, sim: State) -> list[float]:
        """Per-seat rewards of a finished game."""
        seats = len(sim.players)
        outcome = sim.outcome()
        if outcome is None or not outcome.winners:
            return [1.0 / seats] * seats
        share = 1.0 / len(outcome.winners)
        rewards = [0.0] * seats
        for w in outcome.winners:
            rewards[w] = share
        return rewards

    def _playout(self, sim: State) -> list[float]:
        """Play up to ``depth`` moves from here (guided by the game's policy, taking wins in
        one where they are cheap to find), score the position, take the moves back."""
        rng = self.rng
        choose = self._choose
        quick = self._quick
        pushed = 0
        try:
            for _ in range(self.depth):
                if sim.is_over():
                    break
                move = quick.named_win(sim) if quick is not None else None
                if move is None:
                    moves = sim.legal_moves()
                    move = choose(sim, moves, rng) if choose is not None else \
                        moves[rng.randrange(len(moves))]
                sim.push(move)
                pushed += 1
            if sim.is_over():
                return self._result(sim)
            if self._evaluate is not None:
                return [float(x) for x in self._evaluate(sim)]
            seats = len(sim.players)
            return [1.0 / seats] * seats
        finally:
            for _ in range(pushed):
                sim.pop()


#: The settings of ``mcts:...``: name -> (keyword, type).
_SETTINGS: dict[str, tuple[str, type]] = {
    "sims": ("simulations", int), "simulations": ("simulations", int),
    "c": ("exploration", float), "depth": ("depth", int),
    "random": ("randomness", float), "tactics": ("tactics", bool),
}
#: How the settings are written, for messages and the lobby.
SETTINGS_HELP = ("mcts:N or mcts:sims=N,c=X,depth=N,random=P,tactics=off "
                 f"(N simulations 1..{MAX_SIMULATIONS:,} a move, default "
                 f"{DEFAULT_SIMULATIONS})")


def parse_arg(arg: str | None) -> dict[str, Any]:
    """``"2000"`` or ``"sims=2000,c=0.7,depth=100,random=0.3,tactics=off"`` into MctsBot
    keyword arguments (OptionError, one line, for anything else)."""
    out: dict[str, Any] = {}
    if not arg:
        return out
    for part in arg.split(","):
        part = part.strip()
        key, eq, value = part.partition("=")
        if not eq:
            key, value = "sims", part
        key = key.strip().lower()
        value = value.strip()
        if key not in _SETTINGS:
            raise OptionError(f"mcts: unknown setting {key[:30]!r} (use {SETTINGS_HELP})")
        name, kind = _SETTINGS[key]
        shown = value if len(value) <= 30 else value[:30] + "..."
        if kind is bool:
            low = value.lower()
            if low not in ("on", "off", "true", "false", "yes", "no", "1", "0"):
                raise OptionError(f"mcts: {key}={shown!r} is not on or off")
            out[name] = low in ("on", "true", "yes", "1")
            continue
        try:
            number = kind(value) if len(value) <= 30 else kind("x")
        except ValueError:
            raise OptionError(f"mcts: {key}={shown!r} is not a number") from None
        if kind is float and not math.isfinite(number):
            raise OptionError(f"mcts: {key}={shown!r} is not a finite number")
        out[name] = number
    return out


def mcts_factory(game: Game, arg: str | None, seed: int | None) -> MctsBot:
    """The registered ``mcts`` bot: ``mcts``, ``mcts:2000``, ``mcts:sims=500,c=0.7``."""
    kwargs = parse_arg(arg)
    return MctsBot(seed=seed, policy=playout_policy(game.name), **kwargs)
