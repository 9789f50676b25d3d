"""The classic console keeps the skeleton's quirks (spec §11), and where the skeleton would
crash it prints one line on standard error and exits 1 with standard output intact."""

from __future__ import annotations

import pytest

from .conftest import classic

MENU = "1. Default game\n2. Load game\nQ. Quit\n\nEnter your choice: "
LOAD = "Enter the name of the file to load: "
STATES_DEFAULT = (
    "Player One current state - VPs: 0   Pieces in supply: 5   Lumber: 10   Fuel: 10\n"
    "Player Two current state - VPs: 1   Pieces in supply: 5   Lumber: 10   Fuel: 10\n"
)
GRID_DEFAULT = (
    "\n  __    __    __    __    \n"
    " / B\\__/# \\__/# \\__/  \\__\n"
    " \\__/~ \\__/~ \\__/  \\__/  \\\n"
    " / S\\__/~ \\__/  \\__/# \\__/\n"
    " \\__/# \\__/  \\__/  \\__/  \\\n"
    " /  \\__/  \\__/# \\__/# \\__/\n"
    " \\__/# \\__/# \\__/~ \\__/~s\\\n"
    " /~ \\__/~ \\__/~ \\__/  \\__/\n"
    " \\__/# \\__/  \\__/# \\__/ b\\\n"
    "    \\__/  \\__/  \\__/  \\__/ \n\n"
)
ASK = "Player One state your three commands, pressing enter after each one.\n"
PROMPTS = "Enter command: " * 3


def first_turn_messages(*commands: str) -> list[str]:
    """The three result lines of Player One's first turn in the default game."""
    code, out, err = classic("1\n" + "".join(c + "\n" for c in commands), seed=0)
    head = MENU + STATES_DEFAULT + GRID_DEFAULT + ASK + PROMPTS
    assert out.startswith(head)
    return out[len(head):].split("\n")[:3]


def write(folder, name, text):
    (folder / name).write_text(text, encoding="utf-8", newline="")
    return name


# -- the menu -----------------------------------------------------------------------------
def test_menu_accepts_only_exactly_1_2_or_Q():
    code, out, err = classic("q\n 1\n1 \n1\r\nquit\n\n3\nQ\n")
    assert out == MENU * 8
    assert code == 0 and err == ""


def test_a_crlf_input_stream_breaks_the_menu():
    code, out, err = classic("1\r\nQ\r\n")
    assert out == MENU * 3 and code == 1
    assert err.count("\n") == 1 and "end of input" in err


# -- end of input -------------------------------------------------------------------------
@pytest.mark.parametrize("stdin, stdout_end, where", [
    ("", MENU, "menu"),
    ("2\n", LOAD, "file name"),
    ("1\nmove 0 4\n", ASK + PROMPTS[:30], "command"),
    ("1\npass\npass\npass\n", "Press Enter to continue...", "Press Enter"),
    ("1\npass\npass\npass", "Press Enter to continue...", "Press Enter"),
])
def test_end_of_input_at_any_prompt_gives_one_line_on_stderr_and_status_1(stdin, stdout_end,
                                                                           where):
    code, out, err = classic(stdin)
    assert code == 1
    if stdout_end is not None:
        assert out.endswith(stdout_end)
    assert err.count("\n") == 1 and "end of input" in err and where in err
    assert "Traceback" not in err


def test_a_last_line_without_a_line_break_is_still_read():
    code, out, _ = classic("Q")
    assert code == 0 and out == MENU


# -- commands -----------------------------------------------------------------------------
def test_commands_are_lower_cased_so_capitals_work():
    assert first_turn_messages("UPGRADE LESS 8", "SAW 8", "Move 0 4") == [
        "Command executed", "Command executed", "Command executed"]


def test_commands_split_on_single_spaces_so_extra_spaces_make_them_invalid():
    assert first_turn_messages("move  0 4", " move 0 4", "move 0 4 ") == ["Invalid command"] * 3


def test_tile_numbers_are_read_with_pythons_int():
    assert first_turn_messages("move 0 +4", "move 4 0_0", "move 00 4\r") == [
        "Command executed"] * 3
    assert first_turn_messages("spawn \u0664", "move 8 1e1", "saw 0x8") == [
        "Command executed", "Invalid command", "Invalid command"]


