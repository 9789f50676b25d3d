"""hexkit check: scenario files run through the generic API, one line per scenario."""

from __future__ import annotations

import json
import textwrap

from .conftest import PLUGIN_FILES, run_hexkit

GOOD = """\
game: toyline
options: {size: 3}
scenarios:
  - name: X wins on the top row
    moves:
      - a1
      - {move: a2, player: Olga}
      - b1
      - {move: b2, expect: {over: false}}
      - move: c1
        expect: {over: true, winners: [Xavier]}
    facts:
      - {path: cells.0, equals: [0, 0, 0]}
      - {path: cells, length: 5}
      - {path: last, contains: [0, 2]}
      - {over: true}
      - {winners: [0]}
  - name: taken squares and nonsense are refused
    moves:
      - a1
      - {move: a1, expect: {illegal: already taken}}
      - {move: zz, expect: unreadable}
      - {move: a1, expect: refused}
      - move: b2
        facts:
          - {current_player: Xavier}
          - {legal_count: 7}
    facts:
      - {legal: c3}
      - {not_legal: b2}
      - {path: nothing.here, exists: false}
      - {path: rng, exists: true}
"""


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_passing_scenarios_print_ok_lines_and_the_summary(tmp_path):
    write(tmp_path, "good.yaml", GOOD)
    out = run_hexkit("check", "good.yaml", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines() == [
        "ok   good.yaml:4 X wins on the top row",
        "ok   good.yaml:18 taken squares and nonsense are refused",
        "2 passed, 0 failed",
    ]


def test_failures_say_which_line_and_what_differed_and_exit_non_zero(tmp_path):
    write(tmp_path, "bad.yaml", """\
        game: toyline
        scenarios:
          - name: expects a refusal that is accepted
            moves:
              - a1
              - {move: b1, expect: refused}
          - name: wrong winner
            moves: [a1, a2, b1, b2, c1]
            facts:
              - {winners: [Olga]}
          - name: wrong turn
            moves:
              - {move: a1, player: 1}
          - name: wrong fact
            moves: [a1]
            facts:
              - {path: cells.0.2, equals: 1}
          - name: wrong refusal reason
            moves:
              - a1
              - {move: a1, expect: {refused: not your turn}}
          - name: expects a win that does not come
            moves:
              - {move: a1, expect: {over: true, winners: [0]}}
        """)
    out = run_hexkit("check", "bad.yaml", cwd=tmp_path)
    assert out.returncode == 1
    assert out.stdout.splitlines() == [
        "FAIL bad.yaml:6 expects a refusal that is accepted: move 2 'b1': expected refused, "
        "but it was accepted",
        "FAIL bad.yaml:10 wrong winner: at the end: expected the game won by Olga, but it was "
        "won by Xavier (seat 0) (3 in a row)",
        "FAIL bad.yaml:13 wrong turn: move 1 'a1': expected Olga (seat 1) to move, but it is "
        "Xavier (seat 0)'s turn",
        "FAIL bad.yaml:17 wrong fact: at the end: path cells.0.2 is 0, expected 1",
        "FAIL bad.yaml:21 wrong refusal reason: move 2 'a1': refused as expected, but the "
        "reason 'a1 is already taken' does not contain 'not your turn'",
        "FAIL bad.yaml:24 expects a win that does not come: move 1 'a1': expected game over, "
        "won by 0, but the game is not over",
        "0 passed, 6 failed",
    ]


def test_a_malformed_file_is_one_failure_with_file_and_line(tmp_path):
    write(tmp_path, "good.yaml", GOOD)
    write(tmp_path, "typo.yaml", """\
        game: toyline
        moves:
          - {move: a1, expext: accepted}
        """)
    write(tmp_path, "broken.yaml", "game: toyline\nmoves: [a1\n")
    write(tmp_path, "nogame.yaml", "moves: [a1]\n")
    out = run_hexkit("check", "good.yaml", "typo.yaml", "broken.yaml", "nogame.yaml",
                     cwd=tmp_path)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    assert "FAIL typo.yaml:3: unknown move key 'expext' (did you mean 'expect'?)" in lines
    assert any(line.startswith("FAIL broken.yaml:3: invalid YAML") for line in lines)
    assert "FAIL nogame.yaml:1: 'game' is missing: name the game (e.g. game: focus)" in lines
    assert lines[-1] == "2 passed, 3 failed"


def test_a_single_scenario_file_and_a_folder_of_them(tmp_path):
    folder = tmp_path / "course"
    folder.mkdir()
    write(folder, "one.yaml", """\
        name: a draw on a full board
        game: toyline
        moves: [a1, b1, c1, b2, a2, c2, b3, a3]
        facts:
          - {over: false}
          - {legal_count: 1}
        """)
    write(folder, "two.yml", """\
        - game: toyline(size=4)
          moves: [a1]
          facts: [{legal_count: 15}]
        """)
    out = run_hexkit("check", "course", cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.splitlines()[-1] == "2 passed, 0 failed"
    assert "ok   course/two.yml:1 scenario 1" in out.stdout


def test_a_draw_expectation(tmp_path):
    write(tmp_path, "draw.yaml", """\
        game: toyline
        moves:
          - a1
          - b1
          - c1
          - b2
          - a2
          - c2
          - b3
          - a3
          - {move: c3, expect: draw}
        facts: [{winners: []}]
        """)
    out = run_hexkit("check", "draw.yaml", cwd=tmp_path)
    assert out.returncode == 0, out.stdout


def test_starting_position_and_seed_are_used(toy_plugins, tmp_path):
    game = toy_plugins.load_game("toyline", blockers=True)
    state = game.new_state(seed=1)
    state.push("b2")
    position = json.dumps(game.state_from_dict(state.to_dict()).to_dict())
    write(tmp_path, "pos.yaml", f"""\
game: toyline
options: {{blockers: true}}
seed: 12
scenarios:
  - name: from a position
    position: {position}
    moves:
      - {{move: b2, expect: illegal}}
    facts:
      - {{path: cells, length: 2}}
  - name: the seed decides where blockers fall
    moves: [b2]
    facts:
      - {{path: cells, length: 2}}
""")
    out = run_hexkit("check", "pos.yaml", cwd=tmp_path)
    assert out.stdout.splitlines() == [
        "ok   pos.yaml:5 from a position",
        "ok   pos.yaml:11 the seed decides where blockers fall",
        "2 passed, 0 failed",
    ]
    write(tmp_path, "badpos.yaml", "game: toyline\nposition: {cells: 3}\n")
    out = run_hexkit("check", "badpos.yaml", cwd=tmp_path)
    assert out.stdout.splitlines()[0].startswith(
        "FAIL badpos.yaml:1 scenario 1: the starting position cannot be loaded: ")


def test_a_position_file_may_be_a_saved_game(tmp_path):
    run_hexkit("play", "toyline", "--seed", "2", "--save", "g.json", input="b2\na1\n",
               cwd=tmp_path)
    write(tmp_path, "from_record.yaml", """\
        game: toyline
        position_file: g.json
        moves:
          - {move: a1, expect: {illegal: taken}}
          - c3
        facts:
          - {path: cells, length: 3}
        """)
    out = run_hexkit("check", "from_record.yaml", cwd=tmp_path)
    assert out.returncode == 0, out.stdout


def test_a_missing_game_fails_its_scenarios_not_the_run(tmp_path):
    write(tmp_path, "s.yaml", "game: notinstalled\nmoves: [a1]\n")
    out = run_hexkit("check", "s.yaml", cwd=tmp_path)
    assert out.returncode == 1
    [line, summary] = out.stdout.splitlines()
    assert line.startswith("FAIL s.yaml:1 scenario 1: cannot load game notinstalled: unknown game")
    assert summary == "0 passed, 1 failed"


def test_a_plugin_whose_refused_move_changes_the_state_fails(tmp_path):
    """Grading a student's plugin: a refusal must leave the state exactly as it was."""
    source = (PLUGIN_FILES / "toyline.py").read_text(encoding="utf-8")
    buggy = source.replace('"toyline",', '"buggyline",').replace(
        '        if (move.row, move.col) in self.cells:\n',
        '        if (move.row, move.col) in self.cells:\n'
        '            self.cells[(move.row, move.col)] = 1 - self.cells[(move.row, move.col)]\n',
    )
    assert buggy != source
    student = tmp_path / "student"
    student.mkdir()
    (student / "buggyline.py").write_text(buggy, encoding="utf-8")
    write(tmp_path, "course.yaml", """\
        game: buggyline
        moves:
          - a1
          - {move: a1, expect: illegal}
        """)
    out = run_hexkit("--plugins-dir", str(student), "check", "course.yaml", cwd=tmp_path,
                     toy=False)
    assert out.stdout.splitlines() == [
        "FAIL course.yaml:4 scenario 1: move 2 'a1': it was refused (a1 is already taken) but "
        "refusing it changed the state",
        "0 passed, 1 failed",
    ]


def test_a_plugin_that_crashes_fails_the_scenario_with_one_line(tmp_path):
    source = (PLUGIN_FILES / "toyline.py").read_text(encoding="utf-8")
    crashing = source.replace('"toyline",', '"crashline",').replace(
        "    def legal_moves(self) -> list[Mark]:\n",
        "    def legal_moves(self) -> list[Mark]:\n        raise ZeroDivisionError('oops')\n",
    )
    student = tmp_path / "student"
    student.mkdir()
    (student / "crashline.py").write_text(crashing, encoding="utf-8")
    write(tmp_path, "course.yaml", "game: crashline\nmoves: [a1]\nfacts: [{legal_count: 8}]\n")
    out = run_hexkit("--plugins-dir", str(student), "check", "course.yaml", cwd=tmp_path,
                     toy=False)
    assert out.stdout.splitlines() == [
        "FAIL course.yaml:1 scenario 1: error: ZeroDivisionError: oops",
        "0 passed, 1 failed",
    ]
