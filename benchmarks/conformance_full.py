"""The conformance kit with every legal move pushed and popped at every ply, on the games
and variants the test suite checks with a sample of them.

Run ``python benchmarks/conformance_full.py [--pushes N] [--only NAME...]``.

The suite's ``check_game`` calls push and pop a seeded sample of each position's legal
moves (``hexkit.testing.PUSHES``) to stay within its CPU budget, and most of them deep-check
(notation, saving, exact undo) two moves per position instead of the kit's six. This script
runs the same calls at the kit's full strength, ``pushes=None`` (every legal move) and six
deep checks (the Focus cross-board games keep their one: their seeds are chosen for it),
and prints each one's CPU seconds, so the exhaustive check stays one command away.
``--pushes N`` runs them with a sample of N for comparison. It exits with status 1 if a
game breaks the contract.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

#: The suite's check_game calls: (name, keyword arguments). Game options go in with them.
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("hexbaron", {"games": 2, "max_moves": 150}),
    ("hexaround", {"games": 2, "max_moves": 150}),
    ("focus", {"games": 2, "max_moves": 150}),
    ("hive", {"games": 2, "max_moves": 150}),
    ("focus", {"games": 3, "max_moves": 1000}),
    ("focus", {"board": "cross", "players": 2, "games": 1, "seed": 1324, "sample": 1,
               "max_moves": 3500}),
    ("focus", {"board": "cross", "players": 3, "games": 1, "seed": 875, "sample": 1,
               "max_moves": 3500}),
    ("focus", {"board": "cross", "players": 4, "games": 1, "seed": 3143, "sample": 1,
               "max_moves": 3500}),
    *(("hexaround", {"config": config, "games": 1, "max_moves": 40})
      for config in ("first-configuration", "level1", "level2", "level3", "hivelike",
                     "menagerie", "b23-sample", "submission1", "submission2")),
    ("hive", {"games": 1, "max_moves": 60, "expansions": "none"}),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pushes", type=int, default=None,
                        help="legal moves pushed per position (default: every one)")
    parser.add_argument("--only", nargs="*", default=None, metavar="NAME",
                        help="only these games (e.g. hexaround focus)")
    args = parser.parse_args(argv)

    from hexkit import plugins
    from hexkit.testing import ConformanceError, check_game

    installed = set(plugins.game_names())
    failed = 0
    total = 0.0
    for name, kwargs in CALLS:
        if name not in installed or (args.only and name not in args.only):
            continue
        start = time.process_time()
        try:
            report = check_game(name, pushes=args.pushes, **kwargs)
        except ConformanceError as exc:
            failed += 1
            print(f"FAIL {name} {kwargs}: {exc}", flush=True)
            continue
        cpu = time.process_time() - start
        total += cpu
        print(f"{cpu:7.2f} s  {report}  {kwargs}", flush=True)
    print(f"{total:7.2f} s CPU in all; {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
