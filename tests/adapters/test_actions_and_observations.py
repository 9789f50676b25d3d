"""Action spaces, observations, copies and pickles of every game's states."""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from hexkit.kit.actions import ActionSpaceError

np = pytest.importorskip("numpy")


def play(game, plies, seed=0):
    """A state after ``plies`` random moves (fewer if the game ends)."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(plies):
        legal = state.legal_moves()
        if not legal:
            break
        state.push(legal[rng.randrange(len(legal))])
    return state


def test_every_legal_move_has_one_number_that_leads_back_to_it(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    space = game.action_space()
    state = game.new_state(seed=3)
    rng = random.Random(3)
    for _ in range(30):
        if state.is_over():
            break
        legal = space.legal_map(state)
        assert list(legal) == sorted(legal) or set(legal) == set(space.legal_actions(state))
        assert all(0 <= a < space.num_actions for a in legal)
        mask = space.action_mask(state)
        assert mask.shape == (space.num_actions,) and int(mask.sum()) == len(legal)
        action = rng.choice(sorted(legal))
        move = space.move_of(action, state)
        assert space.action_in(state, move) == action
        state.push(move)


def test_an_action_out_of_range_is_refused_in_one_line(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    space = game.action_space()
    state = game.new_state(seed=0)
    for bad in (-1, space.num_actions, "3", 2.5, None):
        with pytest.raises(ActionSpaceError) as caught:
            space.move_of(bad, state)
        assert "\n" not in str(caught.value)


def test_observations_have_the_declared_shape_and_change_with_the_position(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    start = game.new_state(seed=0)
    later = play(game, 6)
    for state in (start, later):
        for seat in range(len(state.players)):
            planes = state.observation(seat)
            assert planes.shape == game.observation_shape and planes.dtype == np.float32
    assert not np.array_equal(start.observation(0), later.observation(0))


def test_deepcopy_and_pickle_give_the_same_position_and_can_undo(any_game):
    registry, name = any_game
    game = registry.load_game(name)
    state = play(game, 12, seed=5)
    for twin in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert twin.to_dict() == state.to_dict() and twin is not state
        assert [str(m) for m in twin.move_stack] == [str(m) for m in state.move_stack]
        if twin.move_stack:
            twin.pop()
            assert twin.to_dict() != state.to_dict() or not state.move_stack
    assert str(pickle.loads(pickle.dumps(game))) == str(game)


def test_focus_course_board_has_the_1356_actions_of_its_move_tables():
    import hexkit

    space = hexkit.load_game("focus").action_space()
    assert space.num_actions == 1356
    assert str(space.move_of(1355, hexkit.load_game("focus").new_state(0))) == "r:f6"


def test_hive_actions_are_openspiels_numbers():
    import hexkit

    space = hexkit.load_game("hive").action_space()
    state = hexkit.load_game("hive").new_state(0)
    state.push("wS1")
    assert space.num_actions == 5489
    assert space.action_of(state.parse_move("bS1 wS1-")) == (21 * 28 + 7) * 7 + 1
    assert space.action_of(state.parse_move("pass")) == 5488


def test_hexaround_numbers_every_legal_move_wherever_the_colony_drifts():
    # A colony walked far from (0, 0), where the former window numbered nothing: every
    # legal move still has a number, the mask is the legal set, move_of gives it back.
    import hexkit

    game = hexkit.load_game("hexaround")
    space = game.action_space()
    state = game.new_state(seed=0)
    for text in ("place BUTTERFLY 40 -25", "place BUTTERFLY 41 -25", "place DUCK 39 -25",
                 "place DUCK 42 -25", "place HORSE 38 -24", "place GRASSHOPPER 43 -26"):
        state.push(text)
    legal = list(state.legal_moves())
    numbered = space.legal_map(state)
    assert len(numbered) == len(legal) > 20
    assert int(space.action_mask(state).sum()) == len(legal)
    for action, move in numbered.items():
        assert space.move_of(action, state) == move
        assert space.action_in(state, move) == action


def test_hexaround_numbers_do_not_depend_on_where_the_colony_is():
    # The same shape of colony, moved 30 hexes away: the same numbers for the same moves.
    import hexkit

    game = hexkit.load_game("hexaround")
    space = game.action_space()
    numbers = []
    for dx in (0, 30):
        state = game.new_state(seed=0)
        for kind, x, y in (("BUTTERFLY", 0, 0), ("BUTTERFLY", 1, 0), ("DUCK", -1, 0),
                           ("DUCK", 2, 0)):
            state.push(f"place {kind} {x + dx} {y}")
        numbers.append(sorted(space.legal_map(state)))
    assert numbers[0] == numbers[1]
    assert space.num_actions == 1 + 6 + 6 * space.slots * 6 + space.slots ** 2 * 7


def test_hexaround_action_of_without_the_position_says_what_to_use():
    import hexkit

    game = hexkit.load_game("hexaround")
    move = game.new_state(0).parse_move("place DUCK 0 0")
    with pytest.raises(ActionSpaceError, match="action_in"):
        game.action_space().action_of(move)
