"""Start-up cost of the ``hexkit`` command against ``python -c "import chess"``.

    python benchmarks/startup.py               # 15 rounds
    python benchmarks/startup.py --rounds 30

The yardstick is python-chess, a well-kept library of similar scope: importing it is what
a chess program pays before it does anything. The script installs it once with pip into
a virtual environment of its own (``--chess-venv``, default under the user's cache
folder), never into the environment that runs hexkit, and times ``import chess`` twice:
in that environment, and with this interpreter (the one running hexkit, python-chess
found through ``PYTHONPATH`` in a folder of the cache), so that both sides pay the same
interpreter start-up (an editable install of hexkit adds an import hook to every start).
The ratios are to the second.

Every command is run as a whole process, in rounds (each round runs every command once,
so a machine that slows down during the run slows all of them alike), and its CPU time
(user + system, the operating system's accounting of the finished child) is taken; the
table shows the median over the rounds and its ratio to ``import chess``. ``python -c
pass`` is shown for both interpreters: what any program pays for the interpreter and its
``site`` set-up (an editable install of hexkit adds an import hook there).

Before timing, the script compiles the bytecode of hexkit and its games (``compileall``), as
``pip install`` does for an installed package and as python-chess has it: otherwise, in a
source checkout run with ``PYTHONDONTWRITEBYTECODE=1``, every run would compile hexkit's
modules again and the table would time the compiler.
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import venv
from pathlib import Path

DEFAULT_CHESS_VENV = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / \
    "hexkit-benchmarks" / "chess-venv"


def chess_python(folder: Path) -> tuple[str, Path]:
    """The interpreter of a virtual environment holding python-chess, and a folder holding
    python-chess alone for ``PYTHONPATH`` (both made with pip on first use)."""
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    target = folder / "chess-only"
    if not python.exists():
        print(f"making {folder} with python-chess (once)", file=sys.stderr)
        venv.create(folder, with_pip=True, clear=True)
    probe = subprocess.run([str(python), "-c", "import chess"], capture_output=True)
    if probe.returncode != 0:
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "chess"], check=True)
    if not (target / "chess").is_dir():
        subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-deps",
                        "--target", str(target), "chess"], check=True)
    return str(python), target


def hexkit_command() -> list[str]:
    """The ``hexkit`` console script of this interpreter's environment (as a user runs it),
    else ``python -m hexkit``."""
    script = Path(sys.executable).parent / ("hexkit.exe" if os.name == "nt" else "hexkit")
    if script.exists():
        return [str(script)]
    found = shutil.which("hexkit")
    return [found] if found else [sys.executable, "-m", "hexkit"]


def plugin_packages() -> list[str]:
    """hexkit and the top-level packages of the installed plugins (the timed commands read
    their bytecode)."""
    from importlib.metadata import entry_points

    found = {e.value.split(":")[0].split(".")[0] for e in entry_points(group="hexkit")}
    return ["hexkit", *sorted(found)]


def compile_bytecode(packages: list[str] | None = None) -> None:
    """Write the ``__pycache__`` files of ``packages`` (default: hexkit and the installed
    plugins), as an installed package has them."""
    for name in plugin_packages() if packages is None else packages:
        spec = importlib.util.find_spec(name)
        if spec is None or not spec.submodule_search_locations:
            continue
        for folder in spec.submodule_search_locations:
            compileall.compile_dir(folder, quiet=1)


def cpu_seconds(command: list[str], stdin: str, env: dict[str, str] | None = None) -> float:
    """User + system CPU seconds of one run of ``command`` and its children."""
    with subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL, env=env) as proc:
        assert proc.stdin is not None
        proc.stdin.write(stdin.encode())
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"{' '.join(command)} failed with exit status {proc.returncode}")
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="runs of each command (default 15)")
    ap.add_argument("--chess-venv", type=Path, default=DEFAULT_CHESS_VENV,
                    help=f"virtual environment for python-chess (default {DEFAULT_CHESS_VENV})")
    args = ap.parse_args(argv)

    chess, chess_only = chess_python(args.chess_venv)
    compile_bytecode()
    hexkit = hexkit_command()
    with_chess = {**os.environ, "PYTHONPATH": str(chess_only)}
    rows: list[tuple[str, list[str], str]] = [
        ('import chess (this interpreter)', [sys.executable, "-c", "import chess"], ""),
        ('import chess (its own venv)', [chess, "-c", "import chess"], ""),
        ("python -c pass (chess's venv)", [chess, "-c", "pass"], ""),
        ("python -c pass (hexkit's venv)", [sys.executable, "-c", "pass"], ""),
        ("hexkit --version", [*hexkit, "--version"], ""),
        ("hexkit --help", [*hexkit, "--help"], ""),
        ("hexkit games", [*hexkit, "games"], ""),
        ("hexkit rules hexbaron", [*hexkit, "rules", "hexbaron"], ""),
        ("hexkit play focus, then quit", [*hexkit, "play", "focus", "--seed", "1"], "quit\n"),
        ("hexkit play hexaround, then quit",
         [*hexkit, "play", "hexaround", "--seed", "1"], "quit\n"),
        ("hexkit play hexbaron, then quit",
         [*hexkit, "play", "hexbaron", "--seed", "1"], "quit\n"),
    ]
    times: dict[str, list[float]] = {label: [] for label, _, _ in rows}
    for _ in range(args.rounds):
        for label, command, stdin in rows:
            env = with_chess if label == rows[0][0] else None
            times[label].append(cpu_seconds(command, stdin, env))

    yardstick = statistics.median(times[rows[0][0]])
    print(f"CPU per run, median of {args.rounds} (min..max); ratio to the first row")
    width = max(len(label) for label, _, _ in rows)
    for label, _, _ in rows:
        runs = times[label]
        median = statistics.median(runs)
        print(f"{label:<{width}}  {median * 1000:6.1f} ms  ({min(runs) * 1000:5.1f}.."
              f"{max(runs) * 1000:5.1f})  x{median / yardstick:4.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
