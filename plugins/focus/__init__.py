"""Focus: the OSU CS 162 FocusGame and Sackson's Focus/Domination, as a hexkit plugin.

``from focus import FocusGame`` gives the course class (imported on first use, so that
hexkit loading the plugin, ``focus.plugin``, does not import the rules); the generic game is
``focus`` through ``hexkit.load_game("focus(board=cross,players=4)")``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["FocusGame"]


def __getattr__(name: str) -> Any:
    if name == "FocusGame":
        from focus.course import FocusGame

        return FocusGame
    raise AttributeError(f"module 'focus' has no attribute {name!r}")
