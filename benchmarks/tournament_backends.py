"""The same tournament on the local backend (worker processes) and on a local Ray instance,
side by side in one run: throughput, per-game cost, each backend's overhead per game, Ray's
scheduler overhead per task, and a check that both stored exactly the same results.

    python benchmarks/tournament_backends.py                       # focus, 200 games
    python benchmarks/tournament_backends.py --game hexaround --bots random mcts:2 mcts:5 mcts:10

Both backends get the same number of CPUs (``--cpus``, default 2): ``--jobs N`` worker
processes locally, a Ray instance started with N CPUs (bound to 127.0.0.1). Runs alternate
(local, Ray, local, Ray, ...) so a drift in the machine's speed hits both; the figures are
medians. Ray's start-up is timed apart (it is paid once per run of ``hexkit``, or never
when joining a running cluster).

Overhead per game = (wall seconds x CPUs - the games' own seconds) / games: what a backend
spends beside playing (starting workers, shipping tasks and results, storing, idle CPUs at
the end). Games are independent, so on N machines the throughput is about N times one
machine's, less the driver's cost per game (storing a row) once that becomes the limit.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from hexkit.tournament.backends import LocalProcesses
from hexkit.tournament.ray_backend import RayBackend, start_local_ray
from hexkit.tournament.runner import Tournament, TournamentConfig


def play(config: TournamentConfig, backend, folder: Path, name: str) -> tuple[float, list]:
    t = Tournament.prepare(config, db=str(folder / f"{name}.sqlite"))
    started = time.perf_counter()
    t.run(backend)
    wall = time.perf_counter() - started
    rows = t.store.games()
    t.store.close()
    return wall, rows


def noop(x: int) -> int:
    return x


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="focus")
    ap.add_argument("--bots", nargs="+",
                    default=["random", "mcts:5", "mcts:10", "mcts:20", "mcts:40"])
    ap.add_argument("--games-per-pair", type=int, default=20)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--max-moves", type=int, default=400)
    args = ap.parse_args()

    config = TournamentConfig(args.game, {}, tuple(args.bots),
                              games_per_pair=args.games_per_pair, seed=args.seed,
                              max_moves=args.max_moves)
    started = time.perf_counter()
    ray = start_local_ray(args.cpus)
    ray_start = time.perf_counter() - started
    ray_backend = RayBackend(cpus=args.cpus)
    local_backend = LocalProcesses(args.cpus)

    walls: dict[str, list[float]] = {"local": [], "ray": []}
    rows: dict[str, list] = {}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for i in range(args.repeat):
            for name, backend in (("local", local_backend), ("ray", ray_backend)):
                wall, got = play(config, backend, folder, f"{name}-{i}")
                walls[name].append(wall)
                rows.setdefault(name, got)
                print(f"  run {i + 1} {name:>5}: {len(got)} games in {wall:.2f} s",
                      file=sys.stderr)

    def key(r) -> tuple:
        return (r.number, r.seats, r.winners, r.reason, r.moves, r.fault_bot, r.error)

    same = [key(r) for r in rows["local"]] == [key(r) for r in rows["ray"]]
    games = len(rows["local"])

    # Ray's own cost per task: no-op tasks, submitted in a batch and one at a time.
    remote = ray.remote(num_cpus=1)(noop)
    ray.get([remote.remote(i) for i in range(50)])  # warm the workers
    t0 = time.perf_counter()
    ray.get([remote.remote(i) for i in range(2000)])
    batch = (time.perf_counter() - t0) / 2000
    t0 = time.perf_counter()
    for i in range(200):
        ray.get(remote.remote(i))
    round_trip = (time.perf_counter() - t0) / 200
    ray.shutdown()

    per_game = {n: statistics.mean(r.seconds for r in rows[n]) for n in rows}
    print(f"{config.game}: {len(config.bots)} bots ({' '.join(config.bots)}), {games} games, "
          f"seed {config.seed}, {args.cpus} CPUs each; medians of {args.repeat} runs")
    print(f"{'backend':<8} {'wall s':>7} {'games/s':>8} {'game s (mean)':>14} "
          f"{'overhead ms/game':>17}")
    median = {n: statistics.median(w) for n, w in walls.items()}
    for n in ("local", "ray"):
        own = sum(r.seconds for r in rows[n])
        overhead = (median[n] * args.cpus - own) / games * 1000
        print(f"{n:<8} {median[n]:>7.2f} {games / median[n]:>8.1f} {per_game[n]:>14.4f} "
              f"{overhead:>17.1f}")
    print(f"Ray / local throughput: {median['local'] / median['ray']:.2f}x "
          f"(target >= 0.8x)")
    print(f"Ray start-up (local instance, {args.cpus} CPUs): {ray_start:.1f} s, paid once")
    print(f"Ray scheduler per no-op task: {batch * 1000:.2f} ms in a batch of 2000, "
          f"{round_trip * 1000:.2f} ms one at a time (submit + result)")
    print(f"identical results on both backends: {'yes' if same else 'NO'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
