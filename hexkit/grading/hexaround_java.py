"""Java HexAround projects (WPI CS4233): compile a student's project and play it.

A student hands in a folder or a zip: their code with the course's starting code (packages
``hexaround.game``, ``hexaround.config``, the ANTLR grammar of the configuration files) and
perhaps the libraries. :func:`compile_project` compiles its sources with the machine's JDK
(``javac``; Gradle and Maven are not used) into a cache folder keyed by the content, and
:class:`HexAroundJava` runs hexkit's driver (``hexkit/grading/java/HexAroundDriver.java``)
in one JVM for many games, building each game through the course's own
``HexAroundGameBuilder.buildGameManager(configurationFile)``:

>>> with HexAroundJava("student.zip") as java:                     # doctest: +SKIP
...     java.build("level1.hgc")
...     java.place("BUTTERFLY", 0, 0)
('OK', 'hexaround.game.GameManager')
('OK', 'Legal move')

Every call answers ``(result, message)``: the name of the result the student's code
returned (``OK``, ``MOVE_ERROR``, ``BLUE_WON``, ``RED_WON``, ``DRAW``) or one of the
driver's own (:data:`DRIVER_RESULTS`): an exception, a loop or a JVM that died is a wrong
answer of its own, never an exception here. Each call has a deadline; on a deadline the JVM
is killed, and the next ``build`` starts a new one.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import os
import re
import selectors
import shutil
import signal
import stat
import subprocess
import tempfile
import threading
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import TracebackType
from typing import IO

from hexkit.errors import HexkitError

#: The driver's Java source, shipped with hexkit.
DRIVER_SOURCE = Path(__file__).with_name("java") / "HexAroundDriver.java"
DRIVER_CLASS = "hexkitdriver.HexAroundDriver"

#: Results the driver gives of its own (besides the names the student's code returns).
DRIVER_RESULTS = {
    "EXCEPTION": "the student's code threw (the message names it and where)",
    "NULL": "the student's code returned null",
    "UNREADABLE": "the response has no move result the driver can read",
    "NO_GAME": "no game: none was built, or it was lost when the JVM stopped",
    "UNKNOWN_CREATURE": "the student's creature enum has no such name",
    "MISSING": "the built manager lacks placeCreature or moveCreature",
    "BAD_REQUEST": "the driver could not read the request",
    "TIMEOUT": "no answer within the call's deadline (the JVM was killed)",
    "CRASHED": "the JVM exited during the call",
}

#: JVM options: a small heap and a quick start (C1 only); one JVM plays many games.
JAVA_OPTIONS: tuple[str, ...] = (
    "-Xmx256m", "-Xss4m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
    "-XX:MaxMetaspaceSize=128m", "-XX:ReservedCodeCacheSize=48m",
    "-XX:CompressedClassSpaceSize=64m", "-XX:-UsePerfData", "-XX:-CreateCoredumpOnCrash",
    "-Djava.awt.headless=true", "-Dfile.encoding=UTF-8",
)

INSTALL_JDK = "install a JDK (Debian: apt-get install default-jdk-headless)"
INSTALL_ANTLR = ("the project's configuration reader needs ANTLR: hand in the ANTLR jar with "
                 "the project, or install it (Debian: apt-get install antlr4)")

# What is not part of the program to compile: folders of tests, build output and tools.
_SKIP_DIRS = {"out", "build", "target", "bin", ".gradle", ".idea", ".git", ".svn",
              "__macosx", "node_modules"}
_TEST_DIRS = {"test", "tests", "mastertest", "mastertests"}
_TEST_IMPORT = re.compile(
    rb"^\s*import\s+(?:static\s+)?org\.(?:junit|testng|hamcrest|assertj|mockito)\.", re.M)
_GENERATED_SUFFIXES = ("Lexer", "Parser", "Listener", "BaseListener", "Visitor", "BaseVisitor")
_PACKAGE = re.compile(rb"^\s*package\s+([\w.]+)\s*;", re.M)
_GRAMMAR = re.compile(rb"^\s*(?:lexer\s+|parser\s+)?grammar\s+(\w+)\s*;", re.M)
_ERROR = re.compile(r"^(.+?\.java):(\d+): error: (.*)$", re.M)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_INT_LIMIT = 2**31
# A handed-in zip is read within these bounds.
_ZIP_MAX_FILES = 20_000
_ZIP_MAX_BYTES = 200 * 1024 * 1024
_STDERR_TAIL = 16 * 1024


class JavaProjectError(HexkitError):
    """A project that cannot be compiled or driven; the message is one line."""


class JavaUnavailable(JavaProjectError):
    """No JDK (javac and java) on this machine."""


@dataclass(frozen=True)
class CompiledProject:
    """A compiled project in the cache: its classes, its class path and how it was made."""

    key: str
    folder: Path
    classes: Path
    classpath: tuple[Path, ...]
    driver: Path
    notes: tuple[str, ...]


def jdk() -> tuple[str, str]:
    """(javac, java) of this machine, or JavaUnavailable naming what to install."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if not javac or not java:
        raise JavaUnavailable(f"no {'javac' if not javac else 'java'} on this machine: "
                              f"{INSTALL_JDK}")
    return javac, java


