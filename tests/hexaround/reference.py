"""A slow, direct reading of the HexAround rules (spec §5 to §9), written apart from the
engine: hexes are (x, y) tuples, the board a dict of stacks, every check a plain search on
a copy of the board. Tests compare the engine's legal moves with :func:`legal_moves`.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from typing import Any

NEIGHBOURS = ((0, 1), (1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1))
CATEGORIES = ("WALKING", "RUNNING", "FLYING", "JUMPING")

Hex = tuple[int, int]
Board = dict[Hex, list[tuple[str, str]]]


def around(h: Hex) -> tuple[Hex, ...]:
    """The six neighbours of ``h``, in the order of :data:`NEIGHBOURS`."""
    x, y = h
    return (x, y + 1), (x + 1, y), (x + 1, y - 1), (x, y - 1), (x - 1, y), (x - 1, y + 1)


def distance(a: Hex, b: Hex) -> int:
    dx, dy = b[0] - a[0], b[1] - a[1]
    return max(abs(dx), abs(dy), abs(dx + dy))


def in_line(a: Hex, b: Hex) -> bool:
    return a[0] == b[0] or a[1] == b[1] or a[0] + a[1] == b[0] + b[1]


def one_group(hexes: set[Hex]) -> bool:
    if not hexes:
        return True
    start = next(iter(hexes))
    seen = {start}
    todo = [start]
    while todo:
        for n in around(todo.pop()):
            if n in hexes and n not in seen:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(hexes)


@lru_cache(maxsize=4096)
def groups(hexes: frozenset[Hex]) -> tuple[frozenset[Hex], ...]:
    """The connected groups of ``hexes`` (remembered: the hexes left behind by one piece
    are the same for every destination tried)."""
    out = []
    left = set(hexes)
    while left:
        seen = {left.pop()}
        todo = list(seen)
        while todo:
            for n in around(todo.pop()):
                if n in left:
                    left.discard(n)
                    seen.add(n)
                    todo.append(n)
        out.append(frozenset(seen))
    return tuple(out)


def one_group_with(hexes: set[Hex], extra: Hex) -> bool:
    """``one_group(hexes | {extra})`` for ``extra`` not in ``hexes``: every group of
    ``hexes`` touches ``extra``."""
    near = around(extra)
    return all(any(n in group for n in near) for group in groups(frozenset(hexes)))


class Rules:
    """The rules for one configuration (a HexAroundConfig)."""

    def __init__(self, config: Any):
        self.rules = config.rules
        self.props: dict[str, set[str]] = {}
        self.reach: dict[str, int] = {}
        for c in config.creatures:
            props = set(c.properties)
            if c.name == "BUTTERFLY":
                props.add("QUEEN")
            if (self.rules.intruding_traps_by_default and "INTRUDING" in props
                    and not props & {"TRAPPING", "SWAPPING", "KAMIKAZE", "HATCHING"}):
                props.add("TRAPPING")
            self.props[c.name] = props
            self.reach[c.name] = c.max_distance

    # -- placement -----------------------------------------------------------------------
    def placements(self, board: Board, hands: dict[str, dict[str, int]], player: str,
                   actions: int) -> set[str]:
        enemy = "RED" if player == "BLUE" else "BLUE"
        names = [n for n, k in hands[player].items() if k > 0]
        if actions >= 3 and not any(c == ("BUTTERFLY", player) for s in board.values()
                                    for c in s):
            names = [n for n in names if n == "BUTTERFLY"]
        if not board:
            spots = {(0, 0)} if actions == 0 else set()
        elif actions == 0:
            spots = {n for h in board for n in around(h) if n not in board}
        else:
            spots = set()
            for h in {n for b in board for n in around(b) if n not in board}:
                tops = [board[n][-1] for n in around(h) if n in board]
                mine = any(owner == player for _, owner in tops)
                theirs = any(owner == enemy for _, owner in tops)
                hatch = any(owner == player and "HATCHING" in self.props[name]
                            for name, owner in tops)
                if mine and (not theirs or hatch):
                    spots.add(h)
        return {f"place {n} {x} {y}" for n in names for x, y in spots}

    # -- moves ---------------------------------------------------------------------------
    def moves(self, board: Board, player: str) -> set[str]:
        out = set()
        for src, stack in board.items():
            seen_names = set()
            for i in range(len(stack) - 1, -1, -1):
                name, owner = stack[i]
                if owner != player or name in seen_names:
                    continue
                seen_names.add(name)
                if any("TRAPPING" in self.props[n] for n, _ in stack[i + 1:]):
                    continue
                for dst in self.destinations(board, src, i):
                    out.add(f"move {name} {src[0]} {src[1]} {dst[0]} {dst[1]}")
        return out

    def end_mode(self, name: str) -> str:
        props = self.props[name]
        for mode in ("KAMIKAZE", "SWAPPING"):
            if mode in props:
                return mode
        return "STACK" if props & {"TRAPPING", "INTRUDING"} else "NONE"

    def may_end_on(self, board: Board, name: str, dst: Hex) -> bool:
        mode = self.end_mode(name)
        if mode == "KAMIKAZE":
            return True
        if mode == "SWAPPING":
            return board[dst][-1][0] != "BUTTERFLY"
        if mode == "STACK":
            return len(board[dst]) < self.rules.stack_limit
        return False

    def destinations(self, board: Board, src: Hex, index: int) -> set[Hex]:
        name, owner = board[src][index]
        props = self.props[name]
        m = self.reach[name]
        work = {h: list(s) for h, s in board.items()}
        del work[src][index]
        if not work[src]:
            del work[src]
        occupied = set(work)

        def contact(h: Hex) -> bool:
            return h in occupied or any(n in occupied for n in around(h))

        def slide_ok(a: Hex, b: Hex) -> bool:
            gate = [n for n in around(a) if n in around(b)]
            return not all(g in occupied for g in gate)

        def may_end(h: Hex) -> bool:
            return h not in occupied or self.may_end_on(work, name, h)

        intruding = "INTRUDING" in props
        found: set[Hex] = set()
        if "WALKING" in props:
            depth = {src: 0}
            queue = deque([src])
            while queue:
                a = queue.popleft()
                if depth[a] == m:
                    continue
                for b in around(a):
                    if not slide_ok(a, b) or not contact(b):
                        continue
                    if b != src and may_end(b):
                        found.add(b)
                    if b not in depth and (b not in occupied or intruding):
                        depth[b] = depth[a] + 1
                        queue.append(b)
        elif "RUNNING" in props:
            path = [src]

            def run(a: Hex, left: int) -> None:
                for b in around(a):
                    if b in path or not slide_ok(a, b) or not contact(b):
                        continue
                    if left == 1:
                        if may_end(b):
                            found.add(b)
                    elif b not in occupied or intruding:
                        path.append(b)
                        run(b, left - 1)
                        path.pop()

            run(src, m)
        else:
            flying = "FLYING" in props
            if flying and all(n in occupied for n in around(src)):
                return set()
            limit = min(m, len(board) + 1) if occupied else m
            for dx in range(-limit, limit + 1):
                for dy in range(-limit, limit + 1):
                    dst = (src[0] + dx, src[1] + dy)
                    if not 1 <= distance(src, dst) <= limit:
                        continue
                    if not flying and not in_line(src, dst):
                        continue
                    if may_end(dst):
                        found.add(dst)
        return {d for d in found if self.one_colony_after(board, src, index, d)}

    def one_colony_after(self, board: Board, src: Hex, index: int, dst: Hex) -> bool:
        name, owner = board[src][index]
        # The board after the move: only the two stacks the move touches are copied.
        after = dict(board)
        after[src] = list(board[src])
        if dst in after:
            after[dst] = list(board[dst])
        mover = after[src].pop(index)
        target = after.get(dst)
        mode = self.end_mode(name)
        if target and mode == "KAMIKAZE":
            target.pop()
            if self.rules.kamikaze_survives:
                target.append(mover)
        elif target and mode == "SWAPPING":
            after[src].append(target.pop())
            target.append(mover)
        else:
            after.setdefault(dst, []).append(mover)
        left = {h for h, s in after.items() if s and h != dst}
        return one_group_with(left, dst) if after.get(dst) else one_group(left)


def legal_moves(config: Any, data: dict[str, Any]) -> set[str]:
    """Every legal move of the player to act in a position saved by ``to_dict``."""
    if data["result"] != "ONGOING":
        return set()
    rules = Rules(config)
    board: Board = {(x, y): [tuple(p) for p in stack] for x, y, stack in data["board"]}
    blue, red = data["actions"]
    player = "BLUE" if (blue + red) % 2 == 0 else "RED"
    actions = blue if player == "BLUE" else red
    out = rules.placements(board, data["hands"], player, actions)
    on_board = any(c == ("BUTTERFLY", player) for s in board.values() for c in s)
    if actions >= 3 and not on_board and rules.rules.butterfly_deadline_blocks_moves:
        return out
    return out | rules.moves(board, player)
