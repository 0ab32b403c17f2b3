"""`mtgrules cite` over a source tree of 500 files (24 MB) holding 15,000 citations, beside
`grep -rEo` over the same tree.

Run: .venv/bin/python benchmarks/bench_cite.py [--db PATH] [--files 500] [--mb 24]
Without --db, the bundled corpus is ingested into a temporary store first (not timed).

Target (issue 23): 15,000 citations in 500 source files (24 MB) in <= 10 s, on 2 cores.

The tree is generated (seeded, so every run reads the same bytes): Rust, Python and
TypeScript files of code lines full of numbers (array indexes, constants, offsets: the
three-digit numbers cite must look at and let go), with comments citing real rule numbers
of the store's second newest English edition in the forms people write them (CR 702.19b,
see rule 601.2f, rules 614 and 615, §702.19b, titles, ranges, quotations of the rule's
text), some of them stale (numbers of 2009 and 2016).

grep does not do the same work: it finds the same keyword-and-number shapes, and neither
checks them against any edition, nor skips prices and versions, nor reads ranges, nor
compares quotations. It is the floor a user would compare against.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpus_store import corpus_store

from mtgrules.store import session_scope
from mtgrules.store.sql import fetch

TARGET_S = 10.0
GREP_PATTERN = r"(CR|[Rr]ules?|§) ?[0-9]{3}(\.[0-9]+[a-z]?)?"

# (comment template, how many labels it cites); {a} {b} are labels, {t} a rule's own text.
FORMS = [
    ("// CR {a}", 1),
    ("// See rule {a} for why.", 1),
    ("/* rules {a} and {b} */", 2),
    ("# per §{a}", 1),
    ("// CR {a}: {t}", 1),
    ('# see rule {a}, "{t}"', 1),
    ("// Comprehensive Rules {a}", 1),
    ("/// (rule {a}) handles this case", 1),
]
STALE = ["502.9", "212.3", "508.5", "614.12b", "702.124p", "104.3h"]


def _labels_and_texts(engine) -> list[tuple[str, str]]:
    with session_scope(engine, write=False) as s:
        editions = fetch(
            s,
            "SELECT id FROM edition WHERE language = 'en' AND kind = 'rules' "
            "AND date IS NOT NULL AND superseded_in IS NULL ORDER BY date DESC",
        )
        edition = editions[1][0] if len(editions) > 1 else editions[0][0]
        rows = fetch(
            s,
            "SELECT label, norm FROM clause WHERE edition_id = :e AND label IS NOT NULL "
            "AND kind = 'rule'",
            {"e": edition},
        )
    return [(r[0], r[1]) for r in rows]


def make_tree(root: Path, labels: list[tuple[str, str]], files: int, megabytes: float) -> int:
    """Write the tree; returns the number of citations written."""
    rng = random.Random(23)
    per_file = int(megabytes * 1_000_000 / files)
    citations_per_file = 15_000 // files
    written = 0
    for i in range(files):
        ext, comment = [(".rs", "//"), (".py", "#"), (".ts", "//")][i % 3]
        lines: list[str] = []
        size = 0
        cited = 0
        while size < per_file:
            if cited < citations_per_file and rng.random() < citations_per_file / 700:
                form, n = rng.choice(FORMS)
                (a, text), (b, _) = rng.choice(labels), rng.choice(labels)
                if rng.random() < 0.03:
                    a = rng.choice(STALE)
                line = "    " + form.format(a=a, b=b, t=text[:80].replace('"', "'"))
                line = line.replace("//", comment, 1) if comment == "#" else line
                cited += n
            else:
                n = rng.randrange(1000)
                line = (
                    f"    let v{i}_{size} = table[{n}] + {rng.randrange(100, 999)} * offset; "
                    f"{comment} version {rng.randrange(9)}.{rng.randrange(20)}.{rng.randrange(9)}"
                )
            lines.append(line)
            size += len(line) + 1
        (root / f"module_{i:03}{ext}").write_text("\n".join(lines) + "\n", encoding="utf-8")
        written += cited
    return written


# The command, run so that it reports its own peak memory (VmHWM: since exec, unlike
# ru_maxrss, which would count the benchmark process it was forked from).
_WITH_PEAK = (
    "import re, sys\n"
    "from mtgrules.cli import cli\n"
    "try:\n"
    "    cli.main(sys.argv[1:], prog_name='mtgrules')\n"
    "except SystemExit:\n"
    "    pass\n"
    "hwm = re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read()).group(1)\n"
    "print('peak-kb', hwm, file=sys.stderr)\n"
)


def _run(args: list[str]) -> tuple[float, subprocess.CompletedProcess]:
    t0 = time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True)
    return time.perf_counter() - t0, result


def _peak_mb(result: subprocess.CompletedProcess) -> float:
    kb = [line.split()[1] for line in result.stderr.splitlines() if line.startswith("peak-kb")]
    return int(kb[-1]) / 1024 if kb else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db")
    parser.add_argument("--files", type=int, default=500)
    parser.add_argument("--mb", type=float, default=24.0)
    args = parser.parse_args()
    with corpus_store(args.db) as engine, tempfile.TemporaryDirectory() as tmp:
        db = engine.url.render_as_string(hide_password=False)
        if db.startswith("sqlite:///"):
            db = db[len("sqlite:///") :]
        tree = Path(tmp) / "src"
        tree.mkdir()
        written = make_tree(tree, _labels_and_texts(engine), args.files, args.mb)
        size = sum(p.stat().st_size for p in tree.iterdir()) / 1e6
        print(f"tree: {args.files} files, {size:.1f} MB, {written:,} citations written")
        cite = [sys.executable, "-c", _WITH_PEAK, "--db", db, "cite", str(tree), "--json"]
        _run(cite)  # warm the file cache and the store's pages: both runs read warm
        grep_s, grep = _run(["grep", "-rEo", GREP_PATTERN, str(tree)])
        inferred_s, result = _run(cite)
        given_s, given = _run([*cite, "--written-for", "en-2025-11-14"])
        doc = json.loads(result.stdout)
        found = doc["summary"]["citations"]
        print(
            f"grep -rEo:                      {grep_s:6.2f} s ({len(grep.stdout.splitlines()):,} matches)"
        )
        print(
            f"mtgrules cite (inferred):       {inferred_s:6.2f} s ({found:,} citations, "
            f"{inferred_s / grep_s:.0f}x grep; target {TARGET_S:.0f} s)"
        )
        print(f"mtgrules cite (--written-for):  {given_s:6.2f} s ({given_s / grep_s:.0f}x grep)")
        print(f"statuses: {doc['summary']['statuses']}")
        print(
            f"written for: {doc['written_for']['edition']['slug']} ({doc['written_for']['reason']})"
        )
        print(
            f"peak memory of cite: {_peak_mb(result):.0f} MB inferred, "
            f"{_peak_mb(given):.0f} MB with --written-for"
        )


if __name__ == "__main__":
    main()
