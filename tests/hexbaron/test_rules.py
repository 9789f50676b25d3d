"""The rules of play (preliminary material, made precise by the spec), through the generic
API. Small positions use the size-4 grid, whose neighbours are:
0: 2 4 | 1: 2 3 5 | 2: 0 1 4 5 6 | 3: 1 5 7 | 4: 0 2 6 | 5: 1 2 3 6 7 | 6: 2 4 5 | 7: 3 5
"""

from __future__ import annotations

import random

import pytest

from hexkit.errors import IllegalMoveError

from .conftest import board, plain_game

KINDS = {"Baron": "B", "Serf": "S", "LESS": "L", "PBDS": "P"}
T = {"field": " ", "forest": "#", "bog": "~"}


def terrain_line(chars: str) -> str:
    """The data file's terrain line for the size-4 grid from 8 characters."""
    assert len(chars) == 8
    return ",".join(chars)


def push_all(state, *commands):
    for c in commands:
        state.push(c)
    return state


def kind_at(state, tile):
    p = state.pos.pieces[tile]
    return None if p is None else (p.owner, p.kind)


def res(state, seat=0):
    return dict(state.pos.resources[seat])


def refused(state, command, reason):
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match=reason):
        state.push(command)
    assert state.to_dict() == before


# -- moving -------------------------------------------------------------------------------
def expected_cost(kind: str, start: str, end: str) -> int | None:
    """Spec §1's piece table."""
    if kind == "Baron":
        return 1
    if kind == "PBDS":
        return None if start == "bog" else 2
    if kind == "LESS" and start == "forest":
        return None
    return 2 if "bog" in (start, end) else 1


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("start", list(T))
@pytest.mark.parametrize("end", list(T))
def test_move_fuel_cost_and_restrictions_follow_the_piece_table(kind, start, end):
    state = board(4, f"1,{kind},0 2,Baron,7",
                  terrain=terrain_line(T[start] + " " + T[end] + "     "))
    cost = expected_cost(kind, start, end)
    if cost is None:
        refused(state, "move 0 2", "cannot move out of")
    else:
        state.push("move 0 2")
        assert kind_at(state, 2) == (0, kind) and kind_at(state, 0) is None
        assert res(state)["fuel"] == 10 - cost


def test_baron_move_costs_one_fuel_even_into_a_peat_bog():
    state = board(4, "1,Baron,0 2,Baron,7", terrain=terrain_line("~ ~     "))
    state.push("move 0 2")
    assert res(state)["fuel"] == 9


def test_serf_move_from_bog_costs_two_fuel():
    state = board(4, "1,Serf,0 2,Baron,7", terrain=terrain_line("~       "))
    state.push("move 0 2")
    assert res(state)["fuel"] == 8


def test_pbds_move_into_a_bog_costs_two_not_four():
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=terrain_line("  ~     "))
    state.push("move 0 2")
    assert res(state)["fuel"] == 8


def test_less_cannot_move_out_of_a_forest():
    state = board(4, "1,LESS,0 2,Baron,7", terrain=terrain_line("#       "))
    refused(state, "move 0 2", "a LESS cannot move out of a forest")


def test_pbds_cannot_move_out_of_a_peat_bog():
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=terrain_line("~       "))
    refused(state, "move 0 4", "a PBDS cannot move out of a peat bog")


def test_moves_are_single_steps_to_a_neighbouring_tile():
    state = board(4, "1,Baron,0 2,Baron,7")
    refused(state, "move 0 5", "tile 5 is not next to tile 0")
    refused(state, "move 0 1", "tile 1 is not next to tile 0")


def test_move_needs_an_empty_destination():
    state = board(4, "1,Baron,0 1,Serf,2 2,Baron,7")
    refused(state, "move 0 2", "tile 2 is occupied")
    refused(state, "move 0 0", "another tile")


def test_a_player_moves_only_their_own_pieces():
    state = board(4, "1,Baron,0 2,Serf,2 2,Baron,7")
    refused(state, "move 2 1", "belongs to Player Two")
    refused(state, "move 1 3", "tile 1 is empty")


