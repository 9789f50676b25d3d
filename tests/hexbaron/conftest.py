"""Helpers for the Hex Baron tests: games, states from set-up text, the classic console run
on strings, and the shared examples folder."""

from __future__ import annotations

import contextlib
import io
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hexbaron.classic import run_classic
from hexbaron.commands import builtin_catalogue
from hexbaron.game import HexBaronGame, HexBaronState
from hexbaron.setup import parse_data_file, setup_from_yaml

import hexkit
from hexkit.files.yamlfile import parse_yaml
from tests.inprocess import run_in_process

from .skeleton import Skeleton

ROOT = Path(__file__).resolve().parents[2]
#: The course's shared folder sits beside the project (``../shared``).
SHARED = ROOT.parent / "shared"
EXAMPLES = SHARED / "examples" / "hexbaron"
GAME1 = SHARED / "reference" / "hexbaron" / "game1.txt"
MINER_DIR = ROOT / "examples" / "hexbaron-miner"


def plain_game(**options: object) -> HexBaronGame:
    """Hex Baron without extensions (whatever else is installed)."""
    game = hexkit.load_game("hexbaron", extensions="none", **options)
    assert isinstance(game, HexBaronGame)
    return game


def state_from_yaml(text: str, seed: int = 0, **options: object) -> HexBaronState:
    """A state starting from a YAML set-up given as text."""
    game = plain_game(**options)
    setup = setup_from_yaml(parse_yaml(text, "test.yaml"), "test.yaml", game.catalogue)
    return HexBaronState(game, setup, random.Random(seed))


def state_from_data(text: str, seed: int = 0, **options: object) -> HexBaronState:
    """A state starting from AQA data-file text (read strictly)."""
    game = plain_game(**options)
    setup = parse_data_file(text, "test.txt", game.catalogue)
    return HexBaronState(game, setup, random.Random(seed))


def board(size: int, pieces: str, *, p1: str = "10,10,5", p2: str = "10,10,5",
          terrain: str = "", vps: tuple[int, int] = (0, 0), seed: int = 0,
          **options: object) -> HexBaronState:
    """A small position: ``pieces`` like ``"1,Baron,0 2,Serf,5"``, resources as
    ``fuel,lumber,supply``, ``terrain`` the data file's terrain line (all fields if empty)."""
    fuel1, lumber1, supply1 = p1.split(",")
    fuel2, lumber2, supply2 = p2.split(",")
    n = size * size // 2
    lines = [
        f"Player One,{vps[0]},{fuel1},{lumber1},{supply1}",
        f"Player Two,{vps[1]},{fuel2},{lumber2},{supply2}",
        str(size),
        terrain or ",".join([" "] * n),
        *pieces.split(),
    ]
    return state_from_data("\n".join(lines) + "\n", seed, **options)


@contextlib.contextmanager
def working_directory(path: Path | None) -> Iterator[None]:
    if path is None:
        yield
        return
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def classic(stdin: str, seed: int | None = 0, cwd: Path | None = None) -> tuple[int, str, str]:
    """Run the classic console on a string: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with working_directory(cwd):
        code = run_classic(hexkit.load_game("hexbaron"), seed=seed, stdin=io.StringIO(stdin),
                           stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def skeleton(stdin: str, seed: int = 0, cwd: Path | None = None) -> tuple[int, str]:
    """Run the transcribed skeleton (the test oracle): (exit status, stdout); a crash
    (end of input, the odd-size IndexError) is status 1."""
    out = io.StringIO()
    with working_directory(cwd):
        try:
            code = Skeleton(io.StringIO(stdin), out, random.Random(seed)).run()
        except (EOFError, IndexError):
            code = 1
    return code, out.getvalue()


def run_hexkit(*args: str, stdin: bytes = b"", cwd: Path | None = None,
               timeout: float = 60, real: bool = False) -> subprocess.CompletedProcess[bytes]:
    """The command line (bytes in, bytes out): in this process (tests/inprocess.py), or in
    a real subprocess if ``real`` (the classic transcripts, byte for byte)."""
    env = dict(os.environ, PYTHONIOENCODING="utf-8", LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("HEXKIT_PLUGINS_DIR", None)
    if not real:
        return run_in_process(args, input=stdin, cwd=cwd, env=env, text=False)
    return subprocess.run([sys.executable, "-m", "hexkit", *args], input=stdin,
                          capture_output=True, cwd=cwd, env=env, timeout=timeout)


@pytest.fixture
def catalogue():
    return builtin_catalogue()
