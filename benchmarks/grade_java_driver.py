"""What a Java HexAround submission costs to grade: compiling, starting the JVM, the calls.

Run: python benchmarks/grade_java_driver.py [--games N] [--rounds R] [--class-size S]

* JVM per game vs one JVM for every game: the same N scripted games (calls generated from
  hexkit's facade on the course's Level 1 to 3 and hexkit's everything variant) played by
  the pristine project of tests/grading/java, with a new JVM for each game, then with one
  JVM whose ``build`` starts each game; rounds interleaved, CPU time of this process and its
  children (the JVMs), and the same calls on hexkit's own facade beside them.
* Compiling: one project alone (``compile_project``: javac and the tools in their own
  JVMs), then a batch of S copies (each with its own student comment, so none comes from
  the cache) in one compiler JVM (``compile_projects``).
* A class of S: the batch above, then each project graded on N scripts in its own JVM.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexkit.grading.hexaround_java import (  # noqa: E402
    CompiledProject,
    HexAroundJava,
    compile_project,
    compile_projects,
)
from tests.grading.java import corpus  # noqa: E402

CONFIGS = ("level1", "level2", "level3", "everything")


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def measure(fn: Callable[[], object]) -> tuple[float, float]:
    c, w = cpu(), time.perf_counter()
    fn()
    return cpu() - c, time.perf_counter() - w


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20, help="scripted games per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds")
    ap.add_argument("--class-size", type=int, default=100, help="projects in the class")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        configs = corpus.write_configs(tmp / "configs")
        games = [(configs[CONFIGS[g % len(CONFIGS)]], corpus.script(
            configs[CONFIGS[g % len(CONFIGS)]], g)) for g in range(args.games)]
        calls = sum(len(c) for _, c in games)
        cache = tmp / "cache"

        # -- compiling ------------------------------------------------------------------
        pristine = compile_project(corpus.PRISTINE, cache_dir=cache)  # and hexkit's tools
        alone = corpus.make_project(tmp / "one")
        (alone / "src" / "Note.java").write_text("class Note {}\n", encoding="utf-8")
        single, single_wall = measure(lambda: compile_project(alone, cache_dir=cache))
        students = []
        for n in range(args.class_size):
            folder = corpus.make_project(tmp / "class" / f"student{n:03d}")
            note = folder / "src" / "hexaround" / "game" / "HexAroundGameBuilder.java"
            note.write_text(f"// student {n}\n" + note.read_text(encoding="utf-8"),
                            encoding="utf-8")
            students.append(folder)
        compiled: list[CompiledProject] = []

        def batch() -> None:
            for r in compile_projects(students, cache_dir=cache):
                assert isinstance(r, CompiledProject), r
                compiled.append(r)
        batch_cpu, batch_wall = measure(batch)
        print(f"compile one project alone: CPU {single:.2f} s, wall {single_wall:.2f} s "
              f"(its own compiler JVM)")
        print(f"compile {args.class_size} projects in one batch: CPU {batch_cpu:.1f} s "
              f"({batch_cpu / args.class_size:.2f} s a project), wall {batch_wall:.1f} s")

        # -- JVM per game vs one JVM -------------------------------------------------------
        def fresh() -> None:
            for path, script in games:
                with HexAroundJava(pristine) as java:
                    corpus.play(java, path, script)

        def reused() -> None:
            with HexAroundJava(pristine) as java:
                for path, script in games:
                    corpus.play(java, path, script)

        def reference() -> None:
            for path, script in games:
                corpus.play(corpus.Reference(), path, script)

        results: dict[str, list[tuple[float, float]]] = {"fresh": [], "reused": [],
                                                          "reference": []}
        for _ in range(args.rounds):
            results["fresh"].append(measure(fresh))
            results["reused"].append(measure(reused))
            results["reference"].append(measure(reference))
        print(f"\n{args.games} games, {calls} calls, median of {args.rounds} interleaved rounds:")
        for name, label in (("fresh", "Java, a new JVM per game"),
                            ("reused", "Java, one JVM for every game"),
                            ("reference", "hexkit's facade (Python)")):
            c = statistics.median(r[0] for r in results[name])
            w = statistics.median(r[1] for r in results[name])
            print(f"  {label:30} CPU {c:6.2f} s  wall {w:6.2f} s  "
                  f"({1000 * w / calls:.2f} ms a call)")

        def one_start() -> None:
            with HexAroundJava(pristine) as java:
                java.start()
        starts = [measure(one_start) for _ in range(5)]
        print(f"  JVM start to the driver's greeting: CPU "
              f"{statistics.median(s[0] for s in starts):.2f} s, wall "
              f"{statistics.median(s[1] for s in starts):.2f} s (median of 5)")

        # -- a class ---------------------------------------------------------------------
        def grade_class() -> None:
            for project in compiled:
                with HexAroundJava(project) as java:
                    for path, script in games[:5]:
                        corpus.first_difference(java, path, script)
        class_cpu, class_wall = measure(grade_class)
        total_cpu, total_wall = batch_cpu + class_cpu, batch_wall + class_wall
        print(f"\na class of {args.class_size}: compiled in one batch, then each project "
              f"compared with the reference on 5 scripts in its own JVM: CPU {total_cpu:.1f} s, "
              f"wall {total_wall:.1f} s ({total_wall / args.class_size:.2f} s a project)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
