"""The ``hive`` bot's search: iterative deepening principal-variation search (alpha-beta
with null windows) on a copy of the state's :class:`~hive.engine.HiveEngine`.

- **Transposition table** keyed by a Zobrist hash the search keeps beside the engine's
  apply and undo (pieces by hex and height, the player to act, the frozen piece, the
  turn counts while they still change the rules); it gives cut-offs and the first move to
  try.
- **Move ordering**: the table's move, moves that fill a cell beside the enemy Queen,
  killer moves (two per ply), then the history table (moves that caused cut-offs before).
- **Quiescence** on Queen-surround threats: at the horizon a player who can fill the enemy
  Queen's last free cell wins; a player whose own Queen has one free cell left searches one
  more ply; moves onto the enemy Queen's last two cells are searched while the position is
  otherwise quiet.
- **Repetitions**: a position seen before on the path or in the game scores as a draw.
- **Time and nodes**: the clock is read at every node; a search out of time (or past its
  node budget) stops at once and the best move of the deepest finished depth (or of the
  unfinished one, once its first move is searched) is played. Deadlines are kept to the
  millisecond plus one node's work.

:func:`compiled_search` runs the same search in C (``hive._hivegen``'s ``search``, on the
perft's board, without the GIL) where the compiled generator is built: the same scores at
equal depth, some hundred times the nodes a second. This module stays its readable
reference and its fallback.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from hexaround.hexgrid import OFFSETS, POPCOUNT

from hive.engine import BLACK_WON, DRAW, ONGOING, PASS, WHITE_WON
from hive.evaluation import WIN, compiled_evaluation_available, evaluate
from hive.generator import CompiledHiveGenerator, _hivegen

Action = tuple[int, "int | None", int]

#: Scores this close to WIN are wins found by search (less the plies).
WON = WIN - 1000
#: Table entry kinds: the exact score, a lower bound (a cut-off), an upper bound.
EXACT, LOWER, UPPER = 0, 1, 2
#: Entries kept in the transposition table before it is emptied.
TABLE_LIMIT = 400_000
#: Quiescence plies beyond the horizon.
QUIESCENCE = 2
#: Quiescence: the threat extension (a full ply) while at least THREAT_LEFT quiescence
#: plies are left; moves onto the enemy Queen's cells from NOISY_FROM filled cells around
#: her. Narrower settings (2 and 5) search depth 3 two to three times faster, but scored
#: worse against nokamute in the arena (0 of 9 games against 4.5 of 40).
THREAT_LEFT, NOISY_FROM = 1, 4

_rng = random.Random(0x5EED_4E1F)
_PIECE_KEYS: dict[int, int] = {}
#: Zobrist keys of the player to act, of the frozen piece (by code + 1) and of the turn
#: counts (while below 4 they change the rules).
SIDE_KEY = _rng.getrandbits(64)
LAST_KEYS = tuple(_rng.getrandbits(64) for _ in range(64))
TURN_KEYS = tuple(_rng.getrandbits(64) for _ in range(25))
_AROUND = tuple(OFFSETS)


def piece_key(code: int, key: int, height: int) -> int:
    """The Zobrist key of piece ``code`` on hex ``key`` at ``height`` (0 on the ground)."""
    index = (key << 9) | (height << 6) | code
    z = _PIECE_KEYS.get(index)
    if z is None:
        z = _PIECE_KEYS[index] = _rng.getrandbits(64)
    return z


def position_hash(engine: Any) -> int:
    """The Zobrist hash of the engine's position, from scratch (the search then keeps it
    up to date move by move). The piece moved last is part of it only in game types with
    the Pillbug's throw (it may not be thrown); elsewhere it changes nothing."""
    h = 0
    for key, stack in engine.stacks.items():
        for height, code in enumerate(stack):
            h ^= piece_key(code, key, height)
    if engine.to_move:
        h ^= SIDE_KEY
    return h ^ LAST_KEYS[engine.last + 1] if engine.has_throwers else h


def _turn_key(engine: Any) -> int:
    a, b = engine.actions
    return TURN_KEYS[min(a, 4) * 5 + min(b, 4)]


