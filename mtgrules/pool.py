"""The worker processes of one ingest: started once, shared by its independent parts.

An ingest has two kinds of work that need no store and no other item's result: parsing each
file (ingest.py) and aligning each pair of editions (align/workers.py). Both go to the same
pool, so that a worker's start (a fresh interpreter importing mtgrules, about half a second
of CPU) is paid once per ingest, not once per part. Workers only compute: they never open
the store, and every write stays in the ingesting process's one transaction.

Workers start with "spawn" (a fresh interpreter: nothing of the parent's open connection,
threads or paused garbage collector is copied), only when a part asks for them, and never
more than the cores this process may use. MTGRULES_WORKERS=N asks for N, MTGRULES_WORKERS=1
(or 0) for none; unset, each part decides from the size of its work whether they pay.
"""

from __future__ import annotations

import gc
import os
from concurrent.futures import Executor
from types import TracebackType

WORKERS_ENV = "MTGRULES_WORKERS"
# Unset, at most this many: each holds what it works on (the archive's editions, a file).
DEFAULT_MAX_WORKERS = 4


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def asked_workers() -> int | None:
    """MTGRULES_WORKERS as a number: None when unset (each part decides), 0 when it is not
    a number."""
    wanted = os.environ.get(WORKERS_ENV, "").strip()
    if not wanted:
        return None
    return int(wanted) if wanted.isdigit() else 0


def worker_count(jobs: int, worth_it: bool) -> int:
    """How many workers to share ``jobs`` independent items among: 0 means in-process.
    MTGRULES_WORKERS=N asks for N; unset, one per core up to DEFAULT_MAX_WORKERS when the
    caller says the work is ``worth_it``. Either way at most one an item and at most the
    cores, and none rather than one (a single worker only adds its start)."""
    asked = asked_workers()
    if asked is None:
        if not worth_it:
            return 0
        asked = min(cores(), DEFAULT_MAX_WORKERS)
    n = min(asked, jobs, cores())
    return n if n >= 2 else 0


def _start() -> None:
    # The ingesting process is the one every result waits for (it writes them all, in one
    # transaction): a worker yields the core to it when both want one. The archive's ingest
    # on 2 cores, workers aligning while it writes (align/workers.py, Ahead): its files were
    # written in 10.5 s with the workers at nice 10, 13.0 s at 0; 22.7 s against 24.6 s in all.
    if hasattr(os, "nice"):  # not on Windows
        os.nice(10)
    # As in the ingesting process (align.plan.paused_gc): what a task builds lives until
    # the task ends, and is freed by reference counting.
    gc.disable()
    # A worker whose ingesting process is killed would wait for its next task forever (its
    # siblings hold the task queue open): it ends as soon as that process is gone.
    import threading

    threading.Thread(target=_end_with_parent, name="end-with-parent", daemon=True).start()
    # A worker told to stop has sent every result (its result queue writes at once, with no
    # thread of its own) and writes nothing else: it leaves without freeing its objects one
    # by one, which the interpreter's exit would do (with collection paused, 0.3-0.4 s the
    # ingest waited for, its pool's shutdown).
    import atexit

    atexit.register(os._exit, 0)


def _end_with_parent() -> None:
    import multiprocessing
    from multiprocessing.connection import wait

    parent = multiprocessing.parent_process()
    if parent is not None:
        wait([parent.sentinel])
        os._exit(1)


class Workers:
    """The pool of one ingest, started by the first part that asks for it (``get``) and
    shut down when the ingest ends (a ``with`` block)."""

    def __init__(self) -> None:
        self._pool: Executor | None = None
        self.size = 0

    def get(self, n: int) -> Executor | None:
        """The pool, started with ``n`` workers if it is not running yet; None for ``n`` 0
        (in-process). A pool already running serves with the workers it has."""
        if self._pool is None and n:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor

            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(max_workers=n, mp_context=context, initializer=_start)
            self.size = n
        return self._pool if n else None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
            self.size = 0

    def __enter__(self) -> Workers:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
