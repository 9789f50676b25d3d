from hexkit.kit.turns import TurnOrder


def test_three_actions_make_one_turn_then_the_other_player_moves():
    t = TurnOrder(2, actions_per_turn=3)
    seen = []
    for _ in range(3):
        seen.append(t.ends_turn)
        t = t.act(0)
    assert seen == [False, False, True]
    assert t.current == 1 and t.turns_taken == (1, 0)


def test_turn_numbers_count_each_players_own_turns():
    t = TurnOrder(2).act(0).act(1).act(0)
    assert t.turn_number(0) == 3 and t.turn_number(1) == 2


def test_free_choice_of_first_player_then_strict_alternation():
    t = TurnOrder(2, current=None)
    assert t.may_act(0) and t.may_act(1)
    t = t.act(1)
    assert t.current == 0 and not t.may_act(1)


def test_players_who_dropped_out_are_skipped():
    t = TurnOrder(4).drop(1).act(0)
    assert t.current == 2
    t = t.drop(3).act(2)
    assert t.current == 0


def test_turn_order_round_trips_through_a_dict():
    t = TurnOrder(3, actions_per_turn=2).act(0)
    assert TurnOrder.from_dict(t.to_dict()) == t


def test_a_change_returns_a_new_order_and_leaves_the_old_one_as_it_was():
    t = TurnOrder(2)
    after = t.act(0)
    assert t.current == 0 and t.turns_taken == (0, 0)
    assert after.current == 1 and after != t
