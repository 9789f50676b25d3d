"""A hexkit game as an OpenSpiel (pyspiel) game: ``register_openspiel("focus")``.

The game is registered under ``hexkit_<game string>`` (letters, digits and _ only, e.g.
``hexkit_focus_board_cross_``) and returned as a pyspiel game: sequential, perfect
information, terminal rewards +1 win / -1 loss / 0 draw, at most ``max_plies`` moves (a
game still going then is a draw, as in OpenSpiel's own Hive). Actions are the game's action
space; observation tensors are ``State.observation``. States are cloned with
``copy.deepcopy``, which is the hexkit state's own ``copy()``.

Chance: every new initial state gets its own seed, drawn from the game's generator, which
the parameter ``rng_seed`` seeds (OpenSpiel's name for it; -1, the default unless
``register_openspiel(seed=...)`` gives one, seeds it from the operating system). A game
with dice (Hex Baron's digs) draws from its state's generator, which clones and
serialisations carry, so the game is declared ``DETERMINISTIC``: from a given state, an
action always leads to the same state. (``SAMPLED_STOCHASTIC`` is not an option: OpenSpiel
serialises such a game with its generator, which a Python game cannot give it.)
"""

from __future__ import annotations

import random
import re
from typing import Any

from hexkit.adapters.common import AdaptedGame, Position, require

require("pyspiel")

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402


def short_name(game_string: str) -> str:
    """``focus(board=cross)`` -> ``hexkit_focus_board_cross_``."""
    return "hexkit_" + re.sub(r"[^A-Za-z0-9_]", "_", game_string)


def register_openspiel(game: Any, *, registry: Any = None, seed: int | None = None,
                       max_plies: int | None = None, name: str | None = None) -> Any:
    """Register ``game`` (a game string or a Game) with OpenSpiel and return the pyspiel
    game (``pyspiel.load_game(name)`` then works too, e.g. in deserialisation;
    ``pyspiel.load_game(name, {"rng_seed": 7})`` seeds the states' seeds). ``seed`` is
    the default ``rng_seed`` (None: -1, from the operating system)."""
    adapted = AdaptedGame(game, registry, max_plies)
    name = name or short_name(str(adapted.game))
    n = adapted.seats
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"hexkit {adapted.game}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if n == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=n,
        min_num_players=n,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"rng_seed": -1 if seed is None else int(seed)},
    )
    info = pyspiel.GameInfo(
        num_distinct_actions=adapted.num_actions,
        max_chance_outcomes=0,
        num_players=n,
        min_utility=-1.0,
        max_utility=1.0,
        utility_sum=0.0 if n == 2 else None,
        max_game_length=adapted.max_plies,
    )

    class HexkitSpielGame(pyspiel.Game):
        """The pyspiel game of one hexkit game."""

        def __init__(self, params: Any = None):
            super().__init__(game_type, info, params or {})
            self.adapted = adapted
            rng_seed = int(self.get_parameters()["rng_seed"])
            #: Draws each new initial state's seed.
            self.seeds = random.Random(rng_seed if rng_seed >= 0 else None)

        def new_initial_state(self) -> HexkitSpielState:
            return HexkitSpielState(self, self.seeds.randrange(2**62))

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
            return PlanesObserver(adapted, params)

    class HexkitSpielState(pyspiel.State):
        """A position, as OpenSpiel sees it."""

        def __init__(self, spiel_game: HexkitSpielGame, state_seed: int):
            super().__init__(spiel_game)
            self.position = Position(adapted, adapted.game.new_state(seed=state_seed))

        def current_player(self) -> int:
            if self.position.is_over():
                return pyspiel.PlayerId.TERMINAL
            return int(self.position.state.current_player)

        def _legal_actions(self, player: int) -> list[int]:
            return sorted(self.position.legal())

        def _apply_action(self, action: int) -> None:
            self.position.play(action)

        def _action_to_string(self, player: int, action: int) -> str:
            move = self.position.legal().get(int(action))
            if move is None:
                return f"action {action}"
            return str(move)

        def is_terminal(self) -> bool:
            return self.position.is_over()

        def returns(self) -> list[float]:
            return self.position.returns()

        def __str__(self) -> str:
            return self.position.state.render()

        def __deepcopy__(self, memo: dict[int, Any]) -> Any:
            # OpenSpiel clones Python states with copy.deepcopy: copy only the position.
            twin = HexkitSpielState.__new__(HexkitSpielState)
            pyspiel.State.__init__(twin, self.get_game())
            twin.__dict__.update(self.__dict__)
            twin.position = self.position.copy()
            return twin

    pyspiel.register_game(game_type, HexkitSpielGame)
    return pyspiel.load_game(name)


class PlanesObserver:
    """OpenSpiel's observer interface over ``State.observation``."""

    def __init__(self, adapted: AdaptedGame, params: Any = None):
        if params:
            raise ValueError(f"hexkit observers take no parameters, not {params}")
        self.tensor = np.zeros(int(np.prod(adapted.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(adapted.shape)}

    def set_from(self, state: Any, player: int) -> None:
        self.tensor[:] = state.position.state.observation(player).reshape(-1)

    def string_from(self, state: Any, player: int) -> str:
        return state.position.state.render()
