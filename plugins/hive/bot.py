"""The ``hive`` bot: alpha-beta search (negamax, iterative deepening, a time budget) with a
Hive evaluation: pressure on each Queen, pieces pinned by the one-hive rule or buried under
a stack, and the mobility of the side to move. ``hexkit uhp``'s ``bestmove`` uses it.

The bot follows the pieces itself from the MoveStrings of the moves it searches (written
before each move is played, so they are canonical for their position): the evaluation needs
only hexkit's generic game API, whatever the engine's internal tables are.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from typing import Any

from hexkit.errors import HexkitError, OptionError

#: Axial offsets by the separator written before / after a reference piece (spec §6).
_BEFORE = {"-": (-1, 0), "/": (-1, 1), "\\": (0, -1)}
_AFTER = {"-": (1, 0), "/": (1, -1), "\\": (0, 1)}
_AROUND = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))

WIN = 1_000_000
#: What each bug is worth when it is free to move (pinned or buried, it is lost for now).
BUG_VALUE = {"Q": 14, "A": 11, "B": 8, "M": 9, "G": 5, "S": 4, "L": 7, "P": 7}
#: Score of 0..6 pieces around a Queen (6 ends the game).
QUEEN_PRESSURE = (0, 6, 16, 34, 62, 110, 200)


class PieceMap:
    """Where every piece is, followed from MoveStrings with undo: stacks by axial hex."""

    def __init__(self) -> None:
        self.where: dict[str, tuple[int, int]] = {}
        self.stacks: dict[tuple[int, int], list[str]] = {}
        self._undo: list[tuple[str, tuple[int, int] | None] | None] = []

    def destination(self, text: str) -> tuple[str, tuple[int, int]] | None:
        """The piece a MoveString moves and where to (None for ``pass``)."""
        parts = text.split()
        if not parts or parts[0] == "pass":
            return None
        piece = parts[0]
        if len(parts) == 1:
            return piece, (0, 0)
        ref = parts[1]
        if ref[0] in _BEFORE:
            dq, dr = _BEFORE[ref[0]]
            ref = ref[1:]
        elif ref[-1] in _AFTER:
            dq, dr = _AFTER[ref[-1]]
            ref = ref[:-1]
        else:
            dq = dr = 0
        q, r = self.where[ref]
        return piece, (q + dq, r + dr)

    def play(self, text: str) -> None:
        """Follow one MoveString (journaled for :meth:`undo`)."""
        found = self.destination(text)
        if found is None:
            self._undo.append(None)
            return
        piece, to = found
        origin = self.where.get(piece)
        if origin is not None:
            stack = self.stacks[origin]
            stack.pop()
            if not stack:
                del self.stacks[origin]
        self.where[piece] = to
        self.stacks.setdefault(to, []).append(piece)
        self._undo.append((piece, origin))

    def undo(self) -> None:
        """Take back the last :meth:`play`."""
        entry = self._undo.pop()
        if entry is None:
            return
        piece, origin = entry
        to = self.where[piece]
        stack = self.stacks[to]
        stack.pop()
        if not stack:
            del self.stacks[to]
        if origin is None:
            del self.where[piece]
        else:
            self.where[piece] = origin
            self.stacks.setdefault(origin, []).append(piece)

    def cut_hexes(self) -> set[tuple[int, int]]:
        """Occupied hexes whose piece(s) would split the hive if lifted (articulation points,
        Tarjan's algorithm, iterative)."""
        stacks = self.stacks
        if len(stacks) < 3:
            return set()
        start = next(iter(stacks))
        order: dict[tuple[int, int], int] = {start: 0}
        low: dict[tuple[int, int], int] = {start: 0}
        cuts: set[tuple[int, int]] = set()
        root_children = 0
        stack: list[tuple[tuple[int, int], tuple[int, int] | None, int]] = [(start, None, 0)]
        while stack:
            node, parent, i = stack.pop()
            if i < 6:
                stack.append((node, parent, i + 1))
                dq, dr = _AROUND[i]
                nxt = (node[0] + dq, node[1] + dr)
                if nxt not in stacks or nxt == parent:
                    continue
                if nxt in order:
                    low[node] = min(low[node], order[nxt])
                else:
                    order[nxt] = low[nxt] = len(order)
                    stack.append((nxt, node, 0))
                continue
            if parent is not None:
                low[parent] = min(low[parent], low[node])
                if parent == start:
                    root_children += 1
                elif low[node] >= order[parent]:
                    cuts.add(parent)
        if root_children > 1:
            cuts.add(start)
        return cuts


def evaluate(pieces: PieceMap, to_move: str) -> int:
    """The position's score for the colour ``to_move`` (``w``/``b``): Queen pressure,
    pinned and buried pieces, free pieces' worth."""
    stacks = pieces.stacks
    cuts = pieces.cut_hexes()
    score = {"w": 0, "b": 0}
    for colour in "wb":
        queen = pieces.where.get(colour + "Q")
        if queen is None:
            continue
        around = 0.0
        for dq, dr in _AROUND:
            stack = stacks.get((queen[0] + dq, queen[1] + dr))
            if stack is None:
                continue
            top = stack[-1]
            # A friendly piece that can walk away is half a threat; anything else stays.
            free_friend = top[0] == colour and len(stack) == 1 and \
                (queen[0] + dq, queen[1] + dr) not in cuts
            around += 0.5 if free_friend else 1.0
        whole = int(around)
        pressure = QUEEN_PRESSURE[whole] + (around - whole) * (
            QUEEN_PRESSURE[min(whole + 1, 6)] - QUEEN_PRESSURE[whole])
        score[colour] -= int(pressure)
    for hex_, stack in stacks.items():
        top = stack[-1]
        # Buried pieces are stuck while the stack stands; the piece on top holds them.
        for buried in stack[:-1]:
            score[buried[0]] -= BUG_VALUE[buried[1]] // 2
        if len(stack) > 1:
            score[top[0]] += 3
            continue
        if hex_ in cuts:
            score[top[0]] -= BUG_VALUE[top[1]] // 2
            continue
        neighbours = sum((hex_[0] + dq, hex_[1] + dr) in stacks for dq, dr in _AROUND)
        if neighbours >= 5 and top[1] not in "BGM":
            score[top[0]] -= BUG_VALUE[top[1]] // 3
        else:
            score[top[0]] += BUG_VALUE[top[1]] // 2
    other = "b" if to_move == "w" else "w"
    return score[to_move] - score[other]


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

    def choose(self, state: Any) -> Any:
        """The bot's move in ``state`` (left as it was)."""
        return self.best_move(state, seconds=self.seconds, depth=self.depth)

    def best_move(self, state: Any, *, seconds: float | None = None,
                  depth: int | None = None, move_texts: Sequence[str] | None = None) -> Any:
        """Search for at most ``seconds`` (None: no limit) and ``depth`` plies (None: no
        limit; one of them must be given); the best move of the deepest finished depth.

        ``move_texts`` (the MoveStrings of the moves played, as a UHP engine keeps them)
        saves replaying the game to follow its pieces."""
        moves = list(state.legal_moves())
        if not moves:
            raise HexkitError("the game is over: there is no move to choose")
        if len(moves) == 1:
            return moves[0]
        if seconds is None and depth is None:
            seconds = 1.0
        work = state.copy()
        pieces = _replayed(work) if move_texts is None else _followed(move_texts)
        self.nodes = 0
        self._deadline = None if seconds is None else time.perf_counter() + seconds * 0.92
        texts = [str(m) for m in moves]
        order = list(range(len(moves)))
        self.rng.shuffle(order)  # ties go to a random move, not always the first listed
        best = order[0]
        colour = "w" if len(work.move_stack) % 2 == 0 else "b"
        limit = depth if depth is not None else 64
        for d in range(1, limit + 1):
            try:
                score, index = self._root(work, pieces, moves, texts, order, d, colour)
            except _OutOfTime:
                break
            best = index
            self.last_depth, self.last_score = d, score
            order.remove(index)
            order.insert(0, index)
            if abs(score) >= WIN // 2:
                break
        return moves[best]

    def _tick(self) -> None:
        self.nodes += 1
        if self._deadline is not None and self.nodes & 63 == 0 and \
                time.perf_counter() > self._deadline:
            raise _OutOfTime

    def _root(self, state: Any, pieces: PieceMap, moves: Sequence[Any], texts: list[str],
              order: list[int], depth: int, colour: str) -> tuple[int, int]:
        alpha, beta = -WIN - 1, WIN + 1
        best_index = order[0]
        other = "b" if colour == "w" else "w"
        for index in order:
            state.push(moves[index])
            pieces.play(texts[index])
            try:
                score = -self._search(state, pieces, depth - 1, -beta, -alpha, other, 1)
            finally:
                pieces.undo()
                state.pop()
            if score > alpha:
                alpha, best_index = score, index
        return alpha, best_index

    def _search(self, state: Any, pieces: PieceMap, depth: int, alpha: int, beta: int,
                colour: str, ply: int) -> int:
        self._tick()
        outcome = state.outcome()
        if outcome is not None:
            if not outcome.winners or len(outcome.winners) > 1:
                return 0
            winner = "w" if outcome.winners[0] == 0 else "b"
            # Sooner wins score higher, later losses lower.
            return WIN - ply if winner == colour else -WIN + ply
        if depth <= 0:
            return evaluate(pieces, colour)
        moves = state.legal_moves()
        texts = [str(m) for m in moves]
        other = "b" if colour == "w" else "w"
        order = _ordered(pieces, texts, colour)
        for index in order:
            state.push(moves[index])
            pieces.play(texts[index])
            try:
                score = -self._search(state, pieces, depth - 1, -beta, -alpha, other, ply + 1)
            finally:
                pieces.undo()
                state.pop()
            if score > alpha:
                alpha = score
                if alpha >= beta:
                    break
        return alpha


def _ordered(pieces: PieceMap, texts: list[str], colour: str) -> list[int]:
    """Likely good moves first: onto or next to the enemy Queen, away from one's own."""
    enemy = pieces.where.get(("b" if colour == "w" else "w") + "Q")
    own = pieces.where.get(colour + "Q")
    if enemy is None and own is None:
        return list(range(len(texts)))
    keyed = []
    for i, text in enumerate(texts):
        found = pieces.destination(text)
        key = 0
        if found is not None:
            piece, to = found
            if enemy is not None and _near(to, enemy):
                key -= 2
            origin = pieces.where.get(piece)
            if origin is not None:
                if own is not None and _near(origin, own):
                    key -= 1
                if enemy is not None and _near(origin, enemy):
                    key += 2
        keyed.append((key, i))
    keyed.sort()
    return [i for _, i in keyed]


def _near(a: tuple[int, int], b: tuple[int, int]) -> bool:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (dq, dr) in _AROUND or (dq == 0 and dr == 0)


def _replayed(state: Any) -> PieceMap:
    """The pieces of ``state``, followed by replaying its moves on a fresh state (each
    move's MoveString written in the position it was played in)."""
    pieces = PieceMap()
    fresh = state.game.new_state(seed=0)
    for move in state.move_stack:
        pieces.play(_text_in(fresh, move))
        fresh.push(move)
    return pieces


def _followed(move_texts: Sequence[str]) -> PieceMap:
    pieces = PieceMap()
    for text in move_texts:
        pieces.play(text)
    return pieces


def _text_in(state: Any, move: Any) -> str:
    """The canonical MoveString of ``move`` in ``state``'s position."""
    for legal in state.legal_moves():
        if legal == move:
            return str(legal)
    return str(move)


def parse_bot_arg(arg: str | None) -> tuple[float | None, int | None]:
    """``time=S``, ``depth=N`` or both (``time=2,depth=4``); default one second."""
    seconds: float | None = None
    depth: int | None = None
    for item in (arg or "").split(","):
        item = item.strip()
        if not item:
            continue
        key, eq, value = item.partition("=")
        key = key.strip().lower()
        try:
            if key == "time" and eq:
                seconds = float(value)
                if not 0 < seconds <= 3600:
                    raise ValueError
            elif key == "depth" and eq:
                depth = int(value)
                if not 1 <= depth <= 64:
                    raise ValueError
            else:
                raise OptionError(f"hive bot: unknown setting {item!r} (time=S, depth=N)")
        except ValueError:
            raise OptionError(f"hive bot: {item!r} is out of range "
                              f"(time in (0, 3600] seconds, depth 1..64)") from None
    if seconds is None and depth is None:
        seconds = 1.0
    return seconds, depth


def hive_bot_factory(game: Any, arg: str | None, seed: int | None) -> HiveBot:
    """``hive``, ``hive:time=S``, ``hive:depth=N``."""
    if getattr(game, "name", None) != "hive":
        raise OptionError(f"the hive bot plays Hive only, not {getattr(game, 'name', game)}")
    seconds, depth = parse_bot_arg(arg)
    return HiveBot(seconds=seconds, depth=depth, seed=seed)
