"""The server's bots: which a request may ask for, what they may cost, and where they think.

- :class:`BotPolicy` turns a seat spec from a request into the spec the server builds: an
  allowed bot within the operator's caps, or an engine the operator named (``--engine
  NAME=SPEC``, the only way a program starts); anything else is a one-line refusal naming
  the cap or the allow-list.
- :class:`BotPool` runs bots' moves in a few daemon threads (at most ``thinking`` at a
  time), each with a deadline: a bot that can be told to stop (MCTS reports its progress)
  stops there; one that does not is abandoned and a random move is played for it, its
  thread still counted until it ends, so runaway bots never take more than the pool. The
  threads never keep the process alive: Ctrl-C stops the server while bots think.
"""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections.abc import Callable
from typing import Any

from hexkit.bots import HUMAN, bot_spec, make_bot
from hexkit.errors import HexkitError, OptionError
from hexkit.game import Game, Move, State
from hexkit.web.settings import BotCaps

#: Settings of bots' arguments that the caps bound: ``time=S``, ``depth=N``, ``sims=N``,
#: ``nodes=N`` (``300k`` and ``2M`` read as thousands and millions).
_SETTING = re.compile(r"(?:^|[,:])\s*(time|depth|sims|simulations|nodes)\s*=\s*([^,:]*)")


class BotRefused(OptionError):
    """A seat spec the server does not build for a request (one line, naming why)."""


def _number(text: str, what: str) -> float:
    text = text.strip()
    if not text or not text.isascii() or not re.fullmatch(r"\d+(\.\d+)?", text):
        raise BotRefused(f"{what}: {text!r} is not a number")
    return float(text)


