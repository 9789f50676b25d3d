"""A game's help for the bots: playout move choice, evaluation, playout depth, tactics and
named levels.

A plugin registers a :class:`PlayoutPolicy` per game through
``hexkit_register_playout_policies`` (see :mod:`hexkit.hookspecs`); the hook is called once
at start-up. Its functions may be given as ``"package.module:function"`` so that
registering them imports nothing: they are imported when a bot is built.

The policy is plain data a plugin declares: it is defined in :mod:`hexkit.spec` (so that the
plugin loader checks it without importing the bots) and named here too.
"""

from hexkit.spec import LEVEL_BOT as LEVEL_BOT
from hexkit.spec import MAX_LEVELS as MAX_LEVELS
from hexkit.spec import Evaluator as Evaluator
from hexkit.spec import Level as Level
from hexkit.spec import PlayoutChooser as PlayoutChooser
from hexkit.spec import PlayoutPolicy as PlayoutPolicy
from hexkit.spec import Shortlist as Shortlist
from hexkit.spec import WinFilter as WinFilter
from hexkit.spec import check_levels as check_levels
from hexkit.spec import function as function
