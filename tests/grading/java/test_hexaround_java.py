"""Java HexAround projects: compiled with the JDK, driven through the course's API by
hexkit's driver, and compared with hexkit's own facade.

Everything this module runs is compiled once, in one batch (javac is slow); the whole corpus
(every planted bug, many scripts) runs in benchmarks/grade_java_corpus.py.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest
from hexaround import grading, probes

from hexkit.grading.config import GradingConfig
from hexkit.grading.grader import TrajectoryCache, grade
from hexkit.grading.hexaround_java import (
    MIN_ADDRESS_SPACE,
    CompiledProject,
    HexAroundJava,
    JavaProjectError,
    compile_project,
    compile_projects,
    is_hexaround_project,
)
from hexkit.grading.java.compiler import CACHE_ENV
from tests.grading.java import corpus

#: Set to 1 (as .ci/run does) to make a missing JDK or ANTLR a failure instead of a skip.
REQUIRE_ENV = "HEXKIT_REQUIRE_JDK"
GAME_MANAGER = "src/hexaround/game/HexAroundGameManager.java"
#: The planted bugs checked here (the benchmark checks them all).
SAMPLE = ("win-for-wrong-colour", "slide-ignores-gates", "error-passes-the-turn")
#: Planted bugs that random and bot play missed, graded here with a small plan: rare
#: endings, requests after the end, a move one hex short, and a kamikaze victim lost (a
#: movement rule that shows on a later placement); each with the group a student looks in.
RARE = {"draw-missed": "winning", "play-after-the-end": "winning",
        "runner-stops-short": "movement", "kamikaze-victim-lost": "movement"}
#: The plan of the tests that grade: two random games and the games steered to endings.
SMALL_PLAN = GradingConfig(random=2, bot=0, length=60)
#: Debian's ANTLR, which generates the course's configuration parser from its grammar.
ANTLR = Path("/usr/share/java/antlr4.jar")


def _require(what: str, present: bool) -> None:
    if present:
        return
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"Java grading tests cannot run: no {what}")
    pytest.skip(f"no {what} on this machine (Debian: apt-get install default-jdk-headless "
                f"antlr4)")


def variant(name: str, file: str, *replace: tuple[str, str]) -> corpus.Mutant:
    """A copy of the pristine project with text replaced (not a rule bug of the corpus)."""
    return corpus.Mutant(name, "", file, tuple(replace), "level1", 0)


HOSTILE = variant("hostile", GAME_MANAGER, (
    "    public MoveResponse placeCreature(CreatureName creature, int x, int y) {\n",
    "    public MoveResponse placeCreature(CreatureName creature, int x, int y) {\n"
    "        if (x == 1000) {\n"
    "            throw new IllegalStateException(\"planted\\tfailure\");\n"
    "        }\n"
    "        if (x == 2000) {\n"
    "            try {\n"
    "                Thread.sleep(600_000);\n"
    "            } catch (InterruptedException e) {\n"
    "                return null;\n"
    "            }\n"
    "        }\n"
    "        if (x == 3000) {\n"
    "            System.exit(7);\n"
    "        }\n"
    "        if (x == 4000) {\n"
    "            System.out.println(\"READY\\tdebugging output\");\n"
    "        }\n"
    "        if (x == 5000) {\n"
    "            return null;\n"
    "        }\n"
    "        if (x == 7000 || x == 7001) {\n"
    "            String name = x == 7000 ? \"../escaped.txt\" : \"inside.txt\";\n"
    "            try {\n"
    "                java.nio.file.Files.writeString(java.nio.file.Path.of(\n"
    "                    System.getProperty(\"user.dir\"), name), \"written\");\n"
    "            } catch (java.io.IOException e) {\n"
    "                return null;\n"
    "            }\n"
    "        }\n"
    "        if (x == 6000) {\n"
    "            try {\n"
    "                new java.io.FileOutputStream(java.io.FileDescriptor.out)\n"
    "                    .write(\"OK\\tspoofed\\n\".getBytes());\n"
    "                System.in.read();\n"
    "            } catch (java.io.IOException e) {\n"
    "                return null;\n"
    "            }\n"
    "        }\n"))
GETTERS = variant("getters", "src/hexaround/game/move/MoveResponse.java", (
    "public record MoveResponse(MoveResult moveResult, String message) {\n"
    "    public MoveResponse(MoveResult moveResult) {\n"
    "        this(moveResult, null);\n"
    "    }\n"
    "}\n",
    "public final class MoveResponse {\n"
    "    private final MoveResult result;\n"
    "    private final String text;\n"
    "\n"
    "    public MoveResponse(MoveResult result, String text) {\n"
    "        this.result = result;\n"
    "        this.text = text;\n"
    "    }\n"
    "\n"
    "    public MoveResult getMoveResult() {\n"
    "        return result;\n"
    "    }\n"
    "\n"
    "    public String getMessage() {\n"
    "        return text;\n"
    "    }\n"
    "}\n"))
BROKEN = variant("broken", GAME_MANAGER, ('return new MoveResponse(MoveResult.OK, "Legal move");',
                                          'return new MoveResponse(MoveResult.OK, "Legal move")'))
PLACE = "    public MoveResponse placeCreature(CreatureName creature, int x, int y) {\n"
#: Unfinished, two ways (one project, compiled once): in a variant with a HORSE every
#: placement throws (the rules behind it are never reached); in the others every placement
#: asks for more memory than the JVM has.
UNFINISHED = variant("unfinished", GAME_MANAGER, (
    PLACE, PLACE + "        if (creatures.containsKey(CreatureName.HORSE)) {\n"
                   "            throw new UnsupportedOperationException(\"not written yet\");\n"
                   "        }\n"
                   "        long[][] hog = new long[1 << 20][];\n"
                   "        for (int i = 0; i < hog.length; i++) {\n"
                   "            hog[i] = new long[1 << 20];\n"
                   "        }\n"))
NO_BUILDER = variant("no-builder", "src/hexaround/game/HexAroundGameBuilder.java",
                     ("buildGameManager(String", "buildGame(String"))


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The module's cache of compiled projects (and of hexkit's Java tools)."""
    _require("javac", bool(shutil.which("javac") and shutil.which("java")))
    return tmp_path_factory.mktemp("java-cache")


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The folders of the projects :func:`built` compiles, by name."""
    return {}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory, cache: Path,
          sources: dict[str, Path]) -> dict[str, CompiledProject | Exception]:
    """The pristine project, the sampled mutants and the variants, compiled in one batch."""
    tmp = tmp_path_factory.mktemp("java")
    mutants = [m for m in corpus.load_mutants() if m.id in SAMPLE or m.id in RARE]
    variants = (HOSTILE, GETTERS, BROKEN, NO_BUILDER, UNFINISHED)
    names = ["pristine", *(m.id for m in mutants), *(v.id for v in variants)]
    folders = [corpus.make_project(tmp / "src"),
               *(corpus.make_project(tmp / "src", m) for m in mutants),
               *(corpus.make_project(tmp / "src", v) for v in variants)]
    # An editor's encodings: a header saved as Windows-1252, a byte-order mark, and a Mac's
    # resource fork beside a source.
    getters = folders[names.index("getters")] / "src" / "hexaround" / "game"
    builder = getters / "HexAroundGameBuilder.java"
    builder.write_bytes(b"/* Copyright \xa9 2024 */\n" + builder.read_bytes())
    interface = getters / "IHexAroundGameManager.java"
    interface.write_bytes(b"\xef\xbb\xbf" + interface.read_bytes())
    (getters / "._HexAroundGameBuilder.java").write_bytes(b"\x00\x05\x16\x07 Mac OS X")
    if ANTLR.is_file():
        names.append("tiny")
        folders.append(tiny_project(tmp))
    sources.update(zip(names, folders, strict=True))
    results = compile_projects(folders, cache_dir=cache)
    return dict(zip(names, results, strict=True))


@pytest.fixture(scope="module")
def trajectories() -> TrajectoryCache:
    """The small plan's trajectories, made once for the module's gradings."""
    return TrajectoryCache()


@pytest.fixture(scope="module")
def configs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return corpus.write_configs(tmp_path_factory.mktemp("configs"))


def sandbox_limits() -> None:
    """The limits of ``hexkit grade``'s sandbox (its defaults), in the JVM's process."""
    resource.setrlimit(resource.RLIMIT_AS, (MIN_ADDRESS_SPACE, MIN_ADDRESS_SPACE))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    resource.setrlimit(resource.RLIMIT_FSIZE, (16 << 20, 16 << 20))


def project(built: dict[str, CompiledProject | Exception], name: str) -> CompiledProject:
    result = built[name]
    assert isinstance(result, CompiledProject), result
    return result


def test_pristine_project_answers_as_hexkit_on_every_course_configuration(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path]) -> None:
    ends: set[str] = set()
    # Within a grading sandbox's limits: address space, open files, file size.
    with HexAroundJava(project(built, "pristine"), preexec_fn=sandbox_limits) as java:
        for i, (name, path) in enumerate(configs.items()):
            # A random script, and one steered to an ending (each kind on two variants).
            goal = probes.GOALS[i % len(probes.GOALS)]
            for calls in (corpus.script(path, seed=1), corpus.script(path, 1, goal=goal)):
                assert corpus.first_difference(java, path, calls) is None, (name, goal)
                ends.update(a for a, _ in corpus.play(corpus.Reference(), path, calls))
        # The scripts that expose the sampled bugs are answered as hexkit does.
        for mutant in corpus.load_mutants():
            if mutant.id in SAMPLE:
                path = configs[mutant.config]
                calls = corpus.script(path, mutant.seed, goal=mutant.goal)
                assert corpus.first_difference(java, path, calls) is None, mutant.id
        # One JVM served every game: a build starts a new game, not a new process.
        assert java.starts == 1
    # The scripts reached wins of both colours (some by a player left without an action)
    # and a draw.
    assert {"OK", "MOVE_ERROR", "BLUE_WON", "RED_WON", "DRAW"} <= ends


@pytest.mark.parametrize("mutant_id", SAMPLE)
def test_a_planted_rule_bug_answers_differently_from_hexkit(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path],
        mutant_id: str) -> None:
    mutant = next(m for m in corpus.load_mutants() if m.id == mutant_id)
    path = configs[mutant.config]
    calls = corpus.script(path, mutant.seed, goal=mutant.goal)
    with HexAroundJava(project(built, mutant_id)) as java:
        diff = corpus.first_difference(java, path, calls)
    assert diff is not None, f"{mutant_id} answers like hexkit on {mutant.config} #{mutant.seed}"
    assert diff.expected[0] != diff.actual[0]


def test_every_planted_bug_patches_the_pristine_source_exactly_once(tmp_path: Path) -> None:
    mutants = corpus.load_mutants()
    assert len(mutants) >= 10
    assert len({m.id for m in mutants}) == len(mutants)
    original = (corpus.PRISTINE / GAME_MANAGER).read_text(encoding="utf-8")
    for m in mutants:
        folder = corpus.make_project(tmp_path, m)
        assert (folder / m.file).read_text(encoding="utf-8") != (
            corpus.PRISTINE / m.file).read_text(encoding="utf-8"), m.id
    assert (corpus.PRISTINE / GAME_MANAGER).read_text(encoding="utf-8") == original


def printed(java: HexAroundJava, text: str) -> bool:
    """Whether the JVM printed ``text`` (its output is read by a thread of its own, so give it
    a moment)."""
    deadline = time.monotonic() + 10
    while text not in java.output_tail():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def test_student_failures_are_answers_and_the_jvm_serves_on(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path],
        tmp_path: Path) -> None:
    with HexAroundJava(project(built, "hostile"), cwd=tmp_path, call_timeout=1.5) as java:
        assert java.place("BUTTERFLY", 0, 0) == ("NO_GAME", "no game: the Java process is not "
                                                             "running (build starts it)")
        assert java.build(configs["level1"]) == ("OK", "hexaround.game.HexAroundGameManager")
        kind, message = java.place("BUTTERFLY", 1000, 0)
        assert kind == "EXCEPTION"
        assert message.startswith("java.lang.IllegalStateException: planted\tfailure at "
                                  "hexaround.game.HexAroundGameManager.placeCreature(")
        assert java.place("BUTTERFLY", 5000, 0) == ("NULL", "the call returned null")
        # What the student's code prints cannot pass for an answer.
        assert java.place("BUTTERFLY", 4000, 0) == ("OK", "Legal move")
        assert printed(java, "READY\tdebugging output")
        assert java.place("CRAB", 4000, 0)[0] == "MOVE_ERROR"
        # Nor can its writes to the standard output's descriptor, or reads of standard input.
        assert java.place("CRAB", 6000, 0) == (
            "MOVE_ERROR", "the first creature must be placed next to the creature on the board")
        assert printed(java, "OK\tspoofed")
        assert java.starts == 1
        # A call that never returns is stopped at its deadline; the game is lost, and the
        # next build starts a new JVM.
        kind, message = java.place("BUTTERFLY", 2000, 0)
        assert (kind, message) == ("TIMEOUT", "no answer within 1.5 s during the call; the "
                                              "Java process was stopped")
        assert java.place("BUTTERFLY", 0, 0)[0] == "NO_GAME"
        assert java.build(configs["level1"])[0] == "OK"
        assert java.starts == 2
        kind, message = java.place("BUTTERFLY", 3000, 0)
        assert kind == "CRASHED"
        assert message.startswith("the Java process exited with status 7 during the call")
        assert java.build(configs["level1"])[0] == "OK"
        assert java.place("BUTTERFLY", 0, 0) == ("OK", "Legal move")
        assert java.starts == 3


def test_the_security_policy_keeps_student_writes_inside_the_run_folder(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path],
        tmp_path: Path) -> None:
    compiled = project(built, "hostile")
    run = tmp_path / "run"
    run.mkdir()
    options = grading.confined(compiled, run, tmp_path)
    if "-Djava.security.manager" not in options:
        pytest.skip("this JDK has no security manager (JDK 24 and later): the JVM is confined "
                    "by the sandbox's limits only")
    with HexAroundJava(compiled, cwd=run, java_options=options) as java:
        assert java.build(configs["level1"])[0] == "OK"
        kind, message = java.place("BUTTERFLY", 7000, 0)
        assert kind == "EXCEPTION"
        assert message.startswith("java.security.AccessControlException: access denied "
                                  '("java.io.FilePermission"'), message
        assert "escaped.txt" in message
        # Inside its folder the student's code writes as it likes, and plays on.
        assert java.place("BUTTERFLY", 7001, 0) == ("OK", "Legal move")
        assert java.starts == 1
    assert not (tmp_path / "escaped.txt").exists()
    assert (run / "inside.txt").read_text(encoding="utf-8") == "written"


def test_a_jvm_that_cannot_start_in_its_limits_says_so(
        built: dict[str, CompiledProject | Exception]) -> None:
    def small_address_space() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (MIN_ADDRESS_SPACE // 2, MIN_ADDRESS_SPACE // 2))
    with HexAroundJava(project(built, "pristine"), preexec_fn=small_address_space) as java:
        with pytest.raises(JavaProjectError, match=r"^the Java driver did not start: the Java "
                           r"process exited with status 1 while starting: .* \(the JVM needs "
                           r"an address space of 1 GiB or more with the default options\)$"):
            java.start()


def test_a_missing_configuration_file_is_the_builders_exception(
        built: dict[str, CompiledProject | Exception], tmp_path: Path) -> None:
    with HexAroundJava(project(built, "pristine")) as java:
        kind, message = java.build(tmp_path / "missing.hgc")
        assert kind == "EXCEPTION"
        assert message.startswith(f"java.nio.file.NoSuchFileException: {tmp_path}/missing.hgc")
        assert java.place("BUTTERFLY", 0, 0)[0] == "NO_GAME"


def test_a_response_with_getters_is_read_like_the_record(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path]) -> None:
    path = configs["level1"]
    calls = corpus.script(path, seed=0)[:20]
    with HexAroundJava(project(built, "getters")) as java:
        assert corpus.first_difference(java, path, calls) is None
        assert java.place("BUTTERFLY", 99, 99)[1]  # the message is read too


def test_sources_saved_as_windows_1252_or_with_a_byte_order_mark_compile(
        built: dict[str, CompiledProject | Exception]) -> None:
    compiled = project(built, "getters")
    assert compiled.notes == ("2 source(s) read as Windows-1252 or without a byte-order mark",)
    assert (compiled.classes / "hexaround" / "game" / "HexAroundGameBuilder.class").is_file()


def test_a_project_that_does_not_compile_names_its_first_error(
        built: dict[str, CompiledProject | Exception]) -> None:
    error = built["broken"]
    assert isinstance(error, JavaProjectError)
    line = next(i for i, text in enumerate(
        (corpus.PRISTINE / GAME_MANAGER).read_text(encoding="utf-8").splitlines(), 1)
        if '"Legal move");' in text)
    assert str(error) == f"broken does not compile: broken/{GAME_MANAGER}:{line}: ';' expected"


def test_a_project_without_the_course_builder_says_what_is_missing(
        built: dict[str, CompiledProject | Exception], configs: dict[str, Path]) -> None:
    with HexAroundJava(project(built, "no-builder")) as java:
        with pytest.raises(JavaProjectError, match=r"^hexaround\.game\.HexAroundGameBuilder has "
                           r"no static buildGameManager\(String configurationFile\)$"):
            java.build(configs["level1"])


def test_a_zip_of_the_project_is_the_same_compiled_project(
        built: dict[str, CompiledProject | Exception], tmp_path: Path) -> None:
    pristine = project(built, "pristine")
    archive = tmp_path / "submission.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for path in sorted(corpus.PRISTINE.rglob("*")):
            if path.is_file():
                zf.write(path, path.relative_to(corpus.PRISTINE).as_posix())
    # Same content, so the compiled project comes from the cache.
    again = compile_project(archive, cache_dir=pristine.folder.parent)
    assert again == pristine


def test_a_java_hexaround_project_is_recognised_by_its_builder(tmp_path: Path) -> None:
    assert is_hexaround_project(corpus.PRISTINE)
    archive = tmp_path / "alice.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("alice/src/hexaround/game/HexAroundGameBuilder.java", "class X {}\n")
    assert is_hexaround_project(archive)
    with zipfile.ZipFile(tmp_path / "classes.zip", "w") as zf:
        zf.writestr("out/hexaround/game/HexAroundGameBuilder.java", "class X {}\n")
    (tmp_path / "FocusGame.py").write_text("class FocusGame: pass\n", encoding="utf-8")
    for other in (tmp_path / "classes.zip", tmp_path / "FocusGame.py", corpus.HERE / "configs",
                  tmp_path / "missing"):
        assert not is_hexaround_project(other), other


def test_a_zip_that_reaches_outside_its_folder_is_refused(tmp_path: Path, cache: Path) -> None:
    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("src/A.java", "class A {}\n")
        zf.writestr("../escaped.java", "class B {}\n")
    with pytest.raises(JavaProjectError, match=r"^evil\.zip: unsafe path '\.\./escaped\.java'$"):
        compile_project(archive, cache_dir=cache)
    assert not (tmp_path / "escaped.java").exists()


TINY_GRAMMAR = """grammar Tiny;
start : WORD+ EOF ;
WORD : [a-z]+ ;
WS : [ \\t\\r\\n]+ -> skip ;
"""
TINY_READER = """package cfg;

