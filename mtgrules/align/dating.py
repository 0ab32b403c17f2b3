"""Which official English editions does an undated text match?

The text's rules (or glossary entries) are aligned with the same rules of every official
English edition; each edition gets a fit (paired score mass, 1.0 = every clause paired with
identical content) and a count of clauses with identical text. The editions whose fit is
at the top (within a tolerance: wider for translations, whose scores are noisier) are the
answer, given as a range with the evidence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz
from sqlalchemy.orm import Session

from ..record import Record
from ..store.queries import EditionInfo, edition_clauses, list_editions, rule_clauses
from ..text.labels import rule_of
from ..text.language import is_english
from .edition import to_items
from .rule import fit_quality
from .sequence import Settings, align_items

SAME_LANGUAGE_TOLERANCE = 0.002
TRANSLATION_TOLERANCE = 0.02


def _rules_of(session: Session, info: EditionInfo) -> list[str]:
    """The top-level rules a text holds (107.3 for a page of 107.3 and its subrules)."""
    rules: dict[str, None] = {}
    for c in edition_clauses(session, info.id):
        if c.kind != "rule" or not c.label:
            continue
        rules.setdefault(rule_of(c.label), None)
    return list(rules)


def _fit_glossary(
    session: Session, target: EditionInfo, cand: EditionInfo
) -> tuple[float, int, int, list[dict]]:
    mine = [c for c in edition_clauses(session, target.id) if c.kind == "glossary"]
    theirs = {
        (c.term or "").casefold(): c
        for c in edition_clauses(session, cand.id)
        if c.kind == "glossary"
    }
    total, exact, diffs = 0.0, 0, []
    for c in mine:
        other = theirs.get((c.term or "").casefold())
        ratio = fuzz.ratio(c.norm, other.norm) / 100 if other else 0.0
        total += ratio
        exact += int(ratio >= 0.999)
        if ratio < 0.999:
            diffs.append({"term": c.term, "ratio": round(ratio, 3)})
    return (total / len(mine) if mine else 0.0), exact, len(mine), diffs


def _fit_rules(
    session: Session,
    target: EditionInfo,
    cand: EditionInfo,
    rules: list[str],
    memo: dict[tuple, tuple[float, int, int, list[dict]]] | None = None,
) -> tuple[float, int, int, list[dict]]:
    mine, theirs = [], []
    for rule in rules:
        mine.extend(c for c in rule_clauses(session, target.id, rule) if c.kind == "rule")
        theirs.extend(c for c in rule_clauses(session, cand.id, rule) if c.kind == "rule")
    if not mine or not theirs:
        return 0.0, 0, len(mine), []
    # Editions whose rules read the same give the same fit (107.3 is word for word the same
    # from 2022-06-10 to 2026-01-16): align once per wording.
    key = (cand.language, *((c.label, c.kind, c.norm) for c in theirs))
    if memo is not None and key in memo:
        return memo[key]
    out = _fit_clauses(target, cand, mine, theirs)
    if memo is not None:
        memo[key] = out
    return out


def _fit_clauses(
    target: EditionInfo, cand: EditionInfo, mine: list, theirs: list
) -> tuple[float, int, int, list[dict]]:
    a, b = to_items(mine, target.language), to_items(theirs, cand.language)
    # No label bonus here: the fit must measure content only, or every edition with the
    # same labels would tie.
    steps = align_items(a, b, Settings(label_bonus=0.0))
    exact, diffs = 0, []
    for s in steps:
        if s.a and s.b and len(s.a) == 1 and len(s.b) == 1:
            same = a[s.a[0]].features.fold == b[s.b[0]].features.fold
            exact += int(same)
            if not same and s.score < 0.999:
                diffs.append(
                    {
                        "clause": mine[s.a[0]].label,
                        "edition": theirs[s.b[0]].label,
                        "score": round(s.score, 3),
                    }
                )
        elif s.a and not s.b:
            diffs.append({"clause": mine[s.a[0]].label, "edition": None})
        elif s.b and not s.a:
            diffs.append({"clause": None, "edition": theirs[s.b[0]].label})
    return fit_quality(steps, len(a), len(b)), exact, len(mine), diffs


@dataclass
class Candidate(Record):
    """How well one official English edition fits the dated text."""

    edition: int
    date: str | None
    fit: float  # paired score mass, 1.0: every clause paired with identical content
    exact: int  # clauses with identical text
    clauses: int
    differences: list[dict[str, Any]]
    matches: bool = False


@dataclass
class Dating(Record):
    """Which official English editions an edition follows, with the evidence."""

    edition: EditionInfo
    rules: list[str]
    summary: str
    range: list[str | None] | None  # [first, last] date of the matching editions
    matches: list[str | None]
    same_document: list[str]
    candidates: list[Candidate]


def date_edition(session: Session, edition_id: int, *, as_of: int | None = None) -> Dating:
    infos = list_editions(session, as_of)
    target = next(e for e in infos if e.id == edition_id)
    official = [
        e
        for e in infos
        if e.language == "en" and e.date and e.kind == "rules" and e.id != target.id
    ]
    official.sort(key=lambda e: e.date or "")
    rules = _rules_of(session, target) if target.kind == "rules" else []
    english = is_english(target.language)
    rows = []
    memo: dict = {}
    for cand in official:
        if rules:
            fit, exact, n, diffs = _fit_rules(session, target, cand, rules, memo)
        else:
            fit, exact, n, diffs = _fit_glossary(session, target, cand)
        rows.append(Candidate(cand.id, cand.date, round(fit, 4), exact, n, diffs[:20]))
    top = max((r.fit for r in rows), default=0.0)
    tolerance = SAME_LANGUAGE_TOLERANCE if english else TRANSLATION_TOLERANCE
    for r in rows:
        r.matches = top > 0 and r.fit >= top - tolerance
    matched = [r for r in rows if r.matches]
    summary = _summary(target, matched, rows)
    same_document = [e.slug for e in infos if e.source == target.source and e.id != target.id]
    if not english:
        # A translation printed beside its English (a bilingual page, a forum post) is as old
        # as that English: its date is sharper evidence than the translation's own fit.
        beside = [
            e
            for e in infos
            if e.source == target.source and e.id != target.id and e.language == "en"
        ]
        if beside:
            other = date_edition(session, beside[0].id, as_of=as_of)
            if other.range:
                summary += (
                    f" The same document holds {beside[0].slug}, which matches English "
                    f"{_span(other.range)}."
                )
    return Dating(
        target,
        rules,
        summary,
        [matched[0].date, matched[-1].date] if matched else None,
        [r.date for r in matched],
        same_document,
        rows,
    )


def _summary(target: EditionInfo, matched: list[Candidate], rows: list[Candidate]) -> str:
    if not matched:
        return f"{target.slug}: no official English edition in the corpus fits it."
    first, last = matched[0].date or "", matched[-1].date or ""
    later = [r for r in rows if (r.date or "") > last]
    earlier = [r for r in rows if (r.date or "") < first]
    span = f"English {first}" if first == last else f"English {first} to {last}"
    tail = (
        f" and no later edition in the corpus (next: {later[0].date}, fit {later[0].fit:.3f})"
        if later
        else " (the newest in the corpus)"
    )
    head = (
        f" and no earlier one (previous: {earlier[-1].date}, fit {earlier[-1].fit:.3f})"
        if earlier
        else ""
    )
    best = max(matched, key=lambda r: r.fit)
    return (
        f"{target.slug} matches {span}{tail}{head}; best fit {best.fit:.3f} "
        f"({best.exact}/{best.clauses} clauses with identical text)."
    )


def _span(date_range: list[str | None]) -> str:
    first, last = date_range
    return first if first == last else f"{first} to {last}"
