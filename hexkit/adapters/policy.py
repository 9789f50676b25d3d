"""A trained policy as a hexkit bot: evaluate it against hexkit's bots in ``hexkit play``
or ``hexkit tournament``.

A *policy* is either

- a function ``policy(observation, action_mask) -> action`` (two parameters), as an agent
  trained with the adapters sees the game: ``observation`` is ``state.observation(seat)``
  for the seat to act, ``action_mask`` the int8 mask of the game's action space, and the
  action a number of that space; or
- a function ``policy(state) -> move`` (one parameter), given a copy of the position, that
  returns a Move, a move's text or an action number.

:func:`policy_bot` makes a bot of one. To enter it in a tournament, either give it on the
command line, ``hexkit tournament focus --bots python:agent.py:policy mcts:50`` (the
``python`` seat: a file or module and the name of the policy in it), or register it from
a plugin (``hexkit --plugins-dir DIR tournament ...``) with :func:`policy_bot_spec`.

The ``python`` seat imports and runs code, so it follows the trust rule of programs
(docs/security.md): it is accepted only as a literal argument of the command being run,
never from a record, a web request, a saved file or a tournament database.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import os
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hexkit.bots import Bot, BotSpec
from hexkit.errors import HexkitError, OptionError
from hexkit.game import Game, Move, State

Policy = Callable[..., Any]


class PolicyBot:
    """A bot that asks a policy for each move (see the module docstring)."""

    def __init__(self, policy: Policy, *, name: str = "policy") -> None:
        if not callable(policy):
            raise OptionError(f"{name} is not a function: {type(policy).__name__}")
        self.policy = policy
        self.name = name
        self.observes = _parameters(policy, name) == 2

    def choose(self, state: State) -> Move:
        """The policy's move in this position (HexkitError, one line, if it is not legal)."""
        space = state.game.action_space()
        legal: dict[int, Move] | None = None
        if self.observes:
            import numpy as np

            legal = space.legal_map(state)
            if not legal:
                raise HexkitError(f"{self.name}: no legal move here has an action number")
            mask = np.zeros(space.num_actions, dtype=np.int8)
            mask[list(legal)] = 1
            chosen = self.policy(state.observation(state.current_player), mask)
        else:
            chosen = self.policy(state.copy())
        return self._move(chosen, state, space, legal)

    def _move(self, chosen: Any, state: State, space: Any,
              legal: dict[int, Move] | None) -> Move:
        if isinstance(chosen, Move):
            move = chosen
        elif isinstance(chosen, str):
            move = state.parse_move(chosen)
        else:
            try:
                action = int(chosen)  # numpy integers too
            except (TypeError, ValueError):
                raise HexkitError(f"{self.name} returned {chosen!r}, not an action, a move "
                                  "or a move's text") from None
            if legal is None:
                legal = space.legal_map(state)
            found = legal.get(action)
            if found is None:
                raise HexkitError(f"{self.name} chose action {action}, which is not legal here")
            return found
        if move not in state.legal_moves():
            raise HexkitError(f"{self.name} chose {move}, which is not legal here")
        return move


def policy_bot(policy: Policy, *, name: str = "policy") -> Bot:
    """A hexkit bot playing ``policy`` (``policy(observation, action_mask) -> action`` or
    ``policy(state) -> move``)."""
    return PolicyBot(policy, name=name)


def policy_bot_spec(name: str, policy: Policy | str, description: str = "") -> BotSpec:
    """A bot to register from a plugin (``hexkit_register_bots``), playing ``policy``: a
    function, or ``"package.module:function"`` imported when the first bot is built. The
    seat is then ``--bots NAME``."""

    def factory(game: Game, arg: str | None, seed: int | None) -> Bot:
        if arg:
            raise OptionError(f"the bot {name} takes no argument")
        function = _import(policy) if isinstance(policy, str) else policy
        return PolicyBot(function, name=name)

    return BotSpec(name, description or f"the policy {policy if isinstance(policy, str) else name}",
                   factory)


# -- the python seat -----------------------------------------------------------------------

def python_bot(game: Game, arg: str | None, seed: int | None) -> Bot:
    """The bot of the seat ``python:FILE.py:NAME`` or ``python:MODULE:NAME`` (``arg`` is
    what follows ``python:``). It imports the operator's code, so its BotSpec (in
    :mod:`hexkit.builtins`) is built only from the command line."""
    if not arg or ":" not in arg:
        raise OptionError("the python bot is python:FILE.py:NAME or python:MODULE:NAME (a "
                          "policy function; see docs/ai.md)")
    return PolicyBot(_import(arg), name=f"python:{arg}")


#: Files imported by the python seat, by (path, modification time): each game of a
#: tournament builds its bots again, and must not import the file again.
_FILES: dict[tuple[str, int], Any] = {}
_LOCK = threading.Lock()


def _import(reference: str) -> Policy:
    """The object ``FILE.py:NAME`` or ``MODULE:NAME`` names (OptionError, one line)."""
    where, _, attribute = reference.rpartition(":")
    if not where or not attribute:
        raise OptionError(f"{reference!r} is not FILE.py:NAME or MODULE:NAME")
    if where.endswith(".py") or os.sep in where or "/" in where:
        module = _load_file(Path(where))
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise OptionError(f"cannot import {where}: {exc}") from None
    try:
        found = getattr(module, attribute)
    except AttributeError:
        raise OptionError(f"{where} has no {attribute!r}") from None
    return found


def _load_file(path: Path) -> Any:
    """The module of a Python file, imported once per version of the file."""
    try:
        resolved = path.resolve(strict=True)
        key = (str(resolved), resolved.stat().st_mtime_ns)
    except OSError as exc:
        raise OptionError(f"cannot read {path}: {exc.strerror or exc}") from None
    with _LOCK:
        module = _FILES.get(key)
        if module is not None:
            return module
        name = f"hexkit_policy_{abs(hash(key))}"
        spec = importlib.util.spec_from_file_location(name, resolved)
        if spec is None or spec.loader is None:
            raise OptionError(f"{path} is not a Python file")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # pickle and dataclasses find the module by name
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[name]
            raise OptionError(f"{path}: {type(exc).__name__}: {exc}") from None
        _FILES[key] = module
        return module


def _parameters(policy: Policy, name: str) -> int:
    """1 (a state) or 2 (an observation and a mask): the positional parameters ``policy``
    takes without a default."""
    try:
        signature = inspect.signature(policy)
    except (TypeError, ValueError):
        return 2  # a builtin or C function: the RL form
    required = [p for p in signature.parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                and p.default is p.empty]
    if len(required) not in (1, 2):
        raise OptionError(f"{name} takes {len(required)} arguments: a policy takes "
                          "(observation, action_mask) or (state)")
    return len(required)
