"""Make tests/hive/data/reference_positions.json: Hive positions with MzingaCpp's move lists.

MzingaCpp (a C++ UHP engine, MIT, source in ../shared/tools/mzingacpp) plays seeded random
games of every game type through the Universal Hive Protocol; every few plies the position's
GameString and MzingaCpp's ``validmoves`` (sorted) are written down, so that hexkit's Hive
can be tested against an independent engine without MzingaCpp installed.

    python benchmarks/hive_reference_positions.py [--engine PATH] [--games 6] [--every 5]

MzingaCpp is built with CMake into /work/build/mzinga if ``--engine`` is not given and no
build is there (see benchmarks/hive_perft.py for the build).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
try:
    import hive.uhp_client  # noqa: F401  (installed with hexkit)
except ImportError:  # run from a checkout without the install
    sys.path.insert(0, str(ROOT / "plugins"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from hive.uhp_client import UhpEngine  # noqa: E402
from hive_mzinga import mzinga_path  # noqa: E402

GAME_TYPES = ("Base", "Base+M", "Base+L", "Base+P", "Base+ML", "Base+MP", "Base+LP",
              "Base+MLP")
OUT = ROOT / "tests" / "hive" / "data" / "reference_positions.json"


def collect(engine: UhpEngine, game_type: str, rng: random.Random, games: int, every: int,
            max_plies: int) -> list[dict[str, object]]:
    """Random playouts of one game type; a record every ``every`` plies (random offset),
    plus each game's last position."""
    positions: list[dict[str, object]] = []
    for _ in range(games):
        game_string = engine.ask_line(f"newgame {game_type}")
        offset = rng.randrange(every)
        for ply in range(max_plies + 1):
            if game_string.split(";")[1] not in ("NotStarted", "InProgress"):
                positions.append({"game_string": game_string, "valid_moves": []})
                break
            moves = sorted(engine.ask_line("validmoves").split(";"))
            if ply % every == offset or ply == max_plies:
                positions.append({"game_string": game_string, "valid_moves": moves})
            if ply == max_plies:
                break
            game_string = engine.ask_line(f"play {rng.choice(moves)}")
    return positions


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--engine", default=None, help="MzingaCpp executable (default: build it)")
    p.add_argument("--games", type=int, default=5, help="random games per game type")
    p.add_argument("--every", type=int, default=9, help="record one position every N plies")
    p.add_argument("--plies", type=int, default=100, help="longest game, in plies")
    p.add_argument("--seed", type=int, default=12)
    p.add_argument("--out", type=Path, default=OUT)
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    engine_path = args.engine or str(mzinga_path(build=True))
    everything = []
    with UhpEngine(engine_path) as engine:
        for game_type in GAME_TYPES:
            found = collect(engine, game_type, rng, args.games, args.every, args.plies)
            print(f"{game_type}: {len(found)} positions", flush=True)
            everything.extend(found)
        name = engine.name
    args.out.parent.mkdir(parents=True, exist_ok=True)
    data = {
        "about": f"Hive positions from seeded random games (seed {args.seed}) with the legal "
                 f"moves {name} gives (UHP validmoves, sorted; [] once the game is over). "
                 f"Made by benchmarks/hive_reference_positions.py.",
        "engine": name,
        "positions": everything,
    }
    tmp = args.out.with_suffix(".tmp")
    # One position a line: small, and a diff shows which positions changed.
    lines = ",\n".join(json.dumps(p, separators=(",", ":")) for p in everything)
    head = json.dumps({k: v for k, v in data.items() if k != "positions"}, indent=1)[:-2]
    tmp.write_text(f'{head},\n "positions": [\n{lines}\n]}}\n', encoding="utf-8")
    tmp.replace(args.out)
    print(f"{len(everything)} positions written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
