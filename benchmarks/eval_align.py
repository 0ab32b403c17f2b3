"""Strict precision / recall / F1 of the aligner against the hand-checked gold, and the
renumberings it names against a truth built from the raw files (renumbering_truth.py).

Usage:
    .venv/bin/python benchmarks/eval_align.py [--errors]
        the gold of the bundled corpus, and the renumberings of its consecutive English
        editions (the July 2009 renumbering among them);
    .venv/bin/python benchmarks/eval_align.py --archive DIR [--errors]
        the renumberings of every consecutive pair of the archive's editions (DIR: the
        archive's txt/ folder), ingested into a temporary store first (not timed; or give
        one holding them: $MTGRULES_DB).
    ... [--pairs FILE]
        also write every pair of clauses the aligner makes between consecutive editions, a
        line each (editions, labels, kind), to FILE: run it before and after a change to
        the aligner (PYTHONPATH=<the other tree>) and diff the two files to see every pair
        that changed, not only the truth's moves.
(the store is $MTGRULES_DB, else a temporary one holding the bundled corpus or the archive).

Renumberings: a truth move (a rule's nearly unchanged text under another label) is named
exactly when the aligner links those two clauses. Beside the aligner, the same figures for a
baseline from the standard library: difflib's matching blocks over the clause texts (what a
plain diff pairs), which names a move only where a text is identical and in order. Each
pair is aligned in memory (nothing is stored). Also counted: pairs of clauses the
identical-text rule says must pair (text, rule references aside, once on each side) that
the aligner leaves apart, and each case issue 18 names (NAMED: the 2009 "b" subrules of
Reach, Shadow and Horsemanship, 505.6, 606.7a, Transform and Convert in 2025) is checked to be
in the truth and named by the aligner. Targets (issue 18): 100% of the moves of the 2009 pair, >= 99.8%
over the archive, no identical-text violation.
"""

from __future__ import annotations

import difflib
import os
import sys
import tempfile
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path

import renumbering_truth as truth
from corpus_store import corpus_store
from sqlalchemy import select

from mtgrules.align import align_rule
from mtgrules.align.edition import ALIGNED_KINDS, compute_edition_alignment
from mtgrules.align.evaluate import (
    load_rule_gold,
    score_cross_date,
    score_editions,
    score_rule,
    score_translation,
)
from mtgrules.align.reference import is_official_english
from mtgrules.ingest import ingest_paths
from mtgrules.store import open_store, session_scope
from mtgrules.store.models import Document, Edition
from mtgrules.store.queries import edition_clauses, find_edition, list_editions

GOLD = Path(__file__).resolve().parents[1] / "tests" / "gold"
EDITION_PAIRS = [("en-2018-10-05", "en-2019-10-04"), ("en-2009-05-01", "en-2009-07-11")]
# An English edition and its official Chinese translation: gold = same official label.
TRANSLATION_PAIRS = [
    ("en-2026-01-16", "zh-Hans-2026-01-16"),
    ("en-2022-06-10", "zh-Hans-2022-06-10"),
]
# A translation against an English edition of another date (rules renumbered in between), as
# a report falls back to when no English of its date is stored: gold composed from the
# English of its date (same labels) and the English texts unchanged between the two dates.
CROSS_DATE = [
    ("en-2026-01-16", "zh-Hans-2023-11-17", "en-2023-11-17"),
    ("en-2026-01-16", "zh-Hans-2022-06-10", "en-2022-06-10"),
]


# The cases issue 18 names, as (label, label) under the dates of any consecutive pair that
# spans the change: they must be in the truth and named by the aligner. The Transform/Convert
# swap happened between 2025-04-04 and 2025-06-06 (the archive); the bundled corpus steps over
# it from 2023-11-17 to 2025-11-14.
NAMED = [
    ("2009-07-11", "502.70b", "702.15b"),  # Reach
    ("2009-07-11", "502.8b", "702.25b"),  # Shadow
    ("2009-07-11", "502.17b", "702.28b"),  # Horsemanship
    ("2009-07-11", "505.6", "708.6a"),
    ("2009-07-11", "606.7a", "806.7a"),
    ("2025-06-06", "701.28a", "701.27a"),  # Transform
    ("2025-06-06", "701.50a", "701.28a"),  # Convert
]
TARGET_2009 = 1.0
TARGET_ARCHIVE = 0.998
JULY_2009 = ("2009-05-01", "2009-07-11")


