"""Focus: the OSU CS 162 FocusGame and Sackson's Focus/Domination, as a hexkit plugin.

``from focus import FocusGame`` gives the course class; the generic game is ``focus``
through ``hexkit.load_game("focus(board=cross,players=4)")``.
"""

from focus.course import FocusGame

__all__ = ["FocusGame"]
