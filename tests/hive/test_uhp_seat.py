"""``uhp:COMMAND``: an external UHP engine (here ``hexkit uhp`` itself, in its own process)
sits in a seat of ``hexkit play`` and ``hexkit match`` for Hive."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import hexkit
from hexkit.bots import make_bot
from hexkit.errors import OptionError

ENGINE = f"{sys.executable} -m hexkit uhp"


def run_hexkit(*args: str, input: str = "", cwd=None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env.pop("HEXKIT_PLUGINS_DIR", None)
    return subprocess.run([sys.executable, "-m", "hexkit", *args], input=input,
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=240)


def test_an_external_engine_chooses_legal_moves_and_leaves_the_state_alone():
    game = hexkit.load_game("hive", expansions="MLP")
    state = game.new_state(seed=0)
    seat = make_bot(game, f"uhp:depth=1:{ENGINE}", 0, from_operator=True)
    try:
        for _ in range(6):
            before = state.to_dict()
            move = seat.choose(state)
            assert state.to_dict() == before
            assert move in state.legal_moves()
            state.push(move)
    finally:
        seat.close()
    assert seat._engine is None


def test_the_engine_follows_undo_because_it_gets_the_whole_game_each_move():
    game = hexkit.load_game("hive", expansions="none")
    state = game.new_state(seed=0)
    for text in ("wS1", "bS1 wS1-", "wQ -wS1", "bQ bS1-"):
        state.push(text)
    seat = make_bot(game, f"uhp:depth=1:{ENGINE}", 0, from_operator=True)
    try:
        assert seat.choose(state) in state.legal_moves()
        state.pop()
        state.pop()
        assert seat.choose(state) in state.legal_moves()
    finally:
        seat.close()


def test_a_match_between_hexkit_and_an_external_engine_finishes(tmp_path):
    r = run_hexkit("match", "hive", "-o", "expansions=none", "--p1", "hive:depth=1",
                   "--p2", f"uhp:depth=1:{ENGINE}", "--games", "2", "--max-moves", "30",
                   "--seed", "1", "--json", "--quiet", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["games"] == 2 and summary["errors"] == []
    assert summary["adjudicated"] == []  # nobody crashed, timed out or played illegally
    p1, p2 = summary["players"]
    assert p1["wins"] + p1["draws"] + p1["losses"] == 2
    assert (p1["wins"], p1["losses"]) == (p2["losses"], p2["wins"])


def test_hexkit_play_seats_an_external_engine():
    r = run_hexkit("play", "hive", "-o", "expansions=none", "--p2", f"uhp:depth=1:{ENGINE}",
                   "--seed", "2", input="wS1\nquit\n")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    line = next(x for x in r.stdout.splitlines() if "plays" in x)
    assert line.startswith(f"White> Black (uhp:depth=1:{ENGINE}) plays b")
    assert line.split()[-1].strip("-/\\") == "wS1"  # beside White's only piece


def test_bad_uhp_specs_say_what_is_wrong_in_one_line():
    game = hexkit.load_game("hive")
    with pytest.raises(OptionError, match="needs the engine's command"):
        make_bot(game, "uhp", 0, from_operator=True)
    with pytest.raises(OptionError, match="time="):
        make_bot(game, "uhp:time=-1:x", 0, from_operator=True)
    with pytest.raises(OptionError, match="Hive only"):
        make_bot(hexkit.load_game("focus"), f"uhp:{ENGINE}", 0, from_operator=True)
    seat = make_bot(game, "uhp:/no/such/engine", 0, from_operator=True)
    with pytest.raises(hexkit.HexkitError, match="cannot start UHP engine"):
        seat.choose(game.new_state(seed=0))
    seat = make_bot(game, f"uhp:{sys.executable} -c print(1)", 0, from_operator=True)
    with pytest.raises(hexkit.HexkitError, match="is not a UHP engine|exited"):
        seat.choose(game.new_state(seed=0))


#: A UHP engine that follows the protocol but answers every bestmove with the Queen, which
#: the tournament opening forbids on the first move.
QUEEN_FIRST = """
import sys
print("id queen-first 1"); print("ok"); sys.stdout.flush()
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "exit":
        break
    if word == "newgame":
        print(line.split(None, 1)[1].strip() if len(line.split()) > 1 else "Base")
    elif word == "bestmove":
        print("wQ")
    print("ok"); sys.stdout.flush()
"""


def test_an_engine_that_answers_an_illegal_move_is_caught_in_one_line(tmp_path):
    script = tmp_path / "queen_first.py"
    script.write_text(QUEEN_FIRST, encoding="utf-8")
    game = hexkit.load_game("hive")
    state = game.new_state(seed=0)
    seat = make_bot(game, f"uhp:{sys.executable} {script}", 0, from_operator=True)
    try:
        with pytest.raises(hexkit.HexkitError, match="queen-first 1 chose 'wQ', which is not "
                                                     "a legal move here"):
            seat.choose(state)
    finally:
        seat.close()
    assert state.move_stack == []


def test_a_match_seat_whose_engine_plays_illegally_loses_that_game(tmp_path):
    script = tmp_path / "queen_first.py"
    script.write_text(QUEEN_FIRST, encoding="utf-8")
    r = run_hexkit("match", "hive", "--p1", f"uhp:{sys.executable} {script}", "--p2", "random",
                   "--games", "1", "--fixed-seats", "--seed", "1", "--json", "--quiet",
                   cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    summary = json.loads(r.stdout)
    assert summary["players"][0]["losses"] == 1
    assert "wQ" in json.dumps(summary["adjudicated"])


#: A UHP engine that reads only whole seconds in 'bestmove time' (as nokamute) and takes
#: 'bestmove seconds S' for fractions: hexkit's session behind a filter.
WHOLE_SECONDS_ENGINE = """
import sys
from hive.uhp import UhpSession
session = UhpSession()
seen = open(sys.argv[1], "a")
print("\\n".join(session.greeting()), flush=True)
for line in sys.stdin:
    seen.write(line)
    seen.flush()
    words = line.split()
    if words[:2] == ["bestmove", "time"] and "." in words[2]:
        answer = ["err Unable to parse time", "ok"]
    elif words[:2] == ["bestmove", "seconds"]:
        answer = session.handle("bestmove depth 1")
    else:
        answer = session.handle(line)
    print("\\n".join(answer), flush=True)
    if session.exit_requested:
        break
"""


def test_sub_second_times_reach_an_engine_that_reads_whole_seconds_only(tmp_path):
    script = tmp_path / "engine.py"
    script.write_text(WHOLE_SECONDS_ENGINE, encoding="utf-8")
    log = tmp_path / "commands.txt"
    game = hexkit.load_game("hive", expansions="none")
    state = game.new_state(seed=0)
    seat = make_bot(game, f"uhp:time=0.25:{sys.executable} {script} {log}", 0,
                    from_operator=True)
    try:
        for _ in range(3):
            move = seat.choose(state)
            assert move in state.legal_moves()
            state.push(move)
    finally:
        seat.close()
    sent = log.read_text(encoding="utf-8").splitlines()
    asked = [line for line in sent if line.startswith("bestmove")]
    # The fraction is sent exactly, once as hh:mm:ss.fff, then in the form it reads.
    assert asked == ["bestmove time 00:00:00.250", "bestmove seconds 0.25",
                     "bestmove seconds 0.25", "bestmove seconds 0.25"]
