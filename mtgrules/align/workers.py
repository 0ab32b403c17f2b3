"""Whole-edition alignments of an ingest computed in worker processes, on the other cores.

The pairs of a plan are independent of one another: each is a function of the two editions'
clauses (edition.edition_steps). The ingesting process reads the clauses (from its own
transaction: editions written by it are not visible to another connection, on SQLite or
PostgreSQL), sends them to a worker, and turns the steps that come back into pairs of its
own clauses; it stores them, in the plan's order, in its one transaction. So the store is
the same, row for row, as when every pair is computed in the ingesting process, and a
worker never opens the store.

Workers start with "spawn" (a fresh interpreter: nothing of the parent's open connection,
threads or paused garbage collector is copied). By default when there is work enough to
pay for starting them (worker_count says how much) and more than one core;
MTGRULES_WORKERS=N asks for N, MTGRULES_WORKERS=1 (or 0) for none.
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


# Unset, workers are started only for at least this many clauses in the editions to align
# (the bundled corpus has 73,000, one edition 3,000-9,000): each costs about half a second
# of CPU to start (a fresh interpreter importing the aligner), which a few small editions
# do not repay. And at most this many: each holds its runs' clauses.
DEFAULT_MIN_CLAUSES = 20_000
DEFAULT_MAX_WORKERS = 4


def worker_count(jobs: int, clauses: int = 0) -> int:
    """How many worker processes to align ``jobs`` pairs (of editions holding ``clauses``
    clauses in all) with: 0 means in-process. MTGRULES_WORKERS=N asks for N; unset, one
    per core up to DEFAULT_MAX_WORKERS when the editions hold DEFAULT_MIN_CLAUSES or more.
    Either way at most one a pair and at most the cores this process may use.
    Measured on the 2-core machine, corpus ingest, 4 runs each alternating: 15.8 s wall
    (median) with 2 workers against 19.0 s in-process, about 1.5 s more CPU (README, Speed)."""
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    if not wanted:
        if clauses < DEFAULT_MIN_CLAUSES:
            return 0
        asked = min(cores, DEFAULT_MAX_WORKERS)
    elif wanted.isdigit():
        asked = int(wanted)
    else:
        return 0
    n = min(asked, jobs, cores)
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

# Jobs sent to a worker at once, at most: their editions' clauses travel together. 4 rather
# than 8, and one run per worker in flight rather than two, since workers run by default:
# the archive's ingest peaked at 638 MB with 8 and two, 602 MB with these (its time the same
# within the machine's noise: 40.8 s, 37.9 s).
RUN = 4


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
    in-process (the fallback). With workers, one run per worker at a time (the next is
    sent as soon as one comes back), so that the clauses sent stay few (the archive has
    110 pairs)."""
    editions = {e.id: e.clauses for job in jobs for e in (job.a, job.b)}
    n = worker_count(len(jobs), sum(editions.values()))
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

        while len(pending) < n and submit():
            pass
        while pending:
            run, clauses, future = pending.pop(0)
            done = future.result()
            submit()
            for job, (steps, seconds) in zip(run, done, strict=True):
                a, b = clauses[job.a.id], clauses[job.b.id]
                yield edition_alignment(job.a, job.b, a, b, steps), seconds