class BotPolicy:
    """Which bots a request may seat, within which caps."""

    def __init__(self, caps: BotCaps, engines: dict[str, str], registry: Any):
        self.caps = caps
        self.engines = {name.lower(): spec for name, spec in engines.items()}
        self.registry = registry

    def allowed_names(self) -> list[str]:
        """The installed bots a request may name (no bot that starts a program)."""
        names = [n for n, b in sorted(self.registry.bots.items()) if not b.starts_process]
        if self.caps.allowed is not None:
            wanted = {a.lower() for a in self.caps.allowed}
            names = [n for n in names if n in wanted]
        return [n for n in names if n not in self.engines]

    def offered(self) -> list[dict[str, Any]]:
        """The bots and engines the game picker offers, with what they may cost."""
        out = []
        for name in self.allowed_names():
            spec = self.registry.bots[name]
            out.append({"name": name, "description": spec.description, "engine": False})
        for name in sorted(self.engines):
            out.append({"name": name, "description": "an engine this server runs",
                        "engine": True})
        return out

    def offered_for(self, game_name: str) -> dict[str, Any]:
        """What the game picker offers for one game: ``bots``, the allowed bots and the
        operator's engines that play it, each with how its setting is written and an
        example (the placeholder of its box), and ``levels``, the game's named levels
        within this server's caps."""
        from hexkit.bots.levels import bot_menu

        menu = bot_menu(game_name, self.registry)
        allowed = set(self.allowed_names())
        bots: list[dict[str, Any]] = []
        for choice in menu.bots:
            if choice.name in allowed:
                _, _, arg = choice.example.partition(":")
                bots.append({**choice.to_dict(), "placeholder": arg, "engine": False})
        for name in sorted(self.engines):
            found = self._engine_spec(name)
            if found is None or found.plays(game_name):
                bots.append({"name": name, "description": "an engine this server runs",
                             "settings": "no settings", "example": name,
                             "placeholder": "", "engine": True})
        levels = []
        if "bot" in allowed:
            for level in menu.levels:
                try:
                    self.check(level.bot)
                except HexkitError:
                    continue  # beyond a cap of this server
                levels.append(level.to_dict())
        return {"bots": bots, "levels": levels}

    def _engine_spec(self, name: str) -> Any:
        try:
            return bot_spec(self.engines[name], registry=self.registry)
        except HexkitError:
            return None

    def check_for_game(self, spec: Any, game_name: str) -> None:
        """BotRefused unless the seat spec's bot plays ``game_name`` and, for a named level
        (``bot:hard``), unless the bot and budget that level stands for are within this
        server's caps."""
        from hexkit.bots.levels import levels_for, parse_level
        from hexkit.bots.policy import LEVEL_BOT

        if not isinstance(spec, str):
            return  # check() says why
        name, _, arg = spec.strip().partition(":")
        name = name.strip().lower()
        if name == HUMAN or not name:
            return
        found = self._engine_spec(name) if name in self.engines else \
            self.registry.bots.get(name)
        if found is not None and not found.plays(game_name):
            playing = [b["name"] for b in self.offered_for(game_name)["bots"]]
            raise BotRefused(f"the bot {name!r} does not play {game_name} (bots for "
                             f"{game_name}: {', '.join(playing) or 'none'})")
        if name == LEVEL_BOT:
            levels = levels_for(game_name, self.registry)
            level = levels[parse_level(arg or None, len(levels))]
            try:
                self.check(level.bot)
                self.check_for_game(level.bot, game_name)
            except BotRefused as exc:
                raise BotRefused(f"{spec.strip()} is {level.bot} for {game_name}: "
                                 f"{exc}") from None

    def caps_text(self) -> str:
        c = self.caps
        return (f"MCTS up to {c.max_simulations} simulations, {c.seconds:g} s a move, "
                f"depth up to {c.max_depth}, {c.thinking} thinking at a time")

    def check(self, spec: Any) -> tuple[str, bool]:
        """``(spec to build, from the operator)`` for a seat spec from a request: ``human``,
        an allowed bot within the caps, or an engine's name. BotRefused otherwise."""
        if not isinstance(spec, str) or not spec.strip() or len(spec) > 100:
            raise BotRefused("a player is 'human' or a bot such as random")
        text = spec.strip()
        name, _, arg = text.partition(":")
        name = name.strip().lower()
        if name == HUMAN:
            return HUMAN, False
        if name in self.engines:
            if arg:
                raise BotRefused(f"the engine {name!r} takes no setting from the page")
            return self.engines[name], True
        found = bot_spec(text, registry=self.registry)  # unknown: OptionError with a hint
        assert found is not None
        if found.starts_process:
            offered = ", ".join(sorted(self.engines)) or "none"
            raise BotRefused(f"the bot {name!r} starts a program, which this server runs "
                             f"only as an engine its operator named (engines: {offered})")
        if name not in self.allowed_names():
            raise BotRefused(f"the bot {name!r} is not offered on this server (bots: "
                             f"{', '.join(self.allowed_names()) or 'none'})")
        self._check_caps(name, arg)
        return text, False

    def _check_caps(self, name: str, arg: str) -> None:
        caps = self.caps
        if name == "mcts":
            from hexkit.bots.mcts import DEFAULT_SIMULATIONS, parse_arg

            sims = parse_arg(arg or None).get("simulations", DEFAULT_SIMULATIONS)
            if not 1 <= sims <= caps.max_simulations:
                raise BotRefused(f"mcts: {sims} simulations is beyond this server's cap of "
                                 f"{caps.max_simulations} (--max-simulations)")
        for key, value in _SETTING.findall(arg or ""):
            if key == "time":
                seconds = _number(value, f"{name}: time")
                if seconds > caps.seconds:
                    raise BotRefused(f"{name}: time={value.strip()} is beyond this server's "
                                     f"cap of {caps.seconds:g} s a move (--bot-seconds)")
            elif key == "nodes":
                text = value.strip().lower()
                scale = {"k": 1000, "m": 1_000_000}.get(text[-1:], 1)
                nodes = _number(text[:-1] if scale > 1 else text, f"{name}: nodes") * scale
                if nodes > caps.max_nodes:
                    raise BotRefused(f"{name}: nodes={value.strip()} is beyond this server's "
                                     f"cap of {caps.max_nodes:,} (--max-nodes)")
            elif key == "depth" and name != "mcts":
                depth = _number(value, f"{name}: depth")
                if depth > caps.max_depth:
                    raise BotRefused(f"{name}: depth={value.strip()} is beyond this server's "
                                     f"cap of {caps.max_depth} (--max-depth)")
        if name == "alphabeta":  # a bare number (alphabeta:50000), or depth=D alone
            from hexkit.bots.alphabeta import bot_settings, parse_arg

            nodes = bot_settings(arg or None)["nodes"]
            if nodes > caps.max_nodes:
                given = parse_arg(arg or None)
                if "nodes" not in given and "depth" in given:
                    raise BotRefused(f"alphabeta: depth={given['depth']} alone searches with "
                                     f"no node budget; add nodes=N (this server's cap is "
                                     f"{caps.max_nodes:,}, --max-nodes)")
                raise BotRefused(f"alphabeta: {nodes:,} positions is beyond this server's "
                                 f"cap of {caps.max_nodes:,} (--max-nodes)")

    def build(self, game: Game, spec: str, seed: int | None, from_operator: bool) -> Any:
        """The bot for a checked spec (None for a person)."""
        return make_bot(game, spec, seed, registry=self.registry, from_operator=from_operator)


