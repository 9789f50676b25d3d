"""Every YAML and JSON file hexkit reads (configs, variants, set-ups, scenario files,
records, AQA data files, .hgc) goes through one bounded reader: bombs, deep nesting, huge
numbers, huge files and devices are refused in one line naming file:line."""

from __future__ import annotations

import pytest

from hexkit.errors import ConfigError, HexkitError, RecordError
from hexkit.files.fileio import MAX_DATA_BYTES
from hexkit.files.jsonfile import load_json
from hexkit.files.records import load_record
from hexkit.files.yamlfile import load_yaml, parse_yaml
from hexkit.tools.scenarios import load_scenarios

from .conftest import alias_bomb, deep_yaml, run_hexkit, within_work_budget

BIG = "9" * 5000


#: Function calls a refusal may make (the bounded readers stop at 250,000 YAML values; an
#: alias bomb unbounded would expand 9**9 of them).
WORK = 2_000_000


def _refused_quickly(call, *args):
    with pytest.raises(HexkitError) as info:
        within_work_budget(call, *args, budget=WORK)
    message = str(info.value)
    assert "Traceback" not in message and "4300" not in message
    return message


def test_alias_bomb_is_refused_naming_the_file_and_line(write):
    path = write("bomb.yaml", alias_bomb())
    message = _refused_quickly(load_yaml, path)
    assert message.startswith(f"{path}:") and "more than" in message and "alias" in message


def test_a_few_aliases_still_load():
    data = parse_yaml("base: &b {x: 1}\ncopy: *b\nmore: [*b, *b]\n")
    assert data["copy"] == {"x": 1} and data["more"] == [{"x": 1}, {"x": 1}]


def test_a_recursive_alias_is_refused():
    with pytest.raises(ConfigError, match="contains it"):
        parse_yaml("a: &a [*a]\n", "r.yaml")


def test_deeply_nested_yaml_is_refused_not_a_recursion_error(write):
    path = write("deep.yaml", deep_yaml())
    assert "nested more than 100 levels" in _refused_quickly(load_yaml, path)


def test_nesting_made_deep_by_aliases_is_refused():
    lines = ["a0: &a0 " + "[" * 60 + "]" * 60]
    lines.append("a1: &a1 " + "[" * 60 + "*a0" + "]" * 60)
    with pytest.raises(ConfigError, match="nested more than 100"):
        parse_yaml("\n".join(lines) + "\n", "d.yaml")


def test_yaml_number_with_thousands_of_digits_names_its_line(write):
    path = write("n.yaml", f"description: x\nsize: {BIG}\n")
    message = _refused_quickly(load_yaml, path)
    assert message == f"{path}:2: a number with 5000 digits is too long (at most 100)"


def test_a_file_larger_than_the_limit_is_refused_before_parsing(write):
    path = write("huge.yaml", "x" * (MAX_DATA_BYTES + 10))
    assert "is too large" in _refused_quickly(load_yaml, path)


def test_a_device_is_never_read():
    assert "not a regular file" in _refused_quickly(load_yaml, "/dev/zero")


def test_a_scenario_position_file_outside_its_folder_such_as_dev_zero_is_refused(write):
    path = write("s.yaml", "game: focus\nposition_file: /dev/zero\n")
    with pytest.raises(ConfigError, match="s.yaml:2: 'position_file' must be a file in"):
        load_scenarios(path)


def test_a_folder_is_refused(tmp_path):
    assert "is a folder" in _refused_quickly(load_yaml, tmp_path)


def test_json_number_with_thousands_of_digits_names_its_line(write):
    path = write("n.json", '{\n "seed":\n ' + BIG + "\n}\n")
    assert _refused_quickly(load_json, path).startswith(f"{path}:3: a number with 5000")


def test_deep_json_is_refused(write):
    path = write("deep.json", "[" * 100000 + "]" * 100000)
    assert "nested more than 100" in _refused_quickly(load_json, path)
    path = write("deep2.json", "[" * 150 + "]" * 150)
    assert "nested more than 100" in _refused_quickly(load_json, path)


def test_json_nan_is_not_a_number(write):
    path = write("nan.json", '{"seed": NaN}')
    assert "NaN is not a JSON number" in _refused_quickly(load_json, path)


@pytest.mark.parametrize("content", [
    '{"format": "hexkit-record", "version": 1, "seed": ' + BIG + "}",
    "[" * 5000 + "]" * 5000,
])
def test_a_record_bomb_is_a_record_error(write, content):
    path = write("g.json", content)
    with pytest.raises(RecordError) as info:
        load_record(path)
    assert str(info.value).startswith(str(path))


def test_a_record_on_a_device_is_refused():
    with pytest.raises(RecordError, match="not a regular file"):
        load_record("/dev/zero")


def test_scenario_file_bomb_is_refused(write):
    path = write("s.yaml", alias_bomb())
    assert str(path) in _refused_quickly(load_scenarios, path)


def test_scenario_position_file_on_a_pipe_fails_that_scenario_only(write):
    import os

    from hexkit.tools.scenarios import run_scenario

    path = write("s.yaml", "game: focus\nposition_file: zero.json\n")
    os.mkfifo(path.parent / "zero.json")  # would block a plain open() for ever
    [scenario] = load_scenarios(path)
    with pytest.raises(Exception) as info:
        run_scenario(scenario)
    assert "not a regular file" in str(info.value)


def test_hgc_number_with_thousands_of_digits_is_refused(write):
    from hexaround.config import load_config

    path = write("n.hgc", f"CREATURES:\n BUTTERFLY {BIG} [WALKING]\nPLAYERS:\n BLUE BUTTERFLY 1\n")
    message = _refused_quickly(load_config, path)
    assert f"{path}:2: a number with 5000 digits is too long" in message


def test_aqa_data_file_with_a_huge_grid_size_is_refused(write):
    from hexbaron.commands import builtin_catalogue
    from hexbaron.setup import load_data_file

    path = write("g.txt", f"A,0,10,10,5\nB,0,10,10,5\n{BIG}\n")
    message = _refused_quickly(load_data_file, path, builtin_catalogue())
    assert f"{path}:3: the grid size is too large" in message


def test_aqa_data_file_errors_do_not_quote_its_lines(write):
    from hexbaron.commands import builtin_catalogue
    from hexbaron.setup import load_data_file

    path = write("g.txt", "A,0,10,10,5\nB,0,10,10,5\nsecret-token-xyz\n")
    with pytest.raises(ConfigError) as info:
        load_data_file(path, builtin_catalogue())
    assert "secret-token-xyz" not in str(info.value)


@pytest.mark.parametrize("game,option", [
    ("focus", "board"), ("hexbaron", "setup"), ("hexaround", "config")])
def test_every_game_option_file_goes_through_the_bounded_reader(write, game, option):
    path = write("bomb.yaml", alias_bomb())
    from hexkit import plugins

    with pytest.raises(HexkitError, match="more than 250000 values"):
        plugins.registry().load_game(game, **{option: str(path)})


def test_command_line_says_one_line_for_a_yaml_bomb(write):
    path = write("bomb.yaml", alias_bomb())
    r = run_hexkit("play", "focus", "-o", f"board={path}", "--p1", "random", "--p2", "random")
    assert r.returncode == 1
    assert r.stderr.strip().splitlines() == [
        f"hexkit: error: {path}:6: the document holds more than 250000 values "
        "(each use of an alias counted)"]
