"""Every read command as a user runs it (a new process each time) on the bundled corpus,
beside two baselines run in the same process: `python -c pass` (the floor of any Python
command) and a raw sqlite3 query of the same store in a new Python process.

Run: .venv/bin/python benchmarks/bench_reads.py [--db STORE] [--runs N]
                                                  [--before TREE --before-db STORE2]
Target (issue 22): each command <= 1 s on the bundled corpus.
Wall time grows with the load of a shared machine, CPU time (user + system of the command's
process) hardly does: both are printed, medians of N runs after one untimed warm-up (with
bytecode writing allowed, as after `pip install`), and the verdict is on CPU time. The
store's bytes are hashed before and after: reads must never write.

--before TREE runs every command a second time, in turn with this tree's, with the code of
another checkout (a worktree of main, say) on STORE2, a store that code built (each code's
aligner digest makes the other's stored alignments stale): its figure is printed beside, with
the ratio now/before; and each command's output (stdout, exit code) under both codes is
compared byte for byte, with drift and trace of several more rules in text and JSON
(SAME_OUTPUT): a change made for speed must not change an answer.
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
import tempfile
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
    ["export", "xliff", "zh-Hans-2022-06-10", "-o", "{tmp}/job.xlf"],
]
# Compared between the two codes with --before (not timed): a number reused (702.19 was
# Banding in 2009, Trample today), one clause (202.3d), an old number (510.1c was 310.2c),
# a Chinese translation's renumbering (its 701.37 is 701.42), whole editions.
SAME_OUTPUT = [
    [*c, "--format", fmt]
    for c in (
        ["drift", "107.3"],
        ["trace", "107.3"],
        ["trace", "107.3g"],
        ["drift", "702.19"],
        ["trace", "702.19"],
        ["drift", "202.3d"],
        ["trace", "202.3d"],
        ["drift", "510.1c"],
        ["trace", "510.1c"],
        ["drift", "701.42", "--lang", "zh-Hans"],
        ["trace", "701.42b"],
        ["drift", "--edition", "en-2025-11-14"],
        ["drift", "--edition", "zh-Hans-2022-06-10"],
    )
    for fmt in ("text", "json")
]


def _mtgrules() -> list[str]:
    script = Path(sys.executable).with_name("mtgrules")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mtgrules.cli"]


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _time(
    cmd: list[str], runs: int, env: dict[str, str], cwd: str | None = None
) -> tuple[list[float], list[float]]:
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = _children_cpu(), time.perf_counter()
        proc = subprocess.run(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd
        )
        walls.append(time.perf_counter() - t0)
        cpus.append(_children_cpu() - c0)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode()[-300:]}")
    return walls, cpus


def _answer(cmd: list[str], env: dict[str, str], cwd: str | None = None) -> tuple[int, bytes]:
    """A command's exit code and stdout (untimed)."""
    proc = subprocess.run(cmd, capture_output=True, env=env, cwd=cwd)
    return proc.returncode, proc.stdout


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
    parser.add_argument("--before", metavar="TREE", help="another checkout's code, run beside")
    parser.add_argument("--before-db", metavar="STORE", help="a store built by --before's code")
    args = parser.parse_args()
    if bool(args.before) != bool(args.before_db):
        parser.error("--before and --before-db go together")

    with corpus_store(args.db) as engine, tempfile.TemporaryDirectory() as tmp:
        sqlite = engine.url.get_backend_name() == "sqlite"
        db = engine.url.database if sqlite else engine.url.render_as_string(hide_password=False)
        engine.dispose()
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NO_COLOR"] = "1"
        commands = [[a.replace("{tmp}", tmp) for a in c] for c in COMMANDS]
        names = [" ".join(c).replace(f" -o {tmp}/job.xlf", " -o job.xlf") for c in commands]
        cmds = {
            n: [*_mtgrules(), "--db", str(db), *c] for n, c in zip(names, commands, strict=True)
        }
        # The other checkout's code: its own tree first on the path (python -m in it).
        old_env = {**env, "PYTHONPATH": str(Path(args.before).resolve())} if args.before else env
        old = {
            n: [sys.executable, "-m", "mtgrules.cli", "--db", str(args.before_db), *c]
            for n, c in zip(names, commands, strict=True)
        }
        before = _store_bytes(db) if sqlite else None
        differ: list[str] = []
        for name, cmd in cmds.items():  # warm-up: bytecode cache and OS file cache
            _time(cmd, 1, env)
            if args.before:
                _time(old[name], 1, old_env, cwd=args.before)
        if args.before:
            checked = [
                *((n, c) for n, c in zip(names, commands, strict=True)),
                *((" ".join(c), c) for c in SAME_OUTPUT),
            ]
            for name, c in checked:
                now = _answer([*_mtgrules(), "--db", str(db), *c], env)
                was = _answer(
                    [sys.executable, "-m", "mtgrules.cli", "--db", str(args.before_db), *c],
                    old_env,
                    cwd=args.before,
                )
                if now != was:
                    differ.append(name)
        baselines = {"python -c pass": [sys.executable, "-c", "pass"]}
        if sqlite:
            query = (
                f"import sqlite3; c = sqlite3.connect({str(db)!r}); "
                'c.execute("SELECT e.language, e.date, c.label, c.raw FROM clause c JOIN '
                "edition e ON e.id = c.edition_id WHERE c.label LIKE '107.3%'\").fetchall()"
            )
            baselines["raw sqlite3 query of 107.3*"] = [sys.executable, "-c", query]
        base = {name: _time(cmd, args.runs, env) for name, cmd in baselines.items()}
        results, olds = {}, {}
        for name, cmd in cmds.items():  # in turn, so that both see the same load
            results[name] = _time(cmd, args.runs, env)
            if args.before:
                olds[name] = _time(old[name], args.runs, old_env, cwd=args.before)
        after = _store_bytes(db) if sqlite else None

    floor = statistics.median(base["python -c pass"][1])
    print(f"store: {'a temporary SQLite store' if args.db is None else db}; {args.runs} runs each")
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    if args.before:
        print(f"before: the code of {args.before} on {args.before_db}")
    head = f"{'command':54} {'wall':>6} {'CPU':>6} {'xpass':>6}"
    print(head + (f" {'before':>7} {'now/before':>10}" if args.before else ""))

    def row(name: str, times, target: bool, was=None) -> str:
        wall, cpu = statistics.median(times[0]), statistics.median(times[1])
        out = f"{name[:54]:54} {wall:6.3f} {cpu:6.3f} {cpu / floor:5.1f}x"
        if was is not None:
            old_cpu = statistics.median(was[1])
            out += f" {old_cpu:7.3f} {cpu / old_cpu:9.2f}x"
        if target:
            out += f"  {'ok' if cpu <= TARGET_S else 'OVER'} (CPU <= {TARGET_S:.0f} s)"
        return out

    for name, times in base.items():
        print(row(name, times, False))
    for name, times in results.items():
        print(row(f"mtgrules {name}", times, True, olds.get(name)))
    print(
        "(seconds are medians; xpass: CPU time over python -c pass's; before: the other "
        "code's CPU time, run in turn with this one's)"
    )
    if args.before:
        same = len(checked) - len(differ)
        print(f"outputs identical to before's (stdout and exit code): {same} of {len(checked)}")
        for name in differ:
            print(f"  DIFFERS: mtgrules {name}")
    if sqlite:
        print(f"store unchanged by the reads: {'yes' if before == after else 'NO'}")


if __name__ == "__main__":
    main()
