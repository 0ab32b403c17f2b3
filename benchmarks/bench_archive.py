"""Ingest the 110-edition archive (../shared/cr-archive/txt) with all its alignments: time and
peak memory, beside a plain ingest without alignments and the floor of bench_ingest.py (the
standard library decoding and scanning the same files, sqlite3 inserts, FTS5) run in this
process.

Run: .venv/bin/python benchmarks/bench_archive.py [ARCHIVE_TXT_FOLDER] [--no-plain]
Each ingest runs in its own process (`mtgrules ingest`, as a user runs it). Its peak resident
memory is its own (ru_maxrss from wait4) and, separately, the largest of its alignment worker
processes (forked from it: most of their pages are shared with it). Targets (issue 22): the
archive ingested with its alignments in <= 25 s, within 600 MB.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench_ingest import floor, phases

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout, or beside one of its parents (a worktree sits deeper).
_SHARED = next((b / "shared" for b in ROOT.parents if (b / "shared").is_dir()), ROOT.parent)
DEFAULT = Path(os.environ.get("MTGRULES_ARCHIVE", _SHARED / "cr-archive")) / "txt"
TARGET_S = 25.0
TARGET_MB = 600

# The plain ingest (no alignments) in a child process: ingest_paths, as before issue 12.
PLAIN = """
import sys
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
engine = open_store(sys.argv[1])
with session_scope(engine) as s:
    ingest_paths(s, [sys.argv[2]])
"""
# The ingest as `mtgrules ingest --json` runs it, then its own peak memory and its workers'.
FULL = """
import json, resource, sys
from mtgrules.cli import cli
try:
    cli(["--db", sys.argv[1], "ingest", "--json", sys.argv[2]], prog_name="mtgrules")
except SystemExit as done:
    if done.code:
        raise
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"own_mb": own / 1024, "workers_mb": workers / 1024}))
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
    given = [a for a in sys.argv[1:] if not a.startswith("--")]
    folder = Path(given[0]) if given else DEFAULT
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
        plain = None
        if "--no-plain" not in sys.argv:
            plain = _child([sys.executable, "-c", PLAIN, str(plain_db), str(folder)])
        full = _child([sys.executable, "-c", FULL, str(full_db), str(folder)])
        import json

        lines = full[3].strip().splitlines()
        memory = json.loads(lines[-1])
        report = json.loads("\n".join(lines[:-1]))
        run = report["alignments"]
        con = sqlite3.connect(full_db)
        links = con.execute("SELECT count(*) FROM link").fetchone()[0]
        con.close()
        floors = [floor(folder, Path(tmp) / f"floor{i}.sqlite", links) for i in range(2)]
    rows, floor_s, floor_cpu = min(floors, key=lambda f: f[1])

    slowest = sorted(run["aligned"], key=lambda p: -p["seconds"])[:3]
    print(
        f"archive: {folder} ({len(list(folder.glob('*.txt')))} files), "
        f"{report['editions_added']} editions, {report['clauses_added']} clauses; "
        f"{len(run['aligned'])} pairs aligned, {links} links"
    )
    if plain is not None:
        print(
            f"plain ingest, no alignments:  {plain[0]:6.1f} s wall  {plain[1]:6.1f} s CPU  "
            f"peak {plain[2]:5.0f} MB"
        )
    print(
        f"ingest WITH its alignments:   {full[0]:6.1f} s wall  {full[1]:6.1f} s CPU  "
        f"peak {memory['own_mb']:5.0f} MB, its workers {memory['workers_mb']:.0f} MB each at "
        f"most (alignments {run['seconds']:.1f} s)"
    )
    print(f"  its phases (s): {phases(report)}")
    print(
        f"floor (stdlib decode+scan, sqlite3 inserts of {rows} lines and {links} links, FTS5): "
        f"{floor_s:6.2f} s  ({floor_cpu:.2f} s CPU)"
    )
    print(
        f"ratio ingest with alignments / floor: {full[0] / floor_s:.1f}x wall, "
        f"{full[1] / floor_cpu:.1f}x CPU"
    )
    print(
        "slowest pairs: " + ", ".join(f"{p['a']} -> {p['b']} {p['seconds']:.2f} s" for p in slowest)
    )
    ok_time, ok_mem = full[0] <= TARGET_S, memory["own_mb"] <= TARGET_MB
    print(
        f"targets: <= {TARGET_S:.0f} s {'OK' if ok_time else 'MISSED'}; "
        f"<= {TARGET_MB} MB {'OK' if ok_mem else 'MISSED'}"
    )


if __name__ == "__main__":
    main()
