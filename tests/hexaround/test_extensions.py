"""Extension abilities and the rule options for relatives of HexAround: Hive's creatures
written against the hooks (tests/hexaround/hivelike.py) behave as Hive's rules say."""

from __future__ import annotations

import random
import types
from pathlib import Path

import pytest
from hexaround.config import parse_config_text
from hexaround.engine import Engine
from hexaround.game import HexAroundGame, PassTurn
from hexaround.hexgrid import key_of
from hexaround.position import PASS

from hexkit.errors import ConfigError, IllegalMoveError
from tests.hexaround.hivelike import EXTENSIONS, HIVE_YAML


def hive_engine() -> Engine:
    return Engine(parse_config_text(HIVE_YAML, abilities=EXTENSIONS.kinds()), EXTENSIONS)


def setup(e: Engine, board: dict[tuple[int, int], list[str]], actions=(5, 5)) -> None:
    """Put creatures ('B1', 'bP' = Blue/Red prefix b/r) on the board directly."""
    for (x, y), pieces in board.items():
        codes = [e.kind_index[p[1:]] * 2 + (p[0] == "r") for p in pieces]
        e.position.set_stack(key_of(x, y), codes)
        for c in codes:
            e.position.hands[c & 1][c >> 1] -= 1
            if c >> 1 == e.butterfly:
                e.position.bpos[c & 1] = key_of(x, y)
    e.position.actions[:] = actions
    e.clear_caches()


def moves_of(e: Engine, name: str, x: int, y: int) -> set[tuple[int, int]]:
    from hexaround.hexgrid import coords_of

    kind = e.kind_index[name]
    return {coords_of(d) for k, s, d in e.legal_actions() if k == kind and s == key_of(x, y)}


def test_extension_properties_are_unknown_without_the_extension() -> None:
    with pytest.raises(ConfigError, match="unknown property COPYING"):
        parse_config_text(HIVE_YAML)
    config = parse_config_text(HIVE_YAML, abilities=EXTENSIONS.kinds())
    assert config.creature("M").category == "COPYING"
    assert config.rules.stack_limit == "unlimited"


def test_grasshopper_jumps_over_creatures_onto_the_first_empty_hex() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bG1"], (1, 0): ["bBUTTERFLY"], (2, 0): ["rBUTTERFLY"],
              (0, 1): ["rA1"]})
    assert moves_of(e, "G1", 0, 0) == {(3, 0), (0, 2)}


def test_a_creature_whose_lifting_splits_the_colony_cannot_move() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["bA1"], (2, 0): ["rBUTTERFLY"]})
    assert moves_of(e, "A1", 1, 0) == set()
    assert moves_of(e, "BUTTERFLY", 0, 0) == {(0, 1), (1, -1)}


def test_a_slide_needs_exactly_one_occupied_gate_hex() -> None:
    e = hive_engine()
    # The ant may not leave the colony's edge: every step keeps one gate hex occupied.
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["rBUTTERFLY"], (-1, 0): ["bA1"]})
    reach = moves_of(e, "A1", -1, 0)
    assert (2, 0) in reach and (-1, 2) not in reach and len(reach) == 7


def test_beetle_climbs_and_pins_what_is_under_it() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["rBUTTERFLY"], (-1, 0): ["bB1"],
              (2, 0): ["rA1"]})
    assert (0, 0) in moves_of(e, "B1", -1, 0)
    e.apply((e.kind_index["B1"], key_of(-1, 0), key_of(0, 0)))
    e.apply((e.kind_index["A1"], key_of(2, 0), key_of(2, -1)))
    assert moves_of(e, "BUTTERFLY", 0, 0) == set()  # pinned under the beetle
    assert moves_of(e, "B1", 0, 0) >= {(1, -1), (0, 1), (1, 0), (-1, 0)}


def test_ladybug_goes_up_along_and_down() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["rBUTTERFLY"], (-1, 0): ["bL"]})
    reach = moves_of(e, "L", -1, 0)
    # Two steps on top (over 0,0 then 1,0) and down around the red butterfly.
    assert {(2, 0), (2, -1), (1, 1), (1, -1), (0, 1)} <= reach
    assert (-1, 0) not in reach


def test_pillbug_throws_an_enemy_which_then_is_frozen_for_a_turn() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["bP"], (2, 0): ["rA1"], (-1, 0): ["rBUTTERFLY"]})
    throw = (e.kind_index["A1"], key_of(2, 0), key_of(1, 1))
    assert throw in e.legal_actions()
    before = e.position_key()
    e.apply(throw)
    assert e.creature_at(key_of(1, 1)) == ("A1", "RED")
    assert e.frozen == key_of(1, 1)
    assert moves_of(e, "A1", 1, 1) == set()  # the thrown ant cannot move this turn
    e.undo()
    assert e.position_key() == before and e.frozen is None


def test_mosquito_copies_its_neighbours_and_a_pillbug_throw() -> None:
    e = hive_engine()
    setup(e, {(0, 0): ["bBUTTERFLY"], (1, 0): ["bM"], (2, 0): ["rG1"], (1, -1): ["rP"],
              (2, -1): ["rS1"], (-1, 0): ["rBUTTERFLY"]})
    # Next to a grasshopper (jumps over (2,0) and (1,-1)) and a pillbug (one slide).
    reach = moves_of(e, "M", 1, 0)
    assert {(3, 0), (1, -2), (-2, 0), (1, 1), (0, 1)} <= reach
    assert (3, -1) not in reach  # nothing it touches reaches there
    g1 = e.kind_index["G1"]
    assert (g1, key_of(2, 0), key_of(1, 1)) in e.legal_actions()  # thrown as a pillbug


