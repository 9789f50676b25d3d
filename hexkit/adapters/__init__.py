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

__all__ = ["pettingzoo_env", "register_openspiel", "gymnasium_env", "policy_bot",
           "policy_bot_spec"]


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


def policy_bot(policy: Any, *, name: str = "policy") -> Any:
    """A hexkit bot playing a trained policy, ``policy(observation, action_mask) ->
    action`` or ``policy(state) -> move`` (see :mod:`hexkit.adapters.policy`)."""
    from hexkit.adapters.policy import policy_bot as make

    return make(policy, name=name)


def policy_bot_spec(name: str, policy: Any, description: str = "") -> Any:
    """A BotSpec to register from a plugin's ``hexkit_register_bots``, playing ``policy``
    (a function or ``"package.module:function"``; see :mod:`hexkit.adapters.policy`)."""
    from hexkit.adapters.policy import policy_bot_spec as make

    return make(name, policy, description)
