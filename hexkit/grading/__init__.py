"""``hexkit grade``: the course's autograder, a referee rather than a test list.

It plays each submission and the reference side by side on many seeded trajectories
(random, bot-guided, and the moves of scenario files), in a sandboxed process with
deadlines, compares every observation the submission's kind allows, and shrinks every
difference to the shortest sequence of calls that shows it. Modules:

* :mod:`~hexkit.grading.kind`: the interface one kind of submission implements;
* :mod:`~hexkit.grading.sandbox`, :mod:`~hexkit.grading.guard`, :mod:`~hexkit.grading.child`,
  :mod:`~hexkit.grading.drivers`: the submission's own process and what runs in it;
* :mod:`~hexkit.grading.observe`: what is compared of a plugin, through the game API;
* :mod:`~hexkit.grading.shrink`: differences and delta debugging;
* :mod:`~hexkit.grading.plugin_kind`: hexkit plugins (course programs' kinds live with
  their games: ``focus``, ``hexbaron``);
* :mod:`~hexkit.grading.config`, :mod:`~hexkit.grading.grader`, :mod:`~hexkit.grading.batch`,
  :mod:`~hexkit.grading.reports`, :mod:`~hexkit.grading.bundle`: weights, scores, many
  submissions, Gradescope/JUnit/HTML/CSV output and the Gradescope autograder zip.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class KindSpec:
    """A kind of submission, registered through ``hexkit_register_grading_kinds``.

    ``factory`` is a :class:`~hexkit.grading.kind.Kind` class or its ``"module:Class"``
    reference (imported only when something is graded); ``priority``: kinds are asked to
    recognise a submission in increasing order (a plugin before a course program)."""

    name: str
    description: str
    factory: Any
    priority: int = 50
    plugin: str = ""

    def make(self) -> Any:
        """The kind object."""
        from hexkit.game import import_object

        factory = import_object(self.factory) if isinstance(self.factory, str) else self.factory
        return factory()
