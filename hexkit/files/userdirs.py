"""The per-user folders hexkit keeps things in, where the XDG base-directory convention
puts them: ``$XDG_DATA_HOME/hexkit`` (default ``~/.local/share/hexkit``)."""

from __future__ import annotations

import os
from pathlib import Path


def data_home() -> Path:
    """``$XDG_DATA_HOME/hexkit``, or ``~/.local/share/hexkit`` when it is unset or not an
    absolute path (as the XDG specification says to treat a relative one)."""
    base = os.environ.get("XDG_DATA_HOME", "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "hexkit"


def kept_games_folder() -> Path:
    """Where ``hexkit play`` keeps games that the player did not save to a file of their
    own (``~/.local/share/hexkit/games``)."""
    return data_home() / "games"
