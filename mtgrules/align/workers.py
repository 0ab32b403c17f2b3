"""Whole-edition alignments of an ingest computed in worker processes, on the other cores.

The pairs of a plan are independent of one another: each is a function of the two editions'
clauses (edition.edition_steps). The ingesting process reads the clauses (from its own
transaction: editions written by it are not visible to another connection, on SQLite or
PostgreSQL), sends them to a worker, and turns the steps that come back into pairs of its
own clauses; it stores them, in the plan's order, in its one transaction. So the store is
the same, row for row, as when every pair is computed in the ingesting process, and a
worker never opens the store.

Workers start with "spawn" (a fresh interpreter: nothing of the parent's open connection,
threads or paused garbage collector is copied). Only with MTGRULES_WORKERS=N (N >= 2, more
than one pair to compute, more than one core): by default every pair is aligned in-process
(worker_count says why).
"""

from __future__ import annotations

import gc
import os
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass

from ..store.queries import ClauseView, EditionInfo
from .dp import Step
from .edition import ClauseCache, aligned_clauses, edition_alignment, edition_steps
from .model import EditionAlignment
from .sequence import Settings

WORKERS_ENV = "MTGRULES_WORKERS"


@dataclass
class Job:
    """One pair to align: ``a`` the older or English edition, ``b`` the other."""

    a: EditionInfo
    b: EditionInfo
    settings: Settings | None = None


def worker_count(jobs: int) -> int:
    """How many worker processes to align ``jobs`` pairs with: 0 means in-process.
    MTGRULES_WORKERS=N asks for N (at most one a pair, at most the cores this process may
    use); unset, the pairs are aligned in-process: on the shared 2-core machine workers
    cost 4 s more CPU for a corpus ingest and saved no wall time (README, Speed)."""
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    if not wanted.isdigit():
        return 0
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    n = min(int(wanted), jobs, cores)
    return n if n >= 2 else 0


# --- in the worker --------------------------------------------------------------------------

_cache: ClauseCache | None = None


def _start() -> None:
    # As in the ingesting process (plan.paused_gc): everything built lives until the pair ends.
    gc.disable()
    global _cache
    _cache = ClauseCache()


def _steps(jobs: list[Job], clauses: dict[int, list[ClauseView]]) -> list[tuple[list[Step], float]]:
    """A run of consecutive jobs, with the clauses of their editions (sent once: an edition
    two jobs share is one list here, and its items serve both, as in-process)."""
    assert _cache is not None
    _cache.drop_items()  # the editions of an earlier run: new objects now
    out = []
    for job in jobs:
        t0 = time.perf_counter()
        steps = edition_steps(
            job.a, job.b, clauses[job.a.id], clauses[job.b.id], job.settings, _cache
        )
        out.append((steps, time.perf_counter() - t0))
    return out


# --- in the ingesting process ---------------------------------------------------------------

# Jobs sent to a worker at once, at most: their editions' clauses travel together.
RUN = 8


def _runs(jobs: list[Job], n: int) -> list[list[Job]]:
    """The jobs cut into runs of consecutive ones (a line of editions stays together), about
    two per worker, at most RUN each."""
    size = max(1, min(RUN, -(-len(jobs) // (2 * n))))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def aligned_in_order(
    jobs: list[Job],
    load: Callable[[int], list[ClauseView]],
    compute: Callable[[Job], EditionAlignment],
) -> Iterator[tuple[EditionAlignment, float]]:
    """Each job's alignment with the seconds it took, in the order of ``jobs``. ``load``
    reads an edition's clauses (the caller's ClauseCache); ``compute`` aligns one job
    in-process (the fallback). With workers, at most two runs per worker wait at a time,
    so that the clauses sent stay few (the archive has 130 pairs)."""
    n = worker_count(len(jobs))
    if not n:
        for job in jobs:
            t0 = time.perf_counter()
            result = compute(job)
            yield result, time.perf_counter() - t0
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    pending: list[tuple[list[Job], dict[int, list[ClauseView]], Future]] = []
    with ProcessPoolExecutor(max_workers=n, mp_context=context, initializer=_start) as pool:
        runs = iter(_runs(jobs, n))

        def submit() -> bool:
            run = next(runs, None)
            if run is None:
                return False
            clauses: dict[int, list[ClauseView]] = {}
            for job in run:
                for e in (job.a.id, job.b.id):
                    if e not in clauses:
                        clauses[e] = aligned_clauses(load(e))
            pending.append((run, clauses, pool.submit(_steps, run, clauses)))
            return True

        while len(pending) < 2 * n and submit():
            pass
        while pending:
            run, clauses, future = pending.pop(0)
            done = future.result()
            submit()
            for job, (steps, seconds) in zip(run, done, strict=True):
                a, b = clauses[job.a.id], clauses[job.b.id]
                yield edition_alignment(job.a, job.b, a, b, steps), seconds
