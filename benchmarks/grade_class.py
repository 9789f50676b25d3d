"""Time ``hexkit grade``: one submission of each kind, and a class of N submissions of one
kind (the corpus's pristine submission and its mutants, repeated), on this machine.

Prints wall time and CPU time (this process and every process it waited for: workers and
the submissions' sandboxes) for each run.

    python benchmarks/grade_class.py                 # one of each kind
    python benchmarks/grade_class.py --class 100 --kind focusgame --jobs 2
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from hexkit.grading import batch  # noqa: E402
from hexkit.grading.config import GradingConfig  # noqa: E402
from tests.grading.corpus import MUTANTS, REFERENCE, make  # noqa: E402


def cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def grade_all(tasks: list[batch.Task], jobs: int) -> tuple[float, float, list[float]]:
    scores: list[float] = []
    wall, used = time.monotonic(), cpu()
    batch.run_local(tasks, jobs, lambda name, r: scores.append(r.score))
    return time.monotonic() - wall, cpu() - used, scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", choices=sorted(MUTANTS))
    parser.add_argument("--class", dest="size", type=int, default=0,
                        help="grade a class of this many submissions")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.kind or sorted(MUTANTS):
            names = [None, *(m.name for m in MUTANTS[kind])]
            count = args.size or 1
            tasks = []
            for i in range(count):
                mutant = names[i % len(names)]
                path = make(kind, Path(tmp) / kind / f"s{i}", mutant)
                tasks.append(batch.Task(f"s{i}", str(path), REFERENCE[kind], GradingConfig(),
                                        None, None, ()))
            wall, used, scores = grade_all(tasks, args.jobs)
            print(f"{kind}: {count} submission(s), --jobs {args.jobs}: {wall:.1f} s wall, "
                  f"{used:.1f} s CPU ({used / count:.2f} s CPU each); "
                  f"{sum(s == 100 for s in scores)} full scores")
    return 0


if __name__ == "__main__":
    sys.exit(main())
