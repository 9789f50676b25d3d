"""Numbers and sizes are checked against sane ranges when a game is loaded, so nothing
absurd reaches the move generators: HexAround's limits (the compiled generator's C
integers), Focus's heights and board sizes (quadratic move tables), Hex Baron's grid, and
set-ups that could never end."""

from __future__ import annotations

from pathlib import Path

import pytest

from hexkit import plugins
from hexkit.errors import ConfigError, HexkitError, OptionError, RecordError
from hexkit.files.records import GameRecord, load_record, replay, save_record

from .conftest import run_hexkit, within_work_budget

CONFIGS = Path(__file__).resolve().parents[2] / "configs"
HUGE = 2**63


def load(name: str, **options):
    return plugins.registry().load_game(name, **options)


# -- HexAround ----------------------------------------------------------------------------
@pytest.mark.parametrize("value", [HUGE, 65, 10**30])
def test_hexaround_stack_limit_option_beyond_play_is_refused(value):
    with pytest.raises(OptionError, match="stack_limit must be at most 64"):
        load("hexaround", stack_limit=value)


def test_hexaround_stack_limit_in_a_file_names_its_line(write):
    path = write("c.yaml", "creatures:\n  BUTTERFLY: {max_distance: 1, properties: [WALKING]}\n"
                           f"players:\n  RED: {{BUTTERFLY: 1}}\nrules:\n  stack_limit: {HUGE}\n")
    with pytest.raises(HexkitError) as info:
        load("hexaround", config=str(path))
    assert f"{path}:6: rule stack_limit must be at most 64" in str(info.value)


def test_hexaround_max_distance_of_2_to_the_63_is_refused_in_yaml(write):
    path = write("c.yaml", "creatures:\n  BUTTERFLY: {max_distance: 1, properties: [WALKING]}\n"
                           f"  ANT: {{max_distance: {HUGE}, properties: [RUNNING]}}\n"
                           "players:\n  RED: {BUTTERFLY: 1, ANT: 2}\n")
    with pytest.raises(HexkitError) as info:
        load("hexaround", config=str(path))
    assert f"{path}:3: creature ANT: max_distance must be at most 1000" in str(info.value)


def test_hexaround_max_distance_of_2_to_the_63_is_refused_in_hgc(write):
    path = write("c.hgc", f"CREATURES:\n BUTTERFLY [WALKING QUEEN]\n ANT {HUGE} [RUNNING]\n"
                          "PLAYERS:\n RED BUTTERFLY 1, ANT 2\n")
    with pytest.raises(HexkitError) as info:
        load("hexaround", config=str(path))
    assert "a number with 19 digits is too long" in str(info.value)
    path = write("d.hgc", "CREATURES:\n BUTTERFLY [WALKING QUEEN]\n ANT 5000 [RUNNING]\n"
                          "PLAYERS:\n RED BUTTERFLY 1, ANT 2\n")
    with pytest.raises(HexkitError, match=r"d.hgc:3: creature ANT: max_distance must be at "):
        load("hexaround", config=str(path))


def test_hexaround_a_stock_of_millions_is_refused(write):
    path = write("c.yaml", "creatures:\n  BUTTERFLY: {max_distance: 1, properties: [WALKING]}\n"
                           "  ANT: {max_distance: 2, properties: [RUNNING]}\n"
                           "players:\n  RED: {BUTTERFLY: 1, ANT: 5000000}\n")
    with pytest.raises(HexkitError, match=r"c.yaml:5: player RED: the count of ANT must be "
                                          r"at most 100"):
        load("hexaround", config=str(path))


def test_hexaround_shipped_variants_still_load():
    for path in sorted((CONFIGS / "hexaround").glob("*.yaml")):
        load("hexaround", config=path.stem).new_state(seed=0)


# -- Focus --------------------------------------------------------------------------------
def focus_variant(board_rows: int = 6, max_height: int = 5, layout: str | None = None) -> str:
    rows = "\n".join("  " + " ".join("+" * 1 for _ in range(6)) for _ in range(board_rows))
    if layout is None:
        layout = "\n".join("      " + ("A A B B A A" if r % 2 == 0 else "B B A A B B")
                           for r in range(board_rows))
    return ("format: hexkit-focus-variant/1\nboard: |\n" + rows + "\n"
            "colours:\n  - {letter: R, name: Red}\n  - {letter: G, name: Green}\n"
            f"rules:\n  max_height: {max_height}\n"
            "layouts:\n  2:\n    pieces: |\n" + layout + "\n")


def test_focus_max_height_option_of_200000_is_refused():
    with pytest.raises(OptionError, match="option max_height: 200000 is more than 32"):
        load("focus", max_height=200000)


def test_focus_max_height_in_a_variant_names_its_line(write):
    path = write("v.yaml", focus_variant(max_height=200000))
    with pytest.raises(ConfigError) as info:
        load("focus", board=str(path))
    assert str(info.value) == f"{path}:13: max_height must be at most 32, not 200000"


def test_focus_board_of_6000_rows_is_refused_at_once(write):
    path = write("v.yaml", focus_variant(board_rows=6000))
    with pytest.raises(ConfigError, match=r"v.yaml:2: a board has at most 26 rows, not 6000"):
        load("focus", board=str(path))


def test_focus_layout_where_the_first_player_has_no_piece_is_refused(write):
    layout = "\n".join("      B B B B B B" for _ in range(6))
    path = write("v.yaml", focus_variant(layout=layout))
    with pytest.raises(ConfigError) as info:
        load("focus", board=str(path))
    assert f"{path}:16: the 2-player layout leaves A without a stack" in str(info.value)


