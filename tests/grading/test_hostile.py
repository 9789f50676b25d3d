"""Hostile submissions are graded within their limits, with failed tests that say what
happened, and nothing they write outside their folder is kept."""

from __future__ import annotations

import re

from hexkit.grading.grader import grade

from .conftest import small_config
from .corpus import ESCAPE, pristine


def test_a_loop_in_a_call_is_stopped_by_the_per_call_deadline(graded):
    # One game: each stopped call burns its whole deadline of CPU in the loop.
    result = graded("focusgame", hostile="loop", call_limit=0.25, random=1, bot=0)
    assert result.score == 0
    assert any("no answer within 0.25 s" in t.output for t in result.tests)
    # The game stops at the first call that loops; nothing after it is played.
    assert any("(0 of " in t.output and " calls could be compared)" in t.output
               for t in result.tests)


def test_a_sleeping_program_is_graded_within_the_whole_time_limit(graded):
    result = graded("hexbaron", hostile="sleep", time_limit=6, call_limit=30)
    assert result.score == 0
    # (on a loaded machine the 6 s may run out while the program is still being loaded)
    assert any("time limit (6 s) ran out" in t.output or "no answer within" in t.output
               for t in result.tests)
    # A call waits no longer than what is left of the whole 6 s, never its own 30 s.
    waits = [float(w) for t in result.tests
             for w in re.findall(r"no answer within ([0-9.]+) s", t.output)]
    assert all(w <= 6 for w in waits), waits


def test_os_exit_at_import_fails_every_test_with_one_line(graded):
    result = graded("focusgame", hostile="exit_at_import")
    assert result.score == 0 and len(result.tests) == 5  # the rule groups and output
    assert result.error == ("the submission could not be loaded: the submission ended its "
                            "process (exit status 3) while it was being loaded")


def test_a_write_outside_the_folder_is_refused_and_leaves_nothing(graded):
    ESCAPE.unlink(missing_ok=True)
    result = graded("focusgame", hostile="write_outside", random=1, bot=0)
    assert not ESCAPE.exists()
    assert result.score < result.max_score
    assert any("PermissionError: the grader does not allow this: writing "
               "/tmp/hexkit-grade-escape.txt" in t.output for t in result.tests)


def test_eating_memory_is_a_memory_error_not_a_dead_grader(graded):
    result = graded("plugin", hostile="memory", random=1, bot=0, length=20)
    assert result.score == 0
    assert any("MemoryError" in t.output for t in result.tests)


def test_a_submission_folder_that_holds_the_temporary_folder_is_copied_once(tmp_path,
                                                                            monkeypatch):
    """Grading a folder that holds the grader's temporary folder (e.g. /tmp itself) copies
    it into the sandbox's folder once, without the sandbox folder (it would copy itself
    until the disk is full)."""
    import tempfile
    from pathlib import Path

    from hexkit.grading.sandbox import Budget, Limits, Sandbox

    (tmp_path / "plugin.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    sandbox = Sandbox("hexkit.grading.drivers:PluginDriver", {}, {"submission/s": tmp_path},
                      Limits(), Budget(10))
    try:
        assert sandbox.folder.parent == tmp_path
        copied = sorted(p.relative_to(sandbox.work).as_posix()
                        for p in Path(sandbox.work).rglob("*"))
        assert copied == ["submission", "submission/s", "submission/s/plugin.py"]
    finally:
        sandbox.close()


def test_a_submission_that_dies_at_the_start_of_every_game_is_played_no_further():
    """Five games in a row without a first answer (a crash, an exit): the rest would each
    cost a restart and check nothing."""
    from hexkit.grading.config import GradingConfig
    from hexkit.grading.grader import MAX_DEAD_STARTS, GradeResult, TrajectoryCache, _play
    from hexkit.grading.kind import Run, Session, Trajectory
    from hexkit.grading.sandbox import Budget

    class Dying(Session):
        groups = ("movement", "winning")
        played = 0

        def trajectories(self, plan):
            return [Trajectory(f"game {i}", "random", {}, ["a", "b"]) for i in range(20)]

        def expected(self, trajectory, detail=False):
            return [{"result": "ok"} for _ in trajectory.calls]

        def actual(self, trajectory, detail=False):
            self.played += 1
            return Run([], "the process exited with status 3 during the call")

        def classify(self, trajectory, index, expected, actual):
            return "movement"

        def explain(self, trajectory, index, expected, actual, failure):
            return [f"stopped: {failure}"]

    session = Dying()
    result = GradeResult("dying", "dying", "test")
    _play(session, "test", "ref", GradingConfig(), None, Budget(60), result, TrajectoryCache())
    # Five games (and the replays that shorten the first difference), not twenty.
    assert MAX_DEAD_STARTS <= session.played < 10
    assert [t.status for t in result.tests] == ["failed", "failed"]
    assert result.tests[1].output == ("not checked: the submission stopped answering at the "
                                      "first call of 5 games in a row, so it was played no "
                                      "further")



def _originality(result):
    return [t for t in result.tests if t.name == "originality"]


def test_a_program_that_passes_off_the_reference_as_its_own_is_reported(tmp_path, cache):
    """A FocusGame class that only subclasses hexkit's own Focus answers as the reference:
    its scores stand, and a failed, unscored test tells the instructor what it imported."""
    program = tmp_path / "FocusGame.py"
    program.write_text("from focus.course import FocusGame as _Reference\n\n\n"
                       "class FocusGame(_Reference):\n    pass\n", encoding="utf-8")
    result = grade(program, "focus", small_config(random=1, bot=0, length=20), cache=cache)
    [report] = _originality(result)
    assert report.status == "failed" and report.max_score == 0
    assert report.output.startswith("the submission imports 'focus' from hexkit, the "
                                    "reference implementation it is graded against")


def test_a_plugin_whose_modules_import_the_installed_reference_is_reported(tmp_path, cache):
    """The corpus's plugin, its package renamed: its ``focus.*`` imports now find the
    installed reference game, not its own modules."""
    package = pristine("plugin", tmp_path / "copy").rename(tmp_path / "myfocus")
    result = grade(package, "focus", small_config(random=1, bot=0, length=20), cache=cache)
    assert [t.output.split(" from ")[0] for t in _originality(result)] == [
        "the submission imports 'focus'"]


def test_a_plugin_package_named_after_the_reference_imports_its_own_modules(graded):
    """The corpus's pristine plugin keeps the package name ``focus``: its imports find its
    own folder, and nothing is reported."""
    result = graded("plugin", random=1, bot=0, length=20)
    assert result.score == result.max_score and _originality(result) == []
