"""Whole-edition alignments of an ingest computed in worker processes, on the other cores.

The pairs of a plan are independent of one another: each is a function of the two editions'
clauses (edition.edition_steps). The ingesting process reads the clauses (from its own
transaction: editions written by it are not visible to another connection, on SQLite or
PostgreSQL), sends them to a worker, and turns the steps that come back into pairs of its
own clauses; it stores them, in the plan's order, in its one transaction. So the store is
the same, row for row, as when every pair is computed in the ingesting process, and a
worker never opens the store.

The workers are the ingest's pool (mtgrules/pool.py: spawned, shared with the parsing of
its files). The steps of each line of editions go to them while the files are still being
written (Ahead), as soon as both editions of a step are in the store. By default when
there is work enough to pay for starting them (worker_count says how much) and more than
one core; MTGRULES_WORKERS=N asks for N, MTGRULES_WORKERS=1 (or 0) for none.
"""

from __future__ import annotations

import pickle
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass

from sqlalchemy.orm import Session

from .. import pool
from ..pool import WORKERS_ENV as WORKERS_ENV
from ..store.queries import ClauseView, EditionInfo, edition_aligned_rows, list_editions
from .ancestry import PartialAncestry, partial_ancestry, term_words
from .dp import Step
from .edition import (
    ALIGNED_KINDS,
    ClauseCache,
    aligned_clauses,
    edition_alignment,
    edition_steps,
    steps_to_pairs,
)
from .model import EditionAlignment
from .sequence import Settings, matrix_threads


@dataclass
class Job:
    """One pair to align: ``a`` the older or English edition, ``b`` the other. ``lineage``:
    a step of the official English line, whose ancestry the worker finds too (as far as it
    can: ancestry.partial_ancestry)."""

    a: EditionInfo
    b: EditionInfo
    settings: Settings | None = None
    lineage: bool = False

    def same_work(self, other: Job) -> bool:
        """Would ``other`` compute the same? An edition's clauses, language, kind and date
        never change once written (only its slug and its list of sources may, as other
        files arrive), so its id stands for them."""
        return (self.a.id, self.b.id, self.settings, self.lineage) == (
            other.a.id,
            other.b.id,
            other.settings,
            other.lineage,
        )


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
        matrix_threads(1)  # the pool's other processes have the other cores
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


def _steps_pickled(jobs: list[Job], packed: dict[int, Packed], history: Glossaries) -> bytes:
    """_steps of a pair sent ahead of the plan (Ahead), pickled here: the result waits in
    the ingesting process until the plan reaches it, as a few hundred kB of bytes rather
    than the 2 MB of tuples it unpickles to (the archive's 110 pairs would all wait)."""
    return pickle.dumps(_steps(jobs, packed, history), protocol=pickle.HIGHEST_PROTOCOL)


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


class Wordings:
    """The glossary's wordings in the editions read so far, by the words of their terms
    (Glossaries), in the order read: the earlier versions of an entry that a step's ancestry
    needs are among them, mostly (the line is read in order; an entry renamed to other
    words is judged in the ingesting process). Which are here only decides where a verdict
    is made, never what it is (ancestry.finish_ancestry)."""

    def __init__(self) -> None:
        self.history: Glossaries = {}
        self._seen: set[tuple[str, str]] = set()

    def read(self, clauses: Iterable[tuple[str, str | None, str]]) -> None:
        """Read an edition's clauses, given as (kind, term, norm)."""
        for kind, term, norm in clauses:
            if kind != "glossary":
                continue
            for word in term_words(term):
                if (word, norm) not in self._seen:
                    self._seen.add((word, norm))
                    self.history[word] = (*self.history.get(word, ()), norm)

    def now(self, jobs: list[Job]) -> Glossaries:
        """A copy as it stands (its values are tuples), for jobs about to be sent: the pool
        pickles the arguments later, in a thread of its own, while this process reads on."""
        return dict(self.history) if any(job.lineage for job in jobs) else {}