def default_cache() -> Path:
    """``$XDG_CACHE_HOME/hexkit/java`` (``~/.cache/hexkit/java``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hexkit" / "java"


# ---- reading what was handed in ---------------------------------------------------------

def _unpack(archive: Path, into: Path) -> None:
    """Extract a zip without leaving ``into`` (no absolute paths, no '..', no links), within
    a bound of files and bytes."""
    try:
        with zipfile.ZipFile(archive) as zf:
            infos = zf.infolist()
            if len(infos) > _ZIP_MAX_FILES:
                raise JavaProjectError(f"{archive.name}: more than {_ZIP_MAX_FILES} files")
            total = 0
            for info in infos:
                name = PurePosixPath(info.filename.replace("\\", "/"))
                if name.is_absolute() or ".." in name.parts or not name.parts:
                    raise JavaProjectError(f"{archive.name}: unsafe path {info.filename!r}")
                mode = info.external_attr >> 16
                if stat.S_ISLNK(mode):
                    continue
                if info.is_dir():
                    (into / name).mkdir(parents=True, exist_ok=True)
                    continue
                total += info.file_size
                if total > _ZIP_MAX_BYTES:
                    raise JavaProjectError(
                        f"{archive.name}: more than {_ZIP_MAX_BYTES // 2**20} MiB unpacked")
                target = into / name
                target.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, open(target, "wb") as dst:
                    left = info.file_size + 1
                    while chunk := src.read(min(1 << 20, left)):
                        left -= len(chunk)
                        if left <= 0:
                            raise JavaProjectError(f"{archive.name}: {info.filename} is "
                                                   f"larger than it says")
                        dst.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise JavaProjectError(f"{archive.name}: not a readable zip ({exc})") from None


@dataclass
class _Inputs:
    root: Path
    java: list[Path]
    jars: list[Path]
    grammars: list[Path]
    skipped_tests: int


def _is_test_source(path: Path, root: Path, data: bytes) -> bool:
    parts = {p.lower() for p in path.relative_to(root).parts[:-1]}
    return bool(parts & _TEST_DIRS) or bool(_TEST_IMPORT.search(data))


def _collect(root: Path) -> _Inputs:
    found = _Inputs(root, [], [], [], 0)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs
                         if d.lower() not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            if path.is_symlink() or not path.is_file():
                continue
            if name.endswith(".java") and name != "module-info.java":
                if _is_test_source(path, root, path.read_bytes()):
                    found.skipped_tests += 1
                else:
                    found.java.append(path)
            elif name.endswith(".jar"):
                found.jars.append(path)
            elif name.endswith(".g4"):
                found.grammars.append(path)
    return found


def _content_key(inputs: _Inputs, extra: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for part in extra:
        digest.update(part.encode() + b"\0")
    for path in sorted([*inputs.java, *inputs.jars, *inputs.grammars]):
        digest.update(str(path.relative_to(inputs.root)).encode() + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def _jar_has(jar: Path, member: str) -> bool:
    try:
        with zipfile.ZipFile(jar) as zf:
            return member in zf.namelist()
    except (zipfile.BadZipFile, OSError):
        return False


# ---- the ANTLR parser of the configuration files ------------------------------------------

_DEBIAN_ANTLR = Path("/usr/share/java")


def _debian_antlr() -> tuple[list[Path], Path] | None:
    """(tool class path, runtime jar) of Debian's antlr4 package, if installed."""
    tool = _DEBIAN_ANTLR / "antlr4.jar"
    runtime = _DEBIAN_ANTLR / "antlr4-runtime.jar"
    if not (tool.is_file() and runtime.is_file()):
        return None
    deps = [_DEBIAN_ANTLR / n for n in ("stringtemplate4.jar", "antlr3-runtime.jar",
                                        "treelayout.jar")]
    return [tool, runtime, *[d for d in deps if d.is_file()]], runtime


