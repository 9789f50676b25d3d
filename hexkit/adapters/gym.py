"""A hexkit game as a single-seat Gymnasium environment against a hexkit bot.

``gymnasium.make("hexkit.adapters.gym:hexkit/focus-v0", opponent="mcts:200")``: importing
this module registers ``hexkit/<game>-v0`` for every installed game (Gymnasium 1.x loads no
entry-point plugins, so its ``module:id`` form imports it; after ``import
hexkit.adapters.gym``, ``gymnasium.make("hexkit/focus-v0")`` works too). Or directly:
``HexkitGymEnv("focus(board=cross)", opponent="random", seat=0)``. The agent plays
``seat``; every other seat is the ``opponent`` bot (any ``--p2`` seat spec), seeded from
``reset(seed=...)``. Observations are ``{"observation": float32 planes, "action_mask":
int8}`` (the mask is also in ``info``); the reward at the end is +1 for a win, -1 for a
loss, 0 for a draw or a game past ``max_plies`` (truncated). An action the mask forbids
ends the episode with -1 (``info["illegal_action"]``), as PettingZoo's classic games do.
"""

from __future__ import annotations

from typing import Any

from hexkit.adapters.common import AdaptedGame, Position, require

require("gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

#: Namespace of the registered environment ids: ``hexkit/<game>-v0``.
NAMESPACE = "hexkit"


class HexkitGymEnv(gymnasium.Env):
    """One seat of a hexkit game; the bot ``opponent`` plays the others."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(self, game: Any, opponent: str = "random", seat: int = 0,
                 render_mode: str | None = None, *, registry: Any = None,
                 max_plies: int | None = None):
        self.adapted = AdaptedGame(game, registry, max_plies)
        if not 0 <= seat < self.adapted.seats:
            raise ValueError(f"seat {seat} is not a seat of {self.adapted.game} "
                             f"(0..{self.adapted.seats - 1})")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not one of human, ansi")
        self.seat = seat
        self.opponent = opponent
        self.registry = registry
        self.render_mode = render_mode
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, self.adapted.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.adapted.num_actions,), np.int8),
        })
        self.action_space = spaces.Discrete(self.adapted.num_actions)
        from hexkit.bots import make_bot

        make_bot(self.adapted.game, opponent, 0, registry=registry)  # a bad spec fails now
        self.position: Position | None = None
        self.bot: Any = None

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        from hexkit.bots import make_bot

        state_seed = int(self.np_random.integers(2**62))
        self.position = Position(self.adapted, self.adapted.game.new_state(seed=state_seed))
        self.bot = make_bot(self.adapted.game, self.opponent, state_seed, registry=self.registry)
        self._opponents_play()
        return self._observe(), self._info()

    def step(self, action: Any) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        position = self.position
        assert position is not None, "call reset() first"
        if position.is_over():
            raise RuntimeError("the episode is over: call reset()")
        if int(action) not in position.legal():
            return self._observe(), -1.0, True, False, {**self._info(), "illegal_action": True}
        position.play(int(action))
        self._opponents_play()
        over = position.is_over()
        reward = position.returns()[self.seat] if over else 0.0
        truncated = over and position.truncated()
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, over and not truncated, truncated, self._info()

    def _opponents_play(self) -> None:
        position = self.position
        assert position is not None
        space = self.adapted.space
        while not position.is_over() and position.state.current_player != self.seat:
            move = self.bot.choose(position.state)
            position.play(space.action_in(position.state, move))

    def _observe(self) -> dict[str, Any]:
        position = self.position
        assert position is not None
        mask = np.zeros(self.adapted.num_actions, dtype=np.int8)
        if not position.is_over():
            mask[list(position.legal())] = 1
        return {"observation": position.state.observation(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        position = self.position
        assert position is not None
        mask = np.zeros(self.adapted.num_actions, dtype=np.int8)
        if not position.is_over():
            mask[list(position.legal())] = 1
        return {"action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode is None or self.position is None:
            return None
        text = self.position.state.render()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def register_envs() -> None:
    """Register ``hexkit/<game>-v0`` for every installed game (done when this module is
    imported; a broken plugin is left out, as always)."""
    from hexkit import plugins

    for name in plugins.registry().games:
        env_id = f"{NAMESPACE}/{name}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(env_id, entry_point="hexkit.adapters.gym:HexkitGymEnv",
                               kwargs={"game": name}, disable_env_checker=True)


register_envs()
