"""Where a ``hexkit serve`` keeps its games, and how its processes hear of each other's
changes, as the operator named them (``--storage``, ``--broadcast``): the one place that
picks an implementation of :class:`~hexkit.web.storage.Storage` and of
:class:`~hexkit.web.broadcast.Broadcast`, and says in one line how to install a missing
one."""

from __future__ import annotations

import os

from hexkit.errors import OptionError
from hexkit.web.broadcast import Broadcast, open_broadcast
from hexkit.web.storage import FolderStorage, Storage

__all__ = ["POSTGRES_HINT", "Broadcast", "open_broadcast", "open_storage"]


#: How to install the PostgreSQL client, in one line.
POSTGRES_HINT = ("--storage postgresql://... needs the postgres extra: "
                 "pip install 'hexkit-games[postgres]'")


def open_storage(url: str | None, folder: str | os.PathLike[str] | None,
                 serving: bool = True) -> Storage:
    """The storage a ``--storage`` URL names: None (or ``folder``) for the embedded
    folder, ``postgresql://...`` for PostgreSQL. ``serving``: for a server (a folder is
    tidied at start-up), not for a tool beside one."""
    if url is None or url in ("", "folder"):
        return FolderStorage(folder, serving)
    if url.startswith(("postgresql://", "postgres://")):
        try:
            import psycopg  # noqa: F401
        except ImportError:
            raise OptionError(POSTGRES_HINT) from None
        from hexkit.web.pgstorage import PostgresStorage

        return PostgresStorage(url)
    raise OptionError(f"--storage {url.split('://')[0]}://...: not a storage (folder, or "
                      "postgresql://USER@HOST:PORT/DATABASE)")