def test_tiles_off_the_grid_are_refused():
    state = board(4, "1,Baron,0 2,Baron,7")
    refused(state, "move 0 8", "there is no tile 8")
    refused(state, "move 99 2", "there is no tile 99")
    refused(state, "saw 8", "there is no tile 8")
    refused(state, "spawn 8", "there is no tile 8")


def test_exactly_enough_fuel_is_enough():
    state = board(4, "1,Serf,0 2,Baron,7", p1="2,0,0", terrain=terrain_line("  ~     "))
    state.push("move 0 2")
    assert res(state)["fuel"] == 0


def test_a_move_without_enough_fuel_is_refused():
    state = board(4, "1,Serf,0 2,Baron,7", p1="1,0,0", terrain=terrain_line("  ~     "))
    refused(state, "move 0 2", "not enough fuel: the move costs 2, you have 1")


# -- saw and dig --------------------------------------------------------------------------
def test_less_sawing_in_a_forest_gains_one_lumber():
    state = board(4, "1,LESS,0 2,Baron,7", terrain=terrain_line("#       "))
    push_all(state, "saw 0", "saw 0")
    assert res(state)["lumber"] == 12


def test_less_sawing_outside_a_forest_is_carried_out_and_gains_nothing():
    state = board(4, "1,LESS,0 2,Baron,7", terrain=terrain_line("~       "))
    assert "saw 0" in [str(m) for m in state.legal_moves()]
    state.push("saw 0")
    assert res(state)["lumber"] == 10 and state.pos.command == 1


@pytest.mark.parametrize("kind", ["Baron", "Serf", "PBDS"])
def test_only_a_less_can_saw(kind):
    state = board(4, f"1,{kind},0 2,Baron,7", terrain=terrain_line("#       "))
    refused(state, "saw 0", f"a {kind} cannot saw")


@pytest.mark.parametrize("kind", ["Baron", "Serf", "LESS"])
def test_only_a_pbds_can_dig(kind):
    state = board(4, f"1,{kind},0 2,Baron,7", terrain=terrain_line("~       "))
    rng_before = state.rng.getstate()
    refused(state, "dig 0", f"a {kind} cannot dig")
    assert state.rng.getstate() == rng_before


@pytest.mark.parametrize("seed", range(30))
def test_dig_on_a_bog_draws_once_giving_one_fuel_or_five_and_a_field(seed):
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=terrain_line("~       "), seed=seed)
    reference = random.Random(seed)
    draw = reference.random()
    state.push("dig 0")
    assert state.rng.getstate() == reference.getstate()
    if draw < 0.9:
        assert res(state)["fuel"] == 11 and state.pos.terrain[0] == "~"
    else:
        assert res(state)["fuel"] == 15 and state.pos.terrain[0] == " "


def test_seed_2_gives_the_big_find_on_the_first_dig():
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=terrain_line("~       "), seed=2)
    state.push("dig 0")
    assert res(state)["fuel"] == 15 and state.pos.terrain[0] == " "
    rng_before = state.rng.getstate()
    state.push("dig 0")  # now a field: carried out, nothing gained, no draw
    assert res(state)["fuel"] == 15 and state.rng.getstate() == rng_before


def test_dig_off_a_bog_is_carried_out_without_a_draw():
    state = board(4, "1,PBDS,0 2,Baron,7", terrain=terrain_line("#       "))
    rng_before = state.rng.getstate()
    state.push("dig 0")
    assert res(state)["fuel"] == 10 and state.rng.getstate() == rng_before


# -- spawn --------------------------------------------------------------------------------
def test_spawn_puts_a_serf_next_to_your_baron_for_three_lumber_and_one_supply():
    state = board(4, "1,Baron,0 2,Baron,7")
    state.push("spawn 2")
    assert kind_at(state, 2) == (0, "Serf")
    assert res(state) == {"fuel": 10, "lumber": 7, "supply": 4}


def test_spawn_next_to_the_enemy_baron_only_is_refused():
    state = board(4, "1,Baron,0 2,Baron,7")
    refused(state, "spawn 5", "tile 5 is not next to your baron")


def test_spawn_needs_a_piece_in_supply_even_with_lumber():
    state = board(4, "1,Baron,0 2,Baron,7", p1="10,10,0")
    refused(state, "spawn 2", "no pieces left in supply")


