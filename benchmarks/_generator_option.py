"""The ``--python`` option the HexAround benchmarks share: time the pure-Python move
generator even when the compiled one (hexaround._movegen) is built."""

from __future__ import annotations

import argparse
import os

from hexaround.movegen import PURE_PYTHON_ENV, native_generator_available


def add_generator_option(ap: argparse.ArgumentParser) -> None:
    """Add ``--python`` to a benchmark's arguments."""
    ap.add_argument("--python", action="store_true",
                    help="use the pure-Python generator even if the compiled one is built")


def apply_generator_option(args: argparse.Namespace) -> str:
    """Switch to the Python generator if asked (before any engine is made); the name of the
    generator the run will use."""
    if args.python:
        os.environ[PURE_PYTHON_ENV] = "1"
    return "compiled" if native_generator_available() else "pure-Python"
