"""Hostile submissions are graded within their limits, with failed tests that say what
happened, and nothing they write outside their folder is kept."""

from __future__ import annotations

import re

from .corpus import ESCAPE


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