def test_spawn_needs_three_lumber():
    refused(board(4, "1,Baron,0 2,Baron,7", p1="10,2,5"), "spawn 2", "not enough lumber")
    state = board(4, "1,Baron,0 2,Baron,7", p1="10,3,5")
    state.push("spawn 2")
    assert res(state)["lumber"] == 0


def test_spawn_on_an_occupied_tile_is_refused():
    refused(board(4, "1,Baron,0 2,Serf,2 2,Baron,7"), "spawn 2", "tile 2 is occupied")


def test_spawn_ignores_terrain():
    state = board(4, "1,Baron,0 2,Baron,7", terrain=terrain_line("  ~ #   "))
    push_all(state, "spawn 2", "spawn 4")
    assert kind_at(state, 2) == kind_at(state, 4) == (0, "Serf")


# -- upgrade ------------------------------------------------------------------------------
@pytest.mark.parametrize("word, kind", [("less", "LESS"), ("pbds", "PBDS"), ("LESS", "LESS")])
def test_upgrade_turns_your_serf_into_a_less_or_pbds_for_five_lumber(word, kind):
    state = board(4, "1,Serf,0 2,Baron,7")
    state.push(f"upgrade {word} 0")
    assert kind_at(state, 0) == (0, kind)
    assert res(state) == {"fuel": 10, "lumber": 5, "supply": 5}


@pytest.mark.parametrize("pieces, reason", [
    ("1,Baron,0 2,Baron,7", "only a serf can become a LESS"),
    ("1,LESS,0 2,Baron,7", "only a serf can become a LESS"),
    ("1,PBDS,0 2,Baron,7", "only a serf can become a LESS"),
    ("2,Serf,0 2,Baron,7", "belongs to Player Two"),
    ("2,Baron,7", "tile 0 is empty"),
])
def test_only_your_own_serf_can_be_upgraded(pieces, reason):
    refused(board(4, pieces), "upgrade less 0", reason)


def test_upgrade_needs_five_lumber():
    refused(board(4, "1,Serf,0 2,Baron,7", p1="10,4,5"), "upgrade pbds 0",
            "not enough lumber: upgrading costs 5, you have 4")


# -- a turn -------------------------------------------------------------------------------
def test_a_turn_is_three_commands_then_the_other_player_commands():
    state = board(4, "1,Baron,0 2,Baron,7")
    push_all(state, "pass", "pass")
    assert state.current_player == 0 and state.pos.command == 2
    state.push("pass")
    assert state.current_player == 1 and state.pos.command == 0
    assert state.pos.turns == [1, 0]


def test_resources_change_between_the_commands_of_a_turn():
    state = board(4, "1,Baron,0 1,Serf,4 1,Serf,6 2,Baron,7", p1="10,8,5")
    push_all(state, "upgrade less 4", "spawn 2")  # 8 -> 3 -> 0 lumber
    refused(state, "upgrade less 6", "not enough lumber: upgrading costs 5, you have 0")


def test_a_refused_command_does_not_use_up_one_of_the_three():
    state = board(4, "1,Baron,0 2,Baron,7")
    refused(state, "move 0 7", "occupied")
    assert state.pos.command == 0
    push_all(state, "move 0 2", "pass", "pass")
    assert state.current_player == 1


def test_pass_is_always_legal_and_uses_up_a_command():
    state = board(4, "1,Baron,0 2,Baron,7", p1="0,0,0")
    assert [str(m) for m in state.legal_moves()] == ["pass"]
    state.push("pass")
    assert state.pos.command == 1


# -- destruction --------------------------------------------------------------------------
def test_crowded_pieces_are_destroyed_together_judged_before_any_removal():
    state = board(4, "1,Serf,0 1,Serf,2 2,Serf,4 1,Baron,1 2,Baron,7")
    push_all(state, "pass", "pass", "pass")
    assert [kind_at(state, t) for t in (0, 2, 4)] == [None, None, None]
    assert kind_at(state, 1) == (0, "Baron") and kind_at(state, 7) == (1, "Baron")
    assert state.pos.vps == [1, 2]


