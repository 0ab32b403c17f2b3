"""How far the site's rule pages and `mtgrules trace` agree on a clause's history (issue 18:
one history, read by trace and the site alike).

The site builds every rule's history at once from the stored edition steps
(mtgrules/site/history.py: the pairs of each step, and align/ancestry.py for the clauses a
step leaves new); trace follows one rule through the stored links (align/storage.py
chained_rule_alignment) and its ancestors in editions older than the rule
(align/lineage.py). Both lay the result out with reports/trace.py. This script builds the
site of a store, takes a random sample of its rule pages (plus a few named ones), and
compares each current clause's history table, row by row (from date, number, event), with
`trace CLAUSE`. It prints every clause that differs and the count.

Run: .venv/bin/python benchmarks/eval_history.py [--db STORE] [--sample 30] [--seed 1]
(without --db: a temporary store of the bundled corpus, ingested as `mtgrules ingest` does).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

from corpus_store import corpus_store
from lxml import html as lxml_html

from mtgrules.reports.trace import trace_clause
from mtgrules.site.build import build_site
from mtgrules.store import session_scope

NAMED = ["107.3", "702.19", "104.3", "506.4"]


def _rows(section) -> list[tuple[str, str, str]]:
    table = section.xpath(".//table")[0]
    cells = [[c.text_content().strip() for c in tr] for tr in table.xpath("./tbody/tr")]
    return [(r[0], r[2], r[3]) for r in cells]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", help="an already ingested store (default: a fresh temp one)")
    parser.add_argument("--sample", type=int, default=30, help="random rule pages")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with corpus_store(args.db) as engine, tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "site"
        with session_scope(engine) as s:
            build_site(s, out)
        pages = sorted(p.stem for p in (out / "rules").glob("*.html"))
        rng = random.Random(args.seed)
        chosen = rng.sample(pages, min(args.sample, len(pages))) + [p for p in NAMED if p in pages]
        differ = total = 0
        seconds = 0.0
        with session_scope(engine, write=False) as s:
            for rule in chosen:
                doc = lxml_html.parse(str(out / "rules" / f"{rule}.html")).getroot()
                for section in doc.xpath('//section[@class="clause"]'):
                    key = section.get("id")
                    if "~" in key:  # a subrule no longer in the rules
                        continue
                    started = time.perf_counter()
                    spans = trace_clause(s, key).english
                    seconds += time.perf_counter() - started
                    total += 1
                    site = _rows(section)
                    trace = [(sp.from_date or "", sp.label or "", sp.event or "") for sp in spans]
                    same = len(site) == len(trace) and all(
                        a[0] == b[0] and a[1] == b[1] and a[2].startswith(b[2])
                        for a, b in zip(site, trace, strict=True)
                    )
                    if not same:
                        differ += 1
                        print(f"{key}\n  site:  {site}\n  trace: {trace}")
    print(
        f"{differ} of {total} clauses differ ({len(chosen)} rule pages, seed {args.seed}); "
        f"trace took {seconds:.1f} s for them",
        file=sys.stderr,
    )


if __name__ == "__main__":
    main()
