"""The grading corpus stays in step with the code it copies: every planted bug and every
hostile change still applies to its pristine submission (the plugin kind's pristine
submission is a copy of the built-in Focus plugin, which moves on)."""

from __future__ import annotations

import pytest

from .corpus import HOSTILE_CODE, MUTANTS, make


@pytest.mark.parametrize("kind", sorted(MUTANTS))
def test_every_planted_bug_and_hostile_change_applies_to_the_pristine_submission(
        kind, tmp_path):
    for mutant in MUTANTS[kind]:
        make(kind, tmp_path / mutant.name, mutant.name)
    for hostile in HOSTILE_CODE:
        make(kind, tmp_path / f"hostile_{hostile}", None, hostile)
