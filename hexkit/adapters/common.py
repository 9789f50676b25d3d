"""What the three adapters share: the game loaded once with its action space, and a
position's legal actions, rewards and end (a game past ``max_plies``, or with no legal move
the action space numbers, is a draw for the adapters only)."""

from __future__ import annotations

from typing import Any

from hexkit.errors import HexkitError

#: The one line that says how to install the adapters' libraries.
INSTALL_HINT = "pip install 'hexkit-games[rl]'"


def require(module: str) -> Any:
    """Import ``module`` or raise a one-line HexkitError saying how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError:
        raise HexkitError(f"the {module} adapter needs {module.split('.')[0]}: "
                          f"{INSTALL_HINT}") from None


class AdaptedGame:
    """A hexkit game as the adapters see it."""

    def __init__(self, game: Any, registry: Any = None, max_plies: int | None = None):
        from hexkit.game import Game

        if isinstance(game, Game):
            self.game = game
        else:
            if registry is None:
                from hexkit import plugins

                registry = plugins.registry()
            self.game = registry.load_game(str(game))
        self.space = self.game.action_space()
        self.num_actions = self.space.num_actions
        self.seats = len(self.game.player_names)
        self.max_plies = int(max_plies if max_plies is not None else self.game.max_plies)
        self.shape = tuple(self.game.observation_shape)


class Position:
    """A state with its legal actions, worked out once per ply."""

    def __init__(self, adapted: AdaptedGame, state: Any, plies: int = 0):
        self.adapted = adapted
        self.state = state
        self.plies = plies
        self._legal: dict[int, Any] | None = None

    def legal(self) -> dict[int, Any]:
        """Action -> move, for the numbered legal moves ({} once the game is over)."""
        if self._legal is None:
            self._legal = {} if self.state.is_over() else self.adapted.space.legal_map(self.state)
        return self._legal

    def play(self, action: int) -> None:
        """Play a legal action (HexkitError naming it if it is not legal here)."""
        move = self.legal().get(int(action))
        if move is None:
            raise HexkitError(f"action {action} is not legal here")
        self.state.push(move)
        self.plies += 1
        self._legal = None

    def is_over(self) -> bool:
        """The game ended, reached ``max_plies``, or has no numbered legal move left."""
        return (self.state.is_over() or self.plies >= self.adapted.max_plies
                or not self.legal())

    def truncated(self) -> bool:
        """Over by the adapters' bound rather than by the rules."""
        return not self.state.is_over() and self.is_over()

    def returns(self) -> list[float]:
        """+1 for each winner and -1 for each other seat; 0 for all in a draw or while the
        game goes on."""
        outcome = self.state.outcome()
        if outcome is None or outcome.is_draw:
            return [0.0] * self.adapted.seats
        return [1.0 if s in outcome.winners else -1.0 for s in range(self.adapted.seats)]

    def copy(self) -> Position:
        twin = Position(self.adapted, self.state.copy(), self.plies)
        twin._legal = None
        return twin
