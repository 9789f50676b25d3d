"""A trial run of ``hexkit grade bundle``'s autograder, laid out as Gradescope lays it out.

Writes the zip, unpacks it into ``ROOT/source``, copies ``run_autograder`` to
``ROOT/run_autograder``, runs ``setup.sh`` as Gradescope does when it builds the image (a
fresh venv in ``ROOT/venv`` and hexkit installed into it with pip, from the zip's source),
then for each submission puts its file alone in ``ROOT/submission``, empties
``ROOT/results`` and runs ``run_autograder``, and reads ``ROOT/results/results.json``.
``ROOT`` is a temporary folder given to the scripts as ``AUTOGRADER_ROOT`` (on Gradescope
it is ``/autograder``). The submissions are the corpus's pristine FocusGame, a mutant and
a program that does not even import; each line says what Gradescope would show.

    python benchmarks/grade_bundle.py            # about a minute (pip install) plus grading
    python benchmarks/grade_bundle.py --keep     # keep the folder to look around
    python benchmarks/grade_bundle.py --again DIR --keep   # run the kept trial again
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.grading.corpus import make  # noqa: E402

GRADING = """\
reference: focus
weights: {movement: 40, captures: 20, reserve: 10, winning: 20}
scenarios: {course.yaml: 10}
visibility: {winning: after_due_date}
trajectories: {random: 3, bot: 1, length: 80}
"""
SCENARIO = "game: focus\nscenarios:\n  - name: two moves\n    moves: [a1-b1x1, c1-c2x1]\n"


def run(command: list[str], env: dict[str, str], cwd: Path, log: Path) -> tuple[int, float]:
    started = time.monotonic()
    with log.open("w") as out:
        status = subprocess.run(command, env=env, cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT).returncode
    return status, time.monotonic() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", action="store_true", help="keep the trial folder")
    parser.add_argument("--again", metavar="DIR", default=None,
                        help="a kept trial folder: bundle again, keep its venv (no setup.sh)")
    args = parser.parse_args()
    base = Path(args.again) if args.again else Path(tempfile.mkdtemp(prefix="gradescope-"))
    root = base / "autograder"
    work = base / "instructor"
    for old in (work, root / "source", base / "subs"):
        shutil.rmtree(old, ignore_errors=True)
    work.mkdir(parents=True)
    (work / "grading.yaml").write_text(GRADING)
    (work / "course.yaml").write_text(SCENARIO)
    made = subprocess.run([sys.executable, "-m", "hexkit", "grade", "bundle", "--config",
                           "grading.yaml", "-o", "autograder.zip"], cwd=work,
                          capture_output=True, text=True)
    print(made.stdout.strip() or made.stderr.strip())
    if made.returncode:
        return 1
    source = root / "source"
    with zipfile.ZipFile(work / "autograder.zip") as zf:
        zf.extractall(source)
        for info in zf.infolist():  # Gradescope keeps the scripts' modes; extractall does not
            if info.external_attr >> 16 & 0o111:
                (source / info.filename).chmod(0o755)
    shutil.copy2(source / "run_autograder", root / "run_autograder")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env["AUTOGRADER_ROOT"] = str(root)
    env["PATH"] = ":".join(p for p in env.get("PATH", "").split(":") if "venv" not in p)
    if args.again:
        status, seconds = 0, 0.0
    else:
        status, seconds = run(["bash", "./setup.sh"], env, source, base / "setup.log")
    print(f"setup.sh: exit status {status} in {seconds:.0f} s (log {base / 'setup.log'})")
    if status:
        print((base / "setup.log").read_text()[-3000:])
        return 1
    pristine = make("focusgame", base / "subs" / "pristine").parent
    mutant = make("focusgame", base / "subs" / "mutant", "no_turn_order").parent
    broken = base / "subs" / "broken" / "FocusGame.py"
    broken.parent.mkdir(parents=True)
    broken.write_text("import not_a_module\nclass FocusGame:\n    pass\n")
    failures = 0
    for name, folder, want in (("pristine", pristine, 100), ("no_turn_order", mutant, 60),
                               ("broken", broken.parent, 0)):
        shutil.rmtree(root / "submission", ignore_errors=True)
        shutil.rmtree(root / "results", ignore_errors=True)
        (root / "results").mkdir(parents=True)
        shutil.copytree(folder, root / "submission")
        status, seconds = run([str(root / "run_autograder")], env, root,
                              base / f"run-{name}.log")
        results = json.loads((root / "results" / "results.json").read_text())
        failed = [t for t in results.get("tests", []) if t.get("status") != "passed"]
        first = failed[0]["name"] if failed else "-"
        most = sum(t.get("max_score", 0) for t in results.get("tests", []))
        print(f"run_autograder {name:<14} exit {status}  {seconds:5.1f} s  score "
              f"{results.get('score'):g} / {most:g}  "
              f"tests {len(results.get('tests', []))}  first failed: {first}")
        failures += results.get("score") != want
    leftovers = [p for p in root.iterdir() if p.name not in (
        "source", "submission", "results", "venv", "run_autograder")]
    if leftovers:
        print(f"FAIL: the run left {leftovers}")
        failures += 1
    if args.keep:
        print(f"kept: {base}")
    else:
        shutil.rmtree(base)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
