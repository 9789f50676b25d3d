"""Compile students' Java projects (WPI CS4233 HexAround) with the machine's JDK.

A project is a folder or a zip as the course asks it handed in: the student's code with the
course's starting code (an IntelliJ module: ``src/``, perhaps ``gen/``, the ANTLR grammar
``grammar/HexAround.g4``, ``test/``) and perhaps the libraries' jars. Gradle and Maven are
not used (they are not available offline): the sources outside test folders are compiled
with ``javac`` and every jar handed in goes on the class path. The configuration parser is
generated from the grammar by the ANTLR tool handed in, or Debian's ``antlr4``.

Compiled projects are kept in a cache folder named by a hash of their content, so a project
is compiled once however often it is graded. :func:`compile_projects` compiles a batch in
one compiler JVM (hexkit's ``BatchJavac``): a class of projects pays javac's start-up once.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import zipfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from hexkit.errors import HexkitError
from hexkit.grading.java.pipes import LineReader, unescape

HERE = Path(__file__).resolve().parent
#: hexkit's Java sources: the driver of a game manager, and the batch compiler.
JAVA_SOURCES = (HERE / "HexAroundDriver.java", HERE / "BatchJavac.java", HERE / "Lines.java")
DRIVER_CLASS = "hexkitdriver.HexAroundDriver"
BATCH_CLASS = "hexkitdriver.BatchJavac"

INSTALL_JDK = "install a JDK (Debian: apt-get install default-jdk-headless)"
INSTALL_ANTLR = ("the project's configuration reader needs ANTLR: hand in the ANTLR jar with "
                 "the project, or install it (Debian: apt-get install antlr4)")
#: Options of the compiler's JVM: it starts quickly and needs little.
COMPILER_JVM = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
                "-Xmx512m")

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
# A handed-in zip is read within these bounds.
_ZIP_MAX_FILES = 20_000
_ZIP_MAX_BYTES = 200 * 1024 * 1024
_DEBIAN_JAVA = Path("/usr/share/java")


class JavaProjectError(HexkitError):
    """A project that cannot be compiled or driven; the message is one line."""


class JavaUnavailable(JavaProjectError):
    """No JDK (javac and java) on this machine."""


@dataclass(frozen=True)
class CompiledProject:
    """A compiled project in the cache: its classes, its class path, hexkit's Java tools
    (the driver's classes) and notes on how it was made."""

    key: str
    folder: Path
    classes: Path
    classpath: tuple[Path, ...]
    tools: Path
    notes: tuple[str, ...]


def jdk() -> tuple[str, str]:
    """(javac, java) of this machine, or :class:`JavaUnavailable` naming what to install."""
    javac, java = shutil.which("javac"), shutil.which("java")
    if not javac or not java:
        raise JavaUnavailable(f"no {'javac' if not javac else 'java'} on this machine: "
                              f"{INSTALL_JDK}")
    return javac, java


#: The environment variable naming the cache of compiled projects (for a grader whose home
#: is read-only, or to keep one cache for a class).
CACHE_ENV = "HEXKIT_JAVA_CACHE"


def default_cache() -> Path:
    """``$HEXKIT_JAVA_CACHE``, else ``$XDG_CACHE_HOME/hexkit/java`` (``~/.cache/hexkit/java``)."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "hexkit" / "java"


def _jdk_identity(javac: str) -> str:
    """Which JDK ``javac`` is: its real path, size and time (cheaper than asking it)."""
    real = os.path.realpath(javac)
    st = os.stat(real)
    return f"{real}:{st.st_size}:{st.st_mtime_ns}"


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
                if stat.S_ISLNK(info.external_attr >> 16):
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
                    left = info.file_size
                    while chunk := src.read(min(1 << 20, left + 1)):
                        left -= len(chunk)
                        if left < 0:
                            raise JavaProjectError(f"{archive.name}: {info.filename} is "
                                                   f"larger than it says")
                        dst.write(chunk)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError) as exc:
        raise JavaProjectError(f"{archive.name}: not a readable zip ({exc})") from None


@dataclass
class _Inputs:
    root: Path
    java: list[Path] = field(default_factory=list)
    jars: list[Path] = field(default_factory=list)
    grammars: list[Path] = field(default_factory=list)
    skipped_tests: int = 0


BUILDER_SOURCE = "HexAroundGameBuilder.java"


def is_hexaround_project(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a Java HexAround project as handed in: a folder, or a zip, with a
    ``HexAroundGameBuilder.java`` outside build output. Reads names only (a zip's
    directory, a folder's tree), never runs or compiles anything."""
    p = Path(path)
    try:
        if p.is_dir():
            for _folder, dirs, files in os.walk(p):
                dirs[:] = [d for d in dirs
                           if d.lower() not in _SKIP_DIRS and not d.startswith(".")]
                if BUILDER_SOURCE in files:
                    return True
            return False
        if p.is_file() and zipfile.is_zipfile(p):
            with zipfile.ZipFile(p) as zf:
                for name in zf.namelist()[:_ZIP_MAX_FILES]:
                    parts = PurePosixPath(name.replace("\\", "/")).parts
                    if parts and parts[-1] == BUILDER_SOURCE and not any(
                            d.lower() in _SKIP_DIRS for d in parts[:-1]):
                        return True
    except (OSError, zipfile.BadZipFile):
        return False
    return False


def _is_test_source(path: Path, root: Path, data: bytes) -> bool:
    parts = {p.lower() for p in path.relative_to(root).parts[:-1]}
    return bool(parts & _TEST_DIRS) or bool(_TEST_IMPORT.search(data))


def _collect(root: Path) -> _Inputs:
    """The project's sources (less test code), jars and grammars."""
    found = _Inputs(root)
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs
                         if d.lower() not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            path = Path(folder) / name
            if name.startswith(".") or path.is_symlink() or not path.is_file():
                continue  # hidden files: a Mac's '._X.java' resource forks among them
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

def _debian_antlr() -> tuple[list[Path], Path] | None:
    """(tool class path, runtime jar) of Debian's antlr4 package, if installed."""
    tool = _DEBIAN_JAVA / "antlr4.jar"
    runtime = _DEBIAN_JAVA / "antlr4-runtime.jar"
    if not (tool.is_file() and runtime.is_file()):
        return None
    deps = [_DEBIAN_JAVA / n for n in ("stringtemplate4.jar", "antlr3-runtime.jar",
                                       "treelayout.jar")]
    return [tool, runtime, *[d for d in deps if d.is_file()]], runtime


def _grammar_name(grammar: Path) -> str:
    m = _GRAMMAR.search(grammar.read_bytes())
    return m.group(1).decode() if m else grammar.stem


def _grammar_package(grammar: Path, sources: Sequence[Path]) -> str | None:
    """The package the generated parser belongs in: the one of the sources that use it
    (their package, or the package they import it from); None if no source uses it."""
    name = _grammar_name(grammar).encode()
    wanted = re.compile(rb"\b" + re.escape(name) + rb"(?:Lexer|Parser|BaseVisitor|Visitor|"
                        rb"Listener|BaseListener)\b")
    imported = re.compile(rb"^\s*import\s+([\w.]+)\." + re.escape(name)
                          + rb"(?:Lexer|Parser)\s*;", re.M)
    generated = {name.decode() + s for s in _GENERATED_SUFFIXES}
    for path in sources:
        if path.stem in generated:
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
    (or Debian's): (generated sources, jars of the class path, notes). The generated sources
    handed in are left out, since generated code must match the runtime it runs on."""
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
        # The project's own runtime would not match the code Debian's tool generates.
        runtime_jars = [j for j in jars
                        if not _jar_has(j, "org/antlr/v4/runtime/Parser.class")] + [runtime]
        origin = "Debian's antlr4"
    generated: list[Path] = []
    for n, grammar in enumerate(inputs.grammars):
        package = _grammar_package(grammar, inputs.java)
        if package is None:
            continue  # a grammar the program does not use
        shown = grammar.relative_to(inputs.root)
        out = gen / f"g{n}"
        cmd = [java, *COMPILER_JVM, "-cp", os.pathsep.join(map(str, tool_cp)),
               "org.antlr.v4.Tool", "-visitor", "-listener", "-Xexact-output-dir",
               "-o", str(out)]
        if package:
            cmd += ["-package", package]
        cmd.append(str(grammar))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            raise JavaProjectError(f"ANTLR took more than {timeout:g} s on {shown}") from None
        if proc.returncode != 0:
            first = (proc.stderr or proc.stdout).strip().splitlines()
            raise JavaProjectError(f"{shown}: ANTLR cannot read the grammar: "
                                   f"{first[0] if first else 'no message'}")
        generated += sorted(out.glob("*.java"))
        notes.append(f"parser generated from {shown} into package {package or '(default)'} "
                     f"with {origin}")
        handed_in = {_grammar_name(grammar) + s + ".java" for s in _GENERATED_SUFFIXES}
        inputs.java = [p for p in inputs.java if p.name not in handed_in]
    return generated, runtime_jars, notes


# ---- hexkit's own Java tools ----------------------------------------------------------------

def _publish(tmp: Path, folder: Path) -> None:
    """Move a finished cache entry into place (another process may have made it first)."""
    try:
        os.rename(tmp, folder)
    except OSError:
        if not (folder / "ok").is_file():
            shutil.rmtree(folder, ignore_errors=True)
            os.rename(tmp, folder)


def _first_error(output: str, roots: Mapping[Path, str]) -> str:
    """The first compiler error as ``file:line: message``, the file shown from its root."""
    m = _ERROR.search(output)
    if not m:
        lines = [ln for ln in output.splitlines() if ln.strip()]
        return lines[0] if lines else "javac failed without a message"
    file, line, what = m.groups()
    shown = file
    for base, label in roots.items():
        try:
            shown = label + str(Path(file).resolve().relative_to(base.resolve()))
            break
        except ValueError:
            continue
    return f"{shown}:{line}: {what}"


def compile_tools(cache: Path, timeout: float = 300.0) -> Path:
    """hexkit's Java driver and batch compiler, compiled once into the cache."""
    javac, _ = jdk()
    digest = hashlib.sha256()
    for source in JAVA_SOURCES:
        digest.update(source.read_bytes())
    digest.update(_jdk_identity(javac).encode())
    folder = cache / f"tools-{digest.hexdigest()[:16]}"
    if (folder / "ok").is_file():
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".tools-", dir=cache))
    try:
        proc = subprocess.run([javac, *(f"-J{o}" for o in COMPILER_JVM), "-nowarn",
                               "-encoding", "UTF-8", "-proc:none", "-d", str(tmp),
                               *map(str, JAVA_SOURCES)],
                              capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)
        if proc.returncode != 0:
            raise JavaProjectError(f"hexkit's Java driver does not compile here: "
                                   f"{_first_error(proc.stderr, {})}")
        (tmp / "ok").write_text("ok\n", encoding="utf-8")
        _publish(tmp, folder)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return folder