def test_a_player_without_actions_passes() -> None:
    game = HexAroundGame.from_config(parse_config_text(HIVE_YAML, abilities=EXTENSIONS.kinds()),
                                     EXTENSIONS)
    state = game.new_state()
    e = state.engine
    setup(e, {(-1, 0): ["rA1"], (0, 0): ["bBUTTERFLY"], (1, 0): ["rBUTTERFLY"]}, actions=(5, 5))
    for p in (0, 1):
        e.position.hands[p] = [0] * len(e.names)
    e.clear_caches()
    assert e.legal_actions() == [PASS]
    assert state.legal_moves() == [PassTurn()]
    state.push(state.parse_move("pass"))
    assert e.to_move == 1 and not state.is_over()
    state.pop()
    assert e.to_move == 0


def test_no_butterfly_first_and_no_moves_before_it() -> None:
    e = hive_engine()
    first = {e.names[k] for k, s, d in e.legal_actions()}
    assert "BUTTERFLY" not in first and "S2" not in first and "S1" in first
    with pytest.raises(AssertionError):
        assert e.check((e.butterfly, None, 0)) is None
    e.apply((e.kind_index["A1"], None, 0))
    e.apply((e.kind_index["A1"], None, key_of(1, 0)))
    e.apply((e.kind_index["S1"], None, key_of(-1, 0)))
    e.apply((e.kind_index["S1"], None, key_of(2, 0)))
    assert all(s is None for k, s, d in e.legal_actions())  # no butterfly: no moves


def test_random_hive_like_games_undo_exactly_and_round_trip() -> None:
    game = HexAroundGame.from_config(parse_config_text(HIVE_YAML, abilities=EXTENSIONS.kinds()),
                                     EXTENSIONS)
    rng = random.Random(5)
    for _ in range(3):
        state = game.new_state()
        for _ in range(80):
            if state.is_over():
                break
            moves = state.legal_moves()
            assert moves and len(set(moves)) == len(moves)
            key = state.engine.position_key()
            move = rng.choice(moves)
            state.push(move)
            twin = game.state_from_dict(state.to_dict())
            assert twin.engine.position_key() == state.engine.position_key()
            assert twin.legal_moves() == state.legal_moves()
            state.pop()
            assert state.engine.position_key() == key
            state.push(move)


def test_moves_not_in_the_list_are_refused_with_a_reason() -> None:
    game = HexAroundGame.from_config(parse_config_text(HIVE_YAML, abilities=EXTENSIONS.kinds()),
                                     EXTENSIONS)
    state = game.new_state()
    with pytest.raises(IllegalMoveError, match="first turn"):
        state.push(state.parse_move("place butterfly 0 0"))
    with pytest.raises(IllegalMoveError, match="only when"):
        state.push(state.parse_move("pass"))


def test_an_ability_registered_through_the_hook_is_usable_in_yaml(tmp_path: Path) -> None:
    from hexaround.extensions import Ability, collect

    from hexkit.hookspecs import hookimpl
    from hexkit.plugins import build_registry

    def hop(e: Engine, src: int, code: int):
        return [src + 2 * o for o in (1, -1) if e.nmask.get(src + 2 * o)]

    plugin = types.SimpleNamespace(
        hexaround_register_abilities=hookimpl(
            lambda register: register(Ability("HOPPING", category=True, moves=hop))))
    registry = build_registry(extra=[("hopper", plugin)], use_env=False)
    path = tmp_path / "hop.yaml"
    path.write_text("creatures:\n  BUTTERFLY: {properties: [WALKING]}\n"
                    "  ROO: {properties: [HOPPING]}\nplayers:\n  BLUE: {BUTTERFLY: 1, ROO: 2}\n")
    assert "HOPPING" in collect(registry.pm).abilities
    game = registry.load_game("hexaround", config=str(path))
    state = game.new_state()
    for text in ("place roo 0 0", "place butterfly 0 1", "place butterfly 0 -1",
                 "place roo 0 2"):
        state.push(state.parse_move(text))
    assert state.parse_move("move roo 0 -1 0 1") not in state.legal_moves()
    assert state.parse_move("move roo 0 0 0 -2") not in state.legal_moves()


def test_replaying_without_asking_gives_the_same_ends_and_lists() -> None:
    """The stuck-player check is done when asked: skipping it never leaks into a later
    position (a game that ends on a surround lists no actions)."""
    from hexaround.config import load_config

    config = load_config(Path(__file__).resolve().parents[2] / "configs/hexaround/level1.yaml")
    ended = 0
    for seed in range(6):
        rng = random.Random(seed)
        asked = Engine(config)
        played = []
        while not asked.is_over() and len(played) < 300:
            action = rng.choice(asked.legal_actions())
            asked.apply(action)
            played.append(action)
        ended += asked.is_over()
        quiet = Engine(config)
        for action in played:
            quiet.apply(action)
        assert quiet.legal_actions() == asked.legal_actions()
        assert (quiet.result, quiet.reason) == (asked.result, asked.reason)
    assert ended