def _grammar_package(grammar: Path, sources: Sequence[Path]) -> str | None:
    """The package the generated parser belongs in: the one of the sources that use it."""
    m = _GRAMMAR.search(grammar.read_bytes())
    name = m.group(1).decode() if m else grammar.stem
    wanted = re.compile(rb"\b" + re.escape(name.encode()) + rb"(?:Lexer|Parser|BaseVisitor|"
                        rb"Visitor|Listener|BaseListener)\b")
    imported = re.compile(rb"^\s*import\s+([\w.]+)\." + re.escape(name.encode())
                          + rb"(?:Lexer|Parser)\s*;", re.M)
    for path in sources:
        if path.stem.startswith(name) and path.stem[len(name):] in _GENERATED_SUFFIXES:
            continue
        data = path.read_bytes()
        if not wanted.search(data):
            continue
        imp = imported.search(data)
        if imp:
            return imp.group(1).decode()
        pkg = _PACKAGE.search(data)
        return pkg.group(1).decode() if pkg else ""
    return None


def _generate_parsers(inputs: _Inputs, java: str, jars: list[Path], gen: Path,
                      timeout: float) -> tuple[list[Path], list[Path], list[str]]:
    """Generate the parsers of the project's grammars with the ANTLR tool the project ships
    (or Debian's): (generated sources, jars of the class path, notes). The shipped generated
    sources are replaced, since the generated code must match the runtime it runs on."""
    notes: list[str] = []
    if not inputs.grammars:
        return [], jars, notes
    bundled_tool = [j for j in jars if _jar_has(j, "org/antlr/v4/Tool.class")]
    if bundled_tool:
        tool_cp, runtime_jars = jars, jars
        origin = f"the project's {bundled_tool[0].name}"
    else:
        debian = _debian_antlr()
        if debian is None:
            notes.append("no ANTLR tool: the parser sources handed in are used as they are")
            return [], jars, notes
        tool_cp, runtime = debian
        # The project's own runtime jars would clash with the generated code's version.
        runtime_jars = [j for j in jars
                        if not _jar_has(j, "org/antlr/v4/runtime/Parser.class")] + [runtime]
        origin = "Debian's antlr4"
    generated: list[Path] = []
    for grammar in inputs.grammars:
        package = _grammar_package(grammar, inputs.java)
        if package is None:
            continue  # a grammar the program does not use
        out = gen / f"g{len(generated)}"
        cmd = [java, "-cp", os.pathsep.join(map(str, tool_cp)), "org.antlr.v4.Tool",
               "-visitor", "-listener", "-Xexact-output-dir", "-o", str(out)]
        if package:
            cmd += ["-package", package]
        cmd.append(str(grammar))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise JavaProjectError(f"ANTLR took more than {timeout:.0f} s on "
                                   f"{grammar.relative_to(inputs.root)}") from None
        if proc.returncode != 0:
            first = (proc.stderr or proc.stdout).strip().splitlines()
            raise JavaProjectError(f"{grammar.relative_to(inputs.root)}: ANTLR cannot read the "
                                   f"grammar: {first[0] if first else 'no message'}")
        made = sorted(out.glob("*.java"))
        generated += made
        notes.append(f"parser generated from {grammar.relative_to(inputs.root)} into package "
                     f"{package or '(default)'} with {origin}")
        stem = _GRAMMAR.search(grammar.read_bytes())
        name = stem.group(1).decode() if stem else grammar.stem
        shipped = {name + s + ".java" for s in _GENERATED_SUFFIXES}
        inputs.java = [p for p in inputs.java if p.name not in shipped]
    return generated, runtime_jars, notes


