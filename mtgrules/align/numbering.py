"""Whether two editions number their clauses alike: may a shared label count as evidence?

A question the scoring asks before any pair of editions is aligned (sequence.Settings'
``labels_agree``), so it sits with the scoring, below the sequence aligner and the pairings
that set it up (edition.py, rule.py).
"""

from __future__ import annotations

from ..store.queries import EditionInfo
from ..text.language import is_english


def numbered_alike(x: EditionInfo, y: EditionInfo) -> bool:
    """Do two editions number their clauses the same way? An official translation and the
    English of its date do, and so do the two languages of one bilingual page; editions of
    different dates do not (rules are inserted and renumbered every few months)."""
    if x.date is not None and x.date == y.date:
        return True
    return bool(set(x.sources) & set(y.sources))


def labels_count(x: EditionInfo, y: EditionInfo) -> bool:
    """May the aligner take a shared label as evidence between these two editions? Where
    they number alike; and for an undated page in a language the termbase has no column for
    (Polish, Ukrainian...): nothing else in its text can say which English clause it is but
    its labels, numbers, symbols and references, so its labels count (still confirmed by
    the rest, as for any label)."""
    if numbered_alike(x, y):
        return True
    from ..termbase import shipped_termbase

    undated = [e for e in (x, y) if e.date is None and not is_english(e.language)]
    return any(shipped_termbase().column(e.language) is None for e in undated)