def _path_of(session, edition_id: int) -> Path | None:
    path = session.scalar(
        select(Document.path)
        .join(Edition, Edition.document_id == Document.id)
        .where(Edition.id == edition_id)
    )
    if not path:
        return None
    # The bundled corpus is ingested from the repository's root, by a relative path.
    for where in (Path(path), Path(__file__).resolve().parents[1] / path):
        if where.is_file():
            return where
    return None


def _difflib_links(ca, cb) -> set[tuple[int, int]]:
    """The stdlib baseline: the clause pairs of difflib's matching blocks over the texts."""
    matcher = difflib.SequenceMatcher(None, [c.norm for c in ca], [c.norm for c in cb], False)
    return {
        (ca[blk.a + k].id, cb[blk.b + k].id)
        for blk in matcher.get_matching_blocks()
        for k in range(blk.size)
    }


def renumbering_scores(session, show_errors: bool, pairs_out=None) -> None:
    """Moves named, aligner beside the difflib baseline, over consecutive English editions
    (every pair written to ``pairs_out`` too, if given)."""
    official = sorted(
        (e for e in list_editions(session) if is_official_english(e)), key=lambda e: e.date
    )
    totals = {"aligner": [0, 0], "difflib": [0, 0]}
    violations = 0
    named_cases = [0, 0]
    pairs = 0
    seconds = 0.0
    for a, b in zip(official, official[1:], strict=False):
        pa, pb = _path_of(session, a.id), _path_of(session, b.id)
        if pa is None or pb is None:
            continue
        want = truth.moves(truth.labelled_lines(pa), truth.labelled_lines(pb))
        ca = [c for c in edition_clauses(session, a.id) if c.kind in ALIGNED_KINDS]
        cb = [c for c in edition_clauses(session, b.id) if c.kind in ALIGNED_KINDS]
        t0 = time.perf_counter()
        result = compute_edition_alignment(session, a, b)
        seconds += time.perf_counter() - t0
        pairs += 1
        linked = {(p.a.id, p.b.id) for p in result.pairs if p.a and p.b}
        if pairs_out is not None:
            for p in result.pairs:
                if p.a and p.b:
                    print(a.slug, b.slug, p.a.label, p.b.label, p.kind, sep="\t", file=pairs_out)
        by_label_a = {c.label: c.id for c in reversed(ca) if c.label}
        by_label_b = {c.label: c.id for c in reversed(cb) if c.label}
        truth_links = {
            (la, lb): (by_label_a.get(la), by_label_b.get(lb)) for la, lb in want.items()
        }
        base = _difflib_links(ca, cb)
        missed = []
        for name, links in (("aligner", linked), ("difflib", base)):
            named = sum(1 for ids in truth_links.values() if ids in links)
            totals[name][0] += named
            totals[name][1] += len(truth_links)
            if name == "aligner":
                missed = [k for k, ids in truth_links.items() if ids not in links]
        ua = truth.unique_identities([(c.id, c.kind, c.norm) for c in ca])
        ub = truth.unique_identities([(c.id, c.kind, c.norm) for c in cb])
        apart = [(ua[k], ub[k]) for k in ua.keys() & ub.keys() if (ua[k], ub[k]) not in linked]
        violations += len(apart)
        share = (len(truth_links) - len(missed)) / len(truth_links) if truth_links else 1.0
        spans_named = any((a.date or "") < when <= (b.date or "") for when, _, _ in NAMED)
        if (a.date, b.date) == JULY_2009 or spans_named or missed or apart or show_errors:
            print(
                f"  {a.slug} -> {b.slug}: {len(truth_links) - len(missed)}/{len(truth_links)} "
                f"moves named ({share:.1%}), {len(apart)} identical-text violations"
            )
        for when, la, lb in NAMED:
            if not ((a.date or "") < when <= (b.date or "")):
                continue
            in_truth = want.get(la) == lb
            # Named or not whether or not the truth holds it (2025's Transform 701.28a was
            # reworded more than a truth move may be, and is still 701.27a).
            named_ok = (by_label_a.get(la), by_label_b.get(lb)) in linked
            print(
                f"    named case {la} -> {lb}: "
                f"{'in the truth' if in_truth else 'NOT in the truth'}, "
                f"{'named by the aligner' if named_ok else 'NOT named'}"
            )
            named_cases[0] += in_truth and named_ok
            named_cases[1] += 1
        if (a.date, b.date) == JULY_2009:
            ok = "OK" if share >= TARGET_2009 else "MISSED"
            print(f"    target: 100% of the 2009 renumbering's moves: {ok}")
        for la, lb in missed[:10] if show_errors or (a.date, b.date) == JULY_2009 else []:
            print(f"    missed {la} -> {lb}")
    if not pairs:
        print("renumberings: no consecutive English editions with their files in the store")
        return
    named, total = totals["aligner"]
    base_named, _ = totals["difflib"]
    share = named / total if total else 1.0
    base_share = base_named / total if total else 1.0
    print(
        f"renumberings over {pairs} consecutive pairs: aligner {named}/{total} moves named "
        f"({share:.2%}); difflib baseline {base_named}/{total} ({base_share:.2%}); "
        f"{violations} identical-text violations; {seconds:.1f} s aligning"
    )
    print(f"issue 18's named cases: {named_cases[0]}/{named_cases[1]} in the truth and named")
    print(
        f"target: >= {TARGET_ARCHIVE:.1%} of the moves and no violation:",
        "OK" if share >= TARGET_ARCHIVE and not violations else "MISSED",
    )


