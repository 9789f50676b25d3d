"""How UHP MoveStrings write a destination next to a reference piece (spec hive.md §6):
the separator per direction, and the order in which the canonical reference is chosen."""

from __future__ import annotations

from hexaround.engine import OFFSETS

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