# ---- compiling ----------------------------------------------------------------------------

def _first_error(output: str, roots: Mapping[Path, str]) -> str:
    m = _ERROR.search(output)
    if not m:
        lines = [ln for ln in output.splitlines() if ln.strip()]
        return lines[0] if lines else "javac failed without a message"
    file, line, what = m.groups()
    shown = file
    for base, label in roots.items():
        try:
            rel = Path(file).resolve().relative_to(base.resolve())
        except ValueError:
            continue
        shown = f"{label}{rel}"
        break
    return f"{shown}:{line}: {what}"


def _compile_driver(javac: str, cache: Path, timeout: float) -> Path:
    source = DRIVER_SOURCE.read_bytes()
    key = hashlib.sha256(source).hexdigest()[:16]
    folder = cache / f"driver-{key}"
    if (folder / "ok").is_file():
        return folder
    tmp = Path(tempfile.mkdtemp(prefix=".driver-", dir=cache))
    try:
        proc = subprocess.run([javac, "-nowarn", "-encoding", "UTF-8", "-proc:none", "-d",
                               str(tmp), str(DRIVER_SOURCE)], capture_output=True, text=True,
                              timeout=timeout, stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise JavaProjectError(f"hexkit's Java driver does not compile here: "
                                   f"{_first_error(proc.stderr, {})}")
        (tmp / "ok").write_text("ok\n", encoding="utf-8")
        _publish(tmp, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


def _publish(tmp: Path, folder: Path) -> None:
    """Move a finished cache entry into place (another process may have made it first)."""
    try:
        os.rename(tmp, folder)
    except OSError:
        if not (folder / "ok").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            os.rename(tmp, folder)


@functools.lru_cache(maxsize=8)
def _javac_version(javac: str) -> str:
    proc = subprocess.run([javac, "-version"], capture_output=True, text=True, timeout=60,
                          stdin=subprocess.DEVNULL)
    return (proc.stdout + proc.stderr).strip()


def compile_project(source: str | os.PathLike[str], *, cache_dir: str | os.PathLike[str]
                    | None = None, timeout: float = 300.0) -> CompiledProject:
    """Compile a student's HexAround project (a folder or a zip) into the cache.

    The sources are every ``.java`` file outside test folders (``test``, ``tests``,
    ``mastertest``) and build output (``out``, ``build``, ``target``, ``bin``), less files
    that import JUnit or other test libraries; the class path is every ``.jar`` handed in.
    A grammar (``.g4``) is turned into its parser with the ANTLR tool handed in, or
    Debian's. Compiling is skipped when the same content was compiled before. Raises
    :class:`JavaProjectError` with one line (the first compiler error, file:line) or
    :class:`JavaUnavailable`.
    """
    src = Path(source).resolve()
    if not src.exists():
        raise JavaProjectError(f"{src}: no such file or folder")
    javac, java = jdk()
    cache = Path(cache_dir) if cache_dir is not None else default_cache()
    cache.mkdir(parents=True, exist_ok=True)
    driver = _compile_driver(javac, cache, timeout)
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=cache) as unpacked:
        if src.is_dir():
            root = src
        elif zipfile.is_zipfile(src):
            root = Path(unpacked)
            _unpack(src, root)
        else:
            raise JavaProjectError(f"{src}: not a folder or a zip of a Java project")
        inputs = _collect(root)
        if not inputs.java:
            raise JavaProjectError(f"{src.name}: no Java sources outside test folders")
        debian = _debian_antlr()
        key = _content_key(inputs, [_javac_version(javac), DRIVER_SOURCE.name,
                                    str(debian[1].resolve()) if debian else "no-antlr"])
        folder = cache / key
        if (folder / "ok").is_file():
            return _load_entry(key, folder, driver)
        tmp = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache))
        try:
            _build_entry(inputs, tmp, javac, java, timeout, src.name)
            _publish(tmp, folder)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return _load_entry(key, folder, driver)


