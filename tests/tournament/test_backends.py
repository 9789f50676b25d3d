"""Local backends: worker processes give the same reports as one process, replace a worker
that dies, stop a bot stuck beyond the referee's timer, and take tasks only as needed."""

from __future__ import annotations

import itertools
import json

import pytest

from hexkit.errors import OptionError
from hexkit.tournament.backends import InProcess, LocalProcesses, make_backend
from hexkit.tournament.referee import TIME, GameReport, GameTask
from hexkit.tournament.runner import DEFAULT_TIME_PER_MOVE

from .conftest import PLUGIN_DIRS


def task(key: str, *specs: str, limit: float = DEFAULT_TIME_PER_MOVE,
         keep_moves: bool = False) -> GameTask:
    return GameTask(key=key, game="toyline", options_json=json.dumps({"size": 4}),
                    specs=specs, state_seed=int(key), bot_seeds=(int(key), int(key) + 1),
                    max_moves=100, time_per_move=limit, plugin_dirs=tuple(PLUGIN_DIRS),
                    keep_moves=keep_moves)


def play(backend, tasks) -> dict[str, GameReport]:
    reports: dict[str, GameReport] = {}
    backend.run(tasks, lambda r: reports.__setitem__(r.key, r))
    return reports


def same(a: GameReport, b: GameReport) -> bool:
    return a.to_dict() | {"seconds": 0} == b.to_dict() | {"seconds": 0}


def test_worker_processes_report_what_one_process_plays(toy):
    tasks = [task(str(i), "mcts:10", "random") for i in range(6)]
    here, there = play(InProcess(), tasks), play(LocalProcesses(2), tasks)
    assert set(here) == set(there) == {str(i) for i in range(6)}
    assert all(same(here[k], there[k]) for k in here)


def test_a_worker_that_dies_is_replaced_and_its_game_played_again(toy, tmp_path):
    games = [task("1", "random", f"dieonce:2,{tmp_path}"), task("2", "random", "random")]
    reports = play(LocalProcesses(2), games)
    assert (tmp_path / "died").exists()  # it did die, once
    expected = play(InProcess(), games)  # the marker exists now: no one dies here
    assert all(same(reports[k], expected[k]) for k in ("1", "2"))
    assert not reports["1"].error and reports["1"].fault is None


def test_a_bot_stuck_in_c_code_is_stopped_from_outside_and_loses_on_time(toy):
    # No clock here: the bot's C loop would run for hours, so the games ending at all (with
    # the reason below) is the proof that its process was stopped.
    reports = play(LocalProcesses(2, grace=0.3),
                   [task("1", "random", "stuck:2", limit=0.3), task("2", "random", "random")])
    stuck = reports["1"]
    assert stuck.fault is not None and (stuck.fault.kind, stuck.fault.seat) == (TIME, 1)
    assert stuck.reason.endswith("no move within 0.3 s (its process was stopped)")
    assert stuck.winners == (0,) and stuck.moves == 3
    assert reports["2"].outcome is not None


def test_a_game_stopped_from_outside_keeps_the_moves_played_before(toy):
    """Its record (--save-dir) must show the moves that led to the loss on time."""
    reports = play(LocalProcesses(1, grace=0.3),
                   [task("1", "random", "stuck:2", limit=0.3, keep_moves=True)])
    stuck = reports["1"]
    assert stuck.fault is not None and stuck.fault.kind == TIME
    assert stuck.moves == 3 and len(stuck.move_list) == 3
    state = toy.load_game("toyline", size=4).new_state(seed=1)
    for text in stuck.move_list:
        state.push(text)  # legal, in order: the moves really played
    assert not state.is_over()


def test_tasks_are_taken_only_as_workers_need_them(toy):
    taken = itertools.count()

    def endless():
        for i in itertools.count():
            next(taken)
            yield task(str(i), "random", "random")

    done = []

    def stop_after_four(report):
        done.append(report)
        if len(done) == 4:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        LocalProcesses(2).run(endless(), stop_after_four)
    assert next(taken) <= 8


@pytest.mark.parametrize(("args", "message"), [
    (("local", 0), "--jobs must be at least 1"),
    (("local", 10**6), "--jobs 1000000 is more than this machine can use"),
    (("local", 1, "10.0.0.1:6379"), "--address does not apply without --backend ray"),
    (("dask", 1), "unknown backend 'dask'"),
])
def test_backend_settings_that_cannot_work_are_refused(args, message):
    with pytest.raises(OptionError, match=message):
        make_backend(*args)


def test_a_full_move_log_keeps_the_moves_it_holds():
    import multiprocessing

    from hexkit.tournament.local import _MoveLog, logged_moves

    clock, log = multiprocessing.RawArray("d", 4), multiprocessing.RawArray("c", 10)
    record = _MoveLog(clock, log)
    for text in ("abc", "defg", "hijkl"):
        record(text)
    assert logged_moves(clock, log) == ("abc", "defg")  # a prefix, never a torn line
