"""What pickling a state costs beside state.copy(), per game, in CPU time with interleaved
rounds.

    python benchmarks/pickle_speed.py [--rounds 7] [--plies 30] [--games focus,hive]

Three ways of pickling, each against copy() of the same states:

- **again**: one state ``--plies`` random plies in, pickled and read back again and again
  (the issue's figure; a process's tables of history chunks, generator states and
  moves are warm, as when a worker gets the same position twice);
- **along**: every state of one game, from ply 1 to ``--plies``, pickled and read back
  once each (a game shipped to workers ply by ply: earlier states' chunks are reused);
- **cold**: the state of ``--plies``, with every table of the pickling kit emptied first
  (a process that has never seen the game's chunks: the worst case).

Columns: copy(), copy.deepcopy, dumps, loads and (dumps + loads) / copy (figures are the
minimum over the rounds, the least disturbed by other work on the machine; the median is
printed beside the ratio), and the pickle's size in bytes.
"""

from __future__ import annotations

import argparse
import copy
import pickle
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

GAMES = ["focus", "focus(board=cross,players=4)", "hexbaron", "hexaround", "hive"]


def play(game: Any, plies: int, seed: int = 7) -> list[Any]:
    """Copies of the states of one random game, after 1, 2, ... ``plies`` plies."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    states = []
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state.push(legal[rng.randrange(len(legal))])
        states.append(state.copy())
    return states


def cpu_us(function: Callable[[], Any], repeat: int) -> float:
    """CPU microseconds per call."""
    start = time.process_time()
    for _ in range(repeat):
        function()
    return (time.process_time() - start) / repeat * 1e6


def empty_tables() -> None:
    """Forget every table the pickling kit keeps (a process that never saw these states)."""
    from hexkit.kit import rng, statepickle

    names = ("_CHUNK_BYTES", "_CHUNK_ENTRIES", "_MOVES", "_REDUCED", "_BY_ID", "_BY_BYTES", "_LAST")
    for module in (statepickle, rng):  # (getattr: an older hexkit, for a before/after)
        for name in names:
            getattr(module, name, {}).clear()


def measure(states: list[Any], mode: str, repeat: int) -> dict[str, float]:
    """CPU microseconds per state of copy, deepcopy, dumps and loads."""
    last = states[-1]
    if mode == "again":
        blob = pickle.dumps(last)
        return {"copy": cpu_us(last.copy, repeat),
                "deepcopy": cpu_us(lambda: copy.deepcopy(last), repeat),
                "dumps": cpu_us(lambda: pickle.dumps(last), repeat),
                "loads": cpu_us(lambda: pickle.loads(blob), repeat)}
    if mode == "cold":
        def dumps() -> bytes:
            empty_tables()
            return pickle.dumps(last)

        blob = pickle.dumps(last)

        def loads() -> Any:
            empty_tables()
            return pickle.loads(blob)

        base = cpu_us(empty_tables, repeat)
        return {"copy": cpu_us(last.copy, repeat),
                "deepcopy": cpu_us(lambda: copy.deepcopy(last), repeat),
                "dumps": cpu_us(dumps, repeat) - base, "loads": cpu_us(loads, repeat) - base}
    # along: each state once, in the order of the game
    n = len(states)
    start = time.process_time()
    for state in states:
        state.copy()
    copy_us = (time.process_time() - start) / n * 1e6
    start = time.process_time()
    for state in states:
        copy.deepcopy(state)
    deep_us = (time.process_time() - start) / n * 1e6
    empty_tables()
    start = time.process_time()
    blobs = [pickle.dumps(state) for state in states]
    dumps_us = (time.process_time() - start) / n * 1e6
    empty_tables()
    start = time.process_time()
    for blob in blobs:
        pickle.loads(blob)
    loads_us = (time.process_time() - start) / n * 1e6
    return {"copy": copy_us, "deepcopy": deep_us, "dumps": dumps_us, "loads": loads_us}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--plies", type=int, default=30)
    parser.add_argument("--repeat", type=int, default=200, help="calls per timing")
    parser.add_argument("--games", default=",".join(GAMES),
                        help="game strings, separated by ';' or ','")
    args = parser.parse_args()

    import hexkit

    names = [g for g in (args.games.split(";") if ";" in args.games
                         else _split_top(args.games)) if g]
    states = {name: play(hexkit.load_game(name), args.plies) for name in names}
    modes = ("again", "along", "cold")
    columns = ("copy", "deepcopy", "dumps", "loads")
    figures: dict[tuple[str, str], dict[str, list[float]]] = {
        (m, n): {c: [] for c in columns} for m in modes for n in names}
    ratios: dict[tuple[str, str], list[float]] = {(m, n): [] for m in modes for n in names}
    for r in range(args.rounds):
        for mode in modes:
            for name in names:
                got = measure(states[name], mode, args.repeat)
                for c in columns:
                    figures[(mode, name)][c].append(got[c])
                ratios[(mode, name)].append((got["dumps"] + got["loads"]) / got["copy"])
        print(f"round {r + 1}/{args.rounds} done", flush=True)
    print(f"\nCPU microseconds per state, {args.plies} random plies in (minimum of "
          f"{args.rounds} interleaved rounds; ratio: min and median)")
    for mode in modes:
        print(f"\n{mode}:")
        print(f"  {'game':30} {'copy':>6} {'deepcopy':>8} {'dumps':>6} {'loads':>6} "
              f"{'(d+l)/copy':>10} {'median':>6} {'bytes':>6}")
        for name in names:
            m = {c: min(v) for c, v in figures[(mode, name)].items()}
            ratio = (m["dumps"] + m["loads"]) / m["copy"]
            size = len(pickle.dumps(states[name][-1]))
            print(f"  {name:30} {m['copy']:6.0f} {m['deepcopy']:8.0f} {m['dumps']:6.0f} "
                  f"{m['loads']:6.0f} {ratio:10.1f} "
                  f"{statistics.median(ratios[(mode, name)]):6.1f} {size:6}")


def _split_top(text: str) -> list[str]:
    """Split on commas outside parentheses (``focus(board=cross,players=4),hive``)."""
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        current += ch
    parts.append(current)
    return [p.strip() for p in parts]


if __name__ == "__main__":
    main()
