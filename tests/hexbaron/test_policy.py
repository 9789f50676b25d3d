"""Hex Baron's help for the MCTS bot: the evaluation of unfinished positions and its
registration. Positions use the default size-8 grid (spec §2.3): Player Two's baron in the
corner at 31 has only two neighbours, 23 and 27; tile 19 touches 23 and 27 but not 31."""

from __future__ import annotations

import pluggy
import pytest
from hexbaron import plugin as hexbaron_plugin
from hexbaron.policy import evaluate, scores

from hexkit import hookspecs
from hexkit.bots import RandomBot
from hexkit.bots.mcts import MctsBot, playout_policy
from hexkit.plugins import build_registry

from .conftest import board, plain_game

BOGS = {4, 5, 9, 22, 23, 24, 25, 26}


def position(pieces: str, *, p1: str = "10,10,5", p2: str = "10,10,5",
             vps: tuple[int, int] = (0, 0), bogs: set[int] = frozenset()) -> object:
    """A size-8 position; ``pieces`` as in data files (``owner,type,tile``)."""
    terrain = ",".join("~" if t in bogs else " " for t in range(32))
    return board(8, pieces, p1=p1, p2=p2, vps=vps, terrain=terrain)


def player_one(state) -> float:
    rewards = evaluate(state)
    assert len(rewards) == 2 and all(0.0 <= r <= 1.0 for r in rewards)
    assert sum(rewards) == pytest.approx(1.0)
    return rewards[0]


def test_mcts_evaluation_prefers_the_player_with_more_vps():
    ahead = position("1,Baron,0 2,Baron,31", vps=(5, 0))
    behind = position("1,Baron,0 2,Baron,31", vps=(0, 5))
    assert player_one(ahead) > 0.5 > player_one(behind)


def test_mcts_evaluation_counts_a_baron_that_will_be_destroyed_at_the_end_of_the_turn():
    # Serfs on 23 and 27 crowd Player Two's baron on 31: it goes (10 VPs to Player One),
    # and so do both serfs, which touch each other and the baron (2 VPs to Player Two).
    doomed = position("1,Baron,0 1,Serf,23 1,Serf,27 2,Baron,31")
    one_, two_ = scores(doomed)
    assert one_ - two_ == pytest.approx(10 - 2)
    pressing = position("1,Baron,0 1,Serf,27 2,Baron,31")
    assert player_one(doomed) > player_one(pressing) > 0.5


def test_mcts_evaluation_rewards_pressure_on_the_enemy_baron():
    pressing = position("1,Baron,0 1,Serf,27 2,Baron,31")
    waiting = position("1,Baron,0 1,Serf,19 2,Baron,31")
    assert player_one(pressing) > player_one(waiting)


def test_mcts_evaluation_penalises_a_piece_next_to_ones_own_baron():
    crowded = position("1,Baron,0 1,Serf,8 2,Baron,31")
    clear = position("1,Baron,0 1,Serf,16 2,Baron,31")
    assert player_one(clear) > player_one(crowded)


def test_mcts_evaluation_rewards_approaching_the_enemy_baron_with_fuel_to_get_there():
    near = position("1,Baron,0 1,Serf,14 2,Baron,31")
    far = position("1,Baron,0 1,Serf,8 2,Baron,31")
    assert player_one(near) > player_one(far)


def test_mcts_evaluation_sees_no_threat_from_a_player_without_fuel():
    # Player Two has no fuel and nothing to dig it with: its serf cannot walk to Player
    # One's baron, so how far away it stands does not matter.
    near = position("1,Baron,0 2,Serf,13 2,Baron,31", p2="0,0,0")
    far = position("1,Baron,0 2,Serf,22 2,Baron,31", p2="0,0,0")
    assert player_one(near) == player_one(far)
    with_fuel = position("1,Baron,0 2,Serf,13 2,Baron,31", p2="10,0,0")
    far_with_fuel = position("1,Baron,0 2,Serf,22 2,Baron,31", p2="10,0,0")
    assert player_one(with_fuel) < player_one(far_with_fuel)


def test_mcts_evaluation_values_a_digger_standing_in_a_peat_bog():
    in_bog = position("1,Baron,0 1,PBDS,5 2,Baron,31", bogs=BOGS)
    on_field = position("1,Baron,0 1,PBDS,6 2,Baron,31", bogs=BOGS)
    assert player_one(in_bog) > player_one(on_field)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_mcts_with_the_evaluation_destroys_a_baron_it_can_reach_this_turn(seed):
    # Player Two's own serf on 23 already touches its baron; Player One's serf on 19 can
    # step to 27 and make it two.
    state = position("1,Baron,0 1,Serf,19 2,Serf,23 2,Baron,31", p2="0,0,0")
    bot = MctsBot(200, seed=seed, policy=playout_policy("hexbaron"))
    while state.current_player == 0:
        state.push(bot.choose(state))
    assert not any(p is not None and p.kind == "Baron" and p.owner == 1
                   for p in state.pos.pieces)
    assert state.pos.baron_lost


def test_mcts_with_the_evaluation_beats_the_random_bot_in_a_short_game():
    game = plain_game()
    policy = playout_policy("hexbaron")
    for g, mcts_seat in enumerate((0, 1), start=1):
        state = game.new_state(seed=g)
        bots = {mcts_seat: MctsBot(100, seed=g, policy=policy), 1 - mcts_seat: RandomBot(g)}
        while not state.is_over() and len(state.move_stack) < 300:
            state.push(bots[state.current_player].choose(state))
        assert state.outcome() is not None, f"game {g}: no result in 300 commands"
        assert state.outcome().winners == (mcts_seat,)


def test_the_hexbaron_policy_is_registered_when_the_registry_is_built():
    registry = build_registry(entry_points=False, use_env=False,
                              extra=[("hexbaron", hexbaron_plugin)])
    policy = playout_policy("hexbaron", registry.pm)
    assert policy is not None
    assert policy.evaluate is evaluate


def test_the_hexbaron_plugin_loads_where_the_mcts_service_is_absent():
    pm = pluggy.PluginManager("hexkit")
    pm.add_hookspecs(hookspecs)
    pm.register(hexbaron_plugin, name="hexbaron")
    pm.check_pending()  # an unknown hook not marked optional would raise here
