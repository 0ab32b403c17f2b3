"""Which English edition another edition is read against: the one a translation was made
from, and the newest official English. Shared by the aligner (the links stored at ingest)
and the reports (drift, trace, export), so that both answer the same."""

from __future__ import annotations

from collections.abc import Sequence

from ..store.queries import EditionInfo


def is_official_english(info: EditionInfo) -> bool:
    """A dated English edition of the rules (not a scraped copy, not the 2006 glossary)."""
    return info.language == "en" and info.kind == "rules" and info.date is not None


def newest_english(infos: Sequence[EditionInfo], exclude: int | None = None) -> EditionInfo | None:
    dated = [e for e in infos if is_official_english(e) and e.id != exclude]
    return max(dated, key=lambda e: e.date or "") if dated else None


def followed_english(
    info: EditionInfo, infos: Sequence[EditionInfo], fallback: EditionInfo | None
) -> EditionInfo | None:
    """The English edition a translation was made from, as far as the store knows.

    A bilingual page's own English comes first (the translator had it in front of them),
    then the official English of the same date, then ``fallback`` (usually the newest).
    """
    english = [e for e in infos if e.language == "en" and e.id != info.id]
    own = [e for e in english if set(e.sources) & set(info.sources)]
    if own:
        return own[0]
    if info.date:
        same = [e for e in english if e.date == info.date and e.kind == info.kind]
        if same:
            return same[0]
    return fallback


def numbered_alike(x: EditionInfo, y: EditionInfo) -> bool:
    """Do two editions number their clauses the same way? An official translation and the
    English of its date do, and so do the two languages of one bilingual page; editions of
    different dates do not (rules are inserted and renumbered every few months)."""
    if x.date is not None and x.date == y.date:
        return True
    return bool(set(x.sources) & set(y.sources))
