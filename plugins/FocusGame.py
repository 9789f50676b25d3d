"""The course's module name: ``from FocusGame import FocusGame`` (the file must be named
FocusGame.py in the assignment). The class lives in the ``focus`` plugin."""

from focus import FocusGame

__all__ = ["FocusGame"]
