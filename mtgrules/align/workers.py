"""Whole-edition alignments of an ingest computed in worker processes, on the other cores.

The pairs of a plan are independent of one another: each is a function of the two editions'
clauses (edition.edition_steps). The ingesting process reads the clauses (from its own
transaction: editions written by it are not visible to another connection, on SQLite or
PostgreSQL), sends them to a worker, and turns the steps that come back into pairs of its
own clauses; it stores them, in the plan's order, in its one transaction. So the store is
the same, row for row, as when every pair is computed in the ingesting process, and a
worker never opens the store.

The workers are the ingest's pool (mtgrules/pool.py: spawned, shared with the parsing of
its files). By default when there is work enough to pay for starting them (worker_count
says how much) and more than one core; MTGRULES_WORKERS=N asks for N, MTGRULES_WORKERS=1
(or 0) for none.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass

from .. import pool
from ..pool import WORKERS_ENV as WORKERS_ENV
from ..store.queries import ClauseView, EditionInfo
from .ancestry import PartialAncestry, partial_ancestry, term_words
from .dp import Step
from .edition import (
    ClauseCache,
    aligned_clauses,
    edition_alignment,
    edition_steps,
    steps_to_pairs,
)
from .model import EditionAlignment
from .sequence import Settings


@dataclass
class Job:
    """One pair to align: ``a`` the older or English edition, ``b`` the other. ``lineage``:
    a step of the official English line, whose ancestry the worker finds too (as far as it
    can: ancestry.partial_ancestry)."""

    a: EditionInfo
    b: EditionInfo
    settings: Settings | None = None
    lineage: bool = False


# Unset, workers are started only for at least this many clauses in the editions to align
# (the bundled corpus has 73,000, one edition 3,000-9,000): each costs about half a second
# of CPU to start (a fresh interpreter importing the aligner), which a few small editions
# do not repay.
DEFAULT_MIN_CLAUSES = 20_000


def worker_count(jobs: int, clauses: int = 0) -> int:
    """How many worker processes to align ``jobs`` pairs (of editions holding ``clauses``
    clauses in all) with: 0 means in-process (pool.worker_count: MTGRULES_WORKERS=N asks
    for N; unset, one per core when the editions hold DEFAULT_MIN_CLAUSES or more).
    Measured on the 2-core machine, corpus ingest, 4 runs each alternating: 15.8 s wall
    (median) with 2 workers against 19.0 s in-process, about 1.5 s more CPU (README, Speed)."""
    return pool.worker_count(jobs, clauses >= DEFAULT_MIN_CLAUSES)


# --- in the worker --------------------------------------------------------------------------

# A word of a glossary term (ancestry.term_words) -> the wordings of the entries so named,
# in the order first read.
Glossaries = dict[str, tuple[str, ...]]

# An edition's aligned clauses as they travel to a worker: one tuple a clause of what the
# aligner and the ancestry read (id, position, label, label_inferred, kind, norm, parent,
# term), not the printed text nor the flags, which neither reads. Pickled as ClauseViews,
# an edition of 4,000 clauses took 14-16 ms each way; as these, 4-6 ms.
Packed = list[tuple[int, int, str | None, bool, str, str, str | None, str | None]]


def pack(clauses: list[ClauseView]) -> Packed:
    return [
        (c.id, c.position, c.label, c.label_inferred, c.kind, c.norm, c.parent, c.term)
        for c in clauses
    ]


def unpack(rows: Packed) -> list[ClauseView]:
    return [
        ClauseView(cid, position, label, inferred, kind, "", norm, parent, term, [])
        for cid, position, label, inferred, kind, norm, parent, term in rows
    ]


# The worker's features of texts, kept from one run of jobs to the next (made on its first).
_cache: ClauseCache | None = None


# A step as it travels back: (a, b, score, evidence, crossing), the evidence None for the
# commonest by far, an identical text (98% of the archive's steps): a list and a dict less
# to pickle and unpickle each (a pair's 4,000 steps took 12 ms to unpickle, 4 ms so).
PackedStep = tuple[tuple[int, ...], tuple[int, ...], float, list[dict] | None, bool]


def _exact() -> list[dict]:
    return [{"feature": "text", "value": 1.0, "exact": True}]


def _is_exact(evidence: list[dict]) -> bool:
    # == alone would take an int 1 for 1.0, or the keys in another order (written as JSON).
    return (
        len(evidence) == 1
        and evidence == _exact()
        and list(evidence[0]) == ["feature", "value", "exact"]
        and type(evidence[0]["value"]) is float
        and evidence[0]["exact"] is True
    )


def pack_steps(steps: list[Step]) -> list[PackedStep]:
    return [
        (s.a, s.b, s.score, None if _is_exact(s.evidence) else s.evidence, s.crossing)
        for s in steps
    ]


def unpack_steps(packed: list[PackedStep]) -> list[Step]:
    return [
        Step(a, b, score, _exact() if evidence is None else evidence, crossing)
        for a, b, score, evidence, crossing in packed
    ]


def _steps(
    jobs: list[Job], packed: dict[int, Packed], history: Glossaries
) -> list[tuple[list[PackedStep], float, PartialAncestry | None]]:
    """A run of consecutive jobs, with the clauses of their editions (sent once: an edition
    two jobs share is one list here, and its items serve both, as in-process), and the
    wordings of every glossary entry read so far (for their ancestry)."""
    global _cache
    if _cache is None:
        _cache = ClauseCache()
    _cache.drop_items()  # the editions of an earlier run: new objects now
    clauses = {e: unpack(rows) for e, rows in packed.items()}
    out = []
    for job in jobs:
        t0 = time.perf_counter()
        a, b = clauses[job.a.id], clauses[job.b.id]
        steps = edition_steps(job.a, job.b, a, b, job.settings, _cache)
        part = None
        if job.lineage:
            # The step's ancestry is most of the ingesting process's work on a step of the
            # line: judged here, but for the glossary entries' earlier versions.
            part = partial_ancestry(job.a.id, job.b.id, steps_to_pairs(steps, a, b), history)
        out.append((pack_steps(steps), time.perf_counter() - t0, part))
    return out


# --- in the ingesting process ---------------------------------------------------------------

# Jobs sent to a worker at once, at most: their editions' clauses travel together. 4 rather
# than 8: the archive's ingest peaked at 638 MB with 8, 602 MB with 4 (its time the same
# within the machine's noise: 40.8 s, 37.9 s). Two runs per worker are out at a time: a
# worker that finishes one starts the next at once, rather than wait for this process to
# read the editions of another (the archive's pairs 14.0-14.2 s against 14.4-14.6 s with
# one run out per worker, its peak 418-426 MB against 401-402 MB, since the files are
# written as they are parsed).
RUN = 4
IN_FLIGHT = 2


def _runs(jobs: list[Job], n: int) -> list[list[Job]]:
    """The jobs cut into runs of consecutive ones (a line of editions stays together), about
    two per worker, at most RUN each."""
    size = max(1, min(RUN, -(-len(jobs) // (2 * n))))
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def aligned_in_order(
    jobs: list[Job],
    load: Callable[[int], list[ClauseView]],
    compute: Callable[[Job], EditionAlignment],
    workers: pool.Workers | None = None,
) -> Iterator[tuple[EditionAlignment, float, PartialAncestry | None]]:
    """Each job's alignment with the seconds it took and, for a step of the line computed
    in a worker, its partial ancestry, in the order of ``jobs``. ``load``
    reads an edition's clauses (the caller's ClauseCache); ``compute`` aligns one job
    in-process (the fallback); ``workers``: the ingest's pool (else one of its own). With
    workers, IN_FLIGHT runs per worker at a time (the next is sent as soon as one comes
    back), so that the clauses sent stay few (the archive has 110 pairs)."""
    editions = {e.id: e.clauses for job in jobs for e in (job.a, job.b)}
    n = worker_count(len(jobs), sum(editions.values()))
    if not n:
        for job in jobs:
            t0 = time.perf_counter()
            result = compute(job)
            yield result, time.perf_counter() - t0, None
        return
    if workers is None:
        with pool.Workers() as own:
            yield from aligned_in_order(jobs, load, compute, own)
        return
    executor = workers.get(n)
    assert executor is not None
    n = workers.size  # a pool already running serves with the workers it has
    pending: list[tuple[list[Job], dict[int, list[ClauseView]], Future]] = []
    runs = iter(_runs(jobs, n))
    # The glossary's wordings in the editions read so far, by the words of their terms: the
    # earlier versions of an entry that a step's ancestry needs are among them, mostly (the
    # line is read in order; an entry renamed to other words is judged in this process).
    history: Glossaries = {}
    seen: set[tuple[str, str]] = set()

    def submit() -> bool:
        run = next(runs, None)
        if run is None:
            return False
        clauses: dict[int, list[ClauseView]] = {}
        for job in run:
            for e in (job.a.id, job.b.id):
                if e not in clauses:
                    clauses[e] = aligned_clauses(load(e))
                    for c in clauses[e]:
                        if c.kind != "glossary":
                            continue
                        for word in term_words(c.term):
                            if (word, c.norm) not in seen:
                                seen.add((word, c.norm))
                                history[word] = (*history.get(word, ()), c.norm)
        packed = {e: pack(cs) for e, cs in clauses.items()}
        # A copy as it stands (its values are tuples): the pool pickles the arguments later,
        # in a thread of its own, while this process reads the next editions.
        wordings = dict(history) if any(job.lineage for job in run) else {}
        pending.append((run, clauses, executor.submit(_steps, run, packed, wordings)))
        return True

    while len(pending) < IN_FLIGHT * n and submit():
        pass
    while pending:
        run, clauses, future = pending.pop(0)
        done = future.result()
        submit()
        for job, (steps, seconds, part) in zip(run, done, strict=True):
            a, b = clauses[job.a.id], clauses[job.b.id]
            yield edition_alignment(job.a, job.b, a, b, unpack_steps(steps)), seconds, part