import org.antlr.v4.runtime.CharStreams;
import org.antlr.v4.runtime.CommonTokenStream;

public class Reader {
    public static int words(String text) {
        TinyParser parser = new TinyParser(new CommonTokenStream(new TinyLexer(
            CharStreams.fromString(text))));
        return parser.start().WORD().size();
    }

    public static void main(String[] args) {
        System.out.println(words("three little words"));
    }
}
"""


def tiny_project(folder: Path) -> Path:
    """A project whose reader uses a parser generated from its grammar, with a stale
    generated parser and a JUnit test handed in."""
    root = folder / "tiny"
    (root / "grammar").mkdir(parents=True)
    (root / "grammar" / "Tiny.g4").write_text(TINY_GRAMMAR, encoding="utf-8")
    (root / "src" / "cfg").mkdir(parents=True)
    (root / "src" / "cfg" / "Reader.java").write_text(TINY_READER, encoding="utf-8")
    # A parser generated by another ANTLR version is replaced, not compiled.
    (root / "gen" / "cfg").mkdir(parents=True)
    (root / "gen" / "cfg" / "TinyParser.java").write_text("stale output of ANTLR 4.13\n",
                                                          encoding="utf-8")
    # Test code needs JUnit, which is not handed in: it is left out.
    (root / "test" / "cfg").mkdir(parents=True)
    (root / "test" / "cfg" / "ReaderTest.java").write_text(
        "package cfg;\nimport org.junit.jupiter.api.Test;\nclass ReaderTest {}\n",
        encoding="utf-8")
    return root


def test_the_configuration_parser_is_generated_from_the_grammar(
        built: dict[str, CompiledProject | Exception]) -> None:
    _require("ANTLR (antlr4)", ANTLR.is_file())
    compiled = project(built, "tiny")
    assert compiled.notes == ("parser generated from grammar/Tiny.g4 into package cfg with "
                              "Debian's antlr4", "1 test source(s) left out")
    out = subprocess.run(["java", "-cp", os.pathsep.join(map(str, compiled.classpath)),
                          "cfg.Reader"], capture_output=True, text=True, timeout=120)
    assert out.stdout == "3\n", out.stderr


def test_hexkit_grade_scores_the_pristine_project_full_and_a_planted_bug_less(
        built: dict[str, CompiledProject | Exception], sources: dict[str, Path], cache: Path,
        trajectories: TrajectoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(cache))  # the projects compiled above
    reference = f"hexaround(config={corpus.EVERYTHING})"
    config = SMALL_PLAN
    pristine = grade(sources["pristine"], reference, config, cache=trajectories)
    assert (pristine.kind, pristine.score, pristine.max_score) == ("hexaround-java", 100, 100)
    mutant = grade(sources["error-passes-the-turn"], reference, config, cache=trajectories)
    assert mutant.score < mutant.max_score
    failed = next(t for t in mutant.tests if t.status == "failed")
    assert failed.counterexample is not None and failed.counterexample <= 17
    assert "gm = HexAroundGameBuilder.buildGameManager(\"configuration.hgc\");" in failed.output
    assert "<- here they disagree" in failed.output
    assert failed.picture is not None and "<svg" in failed.picture


@pytest.mark.parametrize("mutant_id", sorted(RARE))
def test_hexkit_grade_finds_a_rare_rule_bug_where_a_student_would_look(
        built: dict[str, CompiledProject | Exception], sources: dict[str, Path], cache: Path,
        trajectories: TrajectoryCache, monkeypatch: pytest.MonkeyPatch, mutant_id: str) -> None:
    monkeypatch.setenv(CACHE_ENV, str(cache))  # the projects compiled above
    reference = f"hexaround(config={corpus.EVERYTHING})"
    result = grade(sources[mutant_id], reference, SMALL_PLAN, cache=trajectories)
    failed = {t.name: t for t in result.tests if t.status == "failed"}
    assert RARE[mutant_id] in failed, {name: t.output[:300] for name, t in failed.items()}
    test = failed[RARE[mutant_id]]
    assert test.counterexample is not None and "<- here they disagree" in test.output


def test_a_project_whose_every_placement_throws_scores_zero(
        built: dict[str, CompiledProject | Exception], sources: dict[str, Path], cache: Path,
        trajectories: TrajectoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception is no answer: the rules behind the first placement were never checked,
    so they earn nothing (it scored 70 when only the placement test failed)."""
    monkeypatch.setenv(CACHE_ENV, str(cache))
    result = grade(sources["unfinished"], f"hexaround(config={corpus.EVERYTHING})", SMALL_PLAN,
                   cache=trajectories)
    assert (result.score, result.max_score) == (0, 100)
    tests = {t.name: t for t in result.tests}
    assert "got:      EXCEPTION (java.lang.UnsupportedOperationException: not written yet" \
        in tests["placement"].output
    assert tests["movement"].output.startswith("not checked: the submission ")


