"""Random generators as game state: copied cheaply, saved as JSON and read back."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any


def rng_copy(rng: random.Random) -> random.Random:
    """An independent generator in the same state as ``rng`` (without seeding a new one
    from the operating system first, which costs more than the copy)."""
    twin = random.Random.__new__(random.Random)
    twin.setstate(rng.getstate())
    return twin


def rng_to_json(rng: random.Random) -> list[Any]:
    """A random generator's full state as JSON-safe data."""
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def rng_from_json(data: Sequence[Any]) -> random.Random:
    """Rebuild a random generator from :func:`rng_to_json` output."""
    rng = random.Random()
    try:
        version, internal, gauss = data
        rng.setstate((int(version), tuple(int(x) for x in internal), gauss))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"invalid random generator state: {exc}") from exc
    return rng

