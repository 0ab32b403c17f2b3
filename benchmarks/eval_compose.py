"""Non-consecutive pairs of editions: the pairing composed from the stored steps between them
(align/composition.py) against a direct alignment of the pair in memory (edition.py), and
both against the renumbering truth built from the raw files (renumbering_truth.py: a rule
whose text, nearly unchanged, sits under another label in B).

Run: .venv/bin/python benchmarks/eval_compose.py [--db STORE]
(default: a temporary store of the bundled corpus, alignments included)

Agreement: clause pairs (rules, examples, glossary entries) both pairings make, over those
either makes. Truth moves named: a move of the truth is named when the pairing links a
clause of its old label with one of its new label.
"""

from __future__ import annotations

import sys
import time

import renumbering_truth as truth
from corpus_store import corpus_store
from eval_align import _path_of

from mtgrules.align.composition import chain_between, composed_alignment
from mtgrules.align.edition import compute_edition_alignment
from mtgrules.align.storage import _stored_steps
from mtgrules.reports.diff import alignment_diff
from mtgrules.store import session_scope
from mtgrules.store.queries import find_edition, list_editions

PAIRS = [
    ("en-2009-07-11", "en-2026-01-16"),
    ("en-2006-02-01", "en-2012-07-01"),
    ("en-2015-01-23", "en-2022-06-10"),
]
KINDS = ("rule", "example", "glossary")


def linked(ea) -> set[tuple[int, int]]:
    return {
        (p.a.id, p.b.id)
        for p in ea.pairs
        if p.a and p.b and p.a.kind in KINDS and p.b.kind in KINDS
    }


def named(ea, moves: dict[str, str]) -> int:
    have = {(p.a.label, p.b.label) for p in ea.pairs if p.a and p.b}
    return sum((la, lb) in have for la, lb in moves.items())


def main() -> None:
    db = sys.argv[sys.argv.index("--db") + 1] if "--db" in sys.argv else None
    with corpus_store(db) as engine, session_scope(engine, write=False) as s:
        infos = list_editions(s)
        for sa, sb in PAIRS:
            a, b = find_edition(infos, sa), find_edition(infos, sb)
            t0 = time.process_time()
            chain = chain_between(_stored_steps(s), a, b)
            comp = composed_alignment(s, a, b, chain) if len(chain) > 1 else None
            t_comp = time.process_time() - t0
            t0 = time.process_time()
            direct = compute_edition_alignment(s, a, b)
            t_direct = time.process_time() - t0
            if comp is None:
                print(f"{sa} -> {sb}: a step is not stored")
                continue
            lc, ld = linked(comp), linked(direct)
            both = len(lc & ld)
            moves = truth.moves(
                truth.labelled_lines(_path_of(s, a.id)), truth.labelled_lines(_path_of(s, b.id))
            )
            dc, dd = alignment_diff(comp).summary, alignment_diff(direct).summary
            print(
                f"{sa} -> {sb}: {both} clause pairs in both; composed only {len(lc - ld)}, "
                f"direct only {len(ld - lc)} (agreement {both / max(1, len(lc | ld)):.1%}); "
                f"truth moves named: composed {named(comp, moves)}/{len(moves)}, "
                f"direct {named(direct, moves)}/{len(moves)}; CPU composed {t_comp:.2f} s, "
                f"direct {t_direct:.2f} s"
            )
            print(f"  diff summary composed {dc}\n  diff summary direct   {dd}")
            hc = {(p.a.label, p.b.label) for p in comp.pairs if p.a and p.b}
            hd = {(p.a.label, p.b.label) for p in direct.pairs if p.a and p.b}
            truth_moves = list(moves.items())
            print("  moves named by direct only:", [m for m in truth_moves if m in hd - hc][:8])
            print("  moves named by composed only:", [m for m in truth_moves if m in hc - hd][:8])
            views = {c.id: c for p in direct.pairs for c in (p.a, p.b) if c is not None}
            for tag, pairs in (("composed only", lc - ld), ("direct only", ld - lc)):
                for x, y in sorted(pairs)[:4]:
                    ca, cb = views[x], views[y]
                    print(
                        f"  {tag}: {ca.label or ca.term} -> {cb.label or cb.term}: "
                        f"{ca.norm[:60]!r} | {cb.norm[:60]!r}"
                    )


if __name__ == "__main__":
    main()
