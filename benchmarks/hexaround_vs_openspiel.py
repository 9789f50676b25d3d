"""HexAround's generic API against OpenSpiel's C++ Hive (pyspiel), side by side.

    python benchmarks/hexaround_vs_openspiel.py [--rounds 5] [--games 10] [--max-moves 300]
        [--venv /work/venv-openspiel] [--config level3]

Random games on both sides, every legal move listed at each step: HexAround through the
generic API (``state.legal_moves()`` as Move objects, then ``state.push``) and through the
engine (action tuples), OpenSpiel through ``legal_actions()`` + ``apply_action``. OpenSpiel
runs in its own virtual environment, made on first use with ``pip install open_spiel``
(a few minutes); rounds are interleaved and the ratio printed is the median over rounds of
HexAround's moves per CPU second over OpenSpiel's.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

OPENSPIEL_GAMES = r"""
import json, random, sys, time
import pyspiel
games, max_moves, seed = map(int, sys.argv[1:4])
game = pyspiel.load_game("hive")
rng = random.Random(seed)
moves = listed = 0
cpu, wall = time.process_time(), time.perf_counter()
for g in range(games):
    state = game.new_initial_state()
    for _ in range(max_moves):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        listed += len(legal)
        state.apply_action(legal[rng.randrange(len(legal))])
        moves += 1
print(json.dumps({"moves": moves, "listed": listed, "cpu": time.process_time() - cpu,
                  "wall": time.perf_counter() - wall}))
"""


def openspiel_python(venv: Path) -> Path:
    """The venv's python with open_spiel installed (made and installed if missing)."""
    python = venv / "bin" / "python"
    if not python.exists():
        print(f"creating {venv} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    probe = subprocess.run([str(python), "-c", "import pyspiel"], capture_output=True)
    if probe.returncode:
        print("pip install open_spiel (this takes a few minutes) ...", flush=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "open_spiel"], check=True)
    return python


def openspiel_round(python: Path, games: int, max_moves: int, seed: int) -> dict[str, float]:
    out = subprocess.run([str(python), "-c", OPENSPIEL_GAMES, str(games), str(max_moves),
                          str(seed)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def hexaround_round(game, games: int, max_moves: int, seed: int,
                    api: bool) -> dict[str, float]:
    rng = random.Random(seed)
    moves = listed = 0
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        state = game.new_state(seed=seed + g)
        engine = state.engine
        for _ in range(max_moves):
            if api:
                if state.is_over():
                    break
                legal = state.legal_moves()
                listed += len(legal)
                state.push(legal[rng.randrange(len(legal))])
            else:
                if engine.is_over():
                    break
                actions = engine.legal_actions()
                listed += len(actions)
                engine.apply(actions[rng.randrange(len(actions))])
            moves += 1
    return {"moves": moves, "listed": listed, "cpu": time.process_time() - cpu,
            "wall": time.perf_counter() - wall}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--max-moves", type=int, default=300)
    ap.add_argument("--config", default="level3")
    ap.add_argument("--venv", type=Path, default=Path("/work/venv-openspiel"))
    args = ap.parse_args()
    import hexkit

    python = openspiel_python(args.venv)
    game = hexkit.load_game("hexaround", config=args.config)
    rates: dict[str, list[float]] = {"api": [], "engine": [], "openspiel": []}
    per_position: dict[str, float] = {}
    for r in range(args.rounds):
        seed = 1000 + r
        for label in ("openspiel", "api", "engine"):
            if label == "openspiel":
                got = openspiel_round(python, args.games, args.max_moves, seed)
            else:
                got = hexaround_round(game, args.games, args.max_moves, seed, label == "api")
            rates[label].append(got["moves"] / got["cpu"])
            per_position[label] = got["listed"] / max(got["moves"], 1)
        print(f"round {r + 1}: " + ", ".join(f"{k} {v[-1]:,.0f} moves/s" for k, v in
                                             rates.items()), flush=True)
    os_median = statistics.median(rates["openspiel"])
    print(f"\nmoves per CPU second, median of {args.rounds} interleaved rounds "
          f"({args.games} games of at most {args.max_moves} moves each):")
    print(f"  OpenSpiel hive (C++, legal_actions + apply_action): {os_median:9,.0f}"
          f"   ({per_position['openspiel']:.0f} legal moves per position)")
    for label, name in (("api", "HexAround generic API (Move objects + push)"),
                        ("engine", "HexAround engine (action tuples + apply)")):
        ratios = [a / b for a, b in zip(rates[label], rates["openspiel"], strict=True)]
        print(f"  {name}: {statistics.median(rates[label]):9,.0f}   ratio "
              f"{statistics.median(ratios):.2f} ({per_position[label]:.0f} legal moves per "
              f"position, {args.config})")


if __name__ == "__main__":
    main()
