"""hexkit tournament and hexkit match at the command line: reports and exports, Ctrl-C and
--resume, options that do not apply, and numbers too large to plan."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import time

from .conftest import PLUGIN_DIRS, error_lines, hexkit_process, run_hexkit

BOTS = ("--bots", "random", "mcts:10", "slow:1,0.25")
NEW = ("tournament", "toyline(size=4)", *BOTS, "--games-per-pair", "4", "--seed", "7")


def stored(db) -> list[tuple]:
    with sqlite3.connect(db) as c:
        return c.execute("SELECT number, seats, winners, reason, moves FROM games "
                         "ORDER BY number").fetchall()


def test_a_tournament_prints_its_tables_and_writes_json_csv_and_svg(tmp_path):
    out = run_hexkit(*NEW, "--db", "t.sqlite", "--json", "t.json", "--csv", "t.csv",
                     "--chart", "t.svg", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "toyline(size=4): round-robin of 3 bots, 12 of 12 games, seed 7"
    assert lines[2].split()[:4] == ["rank", "bot", "games", "wins"]
    assert {line.split()[1] for line in lines[3:6]} == {"random", "mcts:10", "slow:1,0.25"}
    assert "crosstable" in out.stdout
    assert "tournament: 12/12 games" in out.stderr
    report = json.loads((tmp_path / "t.json").read_text())
    assert report["games_played"] == 12 and len(report["elo"]) == 3
    assert (tmp_path / "t.csv").read_text().splitlines()[0].startswith("rank,bot,games,")
    assert (tmp_path / "t.svg").read_text().startswith("<svg")
    again = run_hexkit("tournament", "--report", "t.sqlite", cwd=tmp_path)
    assert again.returncode == 0 and again.stdout == out.stdout


def test_ctrl_c_keeps_every_finished_game_and_resume_plays_only_the_rest(tmp_path):
    proc = hexkit_process(*NEW, "--db", "cut.sqlite", "--jobs", "2", cwd=tmp_path)
    db = tmp_path / "cut.sqlite"
    # Ctrl-C as soon as the third game is reported (a progress line per stored game), not
    # after polling the database: on a busy machine the poll saw all 12 games end first.
    assert proc.stderr is not None
    before = []
    for line in proc.stderr:
        before.append(line)
        if line.startswith("tournament: 3/12 games"):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    err = "".join(before) + err
    assert proc.returncode == 130, err
    kept = stored(db)
    assert 3 <= len(kept) < 12
    assert (f"{len(kept)} of 12 games stored in cut.sqlite; continue it with: "
            "hexkit tournament --resume cut.sqlite") in err
    assert "Traceback" not in err
    resumed = run_hexkit("tournament", "--resume", "cut.sqlite", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    progress = [line for line in resumed.stderr.splitlines() if line.startswith("tournament:")]
    assert len(progress) == 12 - len(kept)  # one line per game played now: none twice
    assert progress[-1].startswith("tournament: 12/12 games")
    assert set(kept) <= set(stored(db))
    whole = run_hexkit(*NEW, "--db", "whole.sqlite", "--quiet", cwd=tmp_path)
    assert stored(db) == stored(tmp_path / "whole.sqlite")
    assert resumed.stdout == whole.stdout


def test_settings_that_do_not_apply_are_refused_with_one_line(tmp_path, toy, monkeypatch,
                                                             capsys):
    from hexkit.cli import main

    monkeypatch.chdir(tmp_path)
    dirs = [a for d in PLUGIN_DIRS for a in ("--plugins-dir", d)]
    assert main([*dirs, *NEW, "--games-per-pair", "2", "--db", "t.sqlite", "--quiet"]) == 0
    cases = [
        (("tournament", "--report", "t.sqlite", "--bots", "random", "mcts"),
         "--report uses the settings stored in t.sqlite; --bots cannot be given with it"),
        (("tournament", "--resume", "t.sqlite", "toyline", "--seed", "3"),
         "--resume uses the settings stored in t.sqlite; GAME, --seed cannot be given with it"),
        (("tournament", "--report", "t.sqlite", "--jobs", "2"),
         "--jobs, --backend and --address do not apply to --report (it plays nothing)"),
        (("tournament", "toyline"), "a tournament needs a game and --bots (or --resume DB, "
                                    "--report DB)"),
        (("tournament", "toyline", "--bots", "random", "mcts", "--address", "1.2.3.4:6379"),
         "--address does not apply without --backend ray"),
        (("tournament", "--report", "missing.sqlite"), "missing.sqlite: no such tournament "
                                                        "database"),
        (("match", "toyline", "--p3", "random"), "toyline has 2 seats; --p3 cannot play"),
        (("match", "toyline", "--backend", "ray", "--address", "10.0.0.5:6379", "--jobs", "2"),
         "--jobs does not apply with --address (the Ray cluster's CPUs are used)"),
        (("match", "toyline", "--backend", "ray", "--address", "127.0.0.1:1"),
         "cannot reach the Ray cluster at 127.0.0.1:1: Connection refused"),
        (("match", "toyline", "--jobs", "100000"), "--jobs 100000 is more than this machine "
                                                   "can use"),
        (("match", "toyline", "--games", str(10**12)), "--games 1000000000000 is more than a "
                                                       "match can play"),
    ]
    capsys.readouterr()
    for args, message in cases:
        assert main([*dirs, *args]) == 1
        lines = [x for x in capsys.readouterr().err.splitlines()
                 if not x.startswith("hexkit: warning:")]
        assert len(lines) == 1 and lines[0].startswith("hexkit: error: ")
        assert message in lines[0], lines[0]


def test_without_ray_the_ray_backend_says_how_to_install_it(tmp_path):
    fake = tmp_path / "noray" / "ray"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    out = run_hexkit("match", "toyline", "--backend", "ray", "--games", "2", cwd=tmp_path,
                     env_extra={"PYTHONPATH": str(fake.parent)})
    assert error_lines(out) == ["hexkit: error: the Ray backend needs Ray: "
                                "pip install 'hexkit-games[ray]'"]


def test_a_long_match_game_shows_progress_before_it_ends(toy):
    from hexkit.tournament.match import run_match

    moves_seen: list[tuple[int, int]] = []
    game = toy.load_game("toyline", size=8, line=8)
    result = run_match(game, ["slow:1,0.7", "random"], 1, seed=1,
                       on_move=lambda i, n: moves_seen.append((i, n)))
    assert len(result.games) == 1 and moves_seen
    assert moves_seen[0][0] == 0 and moves_seen[0][1] < result.games[0].moves


def test_a_huge_match_starts_at_once_and_ctrl_c_at_a_terminal_reports_its_games(tmp_path):
    """A million games (the most a match takes; issue 16's ``--games 100000000`` is refused)
    with two workers: games are made as workers need them, and ^C (SIGINT to the terminal's
    whole process group) ends it with the table."""
    import fcntl
    import os
    import pty
    import sys
    import termios

    from .conftest import PLUGIN_DIRS

    master, slave = pty.openpty()

    def take_terminal() -> None:  # the pty becomes the controlling terminal: ^C is SIGINT
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    dirs = [a for d in PLUGIN_DIRS for a in ("--plugins-dir", d)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "hexkit", *dirs, "match", "toyline", "--games", "1000000",
         "--seed", "1", "--jobs", "2", "--save-dir", "games"],
        stdin=slave, stdout=slave, stderr=slave, cwd=tmp_path, preexec_fn=take_terminal)
    os.close(slave)
    try:
        started = time.monotonic()
        while len(list(tmp_path.glob("games/*.json"))) < 3:
            assert time.monotonic() - started < 60 and proc.poll() is None
            time.sleep(0.05)
        os.write(master, b"\x03")
        assert proc.wait(timeout=30) == 130
    finally:  # a failed test must not leave a million-game match (and its workers) running
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    screen = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        screen += chunk
    os.close(master)
    text = screen.decode(errors="replace").replace("\r\n", "\n")
    head = next(line for line in text.splitlines() if line.startswith("toyline: "))
    assert head.startswith("toyline: random vs random, ") and "of 1000000 games " \
        "(interrupted)" in head
    played = int(head.split(", ")[1].split()[0])
    assert played >= 3 and len(list(tmp_path.glob("games/*.json"))) == played
    assert f"{played} games played" in text
    assert f"hexkit: match interrupted: {played} of 1000000 games played" in text
    assert "Traceback" not in text


def test_a_tournament_without_openskill_says_how_to_install_it_before_playing(
        tmp_path, monkeypatch, capsys):
    import importlib.util

    from hexkit.cli import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "openskill" else real(name, *a))
    monkeypatch.chdir(tmp_path)
    dirs = [a for d in PLUGIN_DIRS for a in ("--plugins-dir", d)]
    capsys.readouterr()
    assert main([*dirs, *NEW, "--db", "t.sqlite", "--quiet"]) == 1
    lines = [x for x in capsys.readouterr().err.splitlines()
             if not x.startswith("hexkit: warning:")]
    assert lines == ["hexkit: error: tournament ratings need openskill: "
                     "pip install 'hexkit-games[tournament]'"]
    assert not (tmp_path / "t.sqlite").exists()