class Ahead:
    """Pairs aligned while the ingest is still writing its files.

    The plan (plan.update_alignments) is worked out once every file is written, and the
    workers would wait for it, idle once the files are parsed, while this process writes.
    But the pairs of consecutive editions of a line are known as soon as both are written,
    and are nearly all in the plan: ``written`` (called after each file) notes those it
    completes, with ``jobs_of`` (plan.line_jobs) saying which, and sends them in runs of RUN
    (an edition two pairs of a run share is read and featurized once, as in the plan's
    turn). aligned_in_order takes the result of a run whose jobs it holds, in the same
    order, doing the same work (Job.same_work), so the store is the same either way; a run
    the plan does not want whole (an edition came between, or was replaced) is dropped.

    Only with the pool already running (started by the parsing of a large ingest), and a
    run out per worker but one while files remain to parse, so that they are not kept
    waiting long; the pairs left over are aligned in the plan's turn. Measured on 2 cores
    (bench_archive.py, bench_ingest.py): the archive's ingest 22.7-22.8 s against 25.3-25.6 s
    (its alignments after the files 9.0-9.3 s against 11.9-12.2 s), the corpus's 10.5-10.9 s
    against 11.9-12.6 s; the stores the same (compare_stores.py)."""

    def __init__(
        self,
        session: Session,
        workers: pool.Workers,
        jobs_of: Callable[[list[EditionInfo]], list[Job]],
    ) -> None:
        self.session = session
        self.workers = workers
        self.jobs_of = jobs_of
        self._runs: list[tuple[list[Job], Future]] = []
        self._noted: set[tuple[int, int]] = set()
        self._queue: list[Job] = []
        self._wordings = Wordings()
        self.taken = 0  # jobs whose result the plan took (take)

    def written(self) -> None:
        if not self.workers.size:
            return
        self.session.flush()  # an edition replaced by this file: its row says so now
        for job in self.jobs_of(list_editions(self.session)):
            if (job.a.id, job.b.id) not in self._noted:
                self._noted.add((job.a.id, job.b.id))
                self._queue.append(job)
        # A run out per worker but one: the pool takes work in the order sent, and the next
        # files to parse must not wait behind runs of pairs (this process waits for each in
        # turn). Measured on the archive with 2 workers: with two runs out, its files took
        # 16.3 s to write instead of 10.3 s; with one, 10.3 s.
        self._send(max(1, self.workers.size - 1))

    def files_written(self) -> None:
        """Every file is written: nothing is left to parse, a run may go to every worker
        (while this process chooses the translations' English)."""
        if self.workers.size:
            self._send(self.workers.size)

    def _send(self, runs: int) -> None:
        executor = self.workers.get(self.workers.size)
        assert executor is not None
        out = sum(1 for _, future in self._runs if not future.done())
        while len(self._queue) >= RUN and out < runs:
            run, self._queue = self._queue[:RUN], self._queue[RUN:]
            packed: dict[int, Packed] = {}
            for e in (e for job in run for e in (job.a.id, job.b.id)):
                if e not in packed:
                    # pack(aligned_clauses(edition_clauses(...))), read as such
                    packed[e] = edition_aligned_rows(self.session, e, ALIGNED_KINDS)
                    self._wordings.read((r[4], r[7], r[5]) for r in packed[e])
            future = executor.submit(_steps_pickled, run, packed, self._wordings.now(run))
            self._runs.append((run, future))
            out += 1

    def take(self, jobs: list[Job]) -> dict[int, tuple[list[Job], Future]]:
        """The runs sent ahead that ``jobs`` holds whole and in order, by the index of their
        first job there; the others are dropped."""
        at = {(job.a.id, job.b.id): i for i, job in enumerate(jobs)}
        out: dict[int, tuple[list[Job], Future]] = {}
        for run, future in self._runs:
            i = at.get((run[0].a.id, run[0].b.id))
            if i is not None and all(
                i + k < len(jobs) and jobs[i + k].same_work(job) for k, job in enumerate(run)
            ):
                out[i] = (jobs[i : i + len(run)], future)
                self.taken += len(run)
            else:
                future.cancel()
        self._runs = []
        return out

    def close(self) -> None:
        """Drop what the plan did not take: not started, never started."""
        self._queue.clear()
        for _, future in self._runs:
            future.cancel()
        self._runs.clear()


