"""One fresh virtual environment for the install tests (the tutorial's plugin and the one
``hexkit new-plugin`` writes), made once per test session: building it and running pip are
the slowest steps of the suite.

The environment sees this environment's packages (hexkit, its dependencies, pytest, pip)
except the tutorial's example plugin, as one would after ``pip install hexkit-games``. Under
pytest-xdist the first worker that needs it builds it in the session's shared folder while
holding a lock; the others wait for it and use the same one.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import re
import subprocess
import sys
import sysconfig
import venv
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "hex-connection"
TUTORIAL = REPO / "docs" / "tutorial.md"
#: ``<!-- file: PATH -->`` then a fenced block: the block goes into PATH.
FILE_BLOCK = re.compile(r"<!-- file: (?P<path>\S+) -->\n```[a-z]*\n(?P<code>.*?)\n```",
                        re.DOTALL)
#: Names of the example's installed files and metadata, left out of the fresh environment.
EXAMPLE_NAMES = ("hexconnection", "hex_connection")
#: The environment of a ``pytest`` run on a plugin's own tests, which need no pytest plugin:
#: the ones installed here are not loaded (Hypothesis's alone costs a second of CPU at every
#: start, importing all of Hypothesis).
PLAIN_PYTEST = {"PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}


def tutorial_files(text: str) -> dict[str, str]:
    """The files the tutorial's blocks make, in order: a file named again continues after
    a blank line, or two before a top-level ``def``, ``class`` or decorator."""
    files: dict[str, str] = {}
    for block in FILE_BLOCK.finditer(text):
        path, code = block["path"], block["code"]
        if path in files:
            top_level = re.match(r"(def |class |@|async def )", code)
            files[path] += ("\n\n\n" if top_level else "\n\n") + code
        else:
            files[path] = code
    return {path: code + "\n" for path, code in files.items()}


def _can_build_without_isolation() -> bool:
    """setuptools is installed and can make wheels (before 70.1 it needs `wheel` for that).

    Looked up on disk: importing setuptools here would patch distutils in the test process.
    """
    spec = importlib.util.find_spec("setuptools")
    if spec is None or spec.origin is None:
        return False
    if importlib.util.find_spec("wheel") is not None:
        return True
    return (Path(spec.origin).parent / "command" / "bdist_wheel.py").is_file()


class FreshEnv:
    """A new virtual environment that sees this environment's packages except the example
    plugin (``create=False``: the one already made in ``root``)."""

    def __init__(self, root: Path, create: bool = True):
        self.python = root / "venv" / ("Scripts" if os.name == "nt" else "bin") / "python"
        self.env = {k: v for k, v in os.environ.items()
                    if k not in ("PYTHONPATH", "HEXKIT_PLUGINS_DIR", "HEXKIT_DEBUG")}
        if not create:
            return
        venv.EnvBuilder(with_pip=False).create(root / "venv")
        shadow = root / "outer-site"
        shadow.mkdir()
        ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
        for folder in map(Path, sorted(ours)):
            for entry in folder.iterdir():
                low = entry.name.lower().replace("-", "_")
                if not any(word in low for word in EXAMPLE_NAMES) and \
                        not (shadow / entry.name).exists():
                    (shadow / entry.name).symlink_to(entry)
        purelib = self.run_python("import sysconfig; print(sysconfig.get_paths()['purelib'])")
        Path(purelib.stdout.strip(), "outer.pth").write_text(
            f"import site; site.addsitedir({str(shadow)!r})\n", encoding="utf-8")

    def run(self, *args: str, input: str = "", cwd: Path | None = None,
            timeout: float = 120,
            env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(self.python), *args], input=input, capture_output=True,
                              text=True, env={**self.env, **(env_extra or {})}, cwd=cwd,
                              timeout=timeout)

    def pytest(self, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        """``pytest -q`` in ``cwd``, as a plugin's author runs its tests."""
        return self.run("-m", "pytest", "-q", "-p", "no:cacheprovider", cwd=cwd,
                        timeout=timeout, env_extra=PLAIN_PYTEST)

    def run_python(self, code: str) -> subprocess.CompletedProcess[str]:
        return self.run("-c", code)

    def hexkit(self, *args: str, input: str = "") -> subprocess.CompletedProcess[str]:
        return self.run("-m", "hexkit", *args, input=input)

    def pip_install(self, *requirements: str, cwd: Path | None = None) -> None:
        """``pip install --no-deps`` the requirements (folders, ``-e`` folders) in one run.

        Without a setuptools here that builds wheels, one is installed into this
        environment first: once, where pip's build isolation would fetch one per package.
        """
        base = ["-m", "pip", "install", "--quiet", "--no-deps", "--disable-pip-version-check"]
        errors = []
        if not _can_build_without_isolation():
            done = self.run("-m", "pip", "install", "--quiet", "--disable-pip-version-check",
                            "setuptools>=70.1", timeout=300)
            if done.returncode != 0:
                errors.append(f"$ pip install setuptools>=70.1\n{done.stdout}{done.stderr}")
        attempts = [[*base, "--no-build-isolation", *requirements],
                    # Build isolation fetches setuptools per package: slower, always works.
                    [*base, *requirements]]
        for command in attempts:
            done = self.run(*command, cwd=cwd, timeout=300)
            if done.returncode == 0:
                return
            errors.append(f"$ python {' '.join(command)}\n{done.stdout}{done.stderr}")
        pytest.fail("pip could not install the plugins:\n" + "\n".join(errors))


