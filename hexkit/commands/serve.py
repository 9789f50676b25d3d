"""``hexkit serve``: play any installed game in the browser (see docs/web.md)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hexkit.errors import OptionError


def default_folder() -> Path:
    """Where the server keeps its games: ``$XDG_DATA_HOME/hexkit/web-games`` (or
    ``~/.local/share/hexkit/web-games``)."""
    from hexkit.userdirs import data_home

    return data_home() / "web-games"


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit serve``."""
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1: this machine only; "
                             "0.0.0.0 lets the local network in)")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--open", action="store_true", help="open the page in the browser")
    parser.add_argument("--games-dir", default=None, metavar="DIR",
                        help=f"where games are saved as they go (default {default_folder()})")


def run(args: argparse.Namespace) -> int:
    """Start the server and serve until Ctrl-C."""
    from hexkit.web import INSTALL_HINT, missing_dependency

    if missing_dependency() is not None:
        raise OptionError(INSTALL_HINT)
    if not 0 <= args.port <= 65535:
        raise OptionError(f"--port {args.port} is outside 0..65535")
    import uvicorn

    from hexkit.web.app import create_app

    folder = Path(args.games_dir) if args.games_dir else default_folder()
    try:
        app = create_app(folder)
    except OSError as exc:
        raise OptionError(f"cannot keep games in {folder}: {exc.strerror or exc}") from None
    _check_can_listen(args.host, args.port)
    store = app.state.store
    for problem in store.problems:
        print(f"hexkit serve: warning: {problem}", file=sys.stderr)
    shown = "localhost" if args.host in ("127.0.0.1", "localhost") else args.host
    url = f"http://{shown}:{args.port}/"
    print(f"hexkit serve: {len(store.rooms)} saved games in {folder}", flush=True)
    print(f"hexkit serve: open {url} (Ctrl-C stops the server; games are kept)", flush=True)
    if args.open:
        import threading
        import webbrowser

        threading.Timer(0.8, webbrowser.open, (url,)).start()
    # Messages above the protocol's limit get a one-line error; beyond a megabyte the
    # connection is closed (WebSocket code 1009, message too big).
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            ws_max_size=1024 * 1024)
    server = uvicorn.Server(config)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    except SystemExit:
        if not server.started:
            raise OptionError(f"cannot listen on {args.host}:{args.port}") from None
        raise
    return 0


def _check_can_listen(host: str, port: int) -> None:
    """OptionError, in one line, if the address cannot be listened on (a port in use)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as exc:
        raise OptionError(f"--host {host}: {exc.strerror or exc}") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            raise OptionError(f"cannot listen on {host}:{port}: {reason.lower()} "
                              f"(choose another with --port)") from None
