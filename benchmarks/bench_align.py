"""Time the aligner on two full editions beside a plain difflib baseline on the same pair.

Usage: .venv/bin/python benchmarks/bench_align.py [A B]
(default pair: en-2025-11-14 en-2026-01-16; the store is $MTGRULES_DB, else a temporary one
holding the bundled corpus).
Nothing is stored: the aligner is timed from the clauses to the pairs.
"""

from __future__ import annotations

import difflib
import sys
import time

from corpus_store import corpus_store

from mtgrules.align.edition import compute_edition_alignment
from mtgrules.store import session_scope
from mtgrules.store.queries import edition_clauses, find_edition, list_editions


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
        t0 = time.perf_counter()
        result = compute_edition_alignment(s, a, b)
        aligner = time.perf_counter() - t0
    paired = sum(bl.size for bl in blocks)
    print(f"{a.slug} ({a.rules} rules) -> {b.slug} ({b.rules} rules)")
    print(f"difflib baseline: {baseline:6.2f} s  ({paired} identical clauses paired)")
    print(f"aligner:          {aligner:6.2f} s  ({result.counts()})")
    print(f"ratio aligner/difflib: {aligner / baseline if baseline else float('inf'):.1f}x")
    print("target: aligner < 5 s:", "OK" if aligner < 5 else "MISSED")


if __name__ == "__main__":
    main()
