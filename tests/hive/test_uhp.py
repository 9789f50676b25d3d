"""``hexkit uhp`` driven as a Hive GUI drives an engine: a real subprocess, one command line
at a time, every answer read up to ``ok`` (spec §7), bad input included."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .positions import WIN_IN_ONE

DATA = Path(__file__).parent / "data" / "reference_positions.json"


class Gui:
    """A minimal UHP front-end: raw bytes out, raw lines back, nothing interpreted."""

    def __init__(self) -> None:
        env = dict(os.environ)
        env.pop("HEXKIT_PLUGINS_DIR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "hexkit", "uhp"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
        self.greeting = self.read_answer()

    def read_answer(self) -> list[str]:
        lines = []
        assert self.process.stdout is not None
        while True:
            raw = self.process.stdout.readline()
            assert raw, f"the engine stopped; stderr: {self.stderr_text()}"
            line = raw.decode("utf-8").rstrip("\n")
            if line == "ok":
                return lines
            lines.append(line)

    def stderr_text(self) -> str:
        self.process.kill()
        assert self.process.stderr is not None
        return self.process.stderr.read().decode("utf-8", "replace")

    def send(self, command: str | bytes) -> list[str]:
        data = command if isinstance(command, bytes) else command.encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(data + b"\n")
        self.process.stdin.flush()
        return self.read_answer()

    def one(self, command: str | bytes) -> str:
        answer = self.send(command)
        assert len(answer) == 1, answer
        return answer[0]

    def close(self) -> int:
        assert self.process.stdin is not None
        self.process.stdin.write(b"exit\n")
        self.process.stdin.flush()
        code = self.process.wait(timeout=20)
        assert self.process.stderr is not None
        self.stderr = self.process.stderr.read().decode("utf-8", "replace")
        return code


def _stop(g: Gui) -> None:
    if g.process.poll() is None:
        g.process.kill()
        g.process.wait()


@pytest.fixture
def fresh_gui():
    """An engine of its own, for what only a new engine shows (its greeting, no game yet)
    or a test that stops it."""
    g = Gui()
    yield g
    _stop(g)


@pytest.fixture(scope="module")
def _shared_gui():
    engines: list[Gui] = []
    yield engines
    for g in engines:
        _stop(g)


#: The engine options as a new engine has them (each test starts from them).
DEFAULT_OPTIONS = ("MaxTime 1", "MaxDepth 0", "RepetitionDraw false")


@pytest.fixture
def gui(_shared_gui):
    """One engine for the module (each start costs a Python start-up and Hive's loading),
    its options set back as a new engine has them; every test using it starts a game with
    newgame. An engine that a test left stopped is replaced."""
    if not _shared_gui or _shared_gui[-1].process.poll() is not None:
        _shared_gui.append(Gui())
    g = _shared_gui[-1]
    for option in DEFAULT_OPTIONS:
        assert not g.one(f"options set {option}").startswith("err"), option
    return g


def reference_positions() -> list[dict]:
    return json.loads(DATA.read_text(encoding="utf-8"))["positions"]


def test_start_up_prints_the_id_and_the_expansions_then_ok(fresh_gui):
    assert fresh_gui.greeting[0].startswith("id hexkit-hive v")
    assert fresh_gui.greeting[1:] == ["Mosquito;Ladybug;Pillbug"]
    assert fresh_gui.send("info") == fresh_gui.greeting
    assert fresh_gui.close() == 0 and "Traceback" not in fresh_gui.stderr


def test_newgame_starts_each_game_type(gui):
    assert gui.one("newgame") == "Base;NotStarted;White[1]"
    assert gui.one("newgame Base+MLP") == "Base+MLP;NotStarted;White[1]"
    assert gui.one("newgame Base+LP") == "Base+LP;NotStarted;White[1]"


def test_validmoves_at_the_start_follow_the_tournament_opening(gui):
    gui.one("newgame Base")
    assert sorted(gui.one("validmoves").split(";")) == ["wA1", "wB1", "wG1", "wS1"]
    gui.one("newgame Base+MLP")
    assert len(gui.one("validmoves").split(";")) == 7  # spec §8 depth 1


def test_play_answers_the_new_game_string_and_turns_advance(gui):
    gui.one("newgame Base")
    assert gui.one("play wS1") == "Base;InProgress;Black[1];wS1"
    assert gui.one("play bS1 wS1-") == "Base;InProgress;White[2];wS1;bS1 wS1-"
    assert gui.one("PLAY wQ -wS1") == "Base;InProgress;Black[2];wS1;bS1 wS1-;wQ -wS1"


def test_newgame_with_a_game_string_loads_the_game(gui):
    text = "Base+M;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
    assert gui.one(f"newgame {text}") == text
    assert gui.one("undo 2") == "Base+M;InProgress;White[2];wS1;bS1 wS1-"


def test_undo_takes_back_moves_and_refuses_too_many(gui):
    gui.one("newgame Base")
    gui.one("play wS1")
    gui.one("play bS1 wS1-")
    assert gui.one("undo 5").startswith("err ")
    assert gui.one("undo") == "Base;InProgress;Black[1];wS1"
    assert gui.one("undo 1") == "Base;NotStarted;White[1]"
    assert gui.one("undo").startswith("err ")


def test_illegal_and_unreadable_moves_answer_invalidmove_and_change_nothing(gui):
    gui.one("newgame Base")
    before = gui.one("validmoves")
    for bad in ("play wQ", "play zzz", "play wS1 -bQ", "play", "play wS4", "pass"):
        answer = gui.one(bad)
        assert answer.startswith("invalidmove "), (bad, answer)
    assert gui.one("validmoves") == before
    assert gui.one("play wS1") == "Base;InProgress;Black[1];wS1"
    assert gui.one("play wA1 wS1-").startswith("invalidmove ")  # not White's turn


def test_bad_commands_answer_err_and_the_engine_goes_on(fresh_gui):
    assert fresh_gui.one("validmoves").startswith("err ")  # no game yet
    assert fresh_gui.one("play wS1").startswith("err ")
    assert fresh_gui.one("frobnicate").startswith("err ")
    fresh_gui.one("newgame Base")
    for bad in ("newgame Base+X", "newgame Base+MM", "newgame Chess",
                "newgame Base;InProgress;Black[2];wS1;bS1 wS1-;wQ bS1-",
                "newgame Base;InProgress;Black[1];wS1;bQ",
                "bestmove depth 0", "bestmove depth x", "bestmove time 1:2",
                "bestmove sometime", "undo x", "perft x", "perft -1", "perft 99",
                "options set MaxTime abc", "options set MaxTime -3", "options set Nope 1",
                "options get", "options frob"):
        answer = fresh_gui.one(bad)
        assert answer.startswith("err "), (bad, answer)
    assert fresh_gui.one("play wG1") == "Base;InProgress;Black[1];wG1"  # the game survived


def test_bytes_that_are_not_utf8_and_blank_lines_never_stop_the_engine(fresh_gui):
    assert fresh_gui.one(b"\xff\xfe play \xc3").startswith("err ")
    assert fresh_gui.one(b"play w\x00S1").startswith("err ")
    assert fresh_gui.one(b"newgame " + b"A" * 100_000).startswith("err ")
    assert fresh_gui.send(b"\n\n   \ninfo") == fresh_gui.greeting
    assert fresh_gui.one("newgame Base") == "Base;NotStarted;White[1]"
    assert fresh_gui.close() == 0 and "Traceback" not in fresh_gui.stderr


def test_bestmove_gives_a_legal_move_and_does_not_play_it(gui):
    gui.one("newgame Base+MLP;InProgress;White[2];wS1;bS1 wS1-")
    legal = gui.one("validmoves").split(";")
    # A quarter of a second to think, not one (the search runs until the time is up): the
    # plain bestmove is bounded by MaxTime.
    assert gui.one("options set MaxTime 0.25") == "MaxTime;double;0.25;1;0.01;3600"
    for command in ("bestmove depth 1", "bestmove depth 2", "bestmove time 00:00:00.25",
                    "bestmove"):
        assert gui.one(command) in legal
    assert gui.one("undo") == "Base+MLP;InProgress;Black[1];wS1"


def test_bestmove_finds_a_win_in_one(gui):
    gui.one(f"newgame {WIN_IN_ONE}")
    for command in ("bestmove depth 1", "bestmove depth 3", "bestmove time 00:00:01"):
        move = gui.one(command)
        assert move == "wA3 bM\\", command
        assert gui.one(f"play {move}").split(";")[1] == "WhiteWins"
        gui.one("undo")


#: White's Queen and Grasshopper buried or hemmed in by Black's Beetles, nothing to place:
#: White must pass (MzingaCpp's validmoves says the same).
PASS_ONLY = (r"Base;InProgress;White[7];wG1;bB1 wG1-;wQ -wG1;bQ bB1-;wQ /wG1;bB2 bB1\;"
             r"wQ wG1\;bB2 bB1;wQ /wG1;bB2 wG1;wQ -bB2;bB2 wQ")


def test_pass_is_the_only_valid_move_when_nothing_else_is_and_plays(gui):
    assert gui.one(f"newgame {PASS_ONLY}") == PASS_ONLY
    assert gui.one("validmoves") == "pass"
    assert gui.one("bestmove") == "pass"
    assert gui.one("pass") == PASS_ONLY.replace("White[7]", "Black[7]") + ";pass"
    assert gui.one("undo") == PASS_ONLY
    assert gui.one("play pass") == PASS_ONLY.replace("White[7]", "Black[7]") + ";pass"
    assert gui.one("pass").startswith("invalidmove ")  # Black has moves


def test_a_finished_game_refuses_moves_but_can_be_undone(gui):
    won = next((p for p in reference_positions()
                if p["game_string"].split(";")[1] in ("WhiteWins", "BlackWins")), None)
    assert won is not None
    assert gui.one(f"newgame {won['game_string']}") == won["game_string"]
    assert gui.one("validmoves").startswith("err ")
    assert gui.one("bestmove").startswith("err ")
    assert gui.one("play pass").startswith("err ")
    assert gui.one("undo").split(";")[1] == "InProgress"


def test_perft_prints_a_line_per_depth(gui):
    gui.one("newgame Base")
    assert gui.send("perft 3") == ["perft(0) = 1", "perft(1) = 4", "perft(2) = 96",
                                   "perft(3) = 1440"]
    gui.one("newgame Base+MLP")
    assert gui.send("perft 2")[-1] == "perft(2) = 294"


def test_options_list_get_and_set(gui):
    lines = gui.send("options")
    names = [line.split(";")[0] for line in lines]
    assert names == ["MaxTime", "MaxDepth", "RepetitionDraw"]
    assert "RepetitionDraw;bool;False;False" in lines
    assert gui.one("options set MaxTime 0.5") == "MaxTime;double;0.5;1;0.01;3600"
    assert gui.one("options get maxtime") == "MaxTime;double;0.5;1;0.01;3600"
    assert gui.one("options set repetition_draw true") == "RepetitionDraw;bool;True;False"
    gui.one("newgame Base")
    gui.one("play wS1")
    assert gui.one("options set MaxDepth 2") == "MaxDepth;int;2;0;0;64"
    assert gui.one("bestmove") in gui.one("validmoves").split(";")


#: Axial offset of a destination from its reference piece, by how the separator is written
#: (spec §6): before the piece (``-X``, ``/X``, ``\\X``) or after it (``X-``, ``X/``, ``X\\``).
BEFORE = {"-": (-1, 0), "/": (-1, 1), "\\": (0, -1)}
AFTER = {"-": (1, 0), "/": (1, -1), "\\": (0, 1)}


def follow(game_string: str) -> tuple[dict[str, tuple[int, int]], dict[tuple[int, int], list[str]]]:
    """Where each piece stands after a GameString's moves, read from the notation alone (an
    oracle independent of the engine): piece -> hex, hex -> stack."""
    where: dict[str, tuple[int, int]] = {}
    stacks: dict[tuple[int, int], list[str]] = {}
    for text in game_string.split(";")[3:]:
        piece, to = destination(where, text)
        if piece is None:
            continue
        if piece in where:
            stacks[where[piece]].pop()
            if not stacks[where[piece]]:
                del stacks[where[piece]]
        where[piece] = to
        stacks.setdefault(to, []).append(piece)
    return where, stacks


def destination(where, text: str):
    parts = text.split()
    if parts == ["pass"]:
        return None, None
    if len(parts) == 1:
        return parts[0], (0, 0)
    ref = parts[1]
    if ref[0] in BEFORE:
        (dq, dr), ref = BEFORE[ref[0]], ref[1:]
    elif ref[-1] in AFTER:
        (dq, dr), ref = AFTER[ref[-1]], ref[:-1]
    else:
        dq = dr = 0
    q, r = where[ref]
    return parts[0], (q + dq, r + dr)


def alternative_names(game_string: str, move: str) -> list[str]:
    """Every other way to write ``move`` (a move beside pieces, not onto a stack): the
    destination named from each piece on top of a hex next to it."""
    where, stacks = follow(game_string)
    piece, to = destination(where, move)
    if piece is None or to in stacks or " " not in move:
        return []
    names = []
    for sep, (dq, dr) in BEFORE.items():  # reference east/south-east/south of the hex
        stack = stacks.get((to[0] - dq, to[1] - dr))
        if stack and stack[-1] != piece:
            names.append(f"{piece} {sep}{stack[-1]}")
    for sep, (dq, dr) in AFTER.items():
        stack = stacks.get((to[0] - dq, to[1] - dr))
        if stack and stack[-1] != piece:
            names.append(f"{piece} {stack[-1]}{sep}")
    return [n for n in names if n != move]


def test_moves_are_accepted_with_any_reference_piece_and_recorded_as_sent(gui):
    # The GameString records a move as it was sent (as Mzinga does); it is the same move
    # as the canonical one: the same position follows.
    checked = 0
    for position in reference_positions()[5::40]:
        if not position["valid_moves"]:
            continue
        gui.one(f"newgame {position['game_string']}")
        for move in position["valid_moves"][::7]:
            played = gui.one(f"play {move}")
            after = gui.one("validmoves") if played.split(";")[1] == "InProgress" else ""
            gui.one("undo")
            for name in alternative_names(position["game_string"], move):
                answer = gui.one(f"play {name}")
                assert answer.split(";")[-1] == name, (position["game_string"], name, answer)
                if after:
                    assert gui.one("validmoves") == after
                gui.one("undo")
                checked += 1
    assert checked > 20


def test_validmoves_equal_mzinga_on_reference_positions(gui):
    positions = reference_positions()
    for position in positions[:: max(1, len(positions) // 60)]:
        if not position["valid_moves"]:
            continue
        assert gui.one(f"newgame {position['game_string']}") == position["game_string"]
        assert sorted(gui.one("validmoves").split(";")) == position["valid_moves"], \
            position["game_string"]


def test_end_of_input_stops_the_engine_cleanly():
    r = subprocess.run([sys.executable, "-m", "hexkit", "uhp"], input=b"newgame\nplay wS1\n",
                       capture_output=True, timeout=60)
    lines = r.stdout.decode().splitlines()
    assert r.returncode == 0 and "Traceback" not in r.stderr.decode()
    assert lines[-2:] == ["Base;InProgress;Black[1];wS1", "ok"]
    assert lines.count("ok") == 3


def test_repetition_draw_option_applies_to_the_game_in_progress(gui):
    # The two Queens step out and back: the position after 4 moves comes back every 4 plies.
    start = "Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-"
    cycle = ("wQ \\wS1", "bQ bS1/", "wQ -wS1", "bQ bS1-")
    gui.one(f"newgame {start}")
    for move in cycle:
        gui.one(f"play {move}")
    assert gui.one("options set RepetitionDraw true") == "RepetitionDraw;bool;True;False"
    answers = [gui.one(f"play {move}") for move in cycle]
    assert [a.split(";")[1] for a in answers] == ["InProgress"] * 3 + ["Draw"]  # third time
    assert gui.one("validmoves").startswith("err ")
    gui.one("undo")
    assert gui.one("options set repetition_draw false") == "RepetitionDraw;bool;False;False"
    assert gui.one(f"play {cycle[-1]}").split(";")[1] == "InProgress"  # Mzinga's reading
