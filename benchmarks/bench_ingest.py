"""Time a whole-corpus ingest with every alignment (what `mtgrules ingest` does) beside a floor
built in the same process from the standard library on the same files.

Run: .venv/bin/python benchmarks/bench_ingest.py [CORPUS] [--no-plain]
The floor: read and decode every file (BOM, else UTF-8, else Windows-1252), scan its lines
for rule labels, insert one row per line with plain sqlite3, build an FTS5 index of those
rows, and insert as many link rows as the ingest stored. Target (issue 22): the ingest with
its alignments <= 3x the floor; a re-ingest of unchanged files < 1 s.
Each ingest runs as a user runs it, `mtgrules ingest` in a new process (its start-up
included); the floor runs twice in this process and its faster run is the baseline. Each
figure is wall time and CPU time (of the process and its children): on a machine
shared with other work, wall time grows with the load, CPU time hardly does.
The warm-up also fills the cache of folded lemma tables (text/lemmas.py), as the first
ingest on a machine does; the plain ingest is timed once more with an empty cache (what
that first ingest costs).
"""

from __future__ import annotations

import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mtgrules.ingest import BUNDLED_CORPUS

TARGET_RATIO = 3.0
# A line that opens a rule, as a plain scanner would find it.
_LABEL = re.compile(r"^\s*(\d{3}(?:\.\d+[a-z]?)?)\.?\s")
_TEXT_SUFFIXES = {".txt", ".text", ".md", ".htm", ".html"}


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (an ingest run as a new process)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _timed(work):
    t0, c0 = time.perf_counter(), _cpu()
    out = work()
    return out, time.perf_counter() - t0, _cpu() - c0


def _decode(data: bytes) -> str:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", "replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", "replace")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252", "replace")


def floor(corpus: Path, db: Path, links: int) -> tuple[int, float, float]:
    """The standard library's version of an ingest: (rows, wall s, CPU s)."""

    def work() -> int:
        base = sqlite3.connect(db)
        base.execute("PRAGMA journal_mode=WAL")
        base.execute(
            "CREATE TABLE clause (id INTEGER PRIMARY KEY, file INT, position INT, label TEXT,"
            " raw TEXT, norm TEXT)"
        )
        base.execute("CREATE VIRTUAL TABLE fts USING fts5(body, content='', tokenize='unicode61')")
        base.execute(
            "CREATE TABLE link (id INTEGER PRIMARY KEY, a INT, b INT, score REAL, evidence TEXT)"
        )
        rows = []
        files = sorted(p for p in corpus.rglob("*") if p.suffix.lower() in _TEXT_SUFFIXES)
        for n, path in enumerate(files):
            text = _decode(path.read_bytes())
            for i, line in enumerate(text.splitlines()):
                line = line.strip()
                if not line:
                    continue
                m = _LABEL.match(line)
                rows.append((n, i, m.group(1) if m else None, line, line.casefold()))
        with base:
            base.executemany(
                "INSERT INTO clause (file, position, label, raw, norm) VALUES (?, ?, ?, ?, ?)",
                rows,
            )
            base.execute("INSERT INTO fts (rowid, body) SELECT id, norm FROM clause")
            base.executemany(
                "INSERT INTO link (a, b, score, evidence) VALUES (?, ?, ?, ?)",
                ((i, i + 1, 1.0, '[{"feature": "text", "value": 1.0}]') for i in range(links)),
            )
        base.close()
        for p in db.parent.glob(db.name + "*"):
            p.unlink()
        return len(rows)

    return _timed(work)


# The plain ingest (no alignments), as a child process: ingest_paths alone.
PLAIN = """
import sys
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
engine = open_store(sys.argv[1])
with session_scope(engine) as s:
    ingest_paths(s, [sys.argv[2]])
"""