def _build_entry(inputs: _Inputs, tmp: Path, javac: str, java: str, timeout: float,
                 label: str) -> None:
    lib = tmp / "lib"
    lib.mkdir()
    jars: list[Path] = []
    for jar in inputs.jars:
        target = lib / jar.name
        n = 1
        while target.exists():
            target = lib / f"{n}-{jar.name}"
            n += 1
        shutil.copyfile(jar, target)
        jars.append(target)
    generated, classpath, notes = _generate_parsers(inputs, java, jars, tmp / "gen", timeout)
    classes = tmp / "classes"
    classes.mkdir()
    argfile = tmp / "sources.txt"
    files = [*inputs.java, *generated]
    argfile.write_text("\n".join('"' + str(p).replace("\\", "\\\\") + '"' for p in files)
                       + "\n", encoding="utf-8")
    cmd = [javac, "-nowarn", "-encoding", "UTF-8", "-proc:none", "-implicit:class",
           "-d", str(classes), "-cp", os.pathsep.join(map(str, classpath)) or ".",
           f"@{argfile}"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, cwd=tmp)
    except subprocess.TimeoutExpired:
        raise JavaProjectError(f"{label}: javac took more than {timeout:.0f} s") from None
    if proc.returncode != 0:
        first = _first_error(proc.stderr + proc.stdout,
                             {inputs.root: f"{label}/" if inputs.root.name != label else "",
                              tmp / "gen": "(generated parser) "})
        if "org.antlr" in first:
            raise JavaProjectError(f"{label} does not compile: {first} ({INSTALL_ANTLR})")
        raise JavaProjectError(f"{label} does not compile: {first}")
    if inputs.skipped_tests:
        notes.append(f"{inputs.skipped_tests} test source(s) left out")
    entry = {"classpath": [str(p.relative_to(tmp)) if p.is_relative_to(tmp) else str(p)
                           for p in classpath], "notes": notes, "sources": len(files)}
    (tmp / "project.json").write_text(json.dumps(entry, indent=1), encoding="utf-8")
    (tmp / "ok").write_text("ok\n", encoding="utf-8")


def _load_entry(key: str, folder: Path, driver: Path) -> CompiledProject:
    try:
        entry = json.loads((folder / "project.json").read_text(encoding="utf-8"))
        jars = tuple(folder / p if not os.path.isabs(p) else Path(p)
                     for p in entry["classpath"])
        notes = tuple(str(n) for n in entry["notes"])
    except (OSError, ValueError, KeyError, TypeError):
        raise JavaProjectError(f"the compiled project in {folder} is damaged; delete it "
                               f"to compile again") from None
    classes = folder / "classes"
    return CompiledProject(key, folder, classes, (classes, *jars), driver, notes)


# ---- driving the project ------------------------------------------------------------------

def _default_env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}


