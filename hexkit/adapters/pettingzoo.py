"""A hexkit game as a PettingZoo AEC environment, for any number of players.

Agents are ``player_0``, ``player_1``...; each observes ``{"observation": float32 planes
(State.observation, from its own seat), "action_mask": int8 vector}`` (the mask is all
zero for an agent not to act). Actions are the game's action space (``Discrete``). At the
end every agent gets +1 if it won, -1 if it lost, 0 in a draw; a game past ``max_plies``
(or with no numbered legal move) is truncated as a draw. Render modes: ``ansi`` (the
text board) and ``human`` (printed).
"""

from __future__ import annotations

from typing import Any

from hexkit.adapters.common import AdaptedGame, Position, require

require("pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

#: How an environment draws a position: printed, or returned as text.
RENDER_MODES = ("human", "ansi")


class HexkitAECEnv(AECEnv):
    """The AEC environment of one hexkit game (``game`` is a game string or a Game)."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "name": "hexkit_v0",
                                 "is_parallelizable": False}

    def __init__(self, game: Any, render_mode: str | None = None, *, registry: Any = None,
                 max_plies: int | None = None):
        super().__init__()
        self.adapted = AdaptedGame(game, registry, max_plies)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r} is not one of "
                             f"{', '.join(RENDER_MODES)}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"hexkit_{self.adapted.game.name}_v0"}
        n = self.adapted.seats
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        obs = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, self.adapted.shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.adapted.num_actions,), np.int8),
        })
        act = spaces.Discrete(self.adapted.num_actions)
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: act for a in self.possible_agents}
        self.position: Position | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` seeds the state's own random generator."""
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.position = Position(self.adapted, self.adapted.game.new_state(seed=seed))
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.position.state.current_player]

    def observe(self, agent: str) -> dict[str, Any]:
        assert self.position is not None, "call reset() first"
        seat = self._seat[agent]
        planes = self.position.state.observation(seat)
        mask = np.zeros(self.adapted.num_actions, dtype=np.int8)
        if not self.position.is_over() and seat == self.position.state.current_player:
            mask[list(self.position.legal())] = 1
        return {"observation": planes, "action_mask": mask}

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            self._was_dead_step(action)
            return
        position = self.position
        assert position is not None
        self._cumulative_rewards[self.agent_selection] = 0.0
        position.play(int(action))
        self.rewards = {a: 0.0 for a in self.agents}
        if position.is_over():
            truncated = position.truncated()
            for agent, value in zip(self.agents, position.returns(), strict=True):
                self.rewards[agent] = value
                self.terminations[agent] = not truncated
                self.truncations[agent] = truncated
            # Every agent then sees the end through last(), starting with the next seat.
            mover = self._seat[self.agent_selection]
            self.agent_selection = self.possible_agents[(mover + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[position.state.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None or self.position is None:
            return None
        text = self.position.state.render()
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