# ---- compiling ----------------------------------------------------------------------------

@dataclass
class _Job:
    """A project waiting for javac: its cache entry under construction."""

    label: str
    root: Path
    key: str
    folder: Path
    tmp: Path
    argfile: Path
    classpath: list[Path]
    notes: list[str]
    sources: int


def _quote(arg: str) -> str:
    return '"' + arg.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _prepare(source: Path, cache: Path, java: str, tools: Path, key_parts: list[str],
             timeout: float, stack: contextlib.ExitStack) -> CompiledProject | _Job:
    src = source.resolve()
    if not src.exists():
        raise JavaProjectError(f"{source}: no such file or folder")
    label = src.name
    if src.is_dir():
        root = src
    elif zipfile.is_zipfile(src):
        root = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix=".unpack-",
                                                                    dir=cache)))
        _unpack(src, root)
    else:
        raise JavaProjectError(f"{label}: not a folder or a zip of a Java project")
    inputs = _collect(root)
    if not inputs.java:
        raise JavaProjectError(f"{label}: no Java sources outside test folders")
    key = _content_key(inputs, key_parts)
    folder = cache / key
    if (folder / "ok").is_file():
        return _load_entry(key, folder, tools)
    tmp = Path(tempfile.mkdtemp(prefix=f".{key}-", dir=cache))
    stack.callback(shutil.rmtree, tmp, True)
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
    if inputs.skipped_tests:
        notes.append(f"{inputs.skipped_tests} test source(s) left out")
    (tmp / "classes").mkdir()
    sources, recoded = _as_utf8(inputs, tmp / "utf8")
    if recoded:
        notes.append(f"{recoded} source(s) read as Windows-1252 or without a byte-order mark")
    files = [*sources, *generated]
    args = ["-nowarn", "-encoding", "UTF-8", "-proc:none", "-implicit:class",
            "-d", str(tmp / "classes"), "-cp", os.pathsep.join(map(str, classpath)) or ".",
            *map(str, files)]
    argfile = tmp / "javac-args.txt"
    argfile.write_text("\n".join(map(_quote, args)) + "\n", encoding="utf-8")
    return _Job(label, root, key, folder, tmp, argfile, classpath, notes, len(files))


