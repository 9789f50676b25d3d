"""The fast generators against the plain rules: the legal list of a position as the engine
makes it (compiled or Python twin) must equal, move for move and in the same order, the one
made with every mover searched by :mod:`hexaround.rules`. Used by the tests (a few random
games per shipped configuration) and by ``benchmarks/hexaround_rules_check.py`` (many)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hexaround.engine import Engine
from hexaround.position import Action


def plain_list(engine: Engine) -> list[Action]:
    """The legal list of the engine's position with every mover searched by the plain
    rules (made on a copy: the engine and its caches are left as they were)."""
    twin = engine.copy()
    twin.clear_caches()
    twin.position.fast_rules = False
    return twin.generate(twin.to_move)


def random_positions(engine: Engine, games: int, moves: int, seed: int) -> Iterator[Engine]:
    """The positions of random games (the same engine, played and reset)."""
    rng = random.Random(seed)
    for _ in range(games):
        engine.reset()
        for _ in range(moves):
            if engine.is_over():
                break
            yield engine
            legal = engine.legal_actions()
            engine.apply(legal[rng.randrange(len(legal))])


def mismatch(engine: Engine) -> str | None:
    """None if the fast and the plain lists agree, else what differs."""
    fast = engine.legal_actions()
    plain = plain_list(engine)
    if fast == plain:
        return None
    if sorted(fast, key=repr) == sorted(plain, key=repr):
        return "same moves in another order"
    extra = sorted(set(fast) - set(plain), key=repr)[:5]
    missing = sorted(set(plain) - set(fast), key=repr)[:5]
    return f"fast generator also lists {extra}; misses {missing}"
