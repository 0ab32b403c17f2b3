"""Strict precision / recall / F1 of the aligner against the hand-checked gold.

Usage: .venv/bin/python benchmarks/eval_align.py [--errors]
(the store is $MTGRULES_DB, else a temporary one holding the bundled corpus).
"""

from __future__ import annotations

import sys
from pathlib import Path

from corpus_store import corpus_store

from mtgrules.align import align_rule
from mtgrules.align.evaluate import (
    load_rule_gold,
    score_cross_date,
    score_editions,
    score_rule,
    score_translation,
)
from mtgrules.store import session_scope
from mtgrules.store.queries import find_edition, list_editions

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


def main() -> None:
    show_errors = "--errors" in sys.argv
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


if __name__ == "__main__":
    main()