def _ingest(args: list[str], env: dict[str, str] | None = None) -> tuple[str, float, float]:
    c0 = _children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(args, capture_output=True, text=True, env=env or _ENV)
    wall = time.perf_counter() - t0
    if proc.returncode:
        sys.exit(f"{args[1:4]} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return proc.stdout, wall, _children_cpu() - c0


# Bytecode written as after `pip install` (this machine's sessions set
# PYTHONDONTWRITEBYTECODE=1, with which every run would compile modules from source).
_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (an ingest as a user runs it)."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return kids.ru_utime + kids.ru_stime


def _workers(report: dict) -> str:
    """Where the ingest aligned its pairs, as align/workers.py decides for it."""
    from mtgrules.align.workers import worker_count

    n = worker_count(len(report["alignments"]["aligned"]), report["clauses_added"])
    return f"{n} worker processes" if n else "the ingesting process"


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    corpus = Path(args[0]) if args else BUNDLED_CORPUS
    cli = [sys.executable, "-m", "mtgrules.cli"]
    with tempfile.TemporaryDirectory() as tmp:
        db, plain_db = Path(tmp) / "bench.sqlite", Path(tmp) / "plain.sqlite"
        for store in (db, plain_db):  # migrations outside the timing
            _ingest([*cli, "--db", str(store), "history"])
        # Untimed warm-up, as after `pip install`: bytecode of every module an ingest
        # imports, and the files in the OS cache.
        warm = Path(tmp) / "warm.sqlite"
        _ingest([*cli, "--db", str(warm), "ingest", str(corpus)])
        _ingest([sys.executable, "-c", PLAIN, str(Path(tmp) / "warm2.sqlite"), str(corpus)])
        out, ingest_s, ingest_cpu = _ingest(
            [*cli, "--db", str(db), "ingest", "--json", str(corpus)]
        )
        report = json.loads(out)
        out, reingest_s, reingest_cpu = _ingest(
            [*cli, "--db", str(db), "ingest", "--json", str(corpus)]
        )
        repeat = json.loads(out)
        assert repeat["revision"] is None, "re-ingest changed the store"
        assert not repeat["alignments"]["aligned"], "re-ingest aligned something"
        con = sqlite3.connect(db)
        links = con.execute("SELECT count(*) FROM link").fetchone()[0]
        con.close()
        plain = cold = None
        if "--no-plain" not in sys.argv:
            _out, plain_s, plain_cpu = _ingest(
                [sys.executable, "-c", PLAIN, str(plain_db), str(corpus)]
            )
            plain = (plain_s, plain_cpu)
            cold_env = {**_ENV, "MTGRULES_CACHE": str(Path(tmp) / "empty-cache")}
            _out, cold_s, cold_cpu = _ingest(
                [sys.executable, "-c", PLAIN, str(Path(tmp) / "cold.sqlite"), str(corpus)],
                env=cold_env,
            )
            cold = (cold_s, cold_cpu)
        floors = [floor(corpus, Path(tmp) / f"floor{i}.sqlite", links) for i in range(2)]
    rows, floor_s, floor_cpu = min(floors, key=lambda f: f[1])

    run = report["alignments"]
    print(
        f"corpus: {len(report['files'])} files, {report['editions_added']} editions, "
        f"{report['clauses_added']} clauses; {len(run['aligned'])} pairs of editions aligned, "
        f"{links} links; alignments in {_workers(report)}"
    )
    print(
        f"floor (stdlib decode+scan, sqlite3 inserts of {rows} lines and {links} links, FTS5): "
        f"{floor_s:6.2f} s  ({floor_cpu:.2f} s CPU; the other run "
        f"{max(f[1] for f in floors):.2f} s)"
    )
    if plain is not None:
        print(f"mtgrules ingest without alignments:    {plain[0]:6.2f} s  ({plain[1]:.2f} s CPU)")
        print(
            f"  the same, lemma cache empty:         {cold[0]:6.2f} s  ({cold[1]:.2f} s CPU;"
            " the first ingest on a machine)"
        )
    print(
        f"mtgrules ingest WITH its alignments:   {ingest_s:6.2f} s  ({ingest_cpu:.2f} s CPU; "
        f"alignments {run['seconds']:.2f} s)"
    )
    print(f"  its phases (s): {phases(report)}")
    print(
        f"mtgrules re-ingest, unchanged files:   {reingest_s:6.2f} s  ({reingest_cpu:.2f} s CPU)"
        "   (target < 1 s)"
    )
    ratio = ingest_s / floor_s
    print(
        f"ratio ingest with alignments / floor: {ratio:.1f}x wall, "
        f"{ingest_cpu / floor_cpu:.1f}x CPU   (target <= {TARGET_RATIO:.0f}x: "
        f"{'OK' if ratio <= TARGET_RATIO else 'MISSED'})"
    )


def phases(report: dict) -> str:
    """The ingest's own phases (IngestReport.seconds): files, sources, alignments, lineages."""
    return ", ".join(f"{k} {v:.2f}" for k, v in report.get("seconds", {}).items())


if __name__ == "__main__":
    main()