def _as_utf8(inputs: _Inputs, into: Path) -> tuple[list[Path], int]:
    """The sources javac reads as UTF-8: a file with a byte-order mark, or one that is not
    UTF-8 (an editor's Windows-1252, for the course header's ©), is copied as UTF-8 under
    ``into`` (same relative path). Returns the sources and the number copied."""
    out: list[Path] = []
    recoded = 0
    for path in inputs.java:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
            if not text.startswith("\ufeff"):
                out.append(path)
                continue
            text = text[1:]
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
        target = into / path.relative_to(inputs.root)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        out.append(target)
        recoded += 1
    return out, recoded


def _finish(job: _Job, code: int, diagnostics: str, tools: Path) -> CompiledProject:
    if code != 0:
        first = _first_error(diagnostics, {job.root: f"{job.label}/",
                                           job.tmp / "utf8": f"{job.label}/",
                                           job.tmp / "gen": "(generated parser) "})
        hint = f" ({INSTALL_ANTLR})" if "org.antlr" in first else ""
        raise JavaProjectError(f"{job.label} does not compile: {first}{hint}")
    entry = {"classpath": [str(p.relative_to(job.tmp)) if p.is_relative_to(job.tmp)
                           else str(p) for p in job.classpath],
             "notes": job.notes, "sources": job.sources}
    (job.tmp / "project.json").write_text(json.dumps(entry, indent=1), encoding="utf-8")
    (job.tmp / "ok").write_text("ok\n", encoding="utf-8")
    _publish(job.tmp, job.folder)
    return _load_entry(job.key, job.folder, tools)


