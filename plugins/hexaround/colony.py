"""The one-colony rule's tools: the cut vertices of the colony with the parts they separate
(computed once per position and shared by every search), and a plain connectivity test."""

from __future__ import annotations

from typing import Any

from hexaround.hexgrid import NEAR, OFFSETS


class Analysis:
    """Cut vertices of the colony, computed once per position (iterative Tarjan).

    ``disc[h]`` is the DFS discovery number of occupied hex h; ``sep[v]`` lists, for a cut
    vertex v, the DFS intervals (first, last discovery number) of the child subtrees that
    removing v separates; every other hex stays in the part with v's parent.
    """

    __slots__ = ("disc", "sep", "root", "size", "order")

    def __init__(self, occ: set[int] | dict[int, Any], nmask: dict[int, int]):
        disc: dict[int, int] = {}
        sep: dict[int, list[tuple[int, int]]] = {}
        self.disc = disc
        self.sep = sep
        self.root: int | None = None
        self.size = 0
        #: The hexes in discovery order (a separated subtree is a slice of it).
        self.order: list[int] = []
        if not occ:
            return
        root = min(occ)
        self.root = root
        order = self.order
        order.append(root)
        near = NEAR
        low = {root: 0}
        disc[root] = 0
        t = 1
        # Explicit DFS stack of (hex, parent, iterator over its occupied-neighbour offsets).
        stack: list[tuple[int, int | None, Any]] = [(root, None, iter(near[nmask.get(root, 0)]))]
        while stack:
            v, p, it = stack[-1]
            for o in it:
                w = v + o
                dw = disc.get(w)
                if dw is None:
                    if w not in occ:  # only when a hex has been taken out of the board
                        continue
                    disc[w] = low[w] = t
                    t += 1
                    order.append(w)
                    stack.append((w, v, iter(near[nmask.get(w, 0)])))
                    break
                if w != p and dw < low[v]:
                    low[v] = dw
            else:
                stack.pop()
                if p is not None:
                    lv = low[v]
                    if lv < low[p]:
                        low[p] = lv
                    if lv >= disc[p]:
                        s = sep.get(p)
                        if s is None:
                            sep[p] = [(disc[v], t - 1)]
                        else:
                            s.append((disc[v], t - 1))
        rs = sep.get(root)
        if rs is not None and len(rs) < 2:
            del sep[root]
        self.size = t

    def is_cut(self, v: int) -> bool:
        """True if removing hex v splits the colony."""
        return v in self.sep

    def parts(self, v: int) -> int:
        """How many parts the colony falls into without cut vertex v."""
        return len(self.sep[v]) + (0 if v == self.root else 1)

    def part_of(self, v: int, h: int) -> int:
        """Which part hex h is in once cut vertex v is removed (-1: the parent's part)."""
        d = self.disc[h]
        for i, (a, b) in enumerate(self.sep[v]):
            if a <= d <= b:
                return i
        return -1

    def part_size(self, v: int, part: int) -> int:
        """Number of hexes in a part of the colony without v."""
        intervals = self.sep[v]
        if part >= 0:
            a, b = intervals[part]
            return b - a + 1
        return self.size - 1 - sum(b - a + 1 for a, b in intervals)


def connected(occ: set[int]) -> bool:
    if not occ:
        return True
    start = next(iter(occ))
    seen = {start}
    todo = [start]
    while todo:
        a = todo.pop()
        for o in OFFSETS:
            b = a + o
            if b in occ and b not in seen:
                seen.add(b)
                todo.append(b)
    return len(seen) == len(occ)


#: The former private name.
_connected_set = connected
