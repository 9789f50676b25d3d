"""The Ray backend on a local Ray instance (started once per test process): the same games
give the same results and ratings as the local backend, a worker that dies is retried, and
the instance listens on 127.0.0.1 only."""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hexkit.tournament.backends import InProcess, LocalProcesses
from hexkit.tournament.match import run_match
from hexkit.tournament.ray_backend import RayBackend
from hexkit.tournament.report import build_report
from hexkit.tournament.runner import Tournament, TournamentConfig


class _Shared(RayBackend):
    """The module's Ray backend: ``close`` after a run leaves the instance running."""

    def close(self) -> None:
        return None

    def really_close(self) -> None:
        super().close()


# Session scope: Ray starts at most once per test process (pytest -n 2 may run these
# tests in both), however the tests are spread.
@pytest.fixture(scope="session")
def ray_backend() -> Iterator[_Shared]:
    backend = _Shared(cpus=2)
    backend._connect()
    yield backend
    backend.really_close()


def outcome(t: Tournament) -> tuple[list[tuple], dict]:
    rows = [(g.number, g.seats, g.winners, g.reason, g.moves, g.unfinished, g.fault_bot,
             g.fault_kind, g.error) for g in t.store.games()]
    report = build_report(t.config.to_dict(), len(t.schedule), t.store.games(),
                          t.schedule.seats)
    return rows, report


@pytest.mark.parametrize(("game", "options", "bots", "per_pair", "max_moves"), [
    # Three bots, six games (each played twice: here and on Ray): enough for Ray to finish
    # games out of order on its two CPUs; a fourth bot doubled the games and the CPU.
    ("focus", {}, ("random", "mcts:2", "mcts:5"), 2, 300),
    # 40 actions (one game still ends by the rules): 60 cost 17 s of CPU here once MCTS
    # looked for wins and losses in one, and the comparison is the same.
    ("hexaround", {}, ("random", "mcts:2", "mcts:5"), 2, 40),
    ("toyline", {"players": 3, "size": 5}, ("random", "mcts:5", "mcts:10"), 6, 100),
])
def test_a_tournament_on_ray_gives_the_local_results_and_ratings(
        toy, tmp_path, ray_backend, game, options, bots, per_pair, max_moves):
    config = TournamentConfig(game, options, bots, games_per_pair=per_pair, seed=11,
                              max_moves=max_moves)
    here = Tournament.prepare(config, db=str(tmp_path / "local.sqlite"))
    here.run(InProcess())
    there = Tournament.prepare(config, db=str(tmp_path / "ray.sqlite"))
    assert there.run(ray_backend) == len(there.schedule)
    assert outcome(there) == outcome(here)
    assert outcome(here)[1]["games_played"] == len(here.schedule)


def test_a_match_on_ray_gives_the_local_results_and_records(toy, tmp_path, ray_backend):
    game = toy.load_game("toyline", size=4, blockers=True)
    here = run_match(game, ["mcts:10", "random"], 6, seed=5, save_dir=tmp_path / "here",
                     backend=LocalProcesses(2))
    there = run_match(game, ["mcts:10", "random"], 6, seed=5, save_dir=tmp_path / "there",
                      backend=ray_backend)
    assert json.dumps(here.to_dict() | {"seconds": 0}) == json.dumps(
        there.to_dict() | {"seconds": 0})
    for i in range(1, 7):
        name = f"game-{i:04d}.json"
        assert (tmp_path / "here" / name).read_text() == (tmp_path / "there" / name).read_text()


def test_a_game_whose_ray_worker_dies_is_played_again(toy, tmp_path, ray_backend):
    game = toy.load_game("toyline", size=4)
    result = run_match(game, ["random", f"dieonce:2,{tmp_path}"], 2, seed=3,
                       backend=ray_backend)
    assert (tmp_path / "died").exists()
    assert not result.errors and len(result.games) == 2
    again = run_match(game, ["random", f"dieonce:2,{tmp_path}"], 2, seed=3)
    assert [g.winners for g in result.games] == [g.winners for g in again.games]


def test_the_local_ray_instance_listens_on_127_0_0_1_only(ray_backend):
    addresses = _listening_addresses(_descendants(os.getpid()))
    assert addresses  # Ray's servers were found
    assert addresses <= {"127.0.0.1", "::ffff:127.0.0.1"}


# -- sockets of this process's children, from /proc (Linux) --------------------------------
def _descendants(root: int) -> set[int]:
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(text.rsplit(")", 1)[1].split()[1])
    found, frontier = set(), {root}
    while frontier:
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier} - found
        found |= frontier
    return found


def _listening_addresses(pids: set[int]) -> set[str]:
    inodes = set()
    for pid in pids:
        for fd in Path(f"/proc/{pid}/fd").glob("*"):
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                inodes.add(target[8:-1])
    found = set()
    for table, v6 in (("/proc/net/tcp", False), ("/proc/net/tcp6", True)):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.add(_ip(fields[1].split(":")[0], v6))
    return found


def _ip(hex_address: str, v6: bool) -> str:
    raw = bytes.fromhex(hex_address)
    if not v6:
        return socket.inet_ntop(socket.AF_INET, raw[::-1])
    words = b"".join(raw[i:i + 4][::-1] for i in range(0, 16, 4))
    return socket.inet_ntop(socket.AF_INET6, words)
