"""How the frameworks find hexkit's games: Gymnasium's two documented forms (Gymnasium 1.x
has no entry-point plugins), and OpenSpiel games whose new states each have their own seed."""

from __future__ import annotations

import warnings

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")


def test_gymnasium_makes_hexkit_games_by_module_and_id_or_after_register_envs():
    import gymnasium

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env = gymnasium.make("hexkit.adapters.gym:hexkit/focus-v0", opponent="random",
                             max_plies=20)
        obs, info = env.reset(seed=0)
        assert obs["observation"].shape == (19, 6, 6) and info["action_mask"].sum() > 0

        import hexkit.adapters.gym

        gymnasium.register_envs(hexkit.adapters.gym)
        hive = gymnasium.make("hexkit/hive-v0", opponent="random")
        assert hive.unwrapped.adapted.game.name == "hive"


def test_each_new_openspiel_state_has_its_own_seed_and_rng_seed_repeats_them():
    import pyspiel

    from hexkit.adapters import register_openspiel

    game = register_openspiel("hexbaron", seed=0, max_plies=30, name="hexkit_test_seeds")

    def generators(spiel_game, n=3):
        return [spiel_game.new_initial_state().position.state.to_dict()["rng"]
                for _ in range(n)]

    first = generators(game)
    assert len({str(g) for g in first}) == 3  # digs differ from game to game
    again = pyspiel.load_game("hexkit_test_seeds", {"rng_seed": 0})
    assert generators(again) == first
    other = pyspiel.load_game("hexkit_test_seeds", {"rng_seed": 1})
    assert generators(other) != first


def test_a_serialised_openspiel_state_keeps_its_generator():
    import pyspiel

    from hexkit.adapters import register_openspiel

    game = register_openspiel("hexbaron", seed=3, max_plies=30, name="hexkit_test_serial")
    state = game.new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[-1])
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.position.state.to_dict() == state.position.state.to_dict()
    assert copy.legal_actions() == state.legal_actions()
