"""Find or build MzingaCpp (the C++ UHP engine whose source is in ../shared/tools/mzingacpp)
outside the repository, for the Hive benchmarks. Its code is never copied here."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

#: Where the source is, and where the build goes (both outside the repository).
SOURCE = Path(os.environ.get("MZINGACPP_SOURCE", "/work/shared/tools/mzingacpp"))
BUILD = Path(os.environ.get("MZINGACPP_BUILD", "/work/build/mzinga"))


def mzinga_path(build: bool = True) -> Path:
    """The MzingaCpp executable: ``$MZINGACPP``, else the build directory's, built there
    with CMake (Release) first if missing and ``build`` is true."""
    given = os.environ.get("MZINGACPP")
    if given:
        return Path(given)
    exe = BUILD / "mzingacpp"
    if exe.exists() or not build:
        return exe
    if not SOURCE.is_dir():
        raise SystemExit(f"MzingaCpp source not found at {SOURCE} (set MZINGACPP_SOURCE)")
    if shutil.which("cmake") is None:
        raise SystemExit("building MzingaCpp needs cmake (apt-get install cmake g++)")
    BUILD.mkdir(parents=True, exist_ok=True)
    print(f"building MzingaCpp from {SOURCE} into {BUILD} ...", flush=True)
    subprocess.run(["cmake", "-DCMAKE_BUILD_TYPE=Release", str(SOURCE)], cwd=BUILD,
                   check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", ".", "-j", "2"], cwd=BUILD, check=True,
                   stdout=subprocess.DEVNULL)
    return exe
