"""``hexkit grade``: grade submissions against a reference game (see docs/grading.md).

``hexkit grade --reference GAME SUBMISSION...`` writes ``DIR/<name>/results.json``
(Gradescope), ``junit.xml`` and ``report.html`` for each submission and ``DIR/summary.csv``,
and prints a table; ``hexkit grade bundle --reference GAME -o autograder.zip`` writes the
zip Gradescope's autograder expects. The exit status is 0 when every submission was graded,
whatever the scores.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, TYPE_CHECKING

from hexkit import plugins
from hexkit.errors import OptionError

if TYPE_CHECKING:
    from hexkit.grading.config import GradingConfig
    from hexkit.grading.grader import GradeResult

EPILOG = """\
Submission kinds, recognised by their content: a hexkit plugin (a .py file, a package or
a project registering one game, any name), an OSU CS162 FocusGame.py (--reference focus),
an AQA Hex Baron console program (--reference hexbaron), and any kind another plugin
registers. A folder holding several submissions grades each.

  hexkit grade --reference focus submissions/ --results results/ --jobs 2
  hexkit grade --reference focus --config grading.yaml alice.py
  hexkit grade bundle --reference focus --config grading.yaml -o autograder.zip
"""


def configure(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hexkit grade``."""
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("submissions", nargs="+", metavar="SUBMISSION",
                        help="submission files or folders (or 'bundle' to write a Gradescope "
                             "autograder zip)")
    parser.add_argument("--reference", default=None, metavar="GAME",
                        help="the reference game string, e.g. focus or "
                             "'hexaround(config=level2)' (default: grading.yaml's)")
    parser.add_argument("--results", default="results", metavar="DIR",
                        help="where reports go (default: results)")
    parser.add_argument("--config", default=None, metavar="FILE",
                        help="grading.yaml: weights, visibility, scenario files, trajectories")
    parser.add_argument("--scenarios", action="append", default=[], metavar="PATH",
                        help="a scenario file or folder whose moves are played too, as a test "
                             "of its own (repeatable)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="the whole grading of one submission (default 120)")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="grade N submissions at a time on this machine")
    parser.add_argument("--backend", choices=("local", "ray"), default="local",
                        help="local processes, or Ray (pip install 'hexkit-games[ray]')")
    parser.add_argument("--address", default=None, metavar="ADDR",
                        help="a Ray cluster's address (with --backend ray)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="seed of the trajectories (default: grading.yaml's, else 0)")
    parser.add_argument("-o", "--output", default=None, metavar="ZIP",
                        help="(bundle) the zip to write (default: autograder.zip)")
    parser.add_argument("--pip", default=None, metavar="SPEC",
                        help="(bundle) what setup.sh installs (default: this hexkit's source "
                             "when run from a checkout, else hexkit-games==VERSION)")
    parser.add_argument("--one", action="store_true",
                        help="each SUBMISSION is one submission, even a folder holding several "
                             "programs (its reports go to DIR/submission when it is named so)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _config(args: argparse.Namespace) -> tuple[GradingConfig, str]:
    from hexkit.grading.config import GradingConfig, load_config

    config = load_config(args.config) if args.config else GradingConfig()
    for path in args.scenarios:
        target = Path(path)
        if not target.exists():
            raise OptionError(f"--scenarios {path}: no such file or folder")
        config.add_scenarios(target)
    reference = args.reference or config.reference
    if not reference:
        raise OptionError("name the reference game: --reference GAME (e.g. focus), or "
                          "'reference:' in grading.yaml")
    base = plugins.parse_game_string(reference)[0]
    plugins.registry().game_spec(base)  # an unknown game is refused at once
    _check_kind_settings(config.kind)
    return config, reference


def _check_kind_settings(settings: dict[str, object]) -> None:
    """grading.yaml's ``kind:`` settings: each read by some kind, with a value it takes."""
    from hexkit.grading.grader import kinds
    from hexkit.suggest import closest

    known: set[str] = set()
    for _name, kind in kinds():
        known.update(kind.settings)
        kind.check_settings(settings)
    for key in settings:
        if key not in known:
            close = closest(key, known)
            hint = f" (did you mean '{close}'?)" if close else \
                f" (known: {', '.join(sorted(known)) or 'none'})"
            raise OptionError(f"grading.yaml kind: no submission kind reads the setting "
                              f"{key!r}{hint}")


def run(args: argparse.Namespace, stdout: IO[str] | None = None,
        stderr: IO[str] | None = None) -> int:
    """Grade every submission; 0 when all were graded."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    if args.submissions[0] == "bundle":
        return _bundle(args, out)
    if args.output or args.pip:
        raise OptionError("-o and --pip are for 'hexkit grade bundle'")
    if args.time_limit is not None and args.time_limit <= 0:
        raise OptionError("--time-limit must be more than 0 seconds")
    from hexkit.grading import batch, reports
    from hexkit.tournament.backends import check_jobs
    from hexkit.tournament.progress import ProgressBar

    check_jobs(args.jobs)
    if args.address and args.backend != "ray":
        raise OptionError("--address does not apply without --backend ray")
    config, reference = _config(args)
    found = ([(Path(p).name.removesuffix(".py") or p, Path(p)) for p in args.submissions]
             if args.one else batch.find_submissions(args.submissions))
    for _name, path in found:
        if not path.exists():
            raise OptionError(f"no such submission: {path}")
    results_dir = Path(args.results)
    results_dir.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    folders = {name: reports.folder_name(name, taken) for name, _ in found}
    tasks = [batch.Task(name, str(path), reference, config, args.time_limit,
                        args.seed, tuple(plugins.configured_dirs())) for name, path in found]
    rows: list[tuple[str, GradeResult]] = []
    bar = None if args.quiet else ProgressBar("grading", len(tasks), err, unit="submissions")

    def on_result(name: str, result: GradeResult) -> None:
        reports.write_submission(results_dir / folders[name], result)
        rows.append((folders[name], result))
        reports.write_summary(results_dir / "summary.csv", sorted(rows, key=lambda r: r[0]))
        if bar is not None:
            bar.game_done(name, len(rows), f"last: {name} "
                          f"{result.score:g}/{result.max_score:g}")

    try:
        if args.backend == "ray":
            batch.run_ray(tasks, args.address, None if args.address else args.jobs, on_result)
        else:
            batch.run_local(tasks, args.jobs, on_result)
    finally:
        if bar is not None:
            bar.close()
    rows.sort(key=lambda row: row[0])
    reports.print_table(rows, out)
    print(f"{len(rows)} submission(s) graded; reports in {results_dir}/ "
          f"(summary.csv, <name>/results.json, junit.xml, report.html)", file=out)
    return 0


def _bundle(args: argparse.Namespace, out: IO[str]) -> int:
    from hexkit.grading.bundle import write_bundle

    if len(args.submissions) != 1:
        raise OptionError("'hexkit grade bundle' takes no submissions: --reference GAME "
                          "[--config grading.yaml] -o autograder.zip")
    config, reference = _config(args)
    target = Path(args.output or "autograder.zip")
    write_bundle(target, reference, config, pip=args.pip,
                 config_file=Path(args.config) if args.config else None)
    print(f"wrote {target}: upload it as the Gradescope autograder (setup.sh installs "
          "hexkit; run_autograder grades /autograder/submission)", file=out)
    return 0