def test_a_project_that_runs_out_of_memory_is_stopped_at_its_first_call(
        built: dict[str, CompiledProject | Exception], sources: dict[str, Path], cache: Path,
        trajectories: TrajectoryCache, monkeypatch: pytest.MonkeyPatch) -> None:
    """The JVM stops at its first OutOfMemoryError, and the submission is played no
    further: every test fails with the line that says so, not after its whole time limit
    spent exhausting the heap call after call."""
    monkeypatch.setenv(CACHE_ENV, str(cache))
    # (level1 has no HORSE: each placement asks for more memory than the JVM's heap)
    plan = GradingConfig(random=2, bot=0, length=10, ends=0)
    result = grade(sources["unfinished"], "hexaround(config=level1)", plan)
    assert (result.score, result.max_score) == (0, 100)
    tests = {t.name: t for t in result.tests}
    assert tests["placement"].counterexample == 1
    assert ("The submission stopped answering at this call: the Java process ran out of "
            "memory during the call: Terminating due to java.lang.OutOfMemoryError: Java heap "
            "space") in tests["placement"].output
    for name in ("movement", "winning"):
        assert tests[name].output == (
            "not checked: the Java process ran out of memory during the call: Terminating due "
            "to java.lang.OutOfMemoryError: Java heap space (its heap: 256 MiB); the submission "
            "was played no further")


