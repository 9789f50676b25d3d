"""The peers' own certification suites on every game: PettingZoo's api_test, seed_test and
render_test, Gymnasium's check_env and OpenSpiel's random_sim_test with serialisation."""

from __future__ import annotations

import warnings
from functools import partial

import pytest

from tests.adapters.conftest import PLIES

pytest.importorskip("pettingzoo")
pytest.importorskip("pyspiel")


def test_every_game_passes_pettingzoos_api_seed_and_render_tests(any_game, capsys):
    from pettingzoo.test import api_test, render_test, seed_test

    from hexkit.adapters import pettingzoo_env

    registry, name = any_game
    make = partial(pettingzoo_env, name, registry=registry, max_plies=PLIES)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on Dict spaces, as for its own games
        api_test(make(), num_cycles=PLIES)
        seed_test(make, num_cycles=10)
        render_test(make)


def test_every_game_passes_gymnasiums_check_env(any_game, capsys):
    from gymnasium.utils.env_checker import check_env

    from hexkit.adapters.gym import HexkitGymEnv

    registry, name = any_game
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(HexkitGymEnv(name, opponent="random", registry=registry, max_plies=PLIES,
                               render_mode="ansi"), skip_render_check=False)


def test_every_game_passes_openspiels_random_sim_test_with_serialisation(any_game):
    import pyspiel

    from hexkit.adapters import register_openspiel

    registry, name = any_game
    game = register_openspiel(name, registry=registry, max_plies=PLIES, seed=0,
                              name=f"hexkit_test_{name.split('(')[0]}")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
