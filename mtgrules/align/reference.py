"""Which English edition another edition is read against: the one a translation was made
from (its source), and the newest official English. Shared by the aligner (the links stored
at ingest) and the reports (update, drift, trace, export), so that all answer the same.

A translation is compared with the English it was translated from, never straight with an
English edition of another date: across language and time in one step the aligner blames the
translation for every change the English made since.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..record import Record
from ..store.queries import EditionInfo, rule_labels
from ..text.language import is_english


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


def missing_same_date_english(infos: Sequence[EditionInfo]) -> dict[str, list[EditionInfo]]:
    """The dates of translations whose English (of their document or of their date) the store
    lacks, with those translations: the English to look for in the packed archive."""
    out: dict[str, list[EditionInfo]] = {}
    for info in infos:
        if is_english(info.language) or info.date is None:
            continue
        if followed_english(info, infos, None) is None:
            out.setdefault(info.date, []).append(info)
    return out


@dataclass
class SourceChoice(Record):
    """The English edition a translation follows: ``how`` is same-document (a bilingual
    page's own English), same-date (the official English of its date) or best-fit (no
    English of its date in the store: the edition whose text it matches best, by dating)."""

    edition: EditionInfo
    how: str
    why: str
    fit: float | None = None


def find_source(
    session: Session, translation: EditionInfo, infos: list[EditionInfo]
) -> SourceChoice:
    english = [e for e in infos if is_english(e.language) and e.id != translation.id]
    if not english:
        raise NotFoundError(
            "no English edition in the store to compare the translation with; "
            "run: mtgrules ingest corpus/ (or the English edition it was made from)"
        )
    known = followed_english(translation, infos, None)
    if known is not None:
        if set(known.sources) & set(translation.sources):
            return SourceChoice(
                known, "same-document", f"{known.slug} is printed beside it in the same file"
            )
        return SourceChoice(
            known, "same-date", f"{known.slug} is the official English of the same date"
        )
    official = [e for e in english if e.date and e.kind == translation.kind]
    # A whole edition (not a page of a few rules, as align's fragment_scope has it).
    if official and translation.rules * 5 > max(e.rules for e in official):
        return _by_labels(session, translation, official)
    return _by_dating(session, translation, english)


def _by_labels(
    session: Session, translation: EditionInfo, official: list[EditionInfo]
) -> SourceChoice:
    """A whole translation keeps the rule numbers of the English it was made from, and every
    edition adds, drops and renumbers rules: the English whose labels agree best is its
    source. Cheap (sets of labels) where aligning it with every edition would take minutes."""
    mine = set(rule_labels(session, translation.id))
    scored = []
    for info in official:
        theirs = set(rule_labels(session, info.id))
        jaccard = len(mine & theirs) / len(mine | theirs) if mine | theirs else 0.0
        scored.append((jaccard, info))
    top = max(j for j, _ in scored)
    tied = [info for j, info in scored if j >= top - 0.002]
    chosen = _nearest(tied, translation.date)
    jaccard = next(j for j, info in scored if info.id == chosen.id)
    ties = (
        f" (as do {', '.join(e.slug for e in tied if e.id != chosen.id)})" if len(tied) > 1 else ""
    )
    reason = _why_not_same_date(translation)
    return SourceChoice(
        chosen,
        "best-fit",
        f"{reason}its rule labels agree best with {chosen.slug}{ties}: {jaccard:.1%} of the "
        "labels of either are in both. Ingest the English it was made from for a sharper report.",
        round(jaccard, 4),
    )


def _by_dating(
    session: Session, translation: EditionInfo, english: list[EditionInfo]
) -> SourceChoice:
    """A page of a few rules: the official English whose text it fits best (align --date)."""
    from .dating import date_edition

    dating = date_edition(session, translation.id)
    by_id = {e.id: e for e in english}
    matching = [by_id[c.edition] for c in dating.candidates if c.matches and c.edition in by_id]
    if not matching:
        raise NotFoundError(
            f"no English edition in the store fits {translation.slug}; ingest the English "
            "edition it was made from, or give one: --source E"
        )
    chosen = _nearest(matching, translation.date)
    fit = next(c.fit for c in dating.candidates if c.edition == chosen.id)
    span = (
        f"{dating.range[0]} to {dating.range[1]}"
        if dating.range and dating.range[0] != dating.range[1]
        else chosen.date
    )
    reason = _why_not_same_date(translation)
    return SourceChoice(
        chosen,
        "best-fit",
        f"{reason}its text fits English {span} best (fit {fit:.3f}); {chosen.slug} is used.",
        fit,
    )


def _why_not_same_date(translation: EditionInfo) -> str:
    if translation.date:
        return f"no English edition of {translation.date} in the store; "
    return "it has no date; "


def _nearest(candidates: list[EditionInfo], date: str | None) -> EditionInfo:
    """Of editions that fit equally well, the newest one not after ``date`` (a translation is
    made from an English of its time or before), else the nearest after it; with no date,
    the newest."""
    if not date:
        return max(candidates, key=lambda e: e.date or "")
    before = [e for e in candidates if (e.date or "") <= date]
    if before:
        return max(before, key=lambda e: e.date or "")
    return min(candidates, key=lambda e: _days(e.date) - _days(date))


def _days(date: str | None) -> int:
    return dt.date.fromisoformat(date).toordinal() if date else 0
