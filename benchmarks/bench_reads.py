"""Every read command as a user runs it (a new process each time) on the bundled corpus,
beside two baselines run in the same process: `python -c pass` (the floor of any Python
command) and a raw sqlite3 query of the same store in a new Python process.

Run: .venv/bin/python benchmarks/bench_reads.py [--db STORE] [--runs N]
Target (issue 22): each command <= 1 s on the bundled corpus.
Wall time grows with the load of a shared machine, CPU time (user + system of the command's
process) hardly does: both are printed, medians of N runs after one untimed warm-up (with
bytecode writing allowed, as after `pip install`). The store's bytes are hashed before and
after: reads must never write.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import resource
import sqlite3
import statistics
import subprocess
import sys
import time
from pathlib import Path

from corpus_store import corpus_store

TARGET_S = 1.0
COMMANDS = [
    ["show", "107.3"],
    ["search", "stack"],
    ["search", "what happens when a creature has lethal damage"],
    ["update", "zh-Hans-2022-06-10"],
    ["drift", "107.3"],
    ["diff", "en-2009-07-11", "en-2026-01-16", "--rule", "107.3"],
    ["diff", "en-2025-11-14", "en-2026-01-16"],
    ["trace", "107.3"],
]


def _mtgrules() -> list[str]:
    script = Path(sys.executable).with_name("mtgrules")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mtgrules.cli"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _time(cmd: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = _children_cpu(), time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        walls.append(time.perf_counter() - t0)
        cpus.append(_children_cpu() - c0)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode()[-300:]}")
    return walls, cpus


def _store_bytes(db: str) -> str | None:
    """A digest of the SQLite store's main file (None for PostgreSQL), after a checkpoint
    has folded the write-ahead log into it: what any write since the last digest would
    have changed."""
    path = Path(db)
    if not path.exists():
        return None
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    return hashlib.sha256(path.read_bytes()).hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an already ingested store (default: a fresh temp one)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()

    with corpus_store(args.db) as engine:
        sqlite = engine.url.get_backend_name() == "sqlite"
        db = engine.url.database if sqlite else engine.url.render_as_string(hide_password=False)
        engine.dispose()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NO_COLOR"] = "1"
        cmds = {" ".join(c): [*_mtgrules(), "--db", str(db), *c] for c in COMMANDS}
        before = _store_bytes(db) if sqlite else None
        for cmd in cmds.values():  # warm-up: bytecode cache and OS file cache
            _time(cmd, 1, env)
        baselines = {"python -c pass": [sys.executable, "-c", "pass"]}
        if sqlite:
            query = (
                f"import sqlite3; c = sqlite3.connect({str(db)!r}); "
                'c.execute("SELECT e.language, e.date, c.label, c.raw FROM clause c JOIN '
                "edition e ON e.id = c.edition_id WHERE c.label LIKE '107.3%'\").fetchall()"
            )
            baselines["raw sqlite3 query of 107.3*"] = [sys.executable, "-c", query]
        base = {name: _time(cmd, args.runs, env) for name, cmd in baselines.items()}
        results = {name: _time(cmd, args.runs, env) for name, cmd in cmds.items()}
        after = _store_bytes(db) if sqlite else None

    floor = statistics.median(base["python -c pass"][0])
    print(f"store: {'a temporary SQLite store' if args.db is None else db}; {args.runs} runs each")
    print(f"{'command':58} {'wall':>7} {'CPU':>7} {'ratio':>7}")

    def row(name: str, walls: list[float], cpus: list[float], target: bool) -> str:
        wall, cpu = statistics.median(walls), statistics.median(cpus)
        verdict = (
            f"  {'ok' if wall <= TARGET_S else 'OVER'} (<= {TARGET_S:.0f} s)" if target else ""
        )
        return f"{name[:58]:58} {wall:7.3f} {cpu:7.3f} {wall / floor:6.1f}x{verdict}"

    for name, (walls, cpus) in base.items():
        print(row(name, walls, cpus, False))
    for name, (walls, cpus) in results.items():
        print(row(f"mtgrules {name}", walls, cpus, True))
    print("(ratio: wall time over python -c pass; seconds are medians)")
    if sqlite:
        print(f"store unchanged by the reads: {'yes' if before == after else 'NO'}")


if __name__ == "__main__":
    main()