class _Stopped(Exception):
    """Raised inside a bot's search (through its progress report) to stop it."""


class BotPool:
    """Bots' moves, off the event loop, at most ``thinking`` at a time, with a deadline."""

    def __init__(self, thinking: int, seconds: float):
        self.seconds = seconds
        self.slots = threading.BoundedSemaphore(max(1, thinking))
        self.waiting: asyncio.Semaphore | None = None
        self.thinking = max(1, thinking)
        self.stopping = False
        self.running = 0

    async def choose(self, bot: Any, state: State) -> tuple[Move | None, str]:
        """The bot's move in ``state`` (a copy is given to it), or ``(None, why)`` if it
        failed; a bot past its deadline gets a random legal move played for it (why says
        so)."""
        if self.waiting is None:
            self.waiting = asyncio.Semaphore(self.thinking)
        loop = asyncio.get_running_loop()
        async with self.waiting:
            # A slot is held by a thread until its bot returns, even if abandoned.
            while not self.slots.acquire(blocking=False):
                if self.stopping:
                    return None, "the server is stopping"
                await asyncio.sleep(0.05)
            done: asyncio.Future[tuple[Move | None, str]] = loop.create_future()
            deadline = time.monotonic() + self.seconds
            position = state.copy()

            def finish(result: tuple[Move | None, str]) -> None:
                if not done.done():
                    done.set_result(result)

            def work() -> None:
                self.running += 1
                try:
                    result: tuple[Move | None, str] = (self._think(bot, position, deadline), "")
                except _Stopped:
                    result = (None, "stopped")
                except Exception as exc:  # a bot's bug must not take the server down
                    result = (None, f"{type(exc).__name__}: {exc}")
                finally:
                    self.running -= 1
                    self.slots.release()
                if not loop.is_closed():
                    loop.call_soon_threadsafe(finish, result)

            threading.Thread(target=work, name="hexkit-bot", daemon=True).start()
            try:
                return await asyncio.wait_for(asyncio.shield(done), self.seconds + 1.0)
            except TimeoutError:
                return None, "late"

    def _think(self, bot: Any, state: State, deadline: float) -> Move:
        if hasattr(bot, "progress"):
            def check(done: int, total: int) -> None:
                if self.stopping or time.monotonic() > deadline:
                    raise _Stopped
            bot.progress = check
        move: Move = bot.choose(state)
        return move


def fallback_move(state: State, seed: int) -> Move:
    """A random legal move, for a bot that ran out of time."""
    import random

    moves = state.legal_moves()
    return moves[random.Random(seed).randrange(len(moves))]


def close_bot(bot: Any) -> None:
    """Stop a bot's program, if it runs one."""
    close: Callable[[], None] | None = getattr(bot, "close", None)
    if callable(close):
        try:
            close()
        except (HexkitError, OSError):
            pass