def _unescape(text: str) -> str:
    out = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            out.append({"n": "\n", "r": "\r", "t": "\t"}.get(text[i + 1], text[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class HexAroundJava:
    """A student's Java HexAround project driven through the course's API.

    ``project`` is a :class:`CompiledProject` or a folder/zip (compiled first, cached).
    ``cwd``, ``env`` and ``preexec_fn`` are those of the JVM's process (a grader's sandbox:
    working folder, environment, resource limits); by default a fresh temporary folder and
    an environment with only ``PATH`` and ``LANG``. ``call_timeout`` bounds every call
    (seconds of wall time), ``start_timeout`` the JVM's start. One JVM serves every game
    until a call kills it; :attr:`starts` counts the JVMs started.
    """

    def __init__(self, project: CompiledProject | str | os.PathLike[str], *,
                 cwd: str | os.PathLike[str] | None = None, env: Mapping[str, str] | None = None,
                 preexec_fn: Callable[[], None] | None = None, call_timeout: float = 10.0,
                 start_timeout: float = 60.0, java_options: Sequence[str] = JAVA_OPTIONS,
                 cache_dir: str | os.PathLike[str] | None = None):
        if not isinstance(project, CompiledProject):
            project = compile_project(project, cache_dir=cache_dir)
        self.project = project
        self._java = jdk()[1]
        self._own_cwd: tempfile.TemporaryDirectory[str] | None = None
        if cwd is None:
            self._own_cwd = tempfile.TemporaryDirectory(prefix="hexkit-java-")
            cwd = self._own_cwd.name
        self.cwd = Path(cwd)
        self.env = dict(env) if env is not None else _default_env()
        self.preexec_fn = preexec_fn
        self.call_timeout = call_timeout
        self.start_timeout = start_timeout
        self.java_options = tuple(java_options)
        #: JVMs started so far, and the builder class the driver found.
        self.starts = 0
        self.builder: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._buffer = b""
        self._stderr: collections.deque[bytes] = collections.deque()
        self._stderr_lock = threading.Lock()
        self._game = False
        self._timed_out = False
        self._drainer: threading.Thread | None = None

    # -- the course's calls ---------------------------------------------------------------
    def build(self, config_path: str | os.PathLike[str]) -> tuple[str, str]:
        """Start a new game from a configuration file (``buildGameManager``); answers
        ``("OK", manager class)`` or why not."""
        path = os.path.abspath(os.fspath(config_path))
        if any(c in path for c in "\t\r\n"):
            raise ValueError("a configuration path with a tab or line break")
        if self._proc is None:
            self.start()
        result = self._call(f"build\t{path}")
        self._game = result[0] == "OK"
        return result

    def place(self, creature: str, x: int, y: int) -> tuple[str, str]:
        """``placeCreature(creature, x, y)``."""
        return self._request("place", creature, (x, y))

    def move(self, creature: str, from_x: int, from_y: int, to_x: int,
             to_y: int) -> tuple[str, str]:
        """``moveCreature(creature, fromX, fromY, toX, toY)``."""
        return self._request("move", creature, (from_x, from_y, to_x, to_y))

    def _request(self, verb: str, creature: str, coords: Sequence[int]) -> tuple[str, str]:
        if not isinstance(creature, str) or not _NAME.match(creature):
            raise ValueError(f"not a creature name: {creature!r}")
        for v in coords:
            if isinstance(v, bool) or not isinstance(v, int) or not -_INT_LIMIT <= v < _INT_LIMIT:
                raise ValueError(f"not a 32-bit coordinate: {v!r}")
        if self._proc is None or not self._game:
            return ("NO_GAME", "no game: build one first" if self._proc is not None
                    else "no game: the Java process is not running (build starts it)")
        return self._call("\t".join([verb, creature.upper(), *map(str, coords)]))

    # -- the process ------------------------------------------------------------------------
    def start(self) -> str:
        """Start the JVM and wait for the driver's greeting; returns the builder class.
        Raises :class:`JavaProjectError` when the driver cannot find the course's classes."""
        self.close_process()
        cmd = [self._java, *self.java_options, "-cp",
               os.pathsep.join(map(str, (self.project.driver, *self.project.classpath))),
               DRIVER_CLASS, str(self.project.classes)]
        self.cwd.mkdir(parents=True, exist_ok=True)
        self._stderr.clear()
        self._buffer = b""
        self._game = False
        self._proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, cwd=self.cwd, env=self.env,
                                      preexec_fn=self.preexec_fn, start_new_session=True)
        self.starts += 1
        assert self._proc.stderr is not None
        self._drainer = threading.Thread(target=self._drain, args=(self._proc.stderr,),
                                         daemon=True)
        self._drainer.start()
        line = self._read_line(self.start_timeout)
        if line is None:
            why = self._lost("while starting")
            self.close_process()
            raise JavaProjectError(f"the Java driver did not start: {why[1]}")
        kind, _, message = line.partition("\t")
        if kind != "READY":
            self.close_process()
            raise JavaProjectError(_unescape(message) if kind == "MISSING"
                                   else f"the Java driver said {line[:200]!r}")
        self.builder = _unescape(message)
        return self.builder

    def _drain(self, stream: IO[bytes]) -> None:
        fd = stream.fileno()
        kept = 0
        while True:
            try:
                chunk = os.read(fd, 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            with self._stderr_lock:
                self._stderr.append(chunk)
                kept += len(chunk)
                while kept > _STDERR_TAIL and len(self._stderr) > 1:
                    kept -= len(self._stderr.popleft())

    def stderr_tail(self) -> str:
        """The last lines the JVM (and the student's code) wrote on standard error."""
        with self._stderr_lock:
            data = b"".join(self._stderr)[-_STDERR_TAIL:]
        return data.decode("utf-8", "replace")

    def _call(self, line: str) -> tuple[str, str]:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError):
            return self._lost("before the call")
        answer = self._read_line(self.call_timeout)
        if answer is None:
            return self._lost("during the call")
        kind, _, message = answer.partition("\t")
        return kind, _unescape(message)

    def _read_line(self, timeout: float) -> str | None:
        """The next line from the driver, or None on a deadline or end of output."""
        proc = self._proc
        assert proc is not None and proc.stdout is not None
        fd = proc.stdout.fileno()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self._timed_out = True
                    return None
                chunk = os.read(fd, 65536)
                if not chunk:
                    self._timed_out = False
                    return None
                self._buffer += chunk
                if len(self._buffer) > 1 << 20:
                    self._timed_out = False
                    return None
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", "replace")

    def _lost(self, when: str) -> tuple[str, str]:
        """The JVM did not answer: kill it, and say why as a result of its own."""
        proc = self._proc
        timed_out = getattr(self, "_timed_out", False) and proc is not None \
            and proc.poll() is None
        self.close_process()
        self._game = False
        if timed_out:
            limit = self.start_timeout if when == "while starting" else self.call_timeout
            return ("TIMEOUT", f"no answer within {limit:g} s {when}; the Java process was "
                               f"stopped")
        code = proc.returncode if proc is not None else None
        tail = [ln for ln in self.stderr_tail().splitlines() if ln.strip()]
        last = f": {tail[-1][:300]}" if tail else ""
        if code is not None and code < 0:
            how = f"was killed by signal {signal.Signals(-code).name}" if -code in \
                signal.valid_signals() else f"was killed by signal {-code}"
        else:
            how = f"exited with status {code}"
        return ("CRASHED", f"the Java process {how} {when}{last}")

    def close_process(self) -> None:
        """Stop the JVM (if any) and wait for it."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            pass
        if self._drainer is not None:
            self._drainer.join(timeout=5)
            self._drainer = None
        if proc.stderr is not None and not proc.stderr.closed:
            try:
                proc.stderr.close()
            except OSError:
                pass

    def close(self) -> None:
        """Stop the JVM and remove the temporary working folder made for it."""
        self.close_process()
        if self._own_cwd is not None:
            self._own_cwd.cleanup()
            self._own_cwd = None

    def __enter__(self) -> HexAroundJava:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
