"""Grade the whole corpus of tests/grading: every pristine submission, every single-bug
mutant and every hostile submission of each kind, with ``hexkit grade``'s own code.

Prints, per kind, how many mutants are caught (less than full score, with a counterexample
in a failed test's output) and failed in the rule group a student would look in for that
bug (``WHERE_TO_LOOK``), the lengths of the shortest counterexamples, the pristine
score, how each hostile submission was graded and in how long, and whether anything was
written outside a sandbox. Options: ``--kind K`` (repeatable), ``--jobs N``,
``--time-limit S`` (per submission, default 60), ``--java-config NAME`` (the Java projects
are graded against ``hexaround(config=NAME)``, a course variant, instead of the corpus's
variant with every attribute; a bug in a rule the variant does not use is shown n/a).

    python benchmarks/grade_corpus.py --jobs 2
    python benchmarks/grade_corpus.py --kind hexaround-java --java-config level3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexkit.grading import batch  # noqa: E402
from hexkit.grading.config import GradingConfig  # noqa: E402
from hexkit.grading.grader import GradeResult  # noqa: E402
from tests.grading.corpus import (  # noqa: E402
    ESCAPE,
    HOSTILE_CODE,
    MUTANTS,
    REFERENCE,
    WHERE_TO_LOOK,
    make,
)
from tests.grading.java import corpus as java  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", choices=sorted([*MUTANTS, JAVA]))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--time-limit", type=float, default=60.0)
    parser.add_argument("--java-config", metavar="NAME",
                        help="grade the Java projects against this HexAround variant")
    args = parser.parse_args()
    global JAVA_REFERENCE
    if args.java_config:
        JAVA_REFERENCE = f"hexaround(config={args.java_config})"
    ESCAPE.unlink(missing_ok=True)
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kind or sorted([*MUTANTS, JAVA]):
            tasks, what = [], {}
            if kind == JAVA:
                made = java_entries(Path(tmp) / kind)
            else:
                made = []
                entries = [("pristine", None, None)]
                entries += [(m.name, m.name, None) for m in MUTANTS[kind]]
                entries += [(f"hostile:{h}", None, h) for h in HOSTILE_CODE]
                for label, mutant, hostile in entries:
                    path = make(kind, Path(tmp) / kind / label.replace(":", "_"), mutant,
                                hostile)
                    made.append((label, mutant, hostile, path))
            for label, mutant, hostile, path in made:
                tasks.append(batch.Task(label, str(path), reference_of(kind), GradingConfig(),
                                        args.time_limit, None, ()))
                what[label] = (mutant, hostile)
            results: dict[str, GradeResult] = {}
            started = time.monotonic()
            batch.run_local(tasks, args.jobs, results.__setitem__)
            wall = time.monotonic() - started
            failures += report(kind, results, what, wall)
    if ESCAPE.exists():
        print(f"FAIL: a submission wrote {ESCAPE} outside its folder")
        failures += 1
    return 1 if failures else 0


JAVA = "hexaround-java"
#: Hostile Java: put at the start of placeCreature (``static``: in the class's body).
JAVA_HOSTILE = {
    "loop": "        while (System.nanoTime() > 0) { }\n",
    "memory": "        long[][] hog = new long[1 << 20][];\n"
              "        for (int i = 0; i < hog.length; i++) { hog[i] = new long[1 << 20]; }\n",
    "exit": "        System.exit(3);\n",
    "sleep": "        try { Thread.sleep(600_000); } catch (InterruptedException e) { }\n",
    "write_outside": "        try { java.nio.file.Files.writeString(java.nio.file.Path.of(\""
                     + str(ESCAPE) + "\"), \"escaped\"); } catch (java.io.IOException e) { }\n",
    "exit_at_import": "static",
    # Not hostile, broken: every placement throws (it must score 0, not the points of the
    # rules it never reaches), or the builder does.
    "throw_place": "        if (creature != null) {\n"
                   "            throw new IllegalStateException(\"not written yet\");\n"
                   "        }\n",
    "throw_builder": "builder",
}
BUILDER = "src/hexaround/game/HexAroundGameBuilder.java"
BUILD = ("    public static IHexAroundGameManager buildGameManager(String configurationFile) "
         "throws IOException {\n")
GAME_MANAGER = "src/hexaround/game/HexAroundGameManager.java"
PLACE = "    public MoveResponse placeCreature(CreatureName creature, int x, int y) {\n"
CLASS = "public class HexAroundGameManager implements IHexAroundGameManager {\n"


JAVA_REFERENCE = f"hexaround(config={java.EVERYTHING})"
#: What a variant needs for a planted Java bug to show at all (else the bug is n/a).
JAVA_NEEDS: dict[str, tuple[str, Callable[[Any], bool]]] = {
    **{mutant: (f"a {need} creature",
                lambda config, need=need: any(need in c.properties for c in config.creatures))
       for mutant, need in (("jumper-flies", "JUMPING"), ("stack-limit-ignored", "INTRUDING"),
                            ("kamikaze-attacker-survives", "KAMIKAZE"),
                            ("kamikaze-victim-lost", "KAMIKAZE"),
                            ("hatching-ignored", "HATCHING"),
                            ("surrounded-flyer-flies", "FLYING"),
                            ("runner-stops-short", "RUNNING"),
                            ("swap-with-butterfly", "SWAPPING"),
                            ("trapped-creature-moves", "TRAPPING"))},
    # A one-hex step ends next to the colony anyway: only longer walks cross open space.
    "walker-crosses-open-space": ("a walker or runner of distance 2 or more", lambda config: any(
        c.max_distance >= 2 and {"WALKING", "RUNNING"} & set(c.properties)
        for c in config.creatures)),
    # Two butterflies side by side with every other hex around them taken: ten creatures.
    "draw-missed": ("ten creatures", lambda config: sum(
        sum(stock.values()) for stock in config.stocks.values()) >= 10),
}


def reference_of(kind: str) -> str:
    return JAVA_REFERENCE if kind == JAVA else REFERENCE[kind]


def applies(kind: str, mutant: str) -> bool:
    """Whether the reference's variant uses the rule a Java mutant breaks."""
    if kind != JAVA or mutant not in JAVA_NEEDS:
        return True
    from hexkit import plugins

    config = plugins.load_game(JAVA_REFERENCE).config  # type: ignore[attr-defined]
    return JAVA_NEEDS[mutant][1](config)


