"""``hexkit uhp`` reads moves and GameStrings as Mzinga does: Mzinga's own invalid-move cases
get Mzinga's answers, a separator pointing at an occupied hex is refused unless the
lenient reading is asked for, GameStrings load whatever their state and turn fields say,
and the GameString records moves as they were sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from hive.uhp import GAME_OVER, UhpSession

CASES = Path(__file__).parent / "data" / "mzinga_invalid_moves.tsv"


def mzinga_cases() -> list[tuple[str, str, str]]:
    rows = []
    for line in CASES.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            message, game_string, move = line.split("\t")
            rows.append((message, game_string, move))
    return rows


def one(session: UhpSession, command: str) -> str:
    answer = session.handle(command)
    assert answer[-1] == "ok" and len(answer) == 2, (command, answer)
    return answer[0]


@pytest.mark.parametrize("message,game_string,move", mzinga_cases(),
                         ids=lambda v: v[:30] if isinstance(v, str) else None)
def test_mzingas_invalid_moves_are_refused_with_mzingas_words(message, game_string, move):
    session = UhpSession()
    loaded = one(session, f"newgame {game_string}")
    assert not loaded.startswith(("err", "invalidmove")), loaded
    command = "pass" if move == "pass" else f"play {move}"
    answer = one(session, command)
    if "the game is over" in message:
        assert answer == f"err {GAME_OVER}"
    else:
        assert answer.startswith(f"invalidmove {message}"), (answer, message)
    assert one(session, "newgame " + game_string.split(";")[0]) .startswith(
        game_string.split(";")[0])


def test_a_refused_move_leaves_the_game_string_as_it_was():
    session = UhpSession()
    for message, game_string, move in mzinga_cases():
        before = one(session, f"newgame {game_string}")
        session.handle(f"play {move}")
        assert session.game_string() == before, (message, move)


#: Black's Beetle bB1 stands beside bQ's west neighbour wQ... (Mzinga's case): the climb
#: onto the piece west of bQ, written three ways.
BEETLES = (r"Base;InProgress;Black[5];wS1;bS1 wS1-;wB1 \wS1;bB1 bS1/;wG1 /wS1;bG1 bS1\;"
           r"wQ /wB1;bQ bB1\;wS2 /wG1")


def test_strict_reading_refuses_a_separator_at_an_occupied_hex_and_lenient_takes_it():
    strict, lenient = UhpSession(), UhpSession(strict=False)
    for session in (strict, lenient):
        one(session, f"newgame {BEETLES}")
    assert one(strict, "play bB1 -bQ").startswith("invalidmove You can't move there because")
    climbed = one(lenient, "play bB1 -bQ")
    # The lenient reading records the climb as Mzinga would write it, so the GameString it
    # gives loads in the strict engine (and in Mzinga).
    assert not climbed.startswith("invalidmove") and not climbed.endswith("bB1 -bQ")
    assert one(strict, f"newgame {climbed}") == climbed
    assert one(strict, "validmoves") == one(lenient, "validmoves")


def test_on_top_needs_the_top_piece_of_the_stack():
    session = UhpSession()
    one(session, "newgame Base;InProgress;White[3];wS1;bS1 wS1-;wQ -wS1;bQ bS1-")
    one(session, "play wB1 \\wQ")
    one(session, "play bB1 \\bQ")
    one(session, "play wB1 wQ")  # the Beetle climbs onto its own Queen
    one(session, "play bB1 bQ")
    # wQ is under wB1 now: "on top of wQ" names the place wB1 fills.
    assert one(session, "play wA1 wQ").startswith("invalidmove You can't move there")
    assert one(session, "play bS1 wS1").startswith("invalidmove It's not that player's turn")


def test_a_bare_piece_after_the_first_move_names_the_origin():
    session = UhpSession()
    one(session, "newgame Base;NotStarted;White[1];wS1")
    assert one(session, "play bS1").startswith(
        "invalidmove You can't move there because a piece already exists")
    lenient = UhpSession(strict=False)
    one(lenient, "newgame Base;NotStarted;White[1];wS1")
    assert one(lenient, "play bS1").startswith("invalidmove You can't move that piece there")


def test_newgame_recomputes_the_state_and_turn_from_the_moves():
    session = UhpSession()
    assert one(session, "newgame Base;NotStarted;White[1];wS1") == \
        "Base;InProgress;Black[1];wS1"
    assert one(session, "newgame Base;Draw;White[9];wS1;bS1 wS1-") == \
        "Base;InProgress;White[2];wS1;bS1 wS1-"
    assert one(session, "newgame Base;InProgress;White[3];wS1;bS1 wS1-") == \
        "Base;InProgress;White[2];wS1;bS1 wS1-"


def other_names(state) -> list[tuple[str, str]]:
    """(canonical, another name) of legal moves beside pieces: the destination named from
    another piece next to it."""
    from hexaround.hexgrid import OFFSETS
    from hive.directions import written

    engine = state.engine
    pairs = []
    for move in state.legal_moves():
        code, src, dst = state.action_of(move)
        if code < 0 or dst in engine.stacks:
            continue
        for d, offset in enumerate(OFFSETS):
            n = dst - offset
            stack = engine.stacks.get(n)
            if stack and n != src:
                name = f"{engine.code_name[code]} {written(engine.code_name[stack[-1]], d)}"
                if name != str(move):
                    pairs.append((str(move), name))
    return pairs


def test_the_game_string_records_moves_as_sent_normalised_as_mzinga_writes_them():
    session = UhpSession()
    one(session, "newgame Base")
    one(session, "play  WS1 ")
    assert one(session, "play bs1  Ws1-") == "Base;InProgress;White[2];wS1;bS1 wS1-"
    one(session, "play wQ -wS1")
    one(session, "play bQ bS1-")
    pairs = other_names(session.state)
    assert len(pairs) > 3
    for canonical, name in pairs:
        before = session.game_string()
        assert one(session, f"play {name.upper()}") == before.replace(
            "White[3]", "Black[3]") + ";" + name
        position = one(session, "validmoves")
        assert one(session, "undo") == before
        one(session, f"play {canonical}")
        assert one(session, "validmoves") == position  # the same move
        one(session, "undo")
    assert one(session, "play PASS").startswith("invalidmove You can't pass when")


def test_bestmove_takes_sub_second_times():
    session = UhpSession()
    one(session, "newgame Base+MLP;InProgress;White[2];wS1;bS1 wS1-")
    legal = one(session, "validmoves").split(";")
    for command in ("bestmove time 00:00:00.200", "bestmove seconds 0.2",
                    "bestmove time 00:00:00"):
        assert one(session, command) in legal
    assert one(session, "bestmove seconds x").startswith("err ")
