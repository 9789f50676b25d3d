"""Configurations: the YAML schema, the course's .hgc files, the shipped variants, options."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hexaround import RuleOptions, build_game_manager, load_config
from hexaround.config import parse_config_text

import hexkit
from hexkit.errors import OptionError

from .conftest import CONFIGS, write_config

COURSE_VARIANTS = {
    "C24-Level1": "level1", "C24-Level2": "level2", "C24-Level3": "level3",
    "C24-Submission1": "submission1", "C24-Submission2": "submission2",
    "C24-starter-FirstConfiguration": "first-configuration",
    "B23-annotated-sample": "b23-sample",
}


def _summary(config):
    creatures = {c.name: (c.max_distance, sorted(c.properties)) for c in config.creatures}
    stocks = {p: {c: n for c, n in s.items() if n} for p, s in config.stocks.items()}
    return creatures, stocks


def _variant_summary(variant):
    creatures = {name: (d.get("max_distance", 1), sorted(d["properties"]))
                 for name, d in variant["creatures"].items()}
    return creatures, variant["players"]


def test_every_course_hgc_file_loads_with_the_course_data(shared_dir: Path) -> None:
    variants = yaml.safe_load(
        (shared_dir / "reference" / "hexaround" / "variants.yaml").read_text())["variants"]
    files = sorted((shared_dir / "reference" / "hexaround" / "hgc").glob("*.hgc"))
    assert len(files) == len(variants) == 7
    for path in files:
        assert _summary(load_config(path)) == _variant_summary(variants[path.stem]), path


def test_shipped_variants_are_the_course_variants(shared_dir: Path) -> None:
    for stem, name in COURSE_VARIANTS.items():
        shipped = load_config(CONFIGS / f"{name}.yaml")
        course = load_config(shared_dir / "reference" / "hexaround" / "hgc" / f"{stem}.hgc")
        assert _summary(shipped) == _summary(course), name
        assert shipped.rules == RuleOptions()


def test_every_shipped_variant_loads_and_at_least_one_is_our_own() -> None:
    names = sorted(p.stem for p in CONFIGS.glob("*.yaml"))
    for name in names:
        load_config(CONFIGS / f"{name}.yaml")
    own = set(names) - set(COURSE_VARIANTS.values())
    assert own, "ship at least one variant of our own"
    used = set()
    for name in own:
        for c in load_config(CONFIGS / f"{name}.yaml").creatures:
            used |= c.properties
    assert used >= {"WALKING", "RUNNING", "FLYING", "JUMPING", "INTRUDING", "TRAPPING",
                    "SWAPPING", "KAMIKAZE", "HATCHING"}


def test_a_player_left_out_gets_a_copy_of_the_other_stock(tmp_path: Path) -> None:
    config = load_config(write_config(tmp_path, players={"RED": {"BUTTERFLY": 1, "CRAB": 2}}))
    assert config.stocks["BLUE"] == config.stocks["RED"]
    assert config.stocks["BLUE"]["CRAB"] == 2


def test_names_are_case_insensitive_and_read_in_upper_case(tmp_path: Path) -> None:
    config = parse_config_text(
        "creatures:\n  butterfly: {properties: [walking, Queen]}\n"
        "  Sparrow_2: {max_distance: 2, properties: [Flying, intruding]}\n"
        "players:\n  blue: {BUTTERFLY: 1, sparrow_2: 3}\n")
    assert [c.name for c in config.creatures] == ["BUTTERFLY", "SPARROW_2"]
    assert config.creature("sparrow_2").properties == {"FLYING", "INTRUDING"}
    assert config.stocks["RED"]["SPARROW_2"] == 3


def test_max_distance_defaults_to_one_and_the_butterfly_is_always_queen() -> None:
    config = parse_config_text(
        "creatures:\n  BUTTERFLY: {properties: [WALKING]}\n  ANT: {properties: [WALKING]}\n"
        "players:\n  BLUE: {BUTTERFLY: 1, ANT: 1}\n")
    assert config.creature("ANT").max_distance == 1
    assert "QUEEN" in config.creature("BUTTERFLY").properties


def test_hgc_block_comments_nest_and_tokens_may_be_any_case() -> None:
    config = parse_config_text(
        "/* outer /* inner */ still a comment */ creatures:\n"
        "  BUTTERFLY [walking QUEEN] Crab 2 [Walking]\n"
        "players: blue butterfly 1, crab 4\n", fmt="hgc")
    assert config.creature("CRAB").max_distance == 2
    assert config.stocks["RED"] == {"BUTTERFLY": 1, "CRAB": 4}


def test_rules_default_to_the_rules_document() -> None:
    assert RuleOptions() == RuleOptions(butterfly_deadline_blocks_moves=True,
                                        kamikaze_survives=False, stack_limit=2,
                                        intruding_traps_by_default=False)


def test_rules_come_from_the_file_and_keyword_options_override_them(tmp_path: Path) -> None:
    path = write_config(tmp_path, rules={"kamikaze_survives": True, "stack_limit": 3})
    assert load_config(path).rules.kamikaze_survives is True
    gm = build_game_manager(path, stack_limit=1)
    assert gm.config.rules.stack_limit == 1 and gm.config.rules.kamikaze_survives is True
    game = hexkit.load_game("hexaround", config=str(path), kamikaze_survives=False)
    assert game.config.rules.kamikaze_survives is False
    assert game.config.rules.stack_limit == 3


def test_yml_suffix_is_read_as_yaml(tmp_path: Path) -> None:
    path = write_config(tmp_path, name="variant.yml")
    assert load_config(path).creature("WASP") is not None


def test_config_option_picks_a_shipped_variant_by_name_in_any_case() -> None:
    game = hexkit.load_game("hexaround", config="LEVEL1")
    assert [c.name for c in game.config.creatures][:3] == ["BUTTERFLY", "CRAB", "DOVE"]
    assert str(hexkit.load_game("hexaround")) == "hexaround"
    assert hexkit.load_game("hexaround").config.creature("RABBIT") is not None  # level3


def test_config_option_accepts_a_course_hgc_file(shared_dir: Path) -> None:
    path = shared_dir / "reference" / "hexaround" / "hgc" / "C24-Level2.hgc"
    game = hexkit.load_game("hexaround", config=str(path))
    assert game.config.creature("HUMMINGBIRD").properties == {"FLYING", "KAMIKAZE"}


def test_unknown_variant_and_bad_rule_options_are_one_line_option_errors() -> None:
    with pytest.raises(OptionError, match="unknown hexaround variant 'level9'"):
        hexkit.load_game("hexaround", config="level9")
    with pytest.raises(OptionError, match="no such configuration file"):
        hexkit.load_game("hexaround", config="nowhere/level1.yaml")
    with pytest.raises(OptionError, match="stack_limit must be an integer >= 1"):
        hexkit.load_game("hexaround", stack_limit=0)
    with pytest.raises(OptionError, match="kamikaze_survives"):
        hexkit.load_game("hexaround(kamikaze_survives=maybe)")
