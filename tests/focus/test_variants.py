"""Variant files (configs/focus/*.yaml): a new board or layout needs no code, and every
mistake in a file is reported as file:line."""

from __future__ import annotations

import textwrap

import pytest
from focus.variant import load_variant

import hexkit
from hexkit.errors import ConfigError, OptionError
from hexkit.files.configs import variant_names
from hexkit.testing import check_game

SMALL = """\
format: hexkit-focus-variant/1
description: a small test board
board: |
  . + + .
  + + + +
  + + + +
  . + + .
colours:
  - {letter: W, name: White}
  - {letter: K, name: Black}
rules:
  distance: exact
  win: last_mover
layouts:
  2:
    start_reserve: 1
    pieces: |
      . AB BA .
      A - - B
      B - - A
      . BA AB .
"""


def write(tmp_path, text: str, name: str = "small.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_shipped_variants_load():
    assert {"course", "cross"} <= set(variant_names("focus"))
    for name in variant_names("focus"):
        variant = load_variant(name)
        assert variant.layouts


def test_the_course_board_is_the_central_6x6():
    board = hexkit.load_game("focus").rules.board
    assert len(board) == 36 and (board.rows, board.cols) == (6, 6)
    assert len(board.neighbours((0, 0))) == 2 and len(board.neighbours((2, 3))) == 4


def test_the_cross_board_has_52_squares_without_three_at_each_corner():
    board = hexkit.load_game("focus", board="cross").rules.board
    assert len(board) == 52
    removed = {(0, 0), (0, 1), (1, 0), (0, 6), (0, 7), (1, 7),
               (6, 0), (7, 0), (7, 1), (6, 7), (7, 7), (7, 6)}
    assert not any(sq in board for sq in removed)
    widths = [sum(1 for r, _ in board.cells if r == row) for row in range(8)]
    assert widths == [4, 6, 8, 8, 8, 8, 6, 4]


def test_cross_board_rays_stop_at_the_edge_of_the_shape():
    board = hexkit.load_game("focus", board="cross").rules.board
    assert board.ray((1, 1), 0) == ()          # up from (1,1): (0,1) is removed
    assert board.ray((2, 0), 1)[-1] == (2, 7)  # right along a full row
    assert board.ray((0, 2), 2) == tuple((r, 2) for r in range(1, 8))


def test_a_new_board_and_layout_from_a_file_plays_with_no_code(tmp_path):
    path = write(tmp_path, SMALL)
    game = hexkit.load_game("focus", board=str(path))
    state = game.new_state()
    assert state.players == ("White", "Black")
    assert len(state.rules.squares) == 12
    assert state.stack(state.rules.index[(0, 1)]) == [0, 1]
    assert state.reserve(0) == 1
    assert state.render().splitlines()[1].split() == ["1", "WK:2", "KW:2"]
    report = check_game(game, games=2, max_moves=150)
    assert report.moves > 0


def test_the_board_option_accepts_a_variant_name_from_the_configs_folder(tmp_path,
                                                                       monkeypatch):
    (tmp_path / "focus").mkdir()
    write(tmp_path / "focus", SMALL, "tiny.yaml")
    monkeypatch.setenv("HEXKIT_CONFIGS", str(tmp_path))
    state = hexkit.load_game("focus(board=tiny)").new_state()
    assert len(state.rules.squares) == 12


def error_for(tmp_path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        load_variant(str(path))
    return str(info.value)


def replace(old: str, new: str) -> str:
    assert old in SMALL
    return SMALL.replace(old, new)


@pytest.mark.parametrize("text, line, words", [
    (replace("format: hexkit-focus-variant/1", "format: focus/9"), 1, "format must be"),
    (replace("description: a small test board", "descripton: x"), 2, "unknown variant key"),
    (replace("  + + + +\n  + + + +", "  + + + +\n  + + +"), 6, "board row 2 has 3"),
    (replace("  . + + .\n  + + + +", "  . + # .\n  + + + +"), 4, "use '+' for a square"),
    (replace("  - {letter: K, name: Black}", "  - {letter: k, name: Black}"), 10,
     "one upper-case letter"),
    (replace("  - {letter: K, name: Black}", "  - {letter: W, name: Wite}"), 10,
     "repeats an earlier"),
    (replace("  distance: exact", "  distance: far"), 12, "distance must be one of"),
    (replace("  win: last_mover", "  win: last_mover\n  max_height: 0"), 14,
     "max_height must be"),
    (replace("  2:\n", "  5:\n"), 15, "player count"),
    (replace("    start_reserve: 1", "    start_reserve: -1"), 16, "start_reserve must be"),
    (replace("    start_reserve: 1", "    start_reserve: 1\n    first_turn: later"), 17,
     "first_turn must be"),
    (replace("      A - - B", "      A - C B"), 19, "use '-' for empty"),
    (replace("      B - - A", "      B - - A -"), 20, "pieces row 2 has 5"),
    (replace("      . BA AB .", "      A BA AB ."), 21, "board has no square"),
    (replace("      . AB BA .", "      + AB BA ."), 18, "'+' is placed where"),
    (replace("      A - - B", "      . - - B"), 19, "removed square"),
    (replace("      A - - B", "      ABABAB - - B"), 19, "higher than max_height"),
    (replace("    pieces: |", "    peices: |"), 17, "unknown layout key"),
    ("format: [unclosed\n", 2, "invalid YAML"),
    ("- just\n- a list\n", 1, "must be a mapping"),
    ("format: hexkit-focus-variant/1\nboard: '+ +'\n", 1, "missing key 'colours'"),
])
def test_variant_mistakes_are_reported_with_file_and_line(tmp_path, text, line, words):
    message = error_for(tmp_path, text)
    assert f"small.yaml:{line}: " in message
    assert words in message


def test_a_square_with_no_neighbour_is_refused(tmp_path):
    text = replace("  . + + .\n  + + + +", "  + . . .\n  . + + +")
    message = error_for(tmp_path, text.replace("      . AB BA .", "      - . . .")
                        .replace("      A - - B", "      . - - B"))
    assert "small.yaml:4: board square (0, 0) has no orthogonal neighbour" in message


def test_several_mistakes_are_reported_together_one_per_line(tmp_path):
    text = replace("  distance: exact", "  distance: far").replace(
        "  win: last_mover", "  win: most")
    message = error_for(tmp_path, text)
    assert message.splitlines() == [
        f"{tmp_path / 'small.yaml'}:12: distance must be one of up_to, exact, not 'far'",
        f"{tmp_path / 'small.yaml'}:13: win must be one of captures, last_mover, not 'most'",
    ]


def test_layout_for_an_unsupported_player_count_is_an_option_error(tmp_path):
    path = write(tmp_path, SMALL)
    with pytest.raises(OptionError, match="no layout for 4 players"):
        hexkit.load_game("focus", board=str(path), players=4)


def test_max_height_below_the_tallest_starting_stack_is_an_option_error(tmp_path):
    path = write(tmp_path, SMALL)
    with pytest.raises(OptionError, match="tallest starting stack"):
        hexkit.load_game("focus", board=str(path), max_height=1)
