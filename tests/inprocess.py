"""hexkit's command line run inside the test process.

For tests about what a command does and says (its output, its one-line errors, its exit
status, the files it writes), not about the process itself (start-up imports, signals,
Ctrl-C, locks between processes, worker processes): a subprocess pays a Python start-up
and hexkit's imports, a tenth of a second of CPU each, and the suite starts hundreds.

:func:`run_in_process` returns what :func:`subprocess.run` would (status, standard output
and error as text with universal newlines), and leaves the test process as it found it:
the environment, the working folder, ``sys.path``, the modules of plugin folders, signal
handlers and the configured plugin folders are put back, and the records the command holds
(hexkit.files.recordlock) are let go, as at a process's exit.
"""

from __future__ import annotations

import io
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: Modules imported from these folders stay imported (hexkit, its games, the libraries);
#: any other module a command imports (a plugin folder's, a test's temporary one) is
#: forgotten afterwards, as it would be with the process.
_KEPT = tuple(str(Path(p).resolve()) + os.sep for p in {
    sys.prefix, sys.base_prefix, sys.exec_prefix, Path(__file__).resolve().parents[1] / "hexkit",
    Path(__file__).resolve().parents[1] / "plugins"})


def run_in_process(argv: Sequence[str], *, input: str | bytes = "",
                   cwd: str | Path | None = None, env: Mapping[str, str] | None = None,
                   text: bool = True) -> subprocess.CompletedProcess[Any]:
    """``hexkit ARGV`` with ``input`` on its standard input, in ``cwd``, with the
    environment ``env`` (default: this one); its output as text, or as the bytes written
    if not ``text`` (UTF-8 streams, as with ``PYTHONIOENCODING=utf-8``)."""
    from hexkit import plugins
    from hexkit.cli import main
    from hexkit.files import recordlock

    saved_env = dict(os.environ)
    saved_cwd = os.getcwd()
    saved_path = list(sys.path)
    saved_modules = set(sys.modules)
    saved_signals = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    saved_dirs = list(plugins._plugin_dirs)
    saved_locks = set(recordlock._held)
    saved_streams = sys.stdin, sys.stdout, sys.stderr
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    try:
        if env is not None:
            os.environ.clear()
            os.environ.update(env)
            # $PYTHONPATH as the interpreter reads it at start-up: first on the path.
            extra = [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p]
            sys.path[0:0] = [str(Path(cwd or ".", p).resolve()) for p in extra]
        if cwd is not None:
            os.chdir(cwd)
        raw = input if isinstance(input, bytes) else input.encode("utf-8")
        sys.stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
        sys.stdout, sys.stderr = stdout, stderr
        try:
            status = main(list(argv))
        except SystemExit as exc:  # argparse's exits, as the interpreter reports them
            if exc.code is None or isinstance(exc.code, int):
                status = exc.code or 0
            else:
                print(exc.code, file=sys.stderr)
                status = 1
        stdout.flush()
        stderr.flush()
    finally:
        # The records the command saved are let go, as its process would at its exit.
        for path in set(recordlock._held) - saved_locks:
            recordlock.release(path)
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.path[:] = saved_path
        for name in set(sys.modules) - saved_modules:
            where = getattr(sys.modules[name], "__file__", None)
            if where and not str(Path(where).resolve()).startswith(_KEPT):
                del sys.modules[name]
        for number, handler in saved_signals.items():
            signal.signal(number, handler)
        plugins.configure(saved_dirs)
    if not text:
        return subprocess.CompletedProcess(["hexkit", *argv], status, out.getvalue(),
                                           err.getvalue())
    return subprocess.CompletedProcess(["hexkit", *argv], status, _text(out), _text(err))


def _text(raw: io.BytesIO) -> str:
    """Bytes decoded as ``subprocess.run(text=True)`` does (universal newlines)."""
    return io.TextIOWrapper(io.BytesIO(raw.getvalue()), encoding="utf-8", newline=None).read()
