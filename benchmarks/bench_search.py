"""Median in-process `search` time over a set of queries, beside `grep -ri` over the raw files.

Run: .venv/bin/python benchmarks/bench_search.py [--db PATH] [--repeat N]
Without --db, the whole bundled corpus is ingested into a temporary store first (not timed).
Target: median query < 50 ms inside the process, on 2 cores.

grep is not doing the same work (no folding, no ranking, no aligned clauses, no Chinese
script folding): it is the floor a user would compare against, not an equivalent.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time

from corpus_store import corpus_store

from mtgrules.ingest import BUNDLED_CORPUS
from mtgrules.search import search
from mtgrules.store import session_scope

QUERIES = [
    "stack",
    "pile",
    "cout",
    "mana",
    "coût de mana",
    "hechizo",
    "堆叠",
    "堆疊",
    "法术力",
    "combat damage",
    "triggered ability",
    "exile",
    "banding",
    "annouced",  # a typo: the fuzzy fallback
    "state-based actions",
    "107.3g",  # a rule number
]


def _time_search(engine, query: str, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        with session_scope(engine) as s:
            t0 = time.perf_counter()
            search(s, query, limit=20)
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _time_grep(query: str, repeat: int) -> tuple[float, int]:
    times, lines = [], 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        proc = subprocess.run(
            ["grep", "-ri", "--", query, str(BUNDLED_CORPUS)], capture_output=True, check=False
        )
        times.append(time.perf_counter() - t0)
        lines = proc.stdout.count(b"\n")
    return statistics.median(times), lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an already ingested store (default: a fresh temp one)")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    with corpus_store(args.db) as engine:
        # Warm-up: first query loads OpenCC, rapidfuzz, the termbase and the vocabulary.
        with session_scope(engine) as s:
            for q in QUERIES:
                search(s, q, limit=20)

        rows = []
        for q in QUERIES:
            with session_scope(engine) as s:
                hits = len(search(s, q, limit=20).hits)
            ours = _time_search(engine, q, args.repeat)
            grep, grep_lines = _time_grep(q, args.repeat)
            rows.append((q, ours, hits, grep, grep_lines))

    print(
        f"{'query':22} {'search ms':>10} {'hits':>5} {'grep -ri ms':>12} {'lines':>6} {'ratio':>6}"
    )
    for q, ours, hits, grep, lines in rows:
        print(
            f"{q:22} {ours * 1000:10.1f} {hits:5} {grep * 1000:12.1f} {lines:6} {ours / grep:6.2f}"
        )
    med_ours = statistics.median(r[1] for r in rows)
    med_grep = statistics.median(r[3] for r in rows)
    verdict = "OK" if med_ours < 0.050 else "OVER TARGET"
    print(
        f"\nmedian search {med_ours * 1000:.1f} ms (target < 50 ms: {verdict}); "
        f"median grep -ri {med_grep * 1000:.1f} ms; ratio search/grep {med_ours / med_grep:.2f}"
    )


if __name__ == "__main__":
    main()