class OutOfTime(Exception):
    """The search's deadline passed."""


class Search:
    """One search tree's state: the engine, its hash, the tables, the clock.

    ``table`` (hash -> (depth, kind, score, action)) may be kept from move to move (the bot
    keeps it for a game); killers and history are per search."""

    def __init__(self, engine: Any, *, table: dict[int, tuple[int, int, int, Any]],
                 evaluate_fn: Callable[[Any], int] = evaluate,
                 history_keys: set[int] | None = None):
        self.engine = engine
        self.table = table
        self.evaluate = evaluate_fn
        self.hash = position_hash(engine)
        self.use_last = bool(engine.has_throwers)
        #: Hashes of the positions on the path from the game's start (repetitions).
        self.path: list[int] = []
        self.on_path: dict[int, int] = {}
        for h in history_keys or ():
            self.on_path[h] = self.on_path.get(h, 0) + 1
        self.killers: list[list[Any]] = [[None, None] for _ in range(130)]
        self.history: dict[tuple[int, int], int] = {}
        self.nodes = 0
        #: Quiescence: the threat extension needs this many plies left; moves onto the
        #: enemy Queen's cells are tried from this many filled cells around her.
        self.threat_left = THREAT_LEFT
        self.noisy_from = NOISY_FROM
        self.deadline: float | None = None
        #: Nodes the search may visit (None: no limit); past it, it stops as out of time.
        self.budget: int | None = None
        self.clock = time.perf_counter

    # -- moves with the hash kept ------------------------------------------------------
    def push(self, action: Action) -> None:
        """Apply ``action`` on the engine and update the hash and the path."""
        engine = self.engine
        h = self.hash ^ SIDE_KEY
        code, src, dst = action
        if self.use_last:
            h ^= LAST_KEYS[engine.last + 1] ^ LAST_KEYS[code + 1 if code >= 0 else 0]
        if code >= 0:
            stacks = engine.stacks
            if src is not None:
                h ^= piece_key(code, src, len(stacks[src]) - 1)
            below = stacks.get(dst)
            h ^= piece_key(code, dst, len(below) if below else 0)
        engine.apply(action)
        self.path.append(self.hash)
        self.on_path[self.hash] = self.on_path.get(self.hash, 0) + 1
        self.hash = h

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        self.engine.undo()
        h = self.path.pop()
        n = self.on_path[h] - 1
        if n:
            self.on_path[h] = n
        else:
            del self.on_path[h]
        self.hash = h

    def key(self) -> int:
        """The table key of the current position."""
        return self.hash ^ _turn_key(self.engine)

    # -- the search --------------------------------------------------------------------
    def _terminal(self, ply: int) -> int | None:
        """The score of a finished game for the player to act, or None."""
        result = self.engine.result
        if result == ONGOING:
            return None
        if result == DRAW:
            return 0
        winner = 0 if result == WHITE_WON else 1 if result == BLACK_WON else -1
        return WIN - ply if winner == self.engine.to_move else -WIN + ply

    def _tick(self) -> None:
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OutOfTime
        if self.deadline is not None and self.clock() > self.deadline:
            raise OutOfTime

    def ordered(self, actions: list[Action], first: Any, ply: int) -> list[Action]:
        """``actions`` in the order to try them: the table's move, moves beside the enemy
        Queen, the killers, then by history."""
        engine = self.engine
        me = engine.to_move
        enemy = engine.bpos[1 - me]
        own = engine.bpos[me]
        enemy_near = frozenset(enemy + o for o in _AROUND) if enemy is not None else ()
        own_near = frozenset(own + o for o in _AROUND) if own is not None else ()
        killers = self.killers[ply] if ply < len(self.killers) else (None, None)
        history = self.history
        scored = []
        for action in actions:
            if action == first:
                continue
            code, src, dst = action
            s = history.get((code, dst), 0)
            if dst in enemy_near and (src is None or src not in enemy_near):
                s += 1_000_000 if (code & 1) == me else 0
            if src is not None:
                if src in enemy_near and (code & 1) == me:
                    s -= 50_000
                if src in own_near and dst not in own_near:
                    s += 20_000
            if action == killers[0] or action == killers[1]:
                s += 500_000
            scored.append((s, action))
        scored.sort(key=lambda item: -item[0])
        out = [a for _, a in scored]
        if first is not None and first in actions:
            out.insert(0, first)
        return out

    def pvs(self, depth: int, alpha: int, beta: int, ply: int, left: int = QUIESCENCE) -> int:
        """The position's score for the player to act, searched ``depth`` plies (then
        ``left`` plies of quiescence at most), within the window (alpha, beta)."""
        self._tick()
        done = self._terminal(ply)
        if done is not None:
            return done
        if ply and self.on_path.get(self.hash):
            return 0  # a repetition: a draw by the tournament rule, a cycle otherwise
        if depth <= 0:
            return self.quiesce(alpha, beta, ply, left)
        key = self.key()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            e_depth, kind, e_score, first = entry
            if e_depth >= depth:
                score = _from_table(e_score, ply)
                if kind == EXACT or (kind == LOWER and score >= beta) or (
                        kind == UPPER and score <= alpha):
                    return score
        engine = self.engine
        actions = engine.legal_actions()
        original_alpha = alpha
        best = -WIN - 1
        best_action = None
        for i, action in enumerate(self.ordered(actions, first, ply)):
            self.push(action)
            try:
                if i == 0:
                    score = -self.pvs(depth - 1, -beta, -alpha, ply + 1, left)
                else:
                    score = -self.pvs(depth - 1, -alpha - 1, -alpha, ply + 1, left)
                    if alpha < score < beta:
                        score = -self.pvs(depth - 1, -beta, -score, ply + 1, left)
            finally:
                self.pop()
            if score > best:
                best, best_action = score, action
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._cutoff(action, depth, ply)
                        break
        kind = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        self._store(key, depth, kind, best, best_action, ply)
        return best

    def _cutoff(self, action: Action, depth: int, ply: int) -> None:
        code, src, dst = action
        if ply < len(self.killers):
            killers = self.killers[ply]
            if killers[0] != action:
                killers[1] = killers[0]
                killers[0] = action
        k = (code, dst)
        self.history[k] = self.history.get(k, 0) + depth * depth

    def _store(self, key: int, depth: int, kind: int, score: int, action: Any,
               ply: int) -> None:
        table = self.table
        if len(table) >= TABLE_LIMIT:
            table.clear()
        table[key] = (depth, kind, _to_table(score, ply), action)

    def quiesce(self, alpha: int, beta: int, ply: int, left: int) -> int:
        """The horizon: Queen-surround threats are played out, otherwise the evaluation."""
        engine = self.engine
        me = engine.to_move
        nmask = engine.nmask
        enemy = engine.bpos[1 - me]
        own = engine.bpos[me]
        enemy_filled = POPCOUNT[nmask.get(enemy, 0)] if enemy is not None else 0
        own_filled = POPCOUNT[nmask.get(own, 0)] if own is not None else 0
        if enemy_filled == 5:
            # One free cell: can the player to act fill it (without filling the last
            # cell around its own Queen as well)?
            hole = next(enemy + o for o in _AROUND if enemy + o not in engine.stacks)
            for action in engine.legal_actions():
                if action[2] == hole:
                    self.push(action)
                    try:
                        done = self._terminal(ply + 1)
                    finally:
                        self.pop()
                    if done is not None and -done > 0:
                        return -done
        if own_filled == 5 and left >= self.threat_left:
            # The opponent threatens to win: every move is searched one ply further.
            return self.pvs(1, alpha, beta, ply, left - 1)
        stand = self.evaluate(engine)
        if stand >= beta or left <= 0 or enemy is None or enemy_filled < self.noisy_from:
            return stand
        if stand > alpha:
            alpha = stand
        # Moves onto the enemy Queen's last two free cells.
        near = {enemy + o for o in _AROUND}
        for action in engine.legal_actions():
            code, src, dst = action
            if dst not in near or (src is not None and src in near) or code & 1 != me:
                continue
            self._tick()
            self.push(action)
            try:
                done = self._terminal(ply + 1)
                score = -done if done is not None else -self.quiesce(
                    -beta, -alpha, ply + 1, left - 1)
            finally:
                self.pop()
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha

    def root(self, actions: list[Action], depth: int, alpha: int = -WIN - 1,
             beta: int = WIN + 1) -> tuple[int, Action, list[tuple[int, Action]]]:
        """Search each root action ``depth`` plies, best first; (score, best action, every
        (score, action) searched). On OutOfTime the scores so far go with the exception
        (``partial``)."""
        best = -WIN - 1
        best_action = actions[0]
        scores: list[tuple[int, Action]] = []
        self.partial = (best, best_action, scores)
        for i, action in enumerate(actions):
            self.push(action)
            try:
                if i == 0:
                    score = -self.pvs(depth - 1, -beta, -alpha, 1)
                else:
                    score = -self.pvs(depth - 1, -alpha - 1, -alpha, 1)
                    if alpha < score < beta:
                        score = -self.pvs(depth - 1, -beta, -score, 1)
            finally:
                self.pop()
            scores.append((score, action))
            if score > best:
                best, best_action = score, action
                alpha = max(alpha, score)
            self.partial = (best, best_action, scores)
        self._store(self.key(), depth, EXACT, best, best_action, 0)
        return best, best_action, scores


