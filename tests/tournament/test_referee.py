"""The referee: a game ends by the rules, at the move cap (a draw), or with the loss of a bot
that runs out of time, plays an illegal move or crashes, with the reason recorded."""

from __future__ import annotations

import json

from hexkit.tournament.referee import CRASH, ILLEGAL, TIME, GameReport, GameTask, play_game


def task(*specs: str, limit: float = 0.0, max_moves: int = 500, **options: object) -> GameTask:
    return GameTask(key="1", game="toyline", options_json=json.dumps(options, sort_keys=True),
                    specs=specs, state_seed=4, bot_seeds=tuple(range(1, len(specs) + 1)),
                    max_moves=max_moves, time_per_move=limit, keep_moves=True)


def test_a_bot_thinking_forever_loses_on_time_even_if_it_swallows_exceptions(toy):
    # No clock here: the bot never returns by itself, so the game ending at all (with the
    # reason below) is the proof that the referee stopped it.
    report = play_game(task("random", "hang:2", limit=0.3, size=5, line=5))
    assert report.fault is not None and report.fault.kind == TIME and report.fault.seat == 1
    assert report.winners == (0,)
    assert report.reason == "hang:2 (seat 2) ran out of time: no move within 0.3 s"
    assert report.moves == 3 and len(report.move_list) == 3  # its first move was played


def test_a_move_returned_after_the_limit_still_loses_on_time(toy):
    report = play_game(task("slow:1,0.4", "random", limit=0.2))
    assert report.fault is not None and report.fault.kind == TIME
    assert report.winners == (1,)


def test_a_crashing_bot_loses_and_the_reason_names_it(toy):
    report = play_game(task("random", "crash:3", size=5, line=5))
    assert report.fault is not None and (report.fault.kind, report.fault.seat) == (CRASH, 1)
    assert report.reason == "crash:3 (seat 2) crashed: RuntimeError: the bot fell over"
    assert report.winners == (0,)


def test_a_bot_that_cannot_start_loses_before_the_first_move(toy):
    report = play_game(task("unstartable", "random"))
    assert report.fault is not None and report.fault.kind == CRASH
    assert report.reason.startswith("unstartable (seat 1) crashed: could not start: OSError")
    assert report.moves == 0 and report.winners == (1,)


def test_illegal_moves_and_things_that_are_not_moves_lose(toy):
    taken = play_game(task("random", "illegal:2", size=5, line=5))
    assert taken.fault is not None and taken.fault.kind == ILLEGAL
    assert taken.reason.startswith("illegal:2 (seat 2) played an illegal move: ")
    assert taken.moves == 3 and len(taken.move_list) == 3  # the refused move is not in it
    garbage = play_game(task("garbage", "random"))
    assert garbage.fault is not None and garbage.fault.kind == ILLEGAL
    assert garbage.reason == ("garbage (seat 1) played an illegal move: returned None, "
                              "not a move")


def test_a_game_stopped_at_the_move_cap_is_a_draw(toy):
    report = play_game(task("random", "random", max_moves=3, size=5, line=5))
    assert report.unfinished and report.winners == () and report.fault is None
    assert report.reason == "stopped after 3 moves" and report.moves == 3


def test_in_a_three_player_game_the_others_share_the_win_of_a_faulty_bot(toy):
    report = play_game(task("random", "crash", "random", players=3, size=4))
    assert report.winners == (0, 2) and report.fault is not None and report.fault.seat == 1


def test_a_game_that_cannot_be_built_is_an_error_not_a_result(toy):
    report = play_game(task("random", "random", size=99))
    assert report.error.startswith("OptionError: option size: 99")
    assert report.winners == () and report.fault is None


def test_tasks_and_reports_travel_as_plain_json(toy):
    t = task("random", "crash:2", limit=1.0)
    assert GameTask.from_dict(json.loads(json.dumps(t.to_dict()))) == t
    r = play_game(t)
    assert GameReport.from_dict(json.loads(json.dumps(r.to_dict()))) == r