def test_negative_tiles_are_well_formed_commands_that_fail_with_their_own_message():
    assert first_turn_messages("move -1 4", "saw -1", "spawn -4") == [
        "That move can't be done", "Couldn't do that", "Spawning did not occur"]
    assert first_turn_messages("upgrade less -24", "dig -1", "move 0 -28") == [
        "Upgrade not possible", "Couldn't do that", "That move can't be done"]


def test_tile_numbers_are_valid_from_0_to_the_last_tile():
    assert first_turn_messages("move 0 32", "spawn 32", "move 31 27") == [
        "That move can't be done", "Spawning did not occur", "That move can't be done"]


def test_saw_or_dig_on_the_wrong_terrain_reports_command_executed():
    assert first_turn_messages("upgrade less 8", "saw 8", "dig 0") == [
        "Command executed", "Command executed", "Couldn't do that"]


def test_unknown_words_help_quit_and_empty_lines_are_invalid_and_use_up_commands():
    code, out, _ = classic("1\nhelp\n\nquit\n\nQ\n")
    assert "Invalid command\nInvalid command\nInvalid command\n" in out
    assert "Player Two state your three commands" in out
    assert code == 1  # the input ends at Player Two's first command


def test_press_enter_to_continue_swallows_any_text():
    code, out, _ = classic("1\npass\npass\npass\nQ\n")
    assert out.count("Press Enter to continue...") == 1
    assert out.endswith("Player Two state your three commands, pressing enter after each "
                        "one.\nEnter command: ")
    assert code == 1


# -- randomness ---------------------------------------------------------------------------
PRELIM = ("1\nupgrade less 8\nsaw 8\nmove 0 1\n\nupgrade pbds 31\nupgrade pbds 23\ndig 23\n\n"
          "move 8 12\nsaw 12\nsaw 12\n\nmove 31 27\nspawn 30\nspawn 26\n\nQ\n")


def test_a_dig_draw_of_0_9_or_more_gives_five_fuel_and_drains_the_bog():
    code, out, _ = classic(PRELIM, seed=2)
    assert "Player Two current state - VPs: 1   Pieces in supply: 5   Lumber: 5   Fuel: 15" in out
    assert " \\__/# \\__/# \\__/~ \\__/ p\\\n" in out
    assert code == 0


def test_one_generator_serves_every_game_of_a_run():
    one_game = "1\nspawn 4\n\n\n\nupgrade pbds 23\ndig 23\n\n\n"
    code, out, _ = classic(one_game * 2 + "Q\n", seed=8)  # draws 0.23 then 0.96
    finals = [line for line in out.splitlines() if line.startswith("Player Two final state")]
    assert finals == [
        "Player Two final state: VPs: 13   Pieces in supply: 5   Lumber: 5   Fuel: 11",
        "Player Two final state: VPs: 13   Pieces in supply: 5   Lumber: 5   Fuel: 15",
    ]
    assert code == 0


# -- the end of the game ------------------------------------------------------------------
def test_a_tie_is_won_by_player_two(tmp_path):
    name = write(tmp_path, "tie.txt", "Ann,2,3,3,1\nBob,10,3,3,1\n4\n , , , , , , , \n"
                 "1,Baron,0\n2,Baron,5\n1,Serf,3\n1,Serf,7\n")
    code, out, _ = classic(f"2\n{name}\n\n\n\n\n\n\n\n\nQ\n", cwd=tmp_path)
    assert out.endswith("\nAnn final state: VPs: 12   Pieces in supply: 1   Lumber: 3   Fuel: 3\n"
                        "\nBob final state: VPs: 12   Pieces in supply: 1   Lumber: 3   Fuel: 3\n"
                        "\nBob is the winner!\n" + MENU)
    assert code == 0


def test_loaded_names_are_used_in_prompts_and_final_lines_but_not_in_state_lines(tmp_path):
    name = write(tmp_path, "tie.txt", "Ann,2,3,3,1\nBob,10,3,3,1\n4\n , , , , , , , \n"
                 "1,Baron,0\n2,Baron,5\n1,Serf,3\n1,Serf,7\n")
    code, out, _ = classic(f"2\n{name}\n\n\n\n\n\n\n\n\nQ\n", cwd=tmp_path)
    assert "Ann state your three commands" in out and "Bob state your three commands" in out
    assert "Player One current state - VPs: 2" in out
    assert "Ann current state" not in out


