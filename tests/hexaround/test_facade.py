"""The course's game-manager API: queries, names in any case, responses and messages."""

from __future__ import annotations

from pathlib import Path

import pytest
from hexaround import MoveResult, PlayerName, build_game_manager

from .conftest import CONFIGS, manager, play, refused


def test_responses_say_legal_move_on_ok(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    response = gm.place_creature("BUTTERFLY", 0, 0)
    assert response.move_result is MoveResult.OK and response.message == "Legal move"
    assert response.moveResult is MoveResult.OK


def test_creature_property_and_player_names_are_case_insensitive(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "butterfly", 0, 0), ("place", "Crab", 0, 1))
    assert gm.get_creature_at(0, 1) == "CRAB"
    assert gm.has_property(0, 0, "queen") and gm.has_property(0, 0, "Walking")
    assert gm.in_hand("red", "crab") == 3
    assert gm.in_hand(PlayerName.RED, "CRAB") == 3


def test_unknown_creature_is_a_move_error_not_an_exception(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    refused(gm.place_creature("UNICORN", 0, 0), "no creature UNICORN")
    refused(gm.move_creature("UNICORN", 0, 0, 1, 0), "no creature UNICORN")
    refused(gm.place_creature(None, 0, 0))
    refused(gm.place_creature("CRAB", 0.5, 0), "coordinates")
    refused(gm.place_creature("CRAB", 2**40, 0), "32-bit")
    assert gm.in_hand("BLUE", "UNICORN") == 0
    with pytest.raises(ValueError, match="unknown player"):
        gm.in_hand("GREEN", "CRAB")


def test_empty_hex_queries(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    assert gm.get_creature_at(3, 3) is None
    assert not gm.is_occupied(3, 3)
    assert not gm.has_property(3, 3, "QUEEN")
    assert not gm.can_reach(3, 3, 3, 4)
    assert gm.stack_at(3, 3) == []


def test_can_reach_compares_only_hex_distance_with_max_distance(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    play(gm, ("place", "CRAB", 0, 0), ("place", "BUTTERFLY", 0, 1))
    assert gm.can_reach(0, 0, 3, -3)       # distance 3 = CRAB's max, no path check
    assert gm.can_reach(0, 0, 2, 1)        # distance 3
    assert not gm.can_reach(0, 0, 2, 2)    # distance 4
    assert gm.can_reach(0, 1, 0, 2) and not gm.can_reach(0, 1, 1, 2)  # butterfly: 1


def test_has_property_reads_the_top_creature(tmp_path: Path) -> None:
    gm = build_game_manager(CONFIGS / "level3.yaml")
    play(gm, ("place", "BUTTERFLY", 0, 0), ("place", "TURTLE", 1, 0))
    assert gm.has_property(0, 0, "QUEEN") and not gm.has_property(1, 0, "QUEEN")
    assert gm.has_property(1, 0, "INTRUDING") and not gm.has_property(1, 0, "TRAPPING")
    assert not gm.has_property(1, 0, "NONSENSE")


def test_build_game_manager_reads_yaml_yml_and_hgc(tmp_path: Path, shared_dir: Path) -> None:
    gm = build_game_manager(shared_dir / "reference" / "hexaround" / "hgc" / "C24-Level1.hgc")
    assert gm.in_hand("RED", "SPIDER") == 2 and gm.in_hand("BLUE", "SPIDER") == 0
    yml = tmp_path / "level1.yml"
    yml.write_text((CONFIGS / "level1.yaml").read_text())
    assert build_game_manager(yml).in_hand("BLUE", "DOVE") == 5


def test_build_game_manager_takes_rule_overrides(tmp_path: Path) -> None:
    gm = build_game_manager(CONFIGS / "level2.yaml", kamikaze_survives=True,
                            butterfly_deadline_blocks_moves=False)
    assert gm.config.rules.kamikaze_survives
    assert not gm.config.rules.butterfly_deadline_blocks_moves


def test_player_to_act_alternates_after_successful_actions_only(tmp_path: Path) -> None:
    gm = manager(tmp_path)
    assert gm.player_to_act == "BLUE"
    play(gm, ("place", "BUTTERFLY", 0, 0))
    assert gm.player_to_act == "RED"
    refused(gm.place_creature("BUTTERFLY", 9, 9))
    assert gm.player_to_act == "RED"
