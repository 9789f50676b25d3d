"""Throw-away PostgreSQL and Redis servers on 127.0.0.1, for tests and benchmarks: a
temporary data folder, a free port, stopped (and the folder removed) by :meth:`stop`.

They use the machine's own binaries (Debian's ``postgresql`` and ``redis-server``):
:func:`missing` says which are absent, in one line. PostgreSQL refuses to run as root, so
when this process is root the cluster runs as the ``postgres`` user (or ``nobody``).
Nothing here is used by a running server.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def postgres_bin() -> Path | None:
    """The folder of PostgreSQL's server programs (initdb, pg_ctl), or None."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(os.path.join(folder, "initdb")):
            return Path(folder)
    found = shutil.which("initdb")
    return Path(found).parent if found else None


def missing() -> str | None:
    """Why the throw-away servers cannot start here (one line), or None."""
    if postgres_bin() is None:
        return "PostgreSQL is not installed (apt-get install -y postgresql)"
    if shutil.which("redis-server") is None:
        return "Redis is not installed (apt-get install -y redis-server)"
    return None


def _wait_port(port: int, proc: subprocess.Popen[bytes] | None, seconds: float,
               what: str) -> None:
    deadline = time.monotonic() + seconds
    while True:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} stopped at start-up (exit {proc.returncode})")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start within {seconds:g} s")
        time.sleep(0.05)


@dataclass
class Service:
    """A running throw-away server: its URL, and how to stop it."""

    url: str
    folder: Path
    proc: subprocess.Popen[bytes] | None = None
    #: The signal that stops it at once (PostgreSQL: SIGINT, its fast shutdown).
    stop_signal: int = signal.SIGTERM

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(self.stop_signal)
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        shutil.rmtree(self.folder, ignore_errors=True)


def _unprivileged() -> dict[str, Any]:
    """Popen arguments that run a program as an unprivileged user when this is root."""
    if os.geteuid() != 0:
        return {}
    import pwd

    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}
    raise RuntimeError("running as root, and there is no postgres or nobody user to run "
                       "PostgreSQL as")


def start_postgres(folder: Path | None = None) -> Service:
    """A PostgreSQL cluster in a new temporary folder, on 127.0.0.1 and a free port, with
    a database ``hexkit`` (trust authentication: loopback only, thrown away)."""
    binaries = postgres_bin()
    if binaries is None:
        raise RuntimeError(missing() or "PostgreSQL is not installed")
    # Not under a root-only folder (pytest's tmp_path): the cluster's user must reach it.
    place = Path(tempfile.mkdtemp(prefix="hexkit-pg-"))
    user = _unprivileged()
    if user:
        os.chown(place, user["user"], user["group"])
    data = place / "data"
    port = _free_port()
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C", "LANG": "C"}
    try:
        subprocess.run([str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U",
                        "hexkit", "--no-sync", "-E", "UTF8"], check=True, env=env,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120, **user)
        (data / "postgresql.auto.conf").write_text(
            f"listen_addresses = '127.0.0.1'\nport = {port}\n"
            f"unix_socket_directories = '{data}'\nmax_connections = 200\n"
            "shared_buffers = 32MB\n")
        if user:
            os.chown(data / "postgresql.auto.conf", user["user"], user["group"])
        proc = subprocess.Popen([str(binaries / "postgres"), "-D", str(data)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True, **user)
        _wait_port(port, proc, 60, "PostgreSQL")
        deadline = time.monotonic() + 60
        while subprocess.run([str(binaries / "pg_isready"), "-q", "-h", "127.0.0.1", "-p",
                              str(port)], env=env, timeout=30).returncode != 0:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("PostgreSQL did not become ready")
            time.sleep(0.1)
        return Service(f"postgresql://hexkit@127.0.0.1:{port}/postgres", place, proc,
                       signal.SIGINT)
    except BaseException:
        shutil.rmtree(place, ignore_errors=True)
        raise


def start_redis(folder: Path | None = None) -> Service:
    """A Redis server on 127.0.0.1 and a free port, keeping nothing on disk."""
    binary = shutil.which("redis-server")
    if binary is None:
        raise RuntimeError(missing() or "Redis is not installed")
    place = Path(tempfile.mkdtemp(prefix="hexkit-redis-"))
    port = _free_port()
    proc = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                             "--save", "", "--appendonly", "no", "--dir", str(place),
                             "--protected-mode", "yes"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    try:
        _wait_port(port, proc, 30, "Redis")
    except BaseException:
        proc.kill()
        shutil.rmtree(place, ignore_errors=True)
        raise
    return Service(f"redis://127.0.0.1:{port}/0", place, proc)
