"""Modern play through the real command line: ``hexkit play hexbaron`` (no --classic)."""

from __future__ import annotations

from .conftest import run_hexkit

PRELIM_MODERN = [  # the preliminary material's example; refused commands do not count
    "upgrade less 8", "saw 8", "move 0 1", "move 0 4",
    "upgrade pbds 31", "upgrade pbds 23", "dig 23", "pass",
    "move 8 12", "saw 12", "saw 12",
    "move 31 27", "spawn 30", "spawn 26", "pass",
]


def play(*lines: str, options: tuple[str, ...] = (), cwd=None, p2: str = "human"):
    args = ["play", "hexbaron", "--seed", "0", "--p2", p2]
    for o in ("extensions=none", *options):  # the same game whatever else is installed
        args += ["-o", o]
    result = run_hexkit(*args, stdin="".join(f"{x}\n" for x in lines).encode(), cwd=cwd)
    return result.returncode, result.stdout.decode(), result.stderr.decode()


def test_a_whole_game_can_be_played_with_refusals_explained():
    code, out, err = play(*PRELIM_MODERN)
    assert code == 0 and err == ""
    assert "illegal move: tile 1 is not next to tile 0" in out
    assert "illegal move: only a serf can become a PBDS (tile 31 holds your Baron)" in out
    assert "illegal move: not enough lumber: spawning costs 3, you have 2" in out
    assert "destroyed b27 (Player One +10 VPs)" in out
    assert out.rstrip().endswith(
        "Game over: Player One wins (a baron was destroyed; 10 VPs to 1).")


def test_help_explains_the_commands_and_costs_and_lists_the_legal_ones():
    code, out, _ = play("help", "quit")
    assert "upgrade less|pbds TILE  turn your serf on TILE into a LESS or a PBDS (5" in out
    assert "savefile [-f] FILE" in out
    assert "8 legal moves:" in out and "spawn 4" in out and "pass" in out


def test_help_says_each_rule_once():
    code, out, _ = play("help", "quit")
    for rule in ("  move FROM TO", "Pieces (upper case: Player One, lower case: Player Two):",
                 "  B  Baron: moves one tile", "Pieces are destroyed at the end of every turn"):
        assert out.count(rule) == 1, rule
    assert "How to write a move: as in the rules above." in out
    assert out.count("  savefile [-f] FILE  save the game as an AQA data file") == 1


def test_against_a_bot_every_command_of_both_sides_is_told_with_its_effect():
    code, out, _ = play("move 8 12", "move 0 4", "pass", "quit", p2="random")
    assert code == 0
    # The player's third command: no board is shown before the bot answers.
    assert "passed; end of Player One's turn: nothing destroyed" in out
    bot = out[out.index("Player Two (random) plays"):].splitlines()
    plays = [i for i, line in enumerate(bot) if line.startswith("Player Two (random) plays ")]
    assert len(plays) == 3
    for i in plays[:2]:  # each told with its effect...
        assert bot[i + 1].startswith("  ") and bot[i + 1].strip(), bot
    # ... and the last on the board it leaves for the player.
    assert any(line.startswith("Last: Player Two: ") and "end of Player Two's turn" in line
               for line in bot)


def test_undo_takes_back_a_command():
    code, out, _ = play("upgrade less 8", "undo", "moves", "quit")
    assert "upgrade less 8" in out.split("legal moves:")[-1]


def test_tile_numbers_can_be_shown_or_hidden():
    _, shown, _ = play("quit")
    _, hidden, _ = play("ids", "quit", options=("show_ids=false",))
    assert " / B 0\\____/#  1\\____/#  2\\____/   3\\____" in shown
    assert " / B\\__/# \\__/# \\__/  \\__" in hidden
    assert " /28\\__/29\\__/30\\__/31\\__/" not in hidden
    assert " \\__/28\\__/29\\__/30\\__/31\\" in hidden  # the ids map


def test_save_writes_a_data_file_that_loads_again(tmp_path):
    code, out, _ = play("upgrade less 8", "savefile game.txt", "savefile game.txt", "quit",
                        cwd=tmp_path)
    saved = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert saved.startswith("Player One,0,10,5,5\nPlayer Two,1,10,10,5\n8\n")
    assert "saved to game.txt" in out
    assert ("savefile: game.txt already exists; type 'savefile -f game.txt' to replace it"
            in out)
    code, out, _ = play("quit", options=("setup=game.txt",), cwd=tmp_path)
    assert "Player One to give command 2 of 3, turn 1." in out
    assert " / L 8\\____/" in out


def test_player_names_and_a_tie_reported_as_a_draw(tmp_path):
    (tmp_path / "tie.txt").write_text("Ann,2,3,3,1\nBob,10,3,3,1\n4\n , , , , , , , \n"
                                      "1,Baron,0\n2,Baron,5\n1,Serf,3\n1,Serf,7\n",
                                      encoding="utf-8")
    code, out, _ = play(*["pass"] * 6, options=("setup=tie.txt", "p1_name=Ada"), cwd=tmp_path)
    assert "Ada> " in out and "Bob> " in out
    assert "Game over: a draw (a baron was destroyed; 12 VPs to 12)." in out
    code, out, _ = play(*["pass"] * 6, options=("setup=tie.txt", "tie_rule=player_two"),
                        cwd=tmp_path)
    assert "Game over: Bob wins" in out


def test_a_bad_data_file_is_reported_with_file_line_and_problem(tmp_path):
    (tmp_path / "odd.txt").write_text("A,0,1,1,1\nB,0,1,1,1\n7\n#\n", encoding="utf-8")
    code, out, err = play(options=("setup=odd.txt",), cwd=tmp_path)
    assert code == 1 and out == ""
    assert err == ("hexkit: error: odd.txt:3: grid size must be an even number from 4 to 100, "
                   "not 7\n")


def test_an_odd_grid_size_option_is_refused_clearly():
    code, _, err = play(options=("size=9",))
    assert code == 1
    assert err == ("hexkit: error: option size: grid size must be an even number from 4 to "
                   "100, not 9\n")


def test_playing_against_the_random_bot():
    code, out, err = play(*["pass"] * 6, options=("max_turns=2",), p2="random")
    assert code == 0 and err == ""
    assert out.count("Player Two (random) plays") == 6
    assert "Game over:" in out


def test_rules_lists_the_options():
    result = run_hexkit("rules", "hexbaron")
    text = result.stdout.decode()
    assert result.returncode == 0
    for word in ("setup=default", "size=0", "tie_rule=draw [draw|player_two]", "max_turns=0",
                 "show_ids=True", "extensions=all", "refused command"):
        assert word in text
