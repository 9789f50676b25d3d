"""``hexkit grade bundle``: the zip Gradescope's autograder expects.

The zip holds ``setup.sh`` (installs Python 3.11 and hexkit into ``/autograder/venv``),
``run_autograder`` (grades ``/autograder/submission`` as one submission and puts its
``results.json`` where Gradescope reads it), ``grading.yaml`` and the scenario files it
names, and, when this hexkit runs from a source checkout, that source (so the autograder
grades with exactly the reference the instructor tried).
"""

from __future__ import annotations

import shlex
import zipfile
from pathlib import Path

import hexkit
from hexkit import plugins
from hexkit.errors import OptionError
from hexkit.grading.config import GradingConfig

SETUP = """#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image.
set -euo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"  # Gradescope's folder (another one for a trial run)
if ! command -v python3.11 >/dev/null || ! python3.11 -c "import ensurepip" 2>/dev/null; then
    apt-get update
    apt-get install -y python3.11 python3.11-venv
fi
{jdk}python3.11 -m venv "$ROOT/venv"
"$ROOT/venv/bin/pip" install --upgrade pip
"$ROOT/venv/bin/pip" install {install}
"""

RUN = """#!/usr/bin/env bash
# Gradescope runs this for every submission; the score goes to results/results.json.
set -uo pipefail
ROOT="${{AUTOGRADER_ROOT:-/autograder}}"  # Gradescope's folder (another one for a trial run)
export PATH="$ROOT/venv/bin:$PATH"
cd "$ROOT/source"
hexkit grade --reference {reference} {config}--one --quiet \\
    --results "$ROOT/results/hexkit" "$ROOT/submission" 2>"$ROOT/results/hexkit-errors.txt"
status=$?
cat "$ROOT/results/hexkit-errors.txt" >&2
if [ -f "$ROOT/results/hexkit/submission/results.json" ]; then
    cp "$ROOT/results/hexkit/submission/results.json" "$ROOT/results/results.json"
else
    # The grader itself could not run: the student still gets a result that says why.
    python - "$status" "$ROOT/results/hexkit-errors.txt" \\
        "$ROOT/results/results.json" <<'PY'
import json
import sys

status, errors, target = sys.argv[1:]
with open(errors, encoding="utf-8", errors="replace") as file:
    text = file.read()[-4000:]
with open(target, "w", encoding="utf-8") as file:
    json.dump({{"score": 0, "output": "The autograder could not grade this submission "
               f"(exit status {{status}}):\\n{{text}}"}}, file)
PY
fi
"""

#: For a HexAround reference: the JDK that compiles the students' Java projects.
JDK = """if ! command -v javac >/dev/null; then
    apt-get update
    apt-get install -y default-jdk-headless
fi
"""

#: What of a source checkout goes into the bundle.
SOURCE_PARTS = ("pyproject.toml", "setup.py", "README.md", "hexkit", "plugins", "configs")


def source_checkout() -> Path | None:
    """The checkout this hexkit runs from (None for an installed copy)."""
    root = Path(hexkit.__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / "plugins").is_dir():
        return root
    return None


def _add_tree(zf: zipfile.ZipFile, folder: Path, name: str) -> None:
    for path in sorted(folder.rglob("*")):
        if "__pycache__" in path.parts or path.suffix == ".pyc" or not path.is_file():
            continue
        zf.write(path, f"{name}/{path.relative_to(folder).as_posix()}")


def _executable(zf: zipfile.ZipFile, name: str, text: str) -> None:
    info = zipfile.ZipInfo(name)
    info.external_attr = 0o755 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    zf.writestr(info, text)


def write_bundle(target: Path, reference: str, config: GradingConfig, *,
                 pip: str | None = None, config_file: Path | None = None) -> None:
    """Write the autograder zip (OptionError if a file it needs lies outside the config's
    folder)."""
    checkout = source_checkout()
    if pip:
        install = shlex.quote(pip)
    elif checkout is not None:
        install = '"$ROOT/source/hexkit-src"'
    else:
        install = shlex.quote(f"hexkit-games=={hexkit.__version__}")
    files: dict[str, Path] = {}
    if config_file is not None:
        base = config_file.resolve().parent
        files["grading.yaml"] = config_file
        for _name, (path, _points) in config.scenarios.items():
            resolved = path.resolve()
            if not resolved.is_relative_to(base):
                raise OptionError(f"scenario file {path} is outside the folder of "
                                  f"{config_file}: the bundle keeps paths relative to it")
            files[resolved.relative_to(base).as_posix()] = resolved
    config_arg = "--config grading.yaml " if config_file is not None else ""
    tmp = target.with_name(target.name + ".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zf:
        java = plugins.parse_game_string(reference)[0] == "hexaround"
        _executable(zf, "setup.sh", SETUP.format(install=install, jdk=JDK if java else ""))
        _executable(zf, "run_autograder", RUN.format(reference=shlex.quote(reference),
                                                     config=config_arg))
        for name, path in files.items():
            zf.write(path, name)
        if checkout is not None and not pip:
            for part in SOURCE_PARTS:
                path = checkout / part
                if path.is_dir():
                    _add_tree(zf, path, f"hexkit-src/{part}")
                elif path.is_file():
                    zf.write(path, f"hexkit-src/{part}")
    tmp.replace(target)
