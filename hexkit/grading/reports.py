"""What ``hexkit grade`` writes: for each submission ``DIR/<name>/results.json``
(Gradescope's format), ``junit.xml`` and ``report.html`` (the counterexample drawn as the
reference's position where the two disagree); for the class ``DIR/summary.csv``; and the
table printed at the end. Every file is written atomically.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import IO
from xml.etree import ElementTree as ET

from hexkit.files.fileio import write_text_atomic as atomic_write_text
from hexkit.grading.grader import GradeResult


def folder_name(name: str, taken: set[str]) -> str:
    """A safe, unique folder name for a submission's reports."""
    base = re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "submission"
    candidate, n = base, 2
    while candidate in taken:
        candidate, n = f"{base}-{n}", n + 1
    taken.add(candidate)
    return candidate


def gradescope(result: GradeResult) -> dict[str, object]:
    """Gradescope's ``results.json``."""
    summary = (f"{result.kind} submission: {result.score:g} / {result.max_score:g} points "
               f"({result.seconds:.1f} s)")
    if result.error:
        summary += f"\n{result.error}"
    return {
        "score": round(result.score, 4),
        "output": summary,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "execution_time": result.seconds,
        "tests": [{"name": t.name, "score": round(t.score, 4), "max_score": t.max_score,
                   "status": t.status, "output": t.output, "visibility": t.visibility}
                  for t in result.tests],
    }


def junit(result: GradeResult) -> str:
    """A JUnit XML report (one test case per test)."""
    failures = sum(1 for t in result.tests if t.status != "passed")
    suite = ET.Element("testsuite", name=result.submission, tests=str(len(result.tests)),
                       failures=str(failures), errors="0", time=f"{result.seconds:.3f}")
    for test in result.tests:
        case = ET.SubElement(suite, "testcase", classname=f"hexkit.grade.{result.kind}",
                             name=test.name)
        if test.status != "passed":
            first = test.output.splitlines()[0] if test.output else "failed"
            failure = ET.SubElement(case, "failure", message=first)
            failure.text = test.output
        else:
            ET.SubElement(case, "system-out").text = test.output
    ET.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, "unicode") + "\n"


_STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:60em;color:#222}
h1{font-size:1.4em} .passed{color:#1a7f37} .failed{color:#b42318}
pre{background:#f6f8fa;padding:.8em;overflow-x:auto;white-space:pre-wrap}
section{border-top:1px solid #ddd;padding-top:.5em;margin-top:1em}
figure{margin:.5em 0} figcaption{font-size:.9em;color:#555}"""


def report_html(result: GradeResult) -> str:
    """A page for the student: score, each test, and each counterexample's position."""
    e = html.escape
    parts = [f"<!DOCTYPE html><html lang=en><meta charset=utf-8>"
             f"<title>{e(result.submission)}: {result.score:g}/{result.max_score:g}</title>"
             f"<style>{_STYLE}</style><h1>{e(result.submission)}: {result.score:g} / "
             f"{result.max_score:g}</h1><p>Graded as a {e(result.kind)} submission in "
             f"{result.seconds:.1f} s.</p>"]
    if result.error:
        parts.append(f"<p class=failed>{e(result.error)}</p>")
    for test in result.tests:
        parts.append(f"<section><h2 class={test.status}>{e(test.name)}: {test.score:g} / "
                     f"{test.max_score:g} ({test.status})</h2><pre>{e(test.output)}</pre>")
        if test.picture:
            svg = test.picture[test.picture.find("<svg"):]
            parts.append("<figure>" + svg + "<figcaption>The reference's position "
                         "just before the call where the submission disagrees."
                         "</figcaption></figure>")
        parts.append("</section>")
    parts.append("</html>\n")
    return "".join(parts)


def write_submission(folder: Path, result: GradeResult) -> None:
    """results.json, junit.xml and report.html in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    atomic_write_text(folder / "results.json", json.dumps(gradescope(result), indent=1) + "\n")
    atomic_write_text(folder / "junit.xml", junit(result))
    atomic_write_text(folder / "report.html", report_html(result))


def write_summary(path: Path, rows: Sequence[tuple[str, GradeResult]]) -> None:
    """summary.csv: ``submission,score,max_score`` (plus kind, time and a short problem)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["submission", "score", "max_score", "kind", "seconds", "failed_tests"])
    for name, result in rows:
        failed = ";".join(t.name for t in result.tests if t.status != "passed")
        writer.writerow([name, f"{result.score:g}", f"{result.max_score:g}", result.kind,
                         f"{result.seconds:.1f}", failed])
    atomic_write_text(path, buffer.getvalue())


def print_table(rows: Sequence[tuple[str, GradeResult]], out: IO[str]) -> None:
    """The class at a glance: one line per submission."""
    width = max([len("submission"), *(len(n) for n, _ in rows)])
    print(f"{'submission':<{width}}  {'score':>13}  {'kind':<10}  first failed test", file=out)
    for name, result in rows:
        failed = [t for t in result.tests if t.status != "passed"]
        note = ""
        if failed:
            first = failed[0]
            line = first.output.splitlines()[0] if first.output else ""
            note = f"{first.name}: {line}"
            if len(note) > 70:
                note = note[:67] + "..."
        score = f"{result.score:g} / {result.max_score:g}"
        print(f"{name:<{width}}  {score:>13}  {result.kind:<10}  {note}", file=out)
