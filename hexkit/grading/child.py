"""The submission's process: ``python -m hexkit.grading.child DRIVER REQUEST_FD ANSWER_FD``.

It reads JSON requests on its request pipe and writes JSON answers on its answer pipe. The
first request says what to load; the driver (``DRIVER``, a ``"module:Class"`` chosen by the
grader) loads the submission after the guard is installed, and answers ``{"ready": info}``
or ``{"failed": "one line"}``. Every later request is ``{"calls": [...], ...}``: the driver
yields one observation per call, each sent at once (the grader's per-call deadline runs
between two of them), then ``{"end": true}``. Whatever the submission prints goes to the
process's standard output, a log file, never into the answers.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any


def _what(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__


def main(argv: list[str]) -> int:
    driver_ref, request_fd, answer_fd = argv[0], int(argv[1]), int(argv[2])
    requests = os.fdopen(request_fd, "r", encoding="utf-8")
    answers = os.fdopen(answer_fd, "w", encoding="utf-8")

    def send(message: dict[str, Any]) -> None:
        answers.write(json.dumps(message, default=str) + "\n")
        answers.flush()

    from hexkit.game import import_object
    from hexkit.grading import guard

    driver_class = import_object(driver_ref)
    start = json.loads(requests.readline() or "{}")
    guard.install(os.getcwd())
    guard.watch_reference(start.get("reference", ()), os.getcwd())
    try:
        driver = driver_class(start)
    except BaseException as exc:  # the submission's import may raise anything
        send({"failed": getattr(exc, "grading_message", None) or _what(exc)})
        return 0
    send({"ready": {**driver.info(), "reference_imports": guard.reference_imports()}})
    for line in requests:
        request = json.loads(line)
        try:
            for observation in driver.run(request):
                send({"obs": observation})
        except BaseException as exc:  # a driver's own failure, not the submission's
            send({"fatal": f"the grader's driver failed: {_what(exc)}"})
            return 1
        send({"end": True, "reference_imports": guard.reference_imports()})
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
