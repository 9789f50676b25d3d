"""``hexkit grade`` as an instructor runs it: a folder of submissions, grading.yaml, the
reports a grading platform reads, and the Gradescope bundle."""

from __future__ import annotations

import csv
import json
import zipfile
from xml.etree import ElementTree as ET

import pytest
from focus.grading import FocusGameKind

from hexkit.errors import OptionError
from hexkit.tournament.ray_backend import start_failure

from .conftest import run_hexkit
from .corpus import make

GRADING = """\
reference: focus
weights: {movement: 40, captures: 20, reserve: 10, winning: 20}
scenarios: {course.yaml: 10}
visibility: {winning: after_due_date}
trajectories: {random: 3, bot: 1, length: 80}
"""
SCENARIO = "game: focus\nscenarios:\n  - name: two moves\n    moves: [a1-b1x1, c1-c2x1]\n"


def test_a_folder_of_focusgame_programs_is_graded_into_gradescope_junit_html_and_csv(
        tmp_path):
    subs = tmp_path / "subs"
    make("focusgame", subs)
    (subs / "FocusGame.py").rename(subs / "alice.py")
    make("focusgame", subs, mutant="no_turn_order")
    (subs / "FocusGame.py").rename(subs / "bob.py")
    (subs / "notes.py").write_text("print('not a submission')\n")
    (tmp_path / "grading.yaml").write_text(GRADING)
    (tmp_path / "course.yaml").write_text(SCENARIO)
    r = run_hexkit("grade", "subs", "--config", "grading.yaml", "--results", "out",
                   cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    table = r.stdout.splitlines()
    assert table[1].split()[:4] == ["alice", "100", "/", "100"]
    assert table[2].split()[:4] == ["bob", "60", "/", "100"]
    rows = list(csv.DictReader((tmp_path / "out" / "summary.csv").open()))
    assert [(row["submission"], row["score"], row["max_score"]) for row in rows] == [
        ("alice", "100", "100"), ("bob", "60", "100")]
    results = json.loads((tmp_path / "out" / "bob" / "results.json").read_text())
    assert results["score"] == 60
    tests = {t["name"]: t for t in results["tests"]}
    assert set(tests) == {"movement", "captures", "reserve", "winning", "scenarios: course.yaml"}
    assert tests["movement"]["status"] == "failed" and tests["movement"]["max_score"] == 40
    assert "game.move_piece(" in tests["movement"]["output"]
    assert tests["winning"]["visibility"] == "after_due_date"
    suite = ET.parse(tmp_path / "out" / "bob" / "junit.xml").getroot()
    assert suite.get("tests") == "5" and suite.get("failures") == "1"
    page = (tmp_path / "out" / "bob" / "report.html").read_text()
    assert "<svg" in page and "movement: 0 / 40 (failed)" in page


def test_a_mistake_in_grading_yaml_is_one_line_with_its_line_number(tmp_path):
    (tmp_path / "grading.yaml").write_text("weights: {movement: 10}\ntrajectores: {random: 1}\n")
    make("focusgame", tmp_path)
    r = run_hexkit("grade", "--reference", "focus", "--config", "grading.yaml",
                   "FocusGame.py", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip() == ("hexkit: error: grading.yaml:2: unknown grading.yaml key "
                                "'trajectores' (did you mean 'trajectories'?)")


def test_a_kind_setting_no_kind_reads_or_a_bad_value_is_refused_in_one_line(tmp_path):
    (tmp_path / "grading.yaml").write_text("kind: {printd: ignore}\n")
    make("focusgame", tmp_path)
    r = run_hexkit("grade", "--reference", "focus", "--config", "grading.yaml",
                   "FocusGame.py", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stderr.strip() == ("hexkit: error: grading.yaml kind: no submission kind reads "
                                "the setting 'printd' (did you mean 'printed'?)")
    with pytest.raises(OptionError, match="printed: 'loud' is not one of compare, ignore"):
        FocusGameKind().check_settings({"printed": "loud"})


def test_something_of_no_known_kind_is_graded_zero_and_the_run_goes_on(tmp_path):
    (tmp_path / "essay.py").write_text("print('hello')\n")
    r = run_hexkit("grade", "--reference", "focus", "--one", "essay.py", "--quiet",
                   cwd=tmp_path)
    assert r.returncode == 0
    results = json.loads((tmp_path / "results" / "essay" / "results.json").read_text())
    assert results["score"] == 0 and "not a submission of any known kind" in results["output"]


def test_the_bundle_holds_what_gradescope_runs(tmp_path):
    (tmp_path / "grading.yaml").write_text(GRADING)
    (tmp_path / "course.yaml").write_text(SCENARIO)
    r = run_hexkit("grade", "bundle", "--config", "grading.yaml", "-o", "auto.zip",
                   cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    with zipfile.ZipFile(tmp_path / "auto.zip") as zf:
        names = set(zf.namelist())
        run = zf.read("run_autograder").decode()
        mode = zf.getinfo("run_autograder").external_attr >> 16
    assert {"setup.sh", "run_autograder", "grading.yaml", "course.yaml",
            "hexkit-src/pyproject.toml"} <= names
    assert mode & 0o111
    assert "hexkit grade --reference focus --config grading.yaml --one" in run
    # /autograder on Gradescope, another root for a trial run (benchmarks/grade_bundle.py)
    assert 'ROOT="${AUTOGRADER_ROOT:-/autograder}"' in run
    assert '"$ROOT/results/results.json"' in run


def test_a_ray_start_that_times_out_is_explained_in_one_line():
    why = start_failure(Exception("The current node timed out during startup. This could "
                                  "happen because some of the raylet failed to startup"))
    assert why.startswith("its raylet did not register within Ray's 30-second wait")
    assert "\n" not in why


def test_a_hexaround_bundle_installs_the_jdk_that_compiles_java_projects(tmp_path):
    from hexkit.grading.bundle import write_bundle
    from hexkit.grading.config import GradingConfig

    for reference, wanted in (("hexaround(config=level2)", True), ("focus", False)):
        write_bundle(tmp_path / "a.zip", reference, GradingConfig(), pip="hexkit-games")
        with zipfile.ZipFile(tmp_path / "a.zip") as zf:
            setup = zf.read("setup.sh").decode()
        assert ("apt-get install -y default-jdk-headless" in setup) is wanted
        assert "pip\" install hexkit-games" in setup
