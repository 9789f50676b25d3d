"""Named bot levels: ``--p2 bot:easy``, ``bot:medium``, ``bot:hard`` or ``bot:level=1..5``.

A game registers its levels, weakest first, in its
:class:`~hexkit.bots.policy.PlayoutPolicy` (``levels=(Level("mcts:50"), ...)``); each is
a seat spec of a registered bot and budget. A game that registers none gets
:data:`DEFAULT_LEVELS` (MCTS budgets). ``easy``, ``medium`` and ``hard`` name the first,
middle and last level; ``bot`` alone is ``medium``.

:func:`bot_menu` is what a user interface offers for a game: the bots that play it, with
how their settings are written and an example, and its levels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hexkit.bots.policy import LEVEL_BOT, Level
from hexkit.errors import OptionError

#: The levels of a game that registers none: MCTS with growing budgets; the first one
#: plays a random move (among those that neither miss a win nor allow a loss in one) half
#: the time.
DEFAULT_LEVELS: tuple[Level, ...] = (
    Level("mcts:sims=30,random=0.5", "MCTS, 30 simulations, a random safe move half the time"),
    Level("mcts:100", "MCTS, 100 simulations a move"),
    Level("mcts:400", "MCTS, 400 simulations a move"),
    Level("mcts:1500", "MCTS, 1,500 simulations a move"),
    Level("mcts:5000", "MCTS, 5,000 simulations a move"),
)


def level_names(count: int) -> dict[str, int]:
    """``easy``, ``medium`` and ``hard`` for a game of ``count`` levels (0-based)."""
    return {"easy": 0, "medium": (count - 1) // 2, "hard": count - 1}


def levels_for(game_name: str, source: Any = None) -> tuple[Level, ...]:
    """The levels registered for ``game_name`` (the defaults if none were)."""
    from hexkit import plugins

    policy = plugins.registry_of(source).policies.get(game_name)
    if policy is not None and policy.levels:
        return tuple(policy.levels)
    return DEFAULT_LEVELS


def parse_level(arg: str | None, count: int) -> int:
    """The 0-based level that ``arg`` names: None or empty (medium), ``easy``,
    ``medium``, ``hard``, ``N`` or ``level=N`` (1..count). OptionError, one line, else."""
    names = level_names(count)
    text = (arg or "").strip().lower()
    if not text:
        return names["medium"]
    key, eq, value = text.partition("=")
    if eq:
        if key.strip() != "level":
            raise OptionError(f"bot: unknown setting {key.strip()[:30]!r} "
                              f"(use {level_usage(count)})")
        text = value.strip()
    if text in names:
        return names[text]
    if text.isdigit() and 1 <= int(text) <= count:
        return int(text) - 1
    shown = text if len(text) <= 30 else text[:30] + "..."
    raise OptionError(f"bot: {shown!r} is not a level (use {level_usage(count)})")


def level_usage(count: int) -> str:
    """How levels are written, e.g. ``bot:easy|medium|hard or bot:level=1..5``."""
    return f"bot:easy|medium|hard or bot:level=1..{count}"


def level_factory(game: Any, arg: str | None, seed: int | None) -> Any:
    """The registered ``bot`` bot: the game's level that ``arg`` names, built as the seat
    spec that level maps to."""
    from hexkit import plugins
    from hexkit.bots import make_bot
    from hexkit.errors import PluginError

    try:
        registry = plugins.registry_of(getattr(game.spec, "plugin_manager", None))
    except PluginError:  # a spec from a plugin manager hexkit did not build
        registry = plugins.registry()
    levels = levels_for(game.name, registry)
    level = levels[parse_level(arg, len(levels))]
    bot = make_bot(game, level.bot, seed, registry=registry)
    if bot is None:
        raise OptionError(f"level {level.bot!r} of {game.name} names no bot")
    return bot


@dataclass(frozen=True)
class BotChoice:
    """A bot a user interface may offer for a game."""

    name: str
    description: str
    settings: str
    example: str

    def to_dict(self) -> dict[str, str]:
        """JSON-safe form."""
        return {"name": self.name, "description": self.description,
                "settings": self.settings, "example": self.example}


@dataclass(frozen=True)
class LevelChoice:
    """One named level of a game: its number (1..), its words (``easy``...), the spec a
    person types for it, the seat spec it plays as, and what it is."""

    number: int
    names: tuple[str, ...]
    spec: str
    bot: str
    about: str

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form."""
        return {"number": self.number, "names": list(self.names), "spec": self.spec,
                "bot": self.bot, "about": self.about}


@dataclass(frozen=True)
class BotMenu:
    """What to offer for one game: the bots that play it, and its levels."""

    game: str
    bots: tuple[BotChoice, ...]
    levels: tuple[LevelChoice, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe form (for a web lobby)."""
        return {"game": self.game, "bots": [b.to_dict() for b in self.bots],
                "levels": [lv.to_dict() for lv in self.levels]}


def bot_menu(game_name: str, source: Any = None) -> BotMenu:
    """The bots that play ``game_name`` (each with how its settings are written and an
    example) and the game's levels, from the registry (``source``: a Registry or plugin
    manager; default the process-wide one)."""
    from hexkit import plugins

    registry = plugins.registry_of(source)
    policy = registry.policies.get(game_name)
    evaluates = policy is not None and policy.evaluate is not None
    bots = tuple(
        BotChoice(name, spec.description, spec.settings, spec.example or name)
        for name, spec in sorted(registry.bots.items())
        if spec.plays(game_name) and (evaluates or not spec.needs_evaluation)
    )
    levels = levels_for(game_name, registry)
    words: dict[int, list[str]] = {}
    for word, index in level_names(len(levels)).items():
        words.setdefault(index, []).append(word)
    choices = tuple(
        LevelChoice(i + 1, tuple(words.get(i, ())),
                    f"{LEVEL_BOT}:{words[i][0]}" if i in words else f"{LEVEL_BOT}:level={i + 1}",
                    level.bot, level.about)
        for i, level in enumerate(levels)
    )
    return BotMenu(game_name, bots, choices)
