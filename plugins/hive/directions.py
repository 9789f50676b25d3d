"""How UHP MoveStrings write a destination next to a reference piece (spec hive.md §6):
the separator per direction, and the order in which the canonical reference is chosen."""

from __future__ import annotations

from typing import Any

from hexaround.hexgrid import OFFSETS

PASS_STRING = "pass"

#: Per direction (HexAround's ring order: SE, E, NE, NW, W, SW of the reference piece): how
#: the separator is written, before (True) or after the reference piece.
SEPARATORS: tuple[tuple[str, bool], ...] = (
    ("\\", False), ("-", False), ("/", False), ("\\", True), ("-", True), ("/", True))
DIRECTION_OF = {sep: d for d, sep in enumerate(SEPARATORS)}
#: Canonical scan of the destination's neighbours: NW, NE, E, SE, SW, W.
SCAN = (3, 2, 1, 0, 5, 4)
#: (index into a piece's reference texts, offset) per scanned neighbour of a destination.
SCAN_OFFSETS = tuple(((e + 3) % 6 + 1, OFFSETS[e]) for e in SCAN)


def written(ref: str, direction: int | None) -> str:
    """The destination part of a MoveString: ``-bG2``, ``wS1/``, or ``wQ`` (on top)."""
    if direction is None:
        return ref
    sep, before = SEPARATORS[direction]
    return sep + ref if before else ref + sep


def ref_texts(names: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Per piece code: `` X`` followed by the six directional forms (`` X\\``, `` X-``...,
    in HexAround's direction order), for writing MoveStrings without formatting."""
    return tuple(tuple(" " + written(name, d) for d in (None, 0, 1, 2, 3, 4, 5))
                 for name in names)


def move_string(engine: Any, action: tuple[int, int | None, int]) -> str:
    """The canonical MoveString of an action in this position (spec §6)."""
    code, src, dst = action
    if code < 0:
        return PASS_STRING
    name = engine.code_name[code]
    stacks = engine.stacks
    if not stacks:
        return name
    refs = engine.ref_texts
    target = stacks.get(dst)
    if target and dst != src:
        return name + refs[target[-1]][0]
    for e, o in SCAN_OFFSETS:
        n = dst + o
        s = stacks.get(n)
        if not s:
            continue
        if n == src:
            if len(s) == 1:
                continue
            top = s[-2]
        else:
            top = s[-1]
        return name + refs[top][e]
    return name  # only for a move into an empty board, which never happens after move 1


def destination_text(engine: Any, action: tuple[int, int | None, int]) -> str:
    """Where an action puts its piece, as a MoveString writes it (``bA1/``, ``wQ``, or
    ``the origin`` for a first move)."""
    text = move_string(engine, action)
    _, _, where = text.partition(" ")
    return where or "the origin"
