"""Ingest the 110-edition archive (../shared/cr-archive/txt) with all its alignments: time and
peak memory, beside a plain ingest without alignments and plain sqlite3 inserts of the same
rows. (Issue 11's target for the plain ingest: <= 30 s and <= 1 GB.)

Run: .venv/bin/python benchmarks/bench_archive.py [ARCHIVE_TXT_FOLDER]
Each ingest runs in its own process (`mtgrules ingest`, as a user runs it), so that its peak
resident memory (ru_maxrss, from wait4) is its own. Targets (issue 12): the archive ingested
with its alignments in <= 90 s, within 1 GB of memory.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = Path(os.environ.get("MTGRULES_ARCHIVE", ROOT.parent / "shared" / "cr-archive")) / "txt"
TARGET_S = 90.0
TARGET_MB = 1024

# The plain ingest (no alignments) in a child process: ingest_paths, as before issue 12.
PLAIN = """
import sys
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
engine = open_store(sys.argv[1])
with session_scope(engine) as s:
    ingest_paths(s, [sys.argv[2]])
"""


def _child(args: list[str]) -> tuple[float, float, float, str]:
    """Run a child; (wall s, CPU s, peak RSS MB, stdout) from its own rusage."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out = proc.stdout.read() if proc.stdout else ""
    err = proc.stderr.read() if proc.stderr else ""
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{args[1:3]} failed: {err.strip().splitlines()[-1:]}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, out


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not folder.is_dir():
        sys.exit(f"{folder}: no archive here; give the folder of the archive's .txt files")
    with tempfile.TemporaryDirectory() as tmp:
        plain_db, full_db = Path(tmp) / "plain.sqlite", Path(tmp) / "full.sqlite"
        for db in (plain_db, full_db):  # migrations outside the timing
            subprocess.run(
                [sys.executable, "-m", "mtgrules.cli", "--db", str(db), "history"],
                check=True,
                capture_output=True,
            )
        plain = _child([sys.executable, "-c", PLAIN, str(plain_db), str(folder)])
        full = _child(
            [sys.executable, "-m", "mtgrules.cli", "--db", str(full_db), "ingest", "--json",
             str(folder)]
        )  # fmt: skip
        import json

        report = json.loads(full[3])
        run = report["alignments"]
        con = sqlite3.connect(full_db)
        clauses = con.execute("SELECT raw FROM clause").fetchall()
        links = con.execute("SELECT count(*) FROM link").fetchone()[0]
        con.close()

        base = sqlite3.connect(Path(tmp) / "baseline.sqlite")
        base.execute("PRAGMA journal_mode=WAL")
        base.execute("CREATE TABLE clause (id INTEGER PRIMARY KEY, position INT, raw TEXT)")
        base.execute("CREATE TABLE link (id INTEGER PRIMARY KEY, a INT, b INT, score REAL)")
        t0 = time.perf_counter()
        with base:
            base.executemany(
                "INSERT INTO clause (position, raw) VALUES (?, ?)",
                ((i, r[0]) for i, r in enumerate(clauses)),
            )
            base.executemany(
                "INSERT INTO link (a, b, score) VALUES (?, ?, ?)",
                ((i, i + 1, 1.0) for i in range(links)),
            )
        baseline_s = time.perf_counter() - t0
        base.close()

    slowest = sorted(run["aligned"], key=lambda p: -p["seconds"])[:3]
    print(
        f"archive: {folder} ({len(list(folder.glob('*.txt')))} files), "
        f"{report['editions_added']} editions, {report['clauses_added']} clauses; "
        f"{len(run['aligned'])} pairs aligned, {links} links"
    )
    print(
        f"plain ingest, no alignments:  {plain[0]:6.1f} s wall  {plain[1]:6.1f} s CPU  "
        f"peak {plain[2]:5.0f} MB"
    )
    print(
        f"ingest WITH its alignments:   {full[0]:6.1f} s wall  {full[1]:6.1f} s CPU  "
        f"peak {full[2]:5.0f} MB   (alignments {run['seconds']:.1f} s)"
    )
    print(f"plain sqlite3 executemany, same clause and link rows: {baseline_s:.2f} s")
    print(f"ratio ingest with alignments / plain inserts: {full[0] / baseline_s:.0f}x")
    print(
        "slowest pairs: " + ", ".join(f"{p['a']} -> {p['b']} {p['seconds']:.2f} s" for p in slowest)
    )
    ok_time, ok_mem = full[0] <= TARGET_S, full[2] <= TARGET_MB
    print(
        f"targets: <= {TARGET_S:.0f} s {'OK' if ok_time else 'MISSED'}; "
        f"<= {TARGET_MB} MB {'OK' if ok_mem else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