def test_requests_after_the_end_are_probed_in_a_variant_of_four_creatures_a_player(
        ) -> None:
    """In b23-sample a surround takes seven of the eight creatures, so games rarely end
    with a creature left to place: the steering keeps one for the player who acts after
    the end, and a placement it could make were the game going on is requested there (the
    planted bug play-after-the-end is caught on it: benchmarks/grade_corpus.py
    --java-config b23-sample)."""
    from hexaround.manager import GameManager

    from hexkit.grading.grader import plan_for
    from hexkit.grading.sandbox import Budget, Limits

    session = grading.HexAroundJavaSession(Path("b23"), "hexaround(config=b23-sample)",
                                           Limits(), Budget(60))
    try:
        plan = plan_for(GradingConfig(random=0, bot=0, length=60, ends=1), None)
        kept = [t for t in session.trajectories(plan) if t.name.endswith(
            "keeping a creature to place")]
        assert len(kept) == 2  # a surround of each colour
        for trajectory in kept:
            gm = GameManager(session.config)
            answers = [grading.answer(gm, call)[0] for call in trajectory.calls]
            end = next(i for i, a in enumerate(answers) if a in grading.ENDS)
            gm = GameManager(session.config)
            for call in trajectory.calls[: end + 1]:
                grading.answer(gm, call)
            engine = gm.state.engine
            placeable = [probes.call_of(engine, a) for a in engine.generate(engine.to_move)
                         if a[1] is None]
            after = trajectory.calls[end + 1:]
            assert any(call in placeable for call in after), trajectory.name
            assert set(answers[end + 1:]) == {"MOVE_ERROR"}
    finally:
        session.close()