@contextmanager
def archive_store(folder: Path):
    """A store holding the archive's editions (clauses only; the pairs are aligned here)."""
    db = os.environ.get("MTGRULES_DB")
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_store(db or str(Path(tmp) / "archive.sqlite"))
        try:
            with session_scope(engine, write=False) as s:
                empty = not list_editions(s)
            if empty:
                t0 = time.perf_counter()
                with session_scope(engine) as s:
                    ingest_paths(s, [folder])
                print(f"(setup: ingested {folder} in {time.perf_counter() - t0:.1f} s)")
            yield engine
        finally:
            engine.dispose()


def main() -> None:
    with ExitStack() as stack:
        pairs_out = None
        if "--pairs" in sys.argv:
            path = Path(sys.argv[sys.argv.index("--pairs") + 1])
            pairs_out = stack.enter_context(path.open("w", encoding="utf-8"))
        evaluate("--errors" in sys.argv, pairs_out)


def evaluate(show_errors: bool, pairs_out) -> None:
    if "--archive" in sys.argv:
        folder = Path(sys.argv[sys.argv.index("--archive") + 1])
        with archive_store(folder) as engine, session_scope(engine, write=False) as s:
            renumbering_scores(s, show_errors, pairs_out)
        return
    with corpus_store() as engine, session_scope(engine) as s:
        result = align_rule(s, "107.3")
        score, errors = score_rule(s, result, load_rule_gold(GOLD / "align_107_3.tsv"))
        print(f"rule 107.3 (all editions and seeds): {score.as_json()}")
        if show_errors:
            for e in errors:
                print("   ", e)
        infos = list_editions(s)
        for a, b in EDITION_PAIRS:
            ia, ib = find_edition(infos, a), find_edition(infos, b)
            sc = score_editions(s, ia.id, ib.id, GOLD / "editions_sample.tsv")
            print(f"{a} -> {b}: {sc.as_json()}")
        for a, b in TRANSLATION_PAIRS:
            ia, ib = find_edition(infos, a), find_edition(infos, b)
            sc = score_translation(s, ia.id, ib.id)
            print(f"{a} -> {b} (rule clauses, gold = same label): {sc.as_json()}")
        for a, b, via in CROSS_DATE:
            ia, ib, iv = (find_edition(infos, k) for k in (a, b, via))
            sc = score_cross_date(s, ia.id, ib.id, iv.id)
            print(f"{a} -> {b} (rule clauses, gold composed via {via}): {sc.as_json()}")
        renumbering_scores(s, show_errors, pairs_out)


if __name__ == "__main__":
    main()
