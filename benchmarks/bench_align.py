"""Time the aligner on two consecutive editions beside a plain difflib baseline on the same pair.

Usage: .venv/bin/python benchmarks/bench_align.py [A B]
(default pair: en-2025-11-14 en-2026-01-16; the store is $MTGRULES_DB, else a temporary one
holding the bundled corpus).
Nothing is stored: the aligner is timed from reading the clauses to the pairs, as an ingest
runs it (garbage collection paused, align/plan.py). The first run pays the process's one-time
costs (numpy, loaded by rapidfuzz's first matrix); an ingest pays them once for all its pairs,
so the figure held against the target is the median of the next three runs, each reading both
editions from the store again. CPU time is printed beside wall time: on a machine shared with
other work, wall time grows with the load, CPU time does not.
Target (issue 12): two consecutive English editions aligned in <= 0.3 s.
"""

from __future__ import annotations

import difflib
import statistics
import sys
import time

from corpus_store import corpus_store

from mtgrules.align.edition import compute_edition_alignment
from mtgrules.align.plan import paused_gc
from mtgrules.store import session_scope
from mtgrules.store.queries import edition_clauses, find_edition, list_editions

TARGET_S = 0.3


def main() -> None:
    a_key, b_key = sys.argv[1:3] if len(sys.argv) >= 3 else ("en-2025-11-14", "en-2026-01-16")
    with corpus_store() as engine, session_scope(engine) as s:
        infos = list_editions(s)
        a, b = find_edition(infos, a_key), find_edition(infos, b_key)
        ta = [c.norm for c in edition_clauses(s, a.id) if c.kind != "noise"]
        tb = [c.norm for c in edition_clauses(s, b.id) if c.kind != "noise"]
        t0 = time.perf_counter()
        matcher = difflib.SequenceMatcher(None, ta, tb, autojunk=False)
        blocks = matcher.get_matching_blocks()
        baseline = time.perf_counter() - t0
        runs, cpu = [], []
        with paused_gc():
            for _ in range(4):
                t0, c0 = time.perf_counter(), time.process_time()
                result = compute_edition_alignment(s, a, b)
                runs.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
    first, warm, warm_cpu = runs[0], statistics.median(runs[1:]), statistics.median(cpu[1:])
    paired = sum(bl.size for bl in blocks)
    print(f"{a.slug} ({a.rules} rules) -> {b.slug} ({b.rules} rules)")
    print(f"difflib baseline:          {baseline:6.3f} s  ({paired} identical clauses paired)")
    print(f"aligner, first run:        {first:6.3f} s  (the first of the process, after any setup)")
    print(f"aligner, median of 3 more: {warm:6.3f} s wall, {warm_cpu:.3f} s CPU")
    print(f"                           ({result.counts()})")
    print(f"ratio aligner/difflib: {warm / baseline if baseline else float('inf'):.1f}x")
    print(f"target: aligner <= {TARGET_S} s:", "OK" if warm <= TARGET_S else "MISSED")


if __name__ == "__main__":
    main()
