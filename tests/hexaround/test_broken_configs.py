"""Bad configuration files: every problem comes out as one ``file:line: problem`` line, and
all problems of a file are reported at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from hexaround import build_game_manager, load_config

from hexkit.errors import ConfigError

BUTTERFLY = "  BUTTERFLY: {max_distance: 1, properties: [WALKING, QUEEN]}\n"
PLAYERS = "players:\n  BLUE: {BUTTERFLY: 1}\n"

#: (file name, text, expected "line: problem" lines in order)
CASES = [
    ("two_categories.yaml",
     "creatures:\n" + BUTTERFLY +
     "  RABBIT: {max_distance: 4, properties: [RUNNING, WALKING]}\n" + PLAYERS,
     ["3: creature RABBIT has two movement categories (RUNNING, WALKING)"]),
    ("no_category.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [TRAPPING]}\n" + PLAYERS,
     ["3: creature CRAB has no movement category (one of WALKING, RUNNING, FLYING, "
      "JUMPING)"]),
    ("trap_and_swap.yaml",
     "creatures:\n" + BUTTERFLY +
     "  DUCK: {max_distance: 5, properties: [FLYING, TRAPPING, SWAPPING]}\n" + PLAYERS,
     ["3: creature DUCK combines TRAPPING and SWAPPING, which exclude each other"]),
    ("flying_butterfly.yaml",
     "creatures:\n  BUTTERFLY: {max_distance: 1, properties: [WALKING, QUEEN, FLYING]}\n"
     + PLAYERS,
     ["2: creature BUTTERFLY may have only WALKING and QUEEN, not FLYING"]),
    ("far_butterfly.yaml",
     "creatures:\n  BUTTERFLY:\n    max_distance: 2\n    properties: [WALKING]\n" + PLAYERS,
     ["3: creature BUTTERFLY must have max_distance 1, not 2"]),
    ("queen_crab.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [WALKING, QUEEN]}\n" + PLAYERS,
     ["3: creature CRAB has QUEEN, which only the BUTTERFLY may have"]),
    ("unknown_property.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB:\n    properties:\n      - WALKING\n      - SWIMMING\n"
     + PLAYERS,
     ["6: creature CRAB: unknown property SWIMMING (known: QUEEN, WALKING, RUNNING, FLYING, "
      "JUMPING, INTRUDING, TRAPPING, SWAPPING, KAMIKAZE, HATCHING)"]),
    ("repeated_property.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [WALKING, walking]}\n" + PLAYERS,
     ["3: creature CRAB: property WALKING is listed twice"]),
    ("bad_distance.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {max_distance: 0, properties: [WALKING]}\n"
     "  DOVE: {max_distance: far, properties: [FLYING]}\n" + PLAYERS,
     ["3: creature CRAB: max_distance must be an integer >= 1, not 0",
      "4: creature DOVE: max_distance must be an integer >= 1, not 'far'"]),
    ("defined_twice.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [WALKING]}\n"
     "  crab: {max_distance: 2, properties: [WALKING]}\n" + PLAYERS,
     ["4: creature CRAB is defined twice (first on line 3)"]),
    ("no_butterfly_in_stock.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [WALKING]}\n"
     "players:\n  BLUE: {CRAB: 2}\n",
     ["5: player BLUE has no BUTTERFLY (each player needs exactly one)"]),
    ("two_butterflies.yaml",
     "creatures:\n" + BUTTERFLY + "players:\n  BLUE: {BUTTERFLY: 1}\n  RED:\n    BUTTERFLY: 2\n",
     ["6: player RED must have exactly one BUTTERFLY, not 2"]),
    ("undefined_creature.yaml",
     "creatures:\n" + BUTTERFLY + "players:\n  BLUE:\n    BUTTERFLY: 1\n    DOVE: 3\n",
     ["6: player BLUE: creature DOVE is not defined"]),
    ("bad_counts.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {properties: [WALKING]}\n"
     "players:\n  BLUE:\n    BUTTERFLY: 1\n    CRAB: -1\n    crab: 2\n",
     ["7: player BLUE: the count of CRAB must be an integer >= 0, not -1",
      "8: player BLUE lists CRAB twice (first on line 7)"]),
    ("player_twice.yaml",
     "creatures:\n" + BUTTERFLY + "players:\n  BLUE: {BUTTERFLY: 1}\n  blue: {BUTTERFLY: 1}\n"
     "  GREEN: {BUTTERFLY: 1}\n",
     ["5: player BLUE is configured twice (first on line 4)",
      "6: unknown player GREEN (expected BLUE or RED)"]),
    ("no_players.yaml",
     "creatures:\n" + BUTTERFLY,
     ["1: no player is configured (expected BLUE and/or RED)"]),
    ("unknown_keys.yaml",
     "creatures:\n" + BUTTERFLY + "  CRAB: {speed: 3, properties: [WALKING]}\n" + PLAYERS
     + "board: hex\n",
     ["3: creature CRAB: unknown key 'speed' (expected max_distance, properties)",
      "6: unknown key 'board' (expected creatures, players, rules)"]),
    ("bad_rules.yaml",
     "creatures:\n" + BUTTERFLY + PLAYERS +
     "rules:\n  stack_limit: 0\n  kamikaze_survives: sometimes\n  gravity: true\n"
     "  slide_rul: one_gate\n",
     ["6: rule stack_limit must be an integer >= 1, not 0",
      "7: rule kamikaze_survives must be true or false, not 'sometimes'",
      "8: unknown rule 'gravity' (known: butterfly_deadline_blocks_moves, kamikaze_survives, "
      "stack_limit, intruding_traps_by_default; for relatives of HexAround: "
      "butterfly_not_first, freeze_last_moved, gates_count_heights, jump_landing, "
      "moves_before_butterfly, no_action, one_colony, pinned_under, slide_rule)",
      "9: unknown rule 'slide_rul'; did you mean 'slide_rule'?"]),
    ("bad_name.yaml",
     "creatures:\n" + BUTTERFLY + "  3D-CRAB: {properties: [WALKING]}\n" + PLAYERS,
     ["3: creature name '3D-CRAB' is not a name (letters, digits and _, starting with a "
      "letter)"]),
    ("not_a_mapping.yaml",
     "- creatures\n- players\n",
     ["1: the file must be a mapping with 'creatures' and 'players'"]),
    ("syntax.yaml",
     "creatures:\n  BUTTERFLY: {max_distance: 1, properties: [WALKING]\nplayers:\n",
     ["3: invalid YAML: expected ',' or '}', but got '<scalar>'"]),
    ("duplicate_key.yaml",
     "creatures:\n" + BUTTERFLY + BUTTERFLY + PLAYERS,
     ["3: duplicate key 'BUTTERFLY'"]),
    ("missing_comma.hgc",
     "CREATURES:\n  butterfly [walking queen]\n  crab 3 [walking]\nPLAYERS:\n"
     "  BLUE\n    butterfly 1,\n    crab 2\n    crab 1\n",
     ["7: player BLUE: missing ',' after 'CRAB 2'",
      "8: player BLUE lists CRAB twice (first on line 7)"]),
    ("open_comment.hgc",
     "CREATURES:\n  butterfly [walking queen]\n/* a comment /* nested */ never closed\n"
     "PLAYERS:\n  BLUE butterfly 1\n",
     ["3: comment '/*' is never closed"]),
    ("open_list.hgc",
     "/* the list of dove is not closed */\nCREATURES:\n  butterfly [walking queen]\n"
     "  dove 5 [flying\n  crab 2 [walking running]\nPLAYERS:\n  RED butterfly 1, dove 2\n",
     ["4: creature DOVE: the property list is not closed with ']'",
      "5: creature CRAB has two movement categories (RUNNING, WALKING)"]),
    ("stray_character.hgc",
     "CREATURES:\n  butterfly [walking queen]\n  crab % [walking]\n  frog 2 [jumping swimming]\n"
     "PLAYERS:\n  BLUE butterfly 1, crab 1, toad 2\n",
     ["3: unexpected character '%'",
      "4: creature FROG: unknown property SWIMMING (known: QUEEN, WALKING, RUNNING, FLYING, "
      "JUMPING, INTRUDING, TRAPPING, SWAPPING, KAMIKAZE, HATCHING)",
      "6: player BLUE: creature TOAD is not defined"]),
    ("no_creatures_section.hgc",
     "PLAYERS:\n  BLUE butterfly 1\n",
     ["1: expected 'CREATURES:' but found 'PLAYERS'"]),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_bad_config_reports_every_problem_as_file_line(name: str, text: str,
                                                       expected: list[str],
                                                       tmp_path: Path) -> None:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    lines = str(info.value).splitlines()
    assert lines == [f"{path}:{e}" for e in expected]
    assert isinstance(info.value, ValueError)


def test_enough_broken_files_are_checked() -> None:
    assert len(CASES) >= 15


def test_one_file_with_many_problems_reports_them_all_in_line_order(tmp_path: Path) -> None:
    path = tmp_path / "level3.yaml"
    path.write_text(
        "creatures:\n"
        "  BUTTERFLY: {max_distance: 1, properties: [WALKING, QUEEN]}\n"
        "  HORSE: {max_distance: 5, properties: [RUNNING]}\n"
        "  TURTLE: {max_distance: 4, properties: [WALKING, INTRUDING]}\n"
        "  DUCK: {max_distance: 5, properties: [FLYING, SWAPPING, TRAPPING]}\n"
        "  GRASSHOPPER: {max_distance: 4, properties: [JUMPING]}\n"
        "  RABBIT: {max_distance: 4, properties: [RUNNING, WALKING]}\n"
        "players:\n"
        "  BLUE: {BUTTERFLY: 1, RABBIT: 3, EAGLE: 1}\n",
        encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value).splitlines() == [
        f"{path}:5: creature DUCK combines TRAPPING and SWAPPING, which exclude each other",
        f"{path}:7: creature RABBIT has two movement categories (RUNNING, WALKING)",
        f"{path}:9: player BLUE: creature EAGLE is not defined",
    ]


def test_unreadable_and_unknown_files_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"missing\.yaml: cannot read file"):
        load_config(tmp_path / "missing.yaml")
    other = tmp_path / "level.json"
    other.write_text("{}", encoding="utf-8")
    with pytest.raises(ConfigError, match="expected .yaml, .yml or .hgc"):
        load_config(other)
    binary = tmp_path / "level.hgc"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    with pytest.raises(ConfigError, match="not a text file"):
        load_config(binary)


def test_build_game_manager_refuses_a_bad_file_with_the_same_message(tmp_path: Path) -> None:
    name, text, expected = CASES[0]
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        build_game_manager(path)
    assert str(info.value) == f"{path}:{expected[0]}"