def java_entries(folder: Path) -> list[tuple[str, str | None, str | None, Path]]:
    """The Java corpus: the pristine project, its planted bugs and hostile copies."""
    out: list[tuple[str, str | None, str | None, Path]] = [
        ("pristine", None, None, java.make_project(folder))]
    for mutant in java.load_mutants():
        out.append((mutant.id, mutant.id, None, java.make_project(folder, mutant)))
    for name, code in JAVA_HOSTILE.items():
        file, where, what = GAME_MANAGER, PLACE, PLACE + code
        if code == "static":
            where, what = CLASS, CLASS + "    static { System.exit(3); }\n"
        elif code == "builder":
            file, where = BUILDER, BUILD
            what = BUILD + "        if (configurationFile != null) {\n" \
                "            throw new UnsupportedOperationException(\"no game yet\");\n        }\n"
        hostile = java.Mutant(f"hostile_{name}", "", file, ((where, what),), "", 0)
        out.append((f"hostile:{name}", None, name, java.make_project(folder, hostile)))
    return out


def report(kind: str, results: dict[str, GradeResult], what: dict[str, tuple], wall: float) -> int:
    failures = 0
    pristine = results["pristine"]
    print(f"\n== {kind} (reference {reference_of(kind)}): {len(results)} submissions in "
          f"{wall:.1f} s")
    print(f"pristine: {pristine.score:g} / {pristine.max_score:g} in {pristine.seconds:.1f} s")
    if pristine.score != pristine.max_score:
        failures += 1
        for t in pristine.tests:
            if t.status != "passed":
                print(f"  FAIL pristine {t.name}: {t.output[:300]}")
    caught, placed, lengths, total = 0, 0, [], 0
    for label, (mutant, _hostile) in what.items():
        if mutant is None:
            continue
        r = results[label]
        if not applies(kind, mutant):
            print(f"  n/a    {label:<28} {r.score:>6g}/{r.max_score:g}  (the variant lacks "
                  f"{JAVA_NEEDS[mutant][0]})")
            continue
        total += 1
        failed = [t for t in r.tests if t.status != "passed"]
        shown = [t.counterexample for t in failed if t.counterexample]
        ok = r.score < r.max_score and bool(shown)
        caught += ok
        if shown:
            lengths.append(min(shown))
        groups = ", ".join(t.name for t in failed)
        where = WHERE_TO_LOOK[kind][mutant]
        right = bool(where & {t.name for t in failed if t.max_score})
        placed += right
        print(f"  {'caught' if ok else 'MISSED'} {label:<28} {r.score:>6g}/{r.max_score:g}"
              f"  shortest {min(shown) if shown else '-':>4} calls  [{groups}]"
              f"{'' if right else '  WRONG GROUP: look in ' + '/'.join(sorted(where))}  "
              f"{r.seconds:.1f} s")
    failures += total - caught + total - placed
    if lengths:
        print(f"mutants caught: {caught}/{total}, in the group a student would look in: "
              f"{placed}/{total}; counterexample length median "
              f"{statistics.median(lengths):g}, min {min(lengths)}, max {max(lengths)}")
    for label, (_mutant, hostile) in what.items():
        if hostile is None:
            continue
        r = results[label]
        first = next((t for t in r.tests if t.status != "passed"), None)
        note = (first.output.splitlines()[-1][:110] if first and first.output else "")
        print(f"  {label:<24} {r.score:>6g}/{r.max_score:g} in {r.seconds:5.1f} s  {note}")
        if r.score >= r.max_score and hostile != "write_outside":
            failures += 1
        if hostile.startswith("throw_") and r.score:
            print(f"  FAIL {label}: a project that throws at every call of a kind scores 0")
            failures += 1
    return failures


if __name__ == "__main__":
    sys.exit(main())
