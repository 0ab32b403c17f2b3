"""Wall time of `mtgrules show 107.3` and `mtgrules search stack` as a user runs them (a new
process each time), beside `python -c "import sqlite3"` (the floor of any Python command).

Run: .venv/bin/python benchmarks/bench_startup.py [--db PATH] [--runs N]
Without --db, the whole bundled corpus is ingested into a temporary store first (not timed).
Target (issue 22): each command's median <= that of `python -c "import sqlite3"` + 0.1 s,
in wall time; the CPU time of the same runs is printed too (steadier on a shared machine).

Each command runs once untimed first, with bytecode writing allowed, so that Python's
bytecode cache exists as it does after `pip install` (pip compiles the package); this
matters here because this machine's sessions set PYTHONDONTWRITEBYTECODE=1, with which an
editable checkout would otherwise be compiled from source on every run. The figure without
any bytecode cache is printed too, for reference.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from corpus_store import corpus_store

# Over the floor of any Python command, measured in the same run (issue 22).
TARGET_OVER_S = 0.1
COMMANDS = [["show", "107.3"], ["search", "stack"]]
PACKAGE = Path(__file__).resolve().parents[1] / "mtgrules"


def _mtgrules() -> list[str]:
    """The console script next to this Python (what a user runs), else `python -m`."""
    script = Path(sys.executable).with_name("mtgrules")
    return [str(script)] if script.exists() else [sys.executable, "-m", "mtgrules.cli"]


# Each run's CPU time (user + system of the child), beside the wall time: on a machine
# shared with other work the wall time waits for a core, the CPU time does not.
CPU: dict[str, list[float]] = {}


def _time(cmd: list[str], runs: int, env: dict[str, str], name: str | None = None) -> list[float]:
    times = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
        times.append(time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if name:
            cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
            CPU.setdefault(name, []).append(cpu)
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed: {proc.stderr.decode()[-300:]}")
    return times


def _row(name: str, times: list[float], base: float, target: bool = True) -> str:
    med = statistics.median(times)
    limit = base + TARGET_OVER_S
    verdict = (
        f"   +{med - base:.3f} s: {'ok' if med <= limit else 'OVER'} "
        f"(target <= python + {TARGET_OVER_S} s = {limit:.3f} s)"
        if target
        else ""
    )
    return f"{name:34} {med:8.3f} {min(times):8.3f} {max(times):8.3f} {med / base:7.1f}x{verdict}"


def _drop_bytecode() -> None:
    for cache in PACKAGE.rglob("__pycache__"):
        shutil.rmtree(cache, ignore_errors=True)


def _count(cmd: list[str], env: dict[str, str]) -> int:
    """Instructions ``cmd`` executes, counted by valgrind's callgrind: the same count, to
    0.04%, run after run, on a machine whose speed drifts by a factor of two."""
    proc = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *cmd],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    found = re.search(r"Collected : (\d+)", proc.stderr)
    if proc.returncode != 0 or not found:
        raise SystemExit(f"{' '.join(cmd)} failed under valgrind: {proc.stderr[-300:]}")
    return int(found.group(1))


def _instructions(db_arg: str | None) -> None:
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    with corpus_store(db_arg) as engine:
        db = engine.url.database
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NO_COLOR"] = "1"
        # python itself, not the console script: valgrind follows one process
        run = [sys.executable, "-c", "from mtgrules.cli import main; main()", "--db", str(db)]
        for c in COMMANDS:  # bytecode cache, as after pip install
            subprocess.run([*run, *c], stdout=subprocess.DEVNULL, env=env, check=True)
        floor = _count([sys.executable, "-c", "import sqlite3"], env)
        print(f"instructions executed (valgrind callgrind), store {db}")
        floor_name = 'python -c "import sqlite3"'
        print(f"{floor_name:34} {floor / 1e6:9.1f}M")
        for c in COMMANDS:
            n = _count([*run, *c], env)
            print(f"{'mtgrules ' + ' '.join(c):34} {n / 1e6:9.1f}M   +{(n - floor) / 1e6:.1f}M")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="an already ingested store (default: a fresh temp one)")
    parser.add_argument("--runs", type=int, default=11)
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="count the instructions each command executes (valgrind), once each, instead",
    )
    args = parser.parse_args()
    if args.instructions:
        _instructions(args.db)
        return

    with corpus_store(args.db) as engine:
        db = engine.url.database if engine.url.get_backend_name() == "sqlite" else str(engine.url)
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["NO_COLOR"] = "1"
        cmds = {" ".join(c): [*_mtgrules(), "--db", str(db), *c] for c in COMMANDS}
        for cmd in cmds.values():  # warm-up: bytecode cache and OS file cache
            _time(cmd, 1, env)
        base = _time([sys.executable, "-c", "import sqlite3"], args.runs, env, "python")
        results = {name: _time(cmd, args.runs, env, name) for name, cmd in cmds.items()}
        # For reference: no bytecode cache at all (every module compiled from source).
        cold_env = {**env, "PYTHONDONTWRITEBYTECODE": "1"}
        cold = {}
        for name, cmd in cmds.items():
            times = []
            for _ in range(max(args.runs // 2, 3)):
                _drop_bytecode()
                times += _time(cmd, 1, cold_env)
            cold[name] = times
        for cmd in cmds.values():  # leave the cache as a user's install has it
            _time(cmd, 1, env)

    b = statistics.median(base)
    print(f"store: {db}; {args.runs} runs each; wall time in seconds")
    print(f"{'command':34} {'median':>8} {'min':>8} {'max':>8} {'ratio':>8}")
    print(_row('python -c "import sqlite3"', base, b, target=False))
    for name, times in results.items():
        print(_row(f"mtgrules {name}", times, b))
    c = statistics.median(CPU["python"])
    print("CPU time (user + system), the same runs:")
    print(_row('python -c "import sqlite3"', CPU["python"], c, target=False))
    for name in results:
        print(_row(f"mtgrules {name}", CPU[name], c))
    print("for reference, without any bytecode cache (compiled from source each run):")
    for name, times in cold.items():
        print(_row(f"mtgrules {name}", times, b, target=False))


if __name__ == "__main__":
    main()
