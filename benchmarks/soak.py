"""Seeded random-game soak: thousands of games per built-in game and variant, each checked
against the invariants of :func:`hexkit.testing.check_game` (the conformance kit).

Run ``python benchmarks/soak.py [--games N] [--jobs J] [--state FILE] [--only KEY...]``.

Every game is played from ``new_state(seed)`` with moves chosen by ``random.Random(seed)``;
each ply checks that ``is_over()`` agrees with ``outcome()``, that a game not over has
legal moves and a valid current player, that ``push`` adds one move and that the move's
events are JSON-safe. Every ``--every`` plies and at the end of each game the position
goes through the kit's heavier checks: the saved form's round trip
(``state_from_dict(to_dict())`` with the same legal moves), ``copy()`` independence, and
junk text refused without a change. Each game is finally replayed from its notation
(``push(str(move))``) and must give the same position (determinism). ``check_game``
itself also pushes and pops every legal move at every ply; that costs 100 times more on
HexAround, so the soak samples those checks (``--deep`` games per chunk get the full
``check_game``).

Work is cut into chunks of seeds; finished chunks are written to the ``--state`` file
(JSON) as they end, so a stopped soak resumes where it was. Both cores are used
(``--jobs``). The report lists games, plies, finished games and violations per variant.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

#: Each built-in game and variant, as (key, game name, options, ply cap).
VARIANTS: tuple[tuple[str, str, dict[str, Any], int], ...] = (
    ("focus/course", "focus", {}, 400),
    ("focus/course-exact", "focus", {"distance": "exact"}, 400),
    ("focus/cross-2", "focus", {"board": "cross"}, 300),
    ("focus/cross-3", "focus", {"board": "cross", "players": 3}, 300),
    ("focus/cross-4", "focus", {"board": "cross", "players": 4}, 300),
    ("hexbaron/default", "hexbaron", {"setup": "default"}, 1000),
    ("hexbaron/game1", "hexbaron", {"setup": "game1"}, 1000),
    ("hexbaron/size-10", "hexbaron", {"size": 10}, 1000),
    *((f"hexaround/{name}", "hexaround", {"config": name}, 80) for name in (
        "first-configuration", "level1", "level2", "level3", "hivelike", "menagerie",
        "b23-sample", "submission1", "submission2")),
    # Every Hive game type: the base game and each set of expansions.
    *((f"hive/Base{'+' + exp if exp else ''}", "hive", {"expansions": exp or "none"}, 80)
      for exp in ("MLP", "", "M", "L", "P", "ML", "MP", "LP")),
)

CHUNK = 100


def soak_chunk(key: str, name: str, options: dict[str, Any], cap: int, first: int,
               count: int, every: int, deep: int) -> dict[str, Any]:
    """Play seeds ``first .. first+count-1``; returns games, plies, finished, violations."""
    from hexkit import plugins
    from hexkit.testing import (
        ConformanceError,
        ConformanceReport,
        _check_determinism,
        check_game,
        play_checked_game,
    )

    os.environ.setdefault("HEXAROUND_REQUIRE_NATIVE", "1")
    game = plugins.registry().load_game(name, **options)
    out = {"key": key, "first": first, "count": count, "games": 0, "plies": 0,
           "finished": 0, "violations": [], "cpu": 0.0}
    start = time.process_time()
    for seed in range(first, first + count):
        report = ConformanceReport(str(game))
        try:
            played = play_checked_game(game, seed, max_moves=cap, thorough=False,
                                       every=every, report=report)
            _check_determinism(game, seed, played)
        except ConformanceError as exc:
            out["violations"].append(str(exc)[:500])
        except Exception as exc:  # a crash is a violation too, reported with its seed
            out["violations"].append(f"{key} seed {seed}: {type(exc).__name__}: {exc}"[:500])
        out["games"] += 1
        out["plies"] += report.moves
        out["finished"] += report.finished
    for seed in range(first, first + min(deep, count) if first == 0 else first):
        try:
            report: ConformanceReport = check_game(game, games=1, seed=seed, max_moves=cap,
                                                   pushes=None)
            out["deep_games"] = out.get("deep_games", 0) + report.games
        except ConformanceError as exc:
            out["violations"].append(f"check_game: {exc}"[:500])
    out["cpu"] = time.process_time() - start
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games per variant")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--state", default="soak-state.json",
                        help="progress file (resumed if it exists)")
    parser.add_argument("--every", type=int, default=50,
                        help="plies between the heavier checks")
    parser.add_argument("--deep", type=int, default=1,
                        help="games per variant also run through check_game in full")
    parser.add_argument("--until", default=None, metavar="HH:MM",
                        help="stop starting chunks at this UTC time and report what ran")
    parser.add_argument("--report", action="store_true",
                        help="only print the report of the state file")
    parser.add_argument("--only", nargs="*", default=None, help="variant keys to run")
    parser.add_argument("--cap", type=int, default=None, metavar="PLIES",
                        help="plies after which a game is cut (default: each variant's own; "
                             "random Sackson Focus games on the cross need 3,000-20,000)")
    args = parser.parse_args(argv)
    state_path = Path(args.state)
    done: list[dict[str, Any]] = []
    if state_path.exists():
        done = json.loads(state_path.read_text())["chunks"]
    if args.report:
        report(done)
        return 0
    deadline = None
    if args.until:
        hour, minute = (int(x) for x in args.until.split(":"))
        now = time.gmtime()
        deadline = time.time() + ((hour - now.tm_hour) * 3600 + (minute - now.tm_min) * 60
                                  - now.tm_sec)
    finished = {(c["key"], c["first"]) for c in done}
    todo = []
    for key, name, options, cap in VARIANTS:
        if args.only and key not in args.only:
            continue
        for first in range(0, args.games, CHUNK):
            if (key, first) not in finished:
                count = min(CHUNK, args.games - first)
                todo.append((key, name, options, args.cap or cap, first, count, args.every,
                             args.deep))
    # Interleave variants so that a soak stopped early has covered all of them evenly.
    todo.sort(key=lambda t: (t[4], t[0]))
    print(f"soak: {len(todo)} chunks to play ({len(done)} already done), "
          f"{args.jobs} processes", flush=True)
    started = time.monotonic()
    try:
        with ProcessPoolExecutor(args.jobs) as pool:
            futures = [pool.submit(soak_chunk, *t) for t in todo]
            for n, future in enumerate(as_completed(futures), 1):
                if deadline is not None and time.time() > deadline:
                    for f in futures:
                        f.cancel()
                    if future.cancelled():
                        continue
                chunk = future.result()
                done.append(chunk)
                tmp = state_path.with_suffix(".tmp")
                tmp.write_text(json.dumps({"chunks": done}))
                os.replace(tmp, state_path)
                print(f"[{n}/{len(todo)} {time.monotonic() - started:.0f}s] {chunk['key']} "
                      f"seeds {chunk['first']}..{chunk['first'] + chunk['count'] - 1}: "
                      f"{chunk['plies']} plies, {len(chunk['violations'])} violations, "
                      f"{chunk['cpu']:.1f}s cpu", flush=True)
    except KeyboardInterrupt:
        print("soak: interrupted; finished chunks are kept in the state file", flush=True)
    report(done)
    return 1 if any(c["violations"] for c in done) else 0


def report(chunks: list[dict[str, Any]]) -> None:
    """Totals per variant."""
    totals: dict[str, dict[str, Any]] = {}
    for c in chunks:
        t = totals.setdefault(c["key"], {"games": 0, "plies": 0, "finished": 0,
                                         "violations": [], "cpu": 0.0, "deep": 0})
        for k in ("games", "plies", "finished", "cpu"):
            t[k] += c[k]
        t["deep"] += c.get("deep_games", 0)
        t["violations"] += c["violations"]
    print(f"{'variant':28} {'games':>7} {'plies':>10} {'ended':>7} {'full':>5} "
          f"{'violations':>10} {'cpu s':>8}")
    for key, _name, _opts, _cap in VARIANTS:
        if key in totals:
            t = totals[key]
            print(f"{key:28} {t['games']:7} {t['plies']:10} {t['finished']:7} {t['deep']:5} "
                  f"{len(t['violations']):10} {t['cpu']:8.0f}")
    if totals:
        print(f"{'total':28} {sum(t['games'] for t in totals.values()):7} "
              f"{sum(t['plies'] for t in totals.values()):10} "
              f"{sum(t['finished'] for t in totals.values()):7} "
              f"{sum(t['deep'] for t in totals.values()):5} "
              f"{sum(len(t['violations']) for t in totals.values()):10} "
              f"{sum(t['cpu'] for t in totals.values()):8.0f}")
    for t in totals.values():
        for v in t["violations"][:5]:
            print(f"VIOLATION {v}")


if __name__ == "__main__":
    sys.exit(main())