@dataclass
class FreshInstall:
    """The fresh environment with the tutorial's plugin and a ``hexkit new-plugin`` one
    (``hexrow``, installed editable) in it."""

    env: FreshEnv
    #: ``hexkit games --json`` before anything was installed.
    games_before: list[dict[str, Any]]
    #: The folder the tutorial's blocks built.
    tutorial: Path
    #: The folder ``hexkit new-plugin hexrow`` wrote.
    hexrow: Path


def make_fresh_install(root: Path) -> FreshInstall:
    """Build the environment: the tutorial's files, ``hexkit new-plugin hexrow``, then one
    pip run that installs both."""
    built = root / "hex-connection"
    for path, code in tutorial_files(TUTORIAL.read_text(encoding="utf-8")).items():
        (built / path).parent.mkdir(parents=True, exist_ok=True)
        (built / path).write_text(code, encoding="utf-8")
    clean = {k: v for k, v in os.environ.items() if k not in ("HEXKIT_PLUGINS_DIR",
                                                               "HEXKIT_DEBUG")}
    scaffold = subprocess.run([sys.executable, "-m", "hexkit", "new-plugin", "hexrow"],
                              cwd=root, capture_output=True, text=True, env=clean,
                              timeout=120)
    assert scaffold.returncode == 0, scaffold.stderr
    env = FreshEnv(root)
    before = env.hexkit("games", "--json")
    assert before.returncode == 0, before.stderr
    env.pip_install(str(built), "-e", "hexrow", cwd=root)
    return FreshInstall(env, json.loads(before.stdout), built, root / "hexrow")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """An exclusive lock on ``path`` between processes (none where fcntl is missing)."""
    try:
        import fcntl
    except ImportError:  # Windows: each worker builds its own environment
        yield
        return
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def shared_fresh_install(folder: Path) -> FreshInstall:
    """The fresh install in ``folder``, built by the first process that asks (the others
    wait on a lock, then read what it wrote down)."""
    folder.mkdir(parents=True, exist_ok=True)
    done = folder / "fresh-install.json"
    with _locked(folder / "fresh-install.lock"):
        if done.is_file():
            data = json.loads(done.read_text(encoding="utf-8"))
            return FreshInstall(FreshEnv(folder, create=False), data["games_before"],
                                Path(data["tutorial"]), Path(data["hexrow"]))
        install = make_fresh_install(folder)
        record = {k: v for k, v in asdict(install).items() if k != "env"}
        done.write_text(json.dumps(record, default=str), encoding="utf-8")
        return install
