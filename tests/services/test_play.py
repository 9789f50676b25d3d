"""``hexkit play`` as a player meets it: narration, teaching, words, saving, leaving and the
options that do not apply. Real subprocesses, input piped in (no terminal)."""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import hexkit
from hexkit.files.records import load_record

from .conftest import run_hexkit

PEBBLE = Path(__file__).parent / "terminal_plugins"


def pebble(*args: str, input: str = "", cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``hexkit play pebble ...`` with the terminal test plugins."""
    return run_hexkit("--plugins-dir", str(PEBBLE), "play", "pebble", *args, input=input,
                      cwd=cwd, toy=False)


def errors(out: subprocess.CompletedProcess) -> list[str]:
    return [x for x in out.stderr.splitlines() if not x.startswith("hexkit: warning:")]


# -- narration -----------------------------------------------------------------------------
def test_a_bots_move_is_followed_by_what_it_did():
    # Olga (first legal move) drops on 0, then on 2: Xavier's stone on 1 is captured.
    out = pebble("--p2", "first", "--seed", "1", input="drop 1\ndrop 3\nquit\n")
    lines = out.stdout.splitlines()
    at = lines.index("Xavier> Olga (first) plays drop 2")
    assert lines[at + 1] == "  Olga captured Xavier's stone on 1"


def test_a_players_own_move_is_narrated_before_the_next_prompt():
    out = pebble("--seed", "1", input="drop 0\ndrop 1\ndrop 2\nquit\n")
    after_move = out.stdout.split("Xavier> ")[2]  # what follows Xavier's second move
    assert after_move.startswith("  Xavier captured Olga's stone on 1\n")


def test_the_end_and_its_reason_are_said_once():
    out = pebble("--p1", "first", "--p2", "first", "--seed", "1", "-o", "length=6")
    assert out.returncode == 0, out.stderr
    assert out.stdout.count("Game over") == 1
    assert out.stdout.rstrip().endswith("Game over: Xavier wins (more stones on the row).")


# -- teaching ------------------------------------------------------------------------------
def test_an_empty_line_shows_a_short_hint_not_the_whole_help():
    out = pebble("--seed", "1", input="\nquit\n")
    hint = out.stdout.split("Xavier> ")[1].splitlines()
    assert hint[0] == ("Xavier to play. 7 legal moves: drop 0, drop 1, drop 2, drop 3, drop 4, "
                       "drop 5,")
    assert len(hint) <= 3 and "'help'" in hint[-1]


def test_help_describes_the_variant_the_notation_with_a_legal_example_and_the_words():
    out = pebble("--seed", "1", "-o", "size=5", input="drop 0\nhelp\nquit\n")
    shown = out.stdout
    assert "A row of 5 cells; each player has 4 stones in hand." in shown  # describe()
    assert "drop N puts a stone from your hand on cell N" in shown  # move_help()
    assert "For example: drop 1 (legal now)." in shown  # a legal move of this position
    assert "  tally" in shown and "count the stones on the row" in shown
    assert "(the game's own save gives way to hexkit's)" in shown


def test_moves_lists_the_legal_moves_from_a_cell_a_piece_in_hand_or_with_words():
    out = pebble("--seed", "1", input="drop 3\ndrop 0\nmoves 3\nmoves stone\nmoves slide\n"
                                      "moves 6\nquit\n")
    shown = out.stdout
    assert "2 legal moves from 3:\n  slide 3 2  slide 3 4\n" in shown
    assert "5 legal moves from stone:\n  drop 1  drop 2  drop 4  drop 5  drop 6\n" in shown
    assert "2 legal moves with slide:\n  slide 3 2  slide 3 4\n" in shown
    assert "no legal move from 6" in shown


def test_mistyped_words_and_piece_names_get_did_you_mean():
    out = pebble("--seed", "1", input="dorp 3\ndrop 3\ndrop 0\nsliide 3 4\nhlep\nquit\n")
    shown = out.stdout
    assert "did you mean 'drop 3'?" in shown
    assert "did you mean 'slide 3 4'?" in shown
    assert "did you mean 'help'?" in shown


def test_rules_with_options_describes_that_variant():
    out = run_hexkit("--plugins-dir", str(PEBBLE), "rules", "pebble", "-o", "size=9", toy=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("pebble(size=9): stones on a row")
    assert "A row of 9 cells" in out.stdout
    assert "size=9" in out.stdout


def test_rules_and_play_without_a_game_list_the_games():
    for command in ("rules", "play"):
        out = run_hexkit("--plugins-dir", str(PEBBLE), command, toy=False)
        assert out.returncode == 2
        assert any(line.split()[:1] == ["pebble"] for line in out.stdout.splitlines()), command
        assert "hexbaron" in out.stdout


# -- never lose a game ---------------------------------------------------------------------
def test_quit_says_the_game_is_not_saved_and_exits_zero():
    out = pebble("--seed", "1", input="drop 0\nquit\n")
    assert out.returncode == 0
    assert "The game was left unfinished (1 move played) and is not saved" in out.stdout


def test_in_game_save_keeps_the_game_saved_and_quit_gives_the_resume_command(tmp_path):
    out = pebble("--seed", "4", input="drop 0\nsave g.json\ndrop 1\nquit\n", cwd=tmp_path)
    assert out.returncode == 0
    assert load_record(tmp_path / "g.json").moves == ["drop 0", "drop 1"]
    resume = out.stdout.splitlines()[-1]
    assert resume == f"Resume it with: hexkit --plugins-dir {PEBBLE} play --load g.json"
    command = shlex.split(resume.split(": ", 1)[1])
    assert command[0] == "hexkit"
    again = subprocess.run([sys.executable, "-m", *command], input="drop 2\nquit\n",
                           capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "Loaded pebble after 2 moves from g.json." in again.stdout
    assert load_record(tmp_path / "g.json").moves == ["drop 0", "drop 1", "drop 2"]


def test_in_game_save_refuses_an_existing_file_and_a_nul_byte_and_the_game_goes_on(tmp_path):
    (tmp_path / "taken.json").write_text("mine\n")
    out = pebble("--seed", "1", input="save taken.json\nsave a\0b\ndrop 0\nsave -f taken.json\n"
                                      "quit\n", cwd=tmp_path)
    shown = out.stdout
    assert "not saved: taken.json already exists: add --force to replace it" in shown
    assert "that line holds a NUL byte" in shown
    assert load_record(tmp_path / "taken.json").moves == ["drop 0"]
    assert out.returncode == 0


def test_save_option_refuses_to_replace_a_file_unless_forced(tmp_path):
    first = pebble("--seed", "1", "--save", "g.json", input="drop 0\nquit\n", cwd=tmp_path)
    assert first.returncode == 0
    before = (tmp_path / "g.json").read_text()
    again = pebble("--seed", "2", "--save", "g.json", input="quit\n", cwd=tmp_path)
    assert again.returncode == 1
    assert errors(again) == [
        "hexkit: error: g.json already exists: add --force to replace it, or continue the "
        "game in it with: hexkit play --load g.json"]
    assert (tmp_path / "g.json").read_text() == before
    forced = pebble("--seed", "2", "--save", "g.json", "--force", input="quit\n", cwd=tmp_path)
    assert forced.returncode == 0
    assert json.loads((tmp_path / "g.json").read_text())["seed"] == 2


def test_a_finished_game_in_the_file_is_named_in_the_refusal(tmp_path):
    pebble("--p1", "first", "--p2", "first", "--seed", "1", "-o", "length=4", "--save",
           "done.json", cwd=tmp_path)
    again = pebble("--save", "done.json", input="quit\n", cwd=tmp_path)
    assert errors(again) == [
        "hexkit: error: done.json already exists: add --force to replace it (it holds a "
        "finished game of pebble(length=4))"]


def test_non_utf8_input_is_refused_in_one_line_and_the_game_goes_on():
    proc = subprocess.run(
        [sys.executable, "-m", "hexkit", "--plugins-dir", str(PEBBLE), "play", "pebble",
         "--seed", "1"],
        input=b"drop \xff\xfe 0\ndrop 0\nquit\n", capture_output=True, timeout=120,
        env={k: v for k, v in os.environ.items() if k != "HEXKIT_PLUGINS_DIR"},
    )
    shown = proc.stdout.decode()
    assert "that line is not UTF-8 text (byte 0xff at column 6); type it again" in shown
    assert "(1 move played)" in shown
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr


# -- options that do not apply -------------------------------------------------------------
def test_a_seat_beyond_the_games_players_is_refused():
    out = run_hexkit("play", "toyline", "--p3", "random", "--p4", "human")
    assert out.returncode == 1
    assert errors(out) == ["hexkit: error: toyline has 2 seats; --p3, --p4 cannot play"]


def test_seats_with_a_front_end_are_refused():
    out = run_hexkit("play", "hexbaron", "--classic", "--p2", "random", toy=False)
    assert out.returncode == 1
    assert errors(out) == [
        "hexkit: error: --p2 does not apply to --frontend classic (the front-end seats its "
        "own players)"]


def test_force_without_save_is_refused():
    out = pebble("--force", input="quit\n")
    assert errors(out) == ["hexkit: error: --force does not apply without --save"]


# -- replay into a pipe that closes --------------------------------------------------------
def test_replay_into_a_reader_that_stops_early_ends_quietly(tmp_path):
    done = pebble("--p1", "first", "--p2", "first", "--seed", "1", "-o", "size=60",
                  "-o", "length=400", "--save", "long.json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    proc = subprocess.Popen([sys.executable, "-m", "hexkit", "--plugins-dir", str(PEBBLE),
                             "replay", "long.json"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # as `| head -1` does
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 141
    assert err == b""



def test_replay_says_what_each_move_did(tmp_path):
    pebble("--seed", "1", "--save", "g.json", input="drop 0\ndrop 1\ndrop 2\nquit\n",
           cwd=tmp_path)
    out = run_hexkit("--plugins-dir", str(PEBBLE), "replay", "g.json", "--final", toy=False,
                     cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "3. Xavier (human): drop 2\n   Xavier captured Olga's stone on 1\n" in out.stdout


def test_loading_a_game_and_saving_it_to_the_same_file_continues_it(tmp_path):
    pebble("--seed", "1", "--save", "g.json", input="drop 0\nquit\n", cwd=tmp_path)
    out = run_hexkit("--plugins-dir", str(PEBBLE), "play", "--load", "g.json", "--save",
                     "./g.json", input="drop 1\nquit\n", toy=False, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert load_record(tmp_path / "g.json").moves == ["drop 0", "drop 1"]


def test_a_save_that_fails_mid_game_is_said_and_the_game_goes_on(tmp_path):
    folder = tmp_path / "gone"
    folder.mkdir()
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", "--plugins-dir", str(PEBBLE), "play", "pebble",
         "--seed", "1", "--save", str(folder / "g.json")],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        cwd=tmp_path)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("drop 0\ntally\n")  # saved in gone/g.json; then the folder goes
    proc.stdin.flush()
    while "stones on the row" not in proc.stdout.readline():
        pass
    (folder / "g.json").unlink()
    folder.rmdir()
    out, err = proc.communicate("drop 1\nsave g2.json\nquit\n", timeout=120)
    assert "could not save the game to" in out and "it goes on" in out
    assert "(2 moves played); it is saved in g2.json" in out
    assert proc.returncode == 0 and "Traceback" not in err


def test_did_you_mean_offers_only_what_would_be_accepted():
    from hexkit.kit.refusals import push_or_refusal

    state = hexkit.load_game("focus").new_state(seed=1)
    words = {"help", "moves", "undo", "save", "quit"}
    # A readable but illegal move is not 'corrected' into the word 'moves'.
    said = push_or_refusal(state, "move 2,2 2,4 1", hint="", extra_words=words)
    assert said == "illegal move: the stack on 2,2 is not yours: Green is on top"
    said = push_or_refusal(state, "hlep", hint="", extra_words=words)
    assert said.endswith("did you mean 'help'?")
    assert state.move_stack == []