def test_pieces_are_only_destroyed_at_the_end_of_a_turn():
    state = board(4, "1,Baron,1 1,Serf,0 2,Serf,2 2,Serf,4 2,Baron,7")
    state.push("pass")  # serf 0 is crowded (2 and 4) but the turn is not over
    assert kind_at(state, 0) == (0, "Serf")
    push_all(state, "pass", "pass")
    assert kind_at(state, 0) is None


def test_own_pieces_count_spawning_next_to_your_baron_can_destroy_it():
    state = plain_game().new_state(0)
    push_all(state, "spawn 4", "pass", "pass")
    assert [kind_at(state, t) for t in (0, 4, 8)] == [None, None, None]
    assert state.pos.vps == [0, 1 + 12]
    assert state.pos.baron_lost


@pytest.mark.parametrize("kind, vps", [("Baron", 10), ("LESS", 3), ("PBDS", 2), ("Serf", 1)])
def test_a_destroyed_piece_gives_its_vp_value_to_the_opponent(kind, vps):
    state = board(4, f"2,{kind},0 1,Serf,2 1,Serf,4 1,Baron,7")
    push_all(state, "pass", "pass", "pass")
    assert kind_at(state, 0) is None
    assert state.pos.vps[0] == vps


def test_both_players_pieces_and_both_barons_can_go_in_one_check():
    state = board(4, "1,Baron,0 2,Baron,2 1,Serf,4 2,Serf,6", vps=(0, 0))
    push_all(state, "pass", "pass", "pass")
    assert state.pos.pieces == [None] * 8
    assert state.pos.vps == [10 + 1, 10 + 1]
    assert state.pos.baron_lost


# -- the end of the game ------------------------------------------------------------------
PRELIM = ["upgrade less 8", "saw 8", "move 0 1", "upgrade pbds 31", "upgrade pbds 23", "dig 23",
          "move 8 12", "saw 12", "saw 12", "move 31 27", "spawn 30", "spawn 26"]


def play_prelim(state):
    """The preliminary material's example; refused commands become passes."""
    for c in PRELIM:
        if state.check(state.parse_move(c)) is None:
            state.push(c)
        else:
            state.push("pass")
    return state


def test_baron_destroyed_in_player_twos_turn_ends_the_game_at_once():
    state = play_prelim(plain_game().new_state(0))
    assert state.is_over()
    assert state.pos.vps == [10, 1]
    assert state.outcome().winners == (0,)
    assert state.legal_moves() == []
    refused(state, "pass", "the game is over")


def test_baron_destroyed_in_player_ones_turn_gives_player_two_a_last_turn_that_scores():
    state = plain_game().new_state(0)
    push_all(state, "spawn 4", "pass", "pass")
    assert not state.is_over() and state.current_player == 1
    push_all(state, "spawn 27", "pass", "pass")  # destroys b31, s23 and s27: +12
    assert state.is_over()
    assert state.pos.vps == [12, 13]
    assert state.outcome().winners == (1,)


def test_the_game_goes_on_while_no_baron_is_destroyed():
    state = plain_game().new_state(0)
    for _ in range(60):
        state.push("pass")
    assert not state.is_over() and state.outcome() is None


def tie_state(**options):
    # b5 is crowded by S3 and S7 (+10 to Player One), which crowd each other (+2 to Two)
    state = board(4, "1,Baron,0 2,Baron,5 1,Serf,3 1,Serf,7", vps=(2, 10), **options)
    return push_all(state, "pass", "pass", "pass", "pass", "pass", "pass")


def test_a_tie_on_vps_is_a_draw():
    state = tie_state()
    assert state.pos.vps == [12, 12] and state.is_over()
    assert state.outcome().winners == ()


def test_tie_rule_player_two_gives_a_tie_to_player_two_as_the_skeleton():
    state = tie_state(tie_rule="player_two")
    assert state.outcome().winners == (1,)


def test_max_turns_ends_the_game_when_both_players_have_had_that_many_turns():
    state = plain_game(max_turns=2).new_state(0)
    for _ in range(9):
        state.push("pass")
    assert not state.is_over()
    push_all(state, "pass", "pass", "pass")
    assert state.is_over()
    assert state.outcome().winners == (1,)  # Player Two's starting VP
