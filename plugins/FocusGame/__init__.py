"""The course's module name: ``from FocusGame import FocusGame``, as the assignment's autograder
imports it. The class lives in the ``focus`` plugin."""

from focus import FocusGame

__all__ = ["FocusGame"]
