"""Hex Baron and Focus at the terminal against bots: what a bot's move did is said right after
it (destructions, VPs, captures, pieces to reserve, the end), before the board, and the end
is said once."""

from __future__ import annotations

from .conftest import run_hexkit


def test_a_bots_destructions_and_the_vps_they_give_are_narrated():
    out = run_hexkit("play", "hexbaron", "--p2", "random", "--seed", "3",
                     input="move 0 4\nmove 4 12\nupgrade pbds 8\n", toy=False)
    assert out.returncode == 0, out.stderr
    after = out.stdout.split("Player Two (random) plays move 31 23\n")[1].splitlines()
    assert after[:5] == [
        "  Player Two's Serf on tile 19 was destroyed (Player One +1 VP)",
        "  Player Two's Baron on tile 23 was destroyed (Player One +10 VPs)",
        "  Player Two's Serf on tile 27 was destroyed (Player One +1 VP)",
        "  Player One scores 12 VPs (now 12)",
        "  Player Two's baron is lost: the game ends now",
    ]
    assert out.stdout.count("Game over") == 1
    assert out.stdout.rstrip().endswith(
        "Game over: Player One wins (a baron was destroyed; 12 VPs to 1).")


def test_focus_captures_and_reserves_are_narrated_after_the_move_that_made_them():
    out = run_hexkit("play", "focus", "--p1", "random", "--p2", "random", "--seed", "2",
                     toy=False)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    told = [i for i, line in enumerate(lines)
            if line.startswith("  ") and (" captures " in line or "to reserve" in line)]
    assert told, "no capture in a whole game"
    for i in told:
        j = i - 1
        while lines[j].startswith("  ") and (" captures " in lines[j] or "reserve" in lines[j]):
            j -= 1
        assert " (random) plays " in lines[j], lines[j - 1:i + 1]
