"""Every hexkit game in the AI ecosystems: PettingZoo, Gymnasium and OpenSpiel.

The adapters see a game only through :meth:`Game.action_space`, :meth:`State.observation`,
:meth:`State.outcome` and :attr:`Game.max_plies`, so every registered game (a third-party
plugin, a ``hexkit new-plugin`` game) gets them with no code of its own::

    from hexkit.adapters import pettingzoo_env, register_openspiel
    env = pettingzoo_env("focus")                      # a PettingZoo AEC environment
    game = register_openspiel("focus")                 # a pyspiel game
    import gymnasium; gymnasium.make("hexkit/focus-v0", opponent="mcts:200")

They need ``pip install 'hexkit-games[rl]'`` (numpy, pettingzoo, gymnasium, open_spiel).
"""

from __future__ import annotations

from typing import Any

__all__ = ["pettingzoo_env", "register_openspiel", "gymnasium_env"]


def pettingzoo_env(game_string: str, render_mode: str | None = None, **kwargs: Any) -> Any:
    """A PettingZoo AEC environment of the game (see :mod:`hexkit.adapters.pettingzoo`)."""
    from hexkit.adapters.pettingzoo import HexkitAECEnv

    return HexkitAECEnv(game_string, render_mode=render_mode, **kwargs)


def gymnasium_env(game_string: str, opponent: str = "random", **kwargs: Any) -> Any:
    """A single-seat Gymnasium environment against a hexkit bot (see
    :mod:`hexkit.adapters.gym`)."""
    from hexkit.adapters.gym import HexkitGymEnv

    return HexkitGymEnv(game_string, opponent=opponent, **kwargs)


def register_openspiel(game_string: str, **kwargs: Any) -> Any:
    """Register the game with OpenSpiel and return the pyspiel game (see
    :mod:`hexkit.adapters.openspiel`)."""
    from hexkit.adapters.openspiel import register_openspiel as register

    return register(game_string, **kwargs)