def _to_table(score: int, ply: int) -> int:
    """Win scores are stored from the position, not the root."""
    if score >= WON:
        return score + ply
    if score <= -WON:
        return score - ply
    return score


def _from_table(score: int, ply: int) -> int:
    if score >= WON:
        return score - ply
    if score <= -WON:
        return score + ply
    return score


#: Transposition-table entries of the compiled search (a bytearray of a power of two of
#: entries, kept by the bot for a game: 2**18 entries, 6 MB).
COMPILED_TABLE_ENTRIES = 1 << 18


def new_compiled_table() -> bytearray:
    """An empty transposition table for :func:`compiled_search`."""
    return bytearray(COMPILED_TABLE_ENTRIES * int(_hivegen.table_entry_size))


def compiled_search_available(engine: Any) -> bool:
    """True if ``engine`` can be searched in C (its generator is the compiled one)."""
    return compiled_evaluation_available() and isinstance(engine.generator,
                                                          CompiledHiveGenerator)


def compiled_key(engine: Any) -> int:
    """The compiled search's hash of the engine's position (for repetitions)."""
    native = engine.generator.native
    key: int = native.search_key(engine.stacks, engine.to_move, engine.last)
    return key


def compiled_search(engine: Any, *, table: bytearray, seen: list[int], seed: int,
                    depth: int | None = None, nodes: int | None = None,
                    seconds: float | None = None) -> tuple[Action, int, int, int] | None:
    """Search the engine's position in C (see the module): at most ``depth`` plies,
    ``nodes`` nodes and ``seconds`` of the wall clock (None: no limit of that kind).
    ``seen``: :func:`compiled_key` of every earlier position of the game (they score as
    draws); ``seed`` shuffles the root's moves (equal scores go to a random one).

    (best action, its score, the deepest finished depth, nodes visited), or None to leave
    the search to :class:`Search` (a hive too large for the compiled board)."""
    position = engine.position
    got = engine.generator.native.search(
        position.stacks, position.hands, position.actions, engine.last, table, seen,
        seed & (2**64 - 1), depth or 0, nodes or 0, seconds or 0.0)
    if got is None:
        return None
    code, src, dst, score, done, visited = got
    action: Action = PASS if code < 0 else (code, src, dst)
    return action, score, done, visited


__all__ = ["COMPILED_TABLE_ENTRIES", "EXACT", "LOWER", "PASS", "QUIESCENCE", "UPPER", "WIN",
           "WON", "OutOfTime", "Search", "compiled_key", "compiled_search",
           "compiled_search_available", "new_compiled_table", "piece_key", "position_hash"]
