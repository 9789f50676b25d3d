"""The whole Java HexAround corpus: the pristine project and every planted rule bug, played
side by side with hexkit's facade (the reference).

Run: python benchmarks/grade_java_corpus.py [--seeds N] [--update]

1. Compiles the pristine project and every mutant of tests/grading/java/mutants.yaml in one
   batch (CPU and wall time).
2. Plays the seeded scripts of every configuration (the course's variants and the
   everything variant) on the pristine project: every answer must name the reference's
   result.
3. For each mutant: replays the script its ``exposed_by`` names, then searches the scripts
   (seeds x configurations, in order; seed s is steered to the ending GOALS[s % 5], None
   being a random game) for the first that exposes it, as a grader's play would; reports
   the number of scripts tried and the length of the counterexample (the calls up to the
   first differing answer).

``--update`` writes the scripts found into mutants.yaml (after a change to the script
generator moves them). The exit status is 1 if the pristine project differs anywhere or a
mutant is not caught.
"""

from __future__ import annotations

import argparse
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hexaround import probes  # noqa: E402

from hexkit.grading.hexaround_java import (  # noqa: E402
    CompiledProject,
    HexAroundJava,
    compile_projects,
)
from tests.grading.java import corpus  # noqa: E402

SEARCH_ORDER = ("everything", "level3", "level2", "level1", "submission1", "submission2",
                "first-configuration", "b23-sample")
#: The steering of the script of seed s: GOALS[s % len(GOALS)] (None: a random game).
GOALS = (None, *probes.GOALS)


def cpu() -> float:
    """CPU seconds of this process and its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def update_witnesses(found: dict[str, tuple[str, int]]) -> None:
    text = corpus.MUTANTS.read_text(encoding="utf-8")
    for mid, (config, seed) in found.items():
        pattern = re.compile(r"(- id: " + re.escape(mid) + r"\n(?:    .*\n)*?    exposed_by: )"
                             r"\{[^}]*\}")
        goal = GOALS[seed % len(GOALS)]
        witness = f"{{config: {config}, seed: {seed}" + (f", goal: {goal}" if goal else "") + "}"

        def keep_prefix(m: re.Match[str], w: str = witness) -> str:
            return m.group(1) + w
        text, n = pattern.subn(keep_prefix, text)
        assert n == 1, mid
    corpus.MUTANTS.write_text(text, encoding="utf-8")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=150, help="scripts per configuration")
    ap.add_argument("--pristine-seeds", type=int, default=20,
                    help="scripts per configuration for the pristine project")
    ap.add_argument("--update", action="store_true", help="write the scripts found")
    args = ap.parse_args()
    failed = False
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        configs = corpus.write_configs(tmp / "configs")
        mutants = corpus.load_mutants()
        sources = [corpus.make_project(tmp)] + [corpus.make_project(tmp, m) for m in mutants]
        c0, w0 = cpu(), time.perf_counter()
        compiled = compile_projects(sources, cache_dir=tmp / "cache")
        print(f"compiled {len(sources)} projects in one batch: CPU {cpu() - c0:.1f} s, "
              f"wall {time.perf_counter() - w0:.1f} s")
        projects = [r for r in compiled if isinstance(r, CompiledProject)]
        if len(projects) != len(sources):
            for r in compiled:
                if not isinstance(r, CompiledProject):
                    print(f"  {r}")
            return 1
        pristine, *rest = projects
        c0, w0 = cpu(), time.perf_counter()
        calls = 0
        with HexAroundJava(pristine) as java:
            for name in SEARCH_ORDER:
                for seed in range(args.pristine_seeds):
                    script = corpus.script(configs[name], seed, goal=GOALS[seed % len(GOALS)])
                    calls += len(script)
                    diff = corpus.first_difference(java, configs[name], script)
                    if diff is not None:
                        failed = True
                        print(f"  pristine differs: {name} seed {seed}: {diff}")
        print(f"pristine: {calls} calls in {args.pristine_seeds * len(SEARCH_ORDER)} scripts, "
              f"{'all answers as the reference' if not failed else 'DIFFERENCES'}; "
              f"CPU {cpu() - c0:.1f} s, wall {time.perf_counter() - w0:.1f} s")
        print(f"\n{'mutant':32} {'witness':>8} {'found by':>22} {'tried':>6} {'length':>6} "
              f"{'CPU s':>6}")
        found: dict[str, tuple[str, int]] = {}
        lengths = []
        for mutant, project in zip(mutants, rest, strict=True):
            c0 = cpu()
            with HexAroundJava(project) as java:
                path = configs[mutant.config]
                witness = corpus.first_difference(java, path, corpus.script(
                    path, mutant.seed, goal=mutant.goal))
                hit = None
                tried = 0
                for seed in range(args.seeds):
                    for name in SEARCH_ORDER:
                        tried += 1
                        diff = corpus.first_difference(java, configs[name], corpus.script(
                            configs[name], seed, goal=GOALS[seed % len(GOALS)]))
                        if diff is not None:
                            hit = (name, seed, diff)
                            break
                    if hit:
                        break
            if hit is None:
                failed = True
                print(f"{mutant.id:32} {'yes' if witness else 'NO':>8} {'NOT CAUGHT':>22} "
                      f"{tried:>6} {'':>6} {cpu() - c0:6.1f}")
                continue
            name, seed, diff = hit
            found[mutant.id] = (name, seed)
            lengths.append(diff.index)
            if witness is None:
                failed = True
            print(f"{mutant.id:32} {'yes' if witness else 'NO':>8} {f'{name} #{seed}':>22} "
                  f"{tried:>6} {diff.index:>6} {cpu() - c0:6.1f}")
        caught = len(found)
        print(f"\ncaught {caught} of {len(mutants)} mutants; counterexample length (calls to "
              f"the first differing answer, unshrunk): min {min(lengths, default=0)}, median "
              f"{sorted(lengths)[len(lengths) // 2] if lengths else 0}, max "
              f"{max(lengths, default=0)}")
        if args.update and found:
            update_witnesses(found)
            print(f"wrote {len(found)} scripts into {corpus.MUTANTS}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