def test_focus_layout_without_pieces_but_with_a_reserve_is_playable(write):
    layout = "\n".join("      B B B B B B" for _ in range(6))
    path = write("v.yaml", focus_variant(layout=layout).replace(
        "    pieces: |", "    start_reserve: 1\n    pieces: |"))
    state = load("focus", board=str(path)).new_state(seed=0)
    assert state.legal_moves()


def _record_with_options(tmp_path: Path, name: str, options: dict) -> Path:
    game = load(name)
    record = GameRecord.for_game(game, seed=1)
    record.options.update(options)
    path = tmp_path / "g.json"
    save_record(path, record)
    return path


def test_a_record_carrying_max_height_200000_is_refused_by_replay_render_and_load(tmp_path):
    path = _record_with_options(tmp_path, "focus", {"max_height": 200000})
    record = load_record(path)
    with pytest.raises(RecordError, match="max_height: 200000 is more than 32"):
        replay(record)
    for command in (("replay", str(path)), ("render", str(path)),
                    ("play", "--load", str(path))):
        r = run_hexkit(*command)
        assert r.returncode != 0, command
        assert "max_height: 200000 is more than 32" in r.stderr, command
        assert len(r.stderr.strip().splitlines()) == 1, r.stderr


# -- Hex Baron ----------------------------------------------------------------------------
def test_hexbaron_grid_far_beyond_play_is_refused():
    with pytest.raises(OptionError, match="grid size must be an even number from 4 to 100"):
        load("hexbaron", size=10**8)


def test_hexbaron_record_starting_position_with_a_huge_grid_is_refused():
    game = load("hexbaron")
    record = GameRecord.for_game(game, seed=1, start=game.new_state(seed=1))
    record.start["size"] = 100000
    with pytest.raises(RecordError, match="grid size must be an even number"):
        replay(record, game=game)


YAML_SETUP = """size: 4
terrain: {default: field}
players:
  - name: A
    pieces: {PIECES1}
  - name: B
    pieces: {PIECES2}
"""


@pytest.mark.parametrize("p1,p2,missing,line", [
    ("{Serf: [0]}", "{Serf: [7]}", "Player One", 4),
    ("{Baron: [0]}", "{Serf: [7]}", "Player Two", 6),
])
def test_hexbaron_yaml_setup_without_a_baron_each_is_refused(write, p1, p2, missing, line):
    text = YAML_SETUP.replace("{PIECES1}", p1).replace("{PIECES2}", p2)
    path = write("s.yaml", text)
    with pytest.raises(ConfigError) as info:
        load("hexbaron", setup=str(path))
    assert f"{path}:{line}: {missing} has no Baron: the game could never end" in str(info.value)


def test_hexbaron_aqa_file_with_no_baron_is_refused(write):
    path = write("g.txt", "A,0,10,10,5\nB,0,10,10,5\n4\n" + ",".join(" " * 8)
                 + "\n1,Serf,0\n2,Serf,7\n")
    with pytest.raises(ConfigError) as info:
        load("hexbaron", setup=str(path))
    message = str(info.value)
    assert f"{path}:1: Player One has no Baron" in message
    assert f"{path}:2: Player Two has no Baron" in message


def test_hexbaron_shipped_setups_are_playable():
    for name in ("default", "game1"):
        assert load("hexbaron", setup=name).new_state(seed=0).legal_moves()


# -- hexkit match -------------------------------------------------------------------------
def test_match_refuses_a_hundred_million_games_and_unbounded_jobs_at_once():
    for games in ("100000000", "100000000000"):
        r = run_hexkit("match", "focus", "--games", games, timeout=10)
        [line] = r.stderr.strip().splitlines()
        assert r.returncode != 0 and "is more than a match can play" in line
    r = run_hexkit("match", "focus", "--games", "2", "--jobs", "100000")
    assert r.returncode != 0 and "is more than this machine can use" in r.stderr


def test_an_option_of_thousands_of_digits_is_one_short_line():
    r = run_hexkit("play", "focus", "-o", "max_height=" + "9" * 5000)
    [line] = r.stderr.strip().splitlines()
    assert r.returncode == 1 and len(line) < 200 and "4300" not in line
    assert line.startswith("hexkit: error: option max_height: '999") and "not a valid int" in line


def test_the_classic_hexbaron_console_does_not_read_a_device_or_a_huge_file(tmp_path,
                                                                            monkeypatch):
    import builtins
    import io

    from hexbaron import classic

    huge = tmp_path / "huge.txt"
    huge.write_text("A" * (2 << 20))  # one line of 2 MiB, no line end
    opened = []

    def spy_open(file, *args, **kwargs):
        opened.append(str(file))
        return builtins.open(file, *args, **kwargs)

    # Refused before the expensive step: neither file is opened to be read line by line.
    monkeypatch.setattr(classic, "open", spy_open, raising=False)
    out = io.StringIO()
    within_work_budget(classic.run_classic, load("hexbaron"), seed=0, stdout=out,
                       stdin=io.StringIO(f"2\n/dev/zero\n2\n{huge}\nQ\n"),
                       stderr=io.StringIO(), budget=100_000)
    assert out.getvalue().count("File not loaded") == 2
    assert "/dev/zero" not in opened and str(huge) not in opened
