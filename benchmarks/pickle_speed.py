"""What pickling a state costs beside state.copy(), per game, in CPU time with interleaved
rounds.

    python benchmarks/pickle_speed.py [--rounds 7] [--plies 30] [--games focus,hive]
        [--modes again,along,cold] [--check GAMES] [--plugins]

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

``--parts`` says where a round trip's time goes instead (the profile behind the floor in
docs/ai.md): for the state of ``--plies``, dumps + loads of each attribute the pickle holds
(``State.__getstate__``; an engine split into its own parts), each less the cost of
pickling ``None`` the same way, and what is left for the state itself (its class, its game,
the nested blob, ``__setstate__``).

``--floor`` measures the floor of the present layout: every state of a game along it, its
data (``State.__getstate__``) with each of the kit's objects (histories, moves, generator,
engine template) replaced by the plain values its reduction writes, pickled and read back
by plain ``pickle`` (no Python code runs in either direction), beside ``copy()`` and the
kit's round trip, in a process that never saw the game (*kit*, as *along*) and in one
that has (*kit warm*: no history block or move is pickled or read for the first time).
What the kit costs above the floor is its Python; the floor itself is the number of
objects the state holds.

``--plugins`` adds the example plugin (``examples/hex-connection``, as ``hex(size=5)``)
and a game made by ``hexkit new-plugin`` (``aitoy``, written to a temporary folder), both
loaded from their folders as ``tests/adapters/conftest.py`` does (they are not installed):
plugin games keep their undo data in the kit's journal and pickle in the kit's generic
layouts, not a built-in game's own.

``--check GAMES`` times nothing: it checks that pickles are exact along ``GAMES`` random
games of each game (``--plies`` long), every state pickled, sampled ones read back (half in
a process that never saw the game, half pickled again before being touched) and popped to
the start beside their originals: moves, legal moves in order and ``to_dict`` equal at
every ply.
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
#: The game strings ``--plugins`` adds: the example plugin and a ``hexkit new-plugin`` game.
PLUGIN_GAMES = ["hex(size=5)", "aitoy"]


def plugin_loader() -> Callable[[str], Any]:
    """``load_game`` of a registry holding the example plugin and a new ``aitoy`` plugin,
    imported from their folders (not installed)."""
    import importlib
    import sys
    import tempfile
    from pathlib import Path

    from hexkit.plugins import build_registry
    from hexkit.tools.scaffold import write_plugin

    root = Path(__file__).resolve().parents[1]
    parent = Path(tempfile.mkdtemp(prefix="pickle_speed_"))
    write_plugin("aitoy", parent)
    extra = []
    for folder, package in [(root / "examples" / "hex-connection", "hexconnection"),
                            (parent / "aitoy", "aitoy")]:
        sys.path.insert(0, str(folder))
        extra.append((package, importlib.import_module(f"{package}.plugin")))
    return build_registry(use_env=False, extra=extra).load_game


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

    names = ("_CHUNK_BYTES", "_CHUNK_ENTRIES", "_PREFIXES", "_MOVES", "_REDUCED", "_PIECES",
             "_BY_ID", "_BY_BYTES", "_LAST", "_ROOTS", "_ROOT_VALUES", "_ENCODED", "_ACTION_IDS",
             "_HEADERS", "_HEADERS_WRITTEN", "_GAME_TABLES", "_TABLES_READ", "_TURNS")
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
    parser.add_argument("--parts", action="store_true",
                        help="where a round trip's time goes, attribute by attribute")
    parser.add_argument("--floor", action="store_true",
                        help="the round trip of the same data as plain values (the layout's "
                             "floor) beside the kit's, along a game")
    parser.add_argument("--check", type=int, metavar="GAMES", default=0,
                        help="instead of timing: check GAMES random games of each game "
                             "(every state pickled; sampled ones read back, half in a "
                             "process that never saw the game, and popped to the start: "
                             "moves, legal moves in order and to_dict equal at every ply)")
    parser.add_argument("--plugins", action="store_true",
                        help="add the example plugin (hex(size=5)) and a new-plugin game "
                             "(aitoy), loaded from their folders")
    parser.add_argument("--modes", default="again,along,cold",
                        help="which of again, along, cold to run (cold empties the kit's "
                             "tables, so the next round's along starts from empty ones)")
    args = parser.parse_args()
    if not set(args.modes.split(",")) <= {"again", "along", "cold"}:
        parser.error(f"--modes takes again, along and cold, not {args.modes!r}")

    import hexkit

    names = [g for g in (args.games.split(";") if ";" in args.games
                         else _split_top(args.games)) if g]
    load = hexkit.load_game
    if args.plugins:
        load = plugin_loader()
        names += [g for g in PLUGIN_GAMES if g not in names]
    if args.check:
        for name in names:
            check(load(name), name, args.check, args.plies)
        return
    states = {name: play(load(name), args.plies) for name in names}
    if args.parts:
        for name in names:
            parts(name, states[name][-1], args.rounds, args.repeat)
        return
    if args.floor:
        datas = {name: [plain(s.__getstate__()) for s in states[name]] for name in names}
        lows: dict[str, list[float]] = {name: [float("inf")] * 4 for name in names}
        for _ in range(args.rounds):
            for name in names:
                lows[name] = [min(a, b) for a, b in zip(lows[name], floor(
                    states[name], datas[name]), strict=True)]
        print(f"CPU microseconds per state along {args.plies} plies (minimum of {args.rounds} "
              "interleaved rounds); d+l: dumps + loads")
        print(f"  {'game':30} {'copy':>6} {'floor d+l':>9} {'kit d+l':>8} {'kit warm':>8} "
              f"{'floor/copy':>10} {'kit/copy':>8} {'warm/copy':>9}")
        for name, (cp, fl, kit, warm) in lows.items():
            print(f"  {name:30} {cp:6.1f} {fl:9.1f} {kit:8.1f} {warm:8.1f} {fl / cp:10.1f} "
                  f"{kit / cp:8.1f} {warm / cp:9.1f}")
        return
    modes = tuple(m for m in args.modes.split(",") if m)
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


def check(game: Any, name: str, games: int, plies: int) -> None:
    """``--check``: pickled states compared with their originals, popped to the start."""
    positions = differ = 0
    for seed in range(games):
        empty_tables()
        blobs = [(state, pickle.dumps(state)) for state in play(game, plies, seed)]
        rng = random.Random(seed)
        if seed % 2:
            empty_tables()
        picked = sorted({*range(len(blobs) // 2, len(blobs), 7), len(blobs) - 1}) \
            if blobs else []
        for original, blob in (blobs[i] for i in picked):
            twin = pickle.loads(blob)
            if rng.random() < 0.5:
                twin = pickle.loads(pickle.dumps(twin))  # pickled again, untouched
            while True:
                positions += 1
                differ += not (twin.move_stack == original.move_stack
                               and [str(m) for m in twin.legal_moves()]
                               == [str(m) for m in original.legal_moves()]
                               and twin.to_dict() == original.to_dict())
                if not original.move_stack:
                    break
                original.pop()
                twin.pop()
    print(f"{name}: {games} games, {positions} positions compared, {differ} differ",
          flush=True)


def plain(value: Any) -> Any:
    """``value`` with each of the kit's objects replaced by the plain values its reduction
    writes (what pickle would write if no Python code ran)."""
    from hexkit.kit import rng, statepickle

    if isinstance(value, (statepickle.History, statepickle.MoveList, statepickle.Shared)):
        return plain(value.__reduce__()[1])
    if isinstance(value, rng.KitRandom):
        return statepickle._reduce_rng(value)[1]
    if type(value) is dict:
        return {k: plain(v) for k, v in value.items()}
    if type(value) in (list, tuple):
        return type(value)(plain(v) for v in value)
    if getattr(value, "template", None) is not None:  # a HexAround or Hive engine
        return plain(value.__reduce_ex__(pickle.HIGHEST_PROTOCOL)[1])
    return value


def floor(states: list[Any], datas: list[Any]) -> tuple[float, ...]:
    """One round of CPU microseconds per state along the game: copy(), dumps + loads of the
    plain data ``datas`` (the floor), the kit's dumps + loads with its tables emptied before
    each pass (a process that never saw the game, as *along*), and again with the tables
    the first pass left (a process that has seen these states: no first pickling or
    reading of any history block or move)."""
    n = len(states)
    start = time.process_time()
    for state in states:
        state.copy()
    c = time.process_time() - start
    start = time.process_time()
    blobs = [pickle.dumps(d, pickle.HIGHEST_PROTOCOL) for d in datas]
    for blob in blobs:
        pickle.loads(blob)
    f = time.process_time() - start
    empty_tables()
    start = time.process_time()
    blobs = [pickle.dumps(s) for s in states]
    empty_tables()
    for blob in blobs:
        pickle.loads(blob)
    k = time.process_time() - start
    start = time.process_time()
    blobs = [pickle.dumps(s) for s in states]
    for blob in blobs:
        pickle.loads(blob)
    w = time.process_time() - start
    return tuple(x / n * 1e6 for x in (c, f, k, w))


def round_trip(value: Any, rounds: int, repeat: int) -> tuple[float, float]:
    """CPU microseconds of the kit's dumps and of pickle.loads of ``value`` (minimum of
    ``rounds``, each of ``repeat`` calls)."""
    from hexkit.kit import statepickle

    blob = statepickle.dumps(value)
    d = min(cpu_us(lambda: statepickle.dumps(value), repeat) for _ in range(rounds))
    l_ = min(cpu_us(lambda: pickle.loads(blob), repeat) for _ in range(rounds))
    return d, l_


def parts(name: str, state: Any, rounds: int, repeat: int) -> None:
    """Print dumps + loads of each part of one state's pickle, and the rest."""
    from hexkit.kit import statepickle

    copy_us = min(cpu_us(state.copy, repeat) for _ in range(rounds))
    blob = pickle.dumps(state)
    dumps = min(cpu_us(lambda: pickle.dumps(state), repeat) for _ in range(rounds))
    loads = min(cpu_us(lambda: pickle.loads(blob), repeat) for _ in range(rounds))
    base = sum(round_trip(None, rounds, repeat))
    data = state.__getstate__()
    rows: list[tuple[str, float, int]] = []
    for key, value in data.items():
        reduced = value.__reduce_ex__(pickle.HIGHEST_PROTOCOL) \
            if key == "engine" and hasattr(value, "template") else None
        if reduced is not None and len(reduced) >= 2 and len(reduced[1]) == 3:
            _, position, changes = reduced[1]  # (template, position, changes): split
            for label, table in (("position", position), ("engine", changes)):
                for k, v in table.items():
                    rows.append((f"{key}.{label}.{k}", sum(round_trip(v, rounds, repeat))
                                 - base, len(statepickle.dumps(v))))
            continue
        rows.append((key, sum(round_trip(value, rounds, repeat)) - base,
                     len(statepickle.dumps(value))))
    total = dumps + loads
    print(f"\n{name}: copy {copy_us:.1f} us, dumps + loads {dumps:.1f} + {loads:.1f} = "
          f"{total:.1f} us ({total / copy_us:.1f}x), {len(blob)} bytes")
    for label, us, size in sorted(rows, key=lambda r: -r[1]):
        if us >= 0.3:
            print(f"  {label:36} {us:6.1f} us {size:7} B")
    print(f"  {'(the rest: the state itself)':36} {total - sum(r[1] for r in rows):6.1f} us")


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
