"""Bots that misbehave, for the referee's tests: each plays random legal moves until its
n-th move (the argument, default 1), then misbehaves in its own way."""

from __future__ import annotations

import itertools
import os
import random
import time
from pathlib import Path

from hexkit import hookimpl
from hexkit.bots import BotSpec


class _Bad:
    def __init__(self, arg: str | None, seed: int | None):
        first, _, rest = (arg or "").partition(",")
        self.at = int(first) if first else 1
        self.extra = rest
        self.rng = random.Random(seed)
        self.moves = 0

    def choose(self, state):
        self.moves += 1
        if self.moves >= self.at:
            return self.misbehave(state)
        moves = state.legal_moves()
        return moves[self.rng.randrange(len(moves))]


class Hang(_Bad):
    """Thinks forever in Python, and swallows every Exception while at it."""

    def misbehave(self, state):
        n = 0
        while True:
            try:
                n += 1
            except Exception:
                pass


class Slow(_Bad):
    """Returns a legal move, but only after sleeping ``extra`` seconds (default 1)."""

    def misbehave(self, state):
        time.sleep(float(self.extra or 1))
        self.at = 10**9
        return state.legal_moves()[0]


class StuckInC(_Bad):
    """Stuck in C code that does not return to the interpreter for hours (a built-in loop
    that never looks at signals)."""

    def misbehave(self, state):
        sum(itertools.repeat(1, 10**13))
        return state.legal_moves()[0]


class Crash(_Bad):
    def misbehave(self, state):
        raise RuntimeError("the bot fell over")


class Illegal(_Bad):
    """Plays a move that is not legal here (a square already taken)."""

    def misbehave(self, state):
        return state.move_stack[-1] if state.move_stack else "zz99"


class Garbage(_Bad):
    def misbehave(self, state):
        return None


class DieOnce(_Bad):
    """Kills its own process the first time (a marker file in folder ``extra``)."""

    def misbehave(self, state):
        try:  # only one bot may create the marker, even in parallel processes
            os.close(os.open(Path(self.extra) / "died", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        except FileExistsError:
            self.at = 10**9
            return state.legal_moves()[0]
        os._exit(3)


class Unstartable:
    def __init__(self, arg, seed):
        raise OSError("engine not found: /nowhere/engine")


def _factory(cls, check=False):
    def make(game, arg, seed):
        if check and seed == 0:  # the driver's fail-fast check builds every bot with seed 0
            return _Bad(arg, seed)
        return cls(arg, seed)

    return make


@hookimpl
def hexkit_register_bots(register):
    for name, cls in (("hang", Hang), ("slow", Slow), ("stuck", StuckInC), ("crash", Crash),
                      ("illegal", Illegal), ("garbage", Garbage), ("dieonce", DieOnce)):
        register(BotSpec(name, cls.__doc__ or name, _factory(cls)))
    register(BotSpec("unstartable", "fails to start in a game", _factory(Unstartable, True)))
