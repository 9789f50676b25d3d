"""hexkit match: bots play series of games, reproducibly, in one or several processes."""

from __future__ import annotations

import json

from hexkit.files.records import load_record, replay
from hexkit.tournament.match import run_match, seating

from .conftest import error_lines, run_hexkit


def test_match_prints_wins_draws_and_losses_per_player(tmp_path):
    out = run_hexkit("match", "toyline", "--p1", "mcts:150", "--p2", "random", "--games", "6",
                     "--seed", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "toyline: mcts:150 vs random, 6 games, seed 3, seats rotate"
    assert lines[1].split() == ["player", "wins", "draws", "losses", "win", "%"]
    p1 = lines[2].split()
    p2 = lines[3].split()
    assert p1[:2] == ["p1", "mcts:150"] and p2[:2] == ["p2", "random"]
    wins1, draws1, losses1 = map(int, p1[2:5])
    wins2, draws2, losses2 = map(int, p2[2:5])
    assert wins1 + draws1 + losses1 == 6
    assert (wins1, draws1, losses1) == (losses2, draws2, wins2)
    assert wins1 >= 4 and losses1 == 0
    assert lines[4].startswith("6 games played")


def test_progress_goes_to_stderr_without_a_terminal(tmp_path):
    out = run_hexkit("match", "toyline", "--games", "10", "--seed", "1", cwd=tmp_path)
    progress = [line for line in error_lines(out) if line.startswith("match:")]
    assert progress[-1].startswith("match: 10/10 games")
    assert 1 < len(progress) <= 10
    quiet = run_hexkit("match", "toyline", "--games", "3", "--quiet", cwd=tmp_path)
    assert error_lines(quiet) == []


def test_parallel_jobs_give_the_same_results_as_one_process(tmp_path):
    args = ("match", "toyline(size=4)", "--p1", "mcts:30", "--p2", "random", "--games", "8",
            "--seed", "5", "--json", "--quiet", "--save-dir")
    one = run_hexkit(*args, "one", cwd=tmp_path)
    two = run_hexkit(*args, "two", "--jobs", "2", cwd=tmp_path)
    assert one.returncode == 0 and two.returncode == 0, one.stderr + two.stderr
    a, b = json.loads(one.stdout), json.loads(two.stdout)
    assert a["players"] == b["players"]
    for i in range(1, 9):
        name = f"game-{i:04d}.json"
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()


def test_a_match_game_is_reproducible_from_its_saved_record(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline", size=4, blockers=True)
    result = run_match(game, ["random", "mcts:20"], 3, seed=9, save_dir=tmp_path)
    for g in result.games:
        record = load_record(tmp_path / f"game-{g.index + 1:04d}.json")
        assert record.seed == 9 + g.index
        state = replay(record)
        assert len(state.move_stack) == g.moves
        assert record.players == [["random", "mcts:20"][p] for p in g.seats]


def test_seats_rotate_each_game_so_each_player_starts_in_turn():
    assert [seating(i, 2, True) for i in range(3)] == [(0, 1), (1, 0), (0, 1)]
    assert [seating(i, 3, True)[0] for i in range(3)] == [0, 2, 1]
    assert seating(1, 2, False) == (0, 1)


def test_fixed_seats_keep_player_one_first(toy_plugins):
    game = toy_plugins.load_game("toyline")
    result = run_match(game, ["random", "random"], 4, seed=0, rotate=False)
    assert all(g.seats == (0, 1) for g in result.games)


def test_a_three_player_game_needs_three_bots(tmp_path):
    out = run_hexkit("match", "toyline", "-o", "players=3", "-o", "size=4", "--p1", "mcts:20",
                     "--games", "3", "--seed", "2", "--quiet", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "p3 random" in out.stdout
    out = run_hexkit("match", "toyline", "--p3", "random", "--games", "1", cwd=tmp_path)
    assert error_lines(out) == ["hexkit: error: toyline has 2 seats; --p3 cannot play"]


def test_unknown_bot_and_human_players_are_one_line_errors(tmp_path):
    out = run_hexkit("match", "toyline", "--p1", "mcst", "--games", "2", cwd=tmp_path)
    assert error_lines(out) == ["hexkit: error: unknown bot 'mcst'; did you mean 'mcts'?"]
    out = run_hexkit("match", "toyline", "--p2", "human", "--games", "2", cwd=tmp_path)
    assert error_lines(out) == ["hexkit: error: a match is between bots; 'human' cannot play one"]
    out = run_hexkit("match", "toyline", "--games", "0", cwd=tmp_path)
    assert error_lines(out) == ["hexkit: error: a match needs at least one game"]


def test_games_stopped_at_the_move_limit_count_as_draws(toy_plugins):
    game = toy_plugins.load_game("toyline", size=5, line=5)
    result = run_match(game, ["random", "random"], 2, seed=0, max_moves=4)
    assert all(g.unfinished and g.moves == 4 for g in result.games)
    assert [(p.wins, p.draws, p.losses) for p in result.players] == [(0, 2, 0), (0, 2, 0)]
