"""Time `mtgrules site` beside a plain-Python baseline: writing the same number of files of
the same total size with open().write().

Usage:
  .venv/bin/python benchmarks/bench_site.py                 # the bundled corpus
  .venv/bin/python benchmarks/bench_site.py --archive       # the 110-edition English archive
  .venv/bin/python benchmarks/bench_site.py --db rules.sqlite
  .venv/bin/python benchmarks/bench_site.py --incremental   # + one new edition, rebuilt

The store is made as `mtgrules ingest` makes it (its editions and the alignments stored
with them). Each build runs in its own process, so its peak memory (VmHWM) and its CPU time
are its own. Printed, each beside the baseline measured in this same run:
1. a full build into an empty folder;
2. a rebuild of the same store into the same folder (nothing changed: no page computed);
3. the baseline and the ratios; with --incremental, a rebuild after one new English edition.
Wall time and CPU time are both printed: the machine is shared, and CPU time is what the
build itself costs. Targets (issue 22): bundled corpus full build <= 8 s, a rebuild that
changes nothing <= 1 s; the archive's site <= 60 s (with peak memory <= 1 GB).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# ../shared beside the checkout, or beside one of its parents (a worktree sits deeper).
ARCHIVE = next(
    (b / "shared" / "cr-archive" / "txt" for b in ROOT.parents if (b / "shared").is_dir()),
    ROOT.parent / "shared" / "cr-archive" / "txt",
)


def _peak_mb() -> float:
    """This process's own peak memory. VmHWM, not ru_maxrss: Linux carries a parent's
    high-water mark into ru_maxrss across fork and exec, and the parent holds the ingest."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(db: str, out: str) -> None:
    """Build the site (in this process only) and print its report as one JSON line."""
    from mtgrules.site.build import build_site
    from mtgrules.store import open_store, session_scope

    engine = open_store(db)
    t0, c0 = time.perf_counter(), time.process_time()
    with session_scope(engine) as s:
        report = build_site(s, Path(out))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    engine.dispose()
    peak = _peak_mb()
    print(
        json.dumps(
            {
                "wall": wall,
                "cpu": cpu,
                "peak_mb": peak,
                "seconds": report.seconds,
                "files": report.files,
                "written": len(report.written),
                "bytes": report.bytes_written,
                "alignments": report.alignments,
                "rule_pages": report.rule_pages,
                "editions": report.editions,
            }
        )
    )


def build(db: str, out: Path) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", db, str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        sys.exit(f"build failed: {proc.stderr.strip()}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def baseline(out: Path, scratch: Path) -> float:
    """Write every file of the built site again, same names and bytes, with plain Python."""
    files = [(p.relative_to(out), p.read_bytes()) for p in out.rglob("*") if p.is_file()]
    t0 = time.perf_counter()
    for rel, data in files:
        target = scratch / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "wb") as fh:
            fh.write(data)
    return time.perf_counter() - t0


def ingest(db: str, paths: list[Path]) -> None:
    from mtgrules.align.plan import ingest_and_align
    from mtgrules.store import open_store, session_scope

    engine = open_store(db)
    t0 = time.perf_counter()
    with session_scope(engine) as s:
        report = ingest_and_align(s, paths)
    engine.dispose()
    print(
        f"(setup: ingested {report.editions_added} editions, {report.clauses_added} clauses, "
        f"in {time.perf_counter() - t0:.1f} s; not part of the figures below)"
    )


def show(name: str, r: dict) -> None:
    phases = ", ".join(f"{k} {v:.1f}" for k, v in r["seconds"].items() if k != "total")
    print(
        f"{name:<34} {r['wall']:7.2f} s (CPU {r['cpu']:.2f} s)   peak {r['peak_mb']:5.0f} MB   "
        f"{r['written']:5d} of {r['files']} files written ({r['bytes'] / 1e6:.1f} MB)"
    )
    print(f"{'':<34} phases (s): {phases}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an existing store (default: a temporary one)")
    parser.add_argument("--archive", action="store_true", help="the 110-edition English archive")
    parser.add_argument("--incremental", action="store_true", help="also: one new edition")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(*args.child)
        return
    from mtgrules.ingest import BUNDLED_CORPUS

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        db = args.db or str(tmp / "bench.sqlite")
        if args.archive:
            if not ARCHIVE.is_dir():
                sys.exit(f"no archive at {ARCHIVE}")
            sources = sorted(ARCHIVE.glob("*.txt"))
        else:
            sources = [BUNDLED_CORPUS]
        newest = None
        if args.incremental:
            everything = sorted(
                p for s in sources for p in ([s] if s.is_file() else s.rglob("*.txt"))
            )
            english = [p for p in everything if "-zh-" not in p.name and "zh" not in p.parent.name]
            newest = max(english, key=lambda p: p.name)
            # One new English edition; the Chinese of its date stays out (it would follow it).
            sources = [
                p
                for p in everything
                if p != newest and p.name != newest.name.replace("-en-", "-zh-")
            ]
        if not args.db:
            ingest(db, sources)
        out = tmp / "site"
        first = build(db, out)
        show("full build, empty folder", first)
        again = build(db, out)
        show("rebuild, nothing changed", again)
        plain = baseline(out, tmp / "plain")
        total = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        print(
            f"{'baseline: plain open().write()':<34} {plain:7.2f} s   "
            f"({first['files']} files, {total / 1e6:.1f} MB)"
        )
        print(f"ratio full build / baseline:       {first['wall'] / plain:7.0f}x")
        print(f"ratio rebuild / baseline:          {again['wall'] / plain:7.1f}x")
        if newest is not None:
            ingest(db, [newest])
            inc = build(db, out)
            show(f"rebuild after {newest.name}", inc)
            print(f"ratio incremental / baseline:      {inc['wall'] / plain:7.0f}x")
        target = 60 if args.archive else 8
        for name, r, limit in (("full build", first, target), ("no-op rebuild", again, 1)):
            verdict = (
                "OK"
                if r["wall"] <= limit
                else ("OK in CPU time" if r["cpu"] <= limit else "MISSED")
            )
            print(
                f"target {name} <= {limit} s: {verdict} ({r['wall']:.2f} s, CPU {r['cpu']:.2f} s)"
            )
        if args.archive:
            print(f"target peak <= 1024 MB: {'OK' if first['peak_mb'] <= 1024 else 'MISSED'}")
        os.sync()


if __name__ == "__main__":
    main()