def aligned_in_order(
    jobs: list[Job],
    load: Callable[[int], list[ClauseView]],
    compute: Callable[[Job], EditionAlignment],
    workers: pool.Workers | None = None,
    ahead: Ahead | None = None,
) -> Iterator[tuple[EditionAlignment, float, PartialAncestry | None]]:
    """Each job's alignment with the seconds it took and, for a step of the line computed
    in a worker, its partial ancestry, in the order of ``jobs``. ``load``
    reads an edition's clauses (the caller's ClauseCache); ``compute`` aligns one job
    in-process (the fallback); ``workers``: the ingest's pool (else one of its own);
    ``ahead``: the pairs sent while the ingest wrote (Ahead), taken rather than sent again.
    With workers, IN_FLIGHT runs per worker at a time (the next is sent as soon as one
    comes back), so that the clauses sent stay few (the archive has 110 pairs)."""
    ready = ahead.take(jobs) if ahead is not None else {}
    taken = {i + k for i, (run, _) in ready.items() for k in range(len(run))}
    rest = [job for i, job in enumerate(jobs) if i not in taken]
    editions = {e.id: e.clauses for job in rest for e in (job.a, job.b)}
    n = worker_count(len(rest), sum(editions.values()))
    if not n and not ready:
        for job in jobs:
            t0 = time.perf_counter()
            result = compute(job)
            yield result, time.perf_counter() - t0, None
        return
    if workers is None:
        with pool.Workers() as own:
            yield from aligned_in_order(jobs, load, compute, own)
        return
    executor = workers.get(n or workers.size)  # pairs sent ahead: the pool is running
    assert executor is not None
    n = workers.size  # a pool already running serves with the workers it has
    # In the order of the jobs: the runs sent ahead as they were sent, the others in runs of
    # consecutive ones between them (so results come in the order of the jobs).
    units: list[tuple[list[Job], Future | None]] = []
    segment: list[Job] = []
    for i, job in enumerate([*jobs, None]):
        if job is None or i in ready:
            units += [(run, None) for run in _runs(segment, n)] if segment else []
            segment = []
            if job is not None:
                units.append(ready[i])
        elif i not in taken:
            segment.append(job)
    todo = iter(units)
    pending: list[tuple[list[Job], dict[int, list[ClauseView]] | None, Future]] = []
    wordings = Wordings()

    def submit() -> bool:
        unit = next(todo, None)
        if unit is None:
            return False
        run, sent = unit
        if sent is not None:
            pending.append((run, None, sent))
            return True
        clauses: dict[int, list[ClauseView]] = {}
        for job in run:
            for e in (job.a.id, job.b.id):
                if e not in clauses:
                    clauses[e] = aligned_clauses(load(e))
                    wordings.read((c.kind, c.term, c.norm) for c in clauses[e])
        packed = {e: pack(cs) for e, cs in clauses.items()}
        pending.append((run, clauses, executor.submit(_steps, run, packed, wordings.now(run))))
        return True

    def fill() -> None:
        # Runs out to the workers: IN_FLIGHT per worker (the pairs sent ahead are out already).
        while sum(1 for _, c, _ in pending if c is not None) < IN_FLIGHT * n and submit():
            pass

    fill()
    while pending:
        run, clauses, future = pending.pop(0)
        done = future.result()
        if clauses is None:
            done = pickle.loads(done)
            clauses = {e: aligned_clauses(load(e)) for job in run for e in (job.a.id, job.b.id)}
        fill()
        for job, (steps, seconds, part) in zip(run, done, strict=True):
            a, b = clauses[job.a.id], clauses[job.b.id]
            yield edition_alignment(job.a, job.b, a, b, unpack_steps(steps)), seconds, part