def _load_entry(key: str, folder: Path, tools: Path) -> CompiledProject:
    try:
        entry = json.loads((folder / "project.json").read_text(encoding="utf-8"))
        jars = tuple(Path(p) if os.path.isabs(p) else folder / p for p in entry["classpath"])
        notes = tuple(str(n) for n in entry["notes"])
    except (OSError, ValueError, KeyError, TypeError):
        raise JavaProjectError(f"the compiled project in {folder} is damaged; delete that "
                               f"folder to compile it again") from None
    classes = folder / "classes"
    return CompiledProject(key, folder, classes, (classes, *jars), tools, notes)


class _BatchJavac:
    """One compiler JVM answering one argument file at a time."""

    def __init__(self, java: str, tools: Path, cwd: Path):
        self.proc = subprocess.Popen([java, *COMPILER_JVM, "-cp", str(tools), BATCH_CLASS],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=cwd,
                                     start_new_session=True)
        assert self.proc.stdout is not None
        self.reader = LineReader(self.proc.stdout.fileno())

    def compile(self, argfile: Path, timeout: float) -> tuple[int, str] | None:
        """(exit code, diagnostics), or None if javac did not answer in time or died."""
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(str(argfile).encode() + b"\n")
            self.proc.stdin.flush()
        except OSError:
            return None
        line = self.reader.read_line(timeout)
        if line is None:
            return None
        code, _, text = line.partition("\t")
        try:
            return int(code), unescape(text)
        except ValueError:
            return None

    def close(self) -> None:
        for stream in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                if stream is not None:
                    stream.close()
        if self.proc.poll() is None:
            with contextlib.suppress(OSError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()


def compile_projects(sources: Sequence[str | os.PathLike[str]], *,
                     cache_dir: str | os.PathLike[str] | None = None, timeout: float = 300.0,
                     progress: Callable[[int, int], None] | None = None,
                     ) -> list[CompiledProject | JavaProjectError]:
    """Compile several projects (folders or zips); for each, the :class:`CompiledProject`
    or the :class:`JavaProjectError` saying in one line why not (the first compiler error,
    file:line). Projects compiled before (same content) come from the cache; the others
    are compiled in one compiler JVM. ``timeout`` bounds each project's compilation;
    ``progress(done, total)`` is called after each project."""
    javac, java = jdk()
    cache = Path(cache_dir) if cache_dir is not None else default_cache()
    cache.mkdir(parents=True, exist_ok=True)
    tools = compile_tools(cache, timeout)
    debian = _debian_antlr()
    key_parts = [_jdk_identity(javac), str(tools),
                 str(debian[1].resolve()) if debian else "no-antlr"]
    results: list[CompiledProject | JavaProjectError | None] = [None] * len(sources)
    total = len(sources)
    done = 0
    with contextlib.ExitStack() as stack:
        jobs: list[tuple[int, _Job]] = []
        for i, source in enumerate(sources):
            try:
                prepared = _prepare(Path(source), cache, java, tools, key_parts, timeout,
                                    stack)
            except JavaProjectError as exc:
                results[i] = exc
            else:
                if isinstance(prepared, _Job):
                    jobs.append((i, prepared))
                    continue
                results[i] = prepared
            done += 1
            if progress:
                progress(done, total)
        batch: _BatchJavac | None = None
        try:
            for i, job in jobs:
                if batch is None:
                    batch = _BatchJavac(java, tools, cache)
                answer = batch.compile(job.argfile, timeout)
                try:
                    if answer is None:
                        batch.close()
                        batch = None
                        raise JavaProjectError(f"{job.label}: javac gave no answer within "
                                               f"{timeout:g} s")
                    results[i] = _finish(job, answer[0], answer[1], tools)
                except JavaProjectError as exc:
                    results[i] = exc
                done += 1
                if progress:
                    progress(done, total)
        finally:
            if batch is not None:
                batch.close()
    return [r if r is not None else JavaProjectError("not compiled") for r in results]


def compile_project(source: str | os.PathLike[str], *,
                    cache_dir: str | os.PathLike[str] | None = None,
                    timeout: float = 300.0) -> CompiledProject:
    """Compile one project (a folder or a zip) into the cache, or raise
    :class:`JavaProjectError` with one line (:class:`JavaUnavailable` without a JDK)."""
    result = compile_projects([source], cache_dir=cache_dir, timeout=timeout)[0]
    if isinstance(result, JavaProjectError):
        raise result
    return result
