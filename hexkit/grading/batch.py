"""A whole class: finding the submissions, grading them here, in local processes
(``--jobs N``) or on Ray (``--backend ray``), with a progress bar.

Each submission already runs in a sandboxed process of its own; the workers here run the
grader (the reference's side and the comparisons), one submission each at a time. The
results come back as plain data, whatever the backend, in the order they finish; the
caller writes reports as they arrive, so an interrupted run keeps what was graded.
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hexkit import plugins
from hexkit.grading.config import GradingConfig
from hexkit.grading.grader import GradeResult, TrajectoryCache, grade, kinds, recognise

OnResult = Callable[[str, GradeResult], None]


@dataclass(frozen=True)
class Task:
    """One submission to grade (plain data, for any backend)."""

    name: str
    path: str
    reference: str
    config: GradingConfig
    time_limit: float | None
    seed: int | None
    plugin_dirs: tuple[str, ...]


def _is_single(folder: Path) -> bool:
    return ((folder / "__init__.py").is_file() or (folder / "pyproject.toml").is_file()
            or any(folder.glob("*.java")) or (folder / "src").is_dir())


def find_submissions(paths: Iterable[str]) -> list[tuple[str, Path]]:
    """(name, path) of every submission: each argument is a submission (a file, a package,
    a project), or a folder of submissions (one per file or subfolder that some kind
    recognises). A folder where only one file is recognised, beside other Python files, is
    one submission (a plugin in several modules)."""
    available = kinds()
    out: list[tuple[str, Path]] = []
    for text in paths:
        path = Path(text)
        if not path.exists():
            out.append((path.name or text, path))
            continue
        if path.is_file() or _is_single(path):
            out.append((_name(path), path))
            continue
        children = [c for c in sorted(path.iterdir())
                    if not c.name.startswith((".", "_")) and (c.is_dir() or c.suffix in (
                        ".py", ".zip"))]
        known = [c for c in children if recognise(c, available) is not None]
        python = [c for c in children if c.suffix == ".py"]
        if len(known) == 1 and known[0].suffix == ".py" and len(python) > 1:
            out.append((_name(path), path))
        elif known:
            out.extend((_name(c), c) for c in known)
        else:
            out.append((_name(path), path))
    return out


def _name(path: Path) -> str:
    name = path.name
    for suffix in (".py", ".zip"):
        if name.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name or str(path)


_cache: TrajectoryCache | None = None


def grade_task(task: Task) -> dict[str, Any]:
    """Grade one submission in this process; the result as plain data."""
    global _cache
    if plugins.configured_dirs() != list(task.plugin_dirs):
        plugins.configure(task.plugin_dirs)
    if _cache is None:
        _cache = TrajectoryCache()
    result = grade(Path(task.path), task.reference, task.config, name=task.name,
                   time_limit=task.time_limit, seed=task.seed, cache=_cache)
    return result.to_dict()


def run_local(tasks: list[Task], jobs: int, on_result: OnResult) -> None:
    """Grade here (``jobs`` 1) or in ``jobs`` local worker processes."""
    if jobs <= 1:
        for task in tasks:
            on_result(task.name, GradeResult.from_dict(grade_task(task)))
        return
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {pool.submit(grade_task, task): task for task in tasks}
        try:
            for future in concurrent.futures.as_completed(futures):
                task = futures[future]
                try:
                    result = GradeResult.from_dict(future.result())
                except Exception as exc:  # a worker lost (killed from outside)
                    result = _lost(task, f"its grading worker was lost: {exc}")
                on_result(task.name, result)
        except KeyboardInterrupt:
            for future in futures:
                future.cancel()
            raise


def run_ray(tasks: list[Task], address: str | None, cpus: int | None,
            on_result: OnResult) -> None:
    """Grade on Ray: a local instance (``cpus``), or the cluster at ``address``. Every node
    needs hexkit and the submissions' folder at the same path."""
    from hexkit.tournament.ray_backend import RayBackend

    backend = RayBackend(address=address, cpus=cpus)
    ray = backend._connect()
    remote = ray.remote(num_cpus=1, max_retries=1)(grade_task)
    try:
        pending = {remote.remote(task): task for task in tasks}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                task = pending.pop(ref)
                try:
                    result = GradeResult.from_dict(ray.get(ref))
                except ray.exceptions.RayError as exc:
                    lines = str(exc).strip().splitlines()
                    result = _lost(task, f"lost on Ray: {lines[0] if lines else exc}")
                on_result(task.name, result)
    finally:
        backend.close()


def _lost(task: Task, why: str) -> GradeResult:
    from hexkit.grading.grader import TestResult

    result = GradeResult(task.name, task.path, "unknown", error=why)
    result.tests = [TestResult("submission", 0.0, 0.0, "failed", why)]
    return result
