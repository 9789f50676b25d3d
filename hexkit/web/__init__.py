"""``hexkit serve``: every installed game in the browser, for two players on two browsers.

The web layer knows no game. It draws the game's SVG (:mod:`hexkit.render`), makes it
clickable through the core's move gestures (``state.gesture``/``moves_from``), narrates
``state.events()`` and keeps every game saved as a game record (:mod:`hexkit.files.records`).

- :mod:`hexkit.web.rooms`: games in progress, their seats and secret tokens, undo
  requests, every change in a worker thread, what browsers are sent (no web framework
  needed);
- :mod:`hexkit.web.storage` (a folder, with :mod:`hexkit.web.journal`) and
  :mod:`hexkit.web.pgstorage` (PostgreSQL): where games and accounts are kept;
  :mod:`hexkit.web.broadcast`: how processes sharing a storage hear of each other's moves
  (Redis); :mod:`hexkit.web.backends` picks them from ``--storage``/``--broadcast``;
- :mod:`hexkit.web.play` (clocks, resigning, draw offers, rematches: plain data saved with
  the seats) and :mod:`hexkit.web.referee` (who may ask for them, the rematch's room, the
  flag of a clock that runs out while nobody acts);
- :mod:`hexkit.web.protocol`: checking what a browser sends;
- :mod:`hexkit.web.hub`: the browsers of each game, and the bots' turns;
- :mod:`hexkit.web.app`: the Starlette application (pages, JSON API, WebSockets).

Starlette, uvicorn and websockets come with the ``web`` extra: :data:`INSTALL_HINT`.
"""

from __future__ import annotations

#: How to install what ``hexkit serve`` needs, in one line.
INSTALL_HINT = "hexkit serve needs the web extra: pip install 'hexkit-games[web]'"


def missing_dependency() -> str | None:
    """The name of the first web library that cannot be imported, or None."""
    import importlib

    for name in ("starlette", "uvicorn", "websockets"):
        try:
            importlib.import_module(name)
        except ImportError:
            return name
    return None