# -- the loader ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    "A,0,1,1\nB,0,1,1,1\n4\n \n",                       # too few fields
    "A,0,1,1,x\nB,0,1,1,1\n4\n \n",                     # not a number
    "A,0,1,1,1\nB,0,1,1,1\nfour\n \n",                  # size not a number
    "A,0,1,1,1\nB,0,1,1,1\n1\n \n",                     # size 1: no tiles
    "A,0,1,1,1\nB,0,1,1,1\n-6\n \n",                    # negative size: no tiles
    "A,0,1,1,1\nB,0,1,1,1\n4\n#,#,#,#,#,#,#,#,#\n",     # more terrain than tiles
    "A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,8\n",          # location off the end
    "A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron,-9\n",         # location before the start
    "A,0,1,1,1\nB,0,1,1,1\n4\n \n1,Baron\n",            # too few piece fields
    "",                                                 # empty file
])
def test_any_loader_error_prints_file_not_loaded_and_shows_the_menu(tmp_path, text):
    name = write(tmp_path, "bad.txt", text)
    code, out, err = classic(f"2\n{name}\nQ\n", cwd=tmp_path)
    assert out == MENU + LOAD + "File not loaded\n" + MENU
    assert code == 0 and err == ""


def test_a_missing_file_or_folder_is_not_loaded(tmp_path):
    code, out, _ = classic("2\nmissing.txt\n2\n.\n2\n\nQ\n", cwd=tmp_path)
    assert out == (MENU + LOAD + "File not loaded\n") * 3 + MENU


def test_loader_quirks_owner_type_negative_location_duplicates_and_blank_line(tmp_path):
    name = write(tmp_path, "q.txt", "A,0,1,1,1\nB,0,1,1,1\n4\n~,#\n"
                 "x,Baron,-1\n1,baron,0\n1,LESS,5\n2,PBDS,5\n1,Baron,2\n\n1,Baron,3\n")
    code, out, _ = classic(f"2\n{name}\n", cwd=tmp_path)
    grid = ("\n  __    __    \n"
            " /~S\\__/# \\__\n"
            " \\__/ B\\__/  \\\n"
            " /  \\__/ p\\__/\n"
            " \\__/  \\__/ b\\\n"
            "    \\__/  \\__/ \n\n")
    assert grid in out


def test_a_trailing_field_in_the_terrain_line_loses_its_space_and_shortens_the_row(tmp_path):
    name = write(tmp_path, "t.txt", "A,0,1,1,1\nB,0,1,1,1\n4\n#,#,#,#,#,#,#, \n")
    code, out, _ = classic(f"2\n{name}\n", cwd=tmp_path)
    assert "\n \\__/# \\__/ \\\n" in out


def test_an_odd_grid_size_crashes_after_the_opening_state_lines(tmp_path):
    name = write(tmp_path, "odd.txt", "A,0,1,1,1\nB,0,1,1,1\n7\n#\n1,Baron,17\n")
    code, out, err = classic(f"2\n{name}\n1\n", cwd=tmp_path)
    assert out == (MENU + LOAD + "Player One current state - VPs: 0   Pieces in supply: 1   "
                   "Lumber: 1   Fuel: 1\nPlayer Two current state - VPs: 0   Pieces in supply: 1"
                   "   Lumber: 1   Fuel: 1\n")
    assert code == 1 and err.count("\n") == 1 and "odd" in err


def test_an_odd_size_still_checks_its_tiles_while_loading(tmp_path):
    name = write(tmp_path, "odd.txt", "A,0,1,1,1\nB,0,1,1,1\n7\n#\n1,Baron,18\n")
    code, out, _ = classic(f"2\n{name}\nQ\n", cwd=tmp_path)
    assert out == MENU + LOAD + "File not loaded\n" + MENU and code == 0


def test_size_two_draws_its_odd_row_malformed_and_never_ends(tmp_path):
    name = write(tmp_path, "two.txt", "A,0,9,9,9\nB,0,9,9,9\n2\n~,#\n1,Baron,0\n2,Baron,1\n")
    turns = "spawn 1\nmove 0 1\nsaw 0\n\n" * 5
    code, out, _ = classic(f"2\n{name}\n{turns}", cwd=tmp_path)
    assert "\n  __    \n /~B\\__\n \\__/#b\\__/\\\n    \\__/ \n\n" in out
    assert "winner" not in out and code == 1


def test_a_huge_grid_size_stops_with_a_message_instead_of_hanging(tmp_path):
    name = write(tmp_path, "huge.txt", "A,0,1,1,1\nB,0,1,1,1\n100000\n#\n")
    code, out, err = classic(f"2\n{name}\nQ\n", cwd=tmp_path)
    assert out == MENU + LOAD
    assert code == 1 and "too large" in err
