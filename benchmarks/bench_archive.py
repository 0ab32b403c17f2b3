"""The whole English archive into a fresh store, as a user runs it, beside a baseline.

Run: .venv/bin/python benchmarks/bench_archive.py [ARCHIVE_TXT_FOLDER]
     (default: ../shared/cr-archive/txt beside the checkout; MTGRULES_ARCHIVE overrides)

What is timed: `mtgrules ingest FOLDER --json` in a child process on a new SQLite file: the
real command (start-up, language model, decoding, format detection, parsing, writing the
clauses and their search index, one transaction). Plain ingest only: alignment at ingest
(another branch) is not part of this figure. Its peak memory is the child's maximum RSS.
Targets (issue 11): <= 30 s and <= 1 GB on 2 cores.

Baseline, in this process: reading and decoding the same files (Python's bytes.decode) and
inserting as many clause rows with plain sqlite3 executemany: the least any ingest must do.
Each figure is printed beside it, with the ratio. The machine is shared: run it twice.

Measured (2 shared cores, load 4 to 4.5), two runs each, issue 11's phase 2 against the
commit before it (8577aec, same script, PYTHONPATH to its code):
  this branch: 18.0 / 19.7 s wall, 13.6 / 14.8 s CPU, 612 MB peak; baseline 1.8 / 1.2 s
  before:      29.7 / 16.6 s wall, 14.4 / 13.4 s CPU, 522 MB peak; baseline 1.8 / 2.6 s
Wall time swings with the machine's other work; the CPU time is the same within a second.
The 90 MB more is py3langid's model (text/identify.py), loaded once per process.
"""

from __future__ import annotations

import json
import os
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = Path(os.environ.get("MTGRULES_ARCHIVE", ROOT.parent / "shared" / "cr-archive")) / "txt"


def _decode(data: bytes) -> str:
    for bom, codec in (
        (b"\xef\xbb\xbf", "utf-8-sig"),
        (b"\xff\xfe", "utf-16"),
        (b"\xfe\xff", "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    if not folder.is_dir():
        sys.exit(f"{folder}: not found; give the archive's txt/ folder")
    files = sorted(folder.glob("*.txt"))
    size = sum(p.stat().st_size for p in files)
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "archive.sqlite"
        env = {**os.environ, "MTGRULES_DB": str(db), "NO_COLOR": "1"}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "mtgrules.cli", "ingest", "--json", str(folder)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        ingest_s = time.perf_counter() - t0
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode != 0:
            sys.exit(f"ingest failed: {done.stderr.strip()}")
        report = json.loads(done.stdout)
        peak_mb = usage.ru_maxrss / 1024  # kilobytes on Linux
        cpu_s = (usage.ru_utime - before.ru_utime) + (usage.ru_stime - before.ru_stime)

        rows = sqlite3.connect(db).execute("SELECT raw, norm FROM clause").fetchall()

        # Baseline: read and decode the same files, insert the same rows with plain sqlite3.
        t0 = time.perf_counter()
        chars = sum(len(_decode(p.read_bytes())) for p in files)
        base = sqlite3.connect(Path(tmp) / "baseline.sqlite")
        base.execute("PRAGMA journal_mode=WAL")
        base.execute(
            "CREATE TABLE clause (id INTEGER PRIMARY KEY, position INT, raw TEXT, norm TEXT)"
        )
        with base:
            base.executemany(
                "INSERT INTO clause (position, raw, norm) VALUES (?, ?, ?)",
                ((i, r, n) for i, (r, n) in enumerate(rows)),
            )
        base.close()
        baseline_s = time.perf_counter() - t0

    print(
        f"archive: {len(files)} files, {size / 1e6:.1f} MB ({chars / 1e6:.1f} M characters); "
        f"{report['editions_added']} editions, {report['clauses_added']:,} clauses"
    )
    print(
        f"mtgrules ingest (whole command, child):  {ingest_s:6.2f} s wall, {cpu_s:6.2f} s CPU   (target <= 30 s)"
    )
    print(
        f"peak memory of the ingest (max RSS):     {peak_mb:6.0f} MB              (target <= 1000 MB)"
    )
    print(f"baseline: decode + plain sqlite3 rows:   {baseline_s:6.2f} s")
    print(f"ratio ingest / baseline: {ingest_s / baseline_s:.1f}x")
    print("(plain ingest: alignment at ingest is not measured here)")


if __name__ == "__main__":
    main()
