"""Which English edition was a text made from? Dating by content, over every English edition
there is: the store's and the packed archive's (english.py), 2003 to today.

A translation keeps the numbering of the English it was made from, so its labels come
first: in the part of the rules the text covers (scope.py: whole chapters, sections or
rules), the editions whose labels agree best with the text's are the candidates. Labels
alone cannot decide between editions that number a chapter alike (chapter 1 of 2021-02-05,
2021-02-15 and 2021-04-22 has the same labels), so the content decides among them: each
rule of the text is compared with the English rule of its label by what survives
translation verbatim (numbers, symbols, rule references; within one language, the words
themselves). Each rule votes for the editions whose wording is closest to it, and the
edition with the most votes, less the rules only one side has, wins: 2021-02-15's 120.4a cites rule 702.2 where 2021-02-05's does not, and its
103.2b cites 702.138 where 2021-04-22's cites 702.139. The evidence is counted in whole
rules, so that an edition never wins by the rounding of a similarity score (the graded
score, with lengths and terms, is shown as ``fit``). Editions that differ only where
nothing in a translation can tell them apart (one reworded sentence, the same numbers and
references) tie, and the tie is reported as a range; the one chosen is the newest not
after the text's date, else the oldest (see _choose).

A page whose paragraphs carry no labels (the Spanish page's subrules) is aligned with each
candidate's rules instead (the sequence aligner, no label bonus), as ``align --date`` always
did; a glossary by its terms.

Editions that read the same in the covered part are compared once. Nothing is written
here: the plan stores the answer at ingest (source_choice), and every reader reads it there.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rapidfuzz import fuzz
from sqlalchemy.orm import Session

from ..record import OPTIONAL, Record
from ..store.queries import ClauseView, EditionInfo, edition_clauses, list_editions
from ..text.labels import rule_of
from ..text.language import is_english
from .edition import to_items
from .english import EnglishEdition, RuleText, store_english
from .features import Context, dice, featurize, similarity_value
from .rule import fit_quality
from .scope import COVERED_AT_LEAST, Scope, chapter_of, covered_scope, section_of, text_rules
from .sequence import Settings, align_items

METHOD = "dating/2"  # stored with every choice: a choice made by another method is redone
SAME_LANGUAGE_TOLERANCE = 0.002
TRANSLATION_TOLERANCE = 0.02
# Labels: candidates whose label agreement is this close to the best are compared by content.
LABEL_MARGIN = 0.05
# Below this share of labelled rules, a text is aligned with each candidate, not paired by label.
LABELLED_ENOUGH = 0.5


def _rules_of(clauses: list[ClauseView]) -> list[str]:
    """The top-level rules a text holds (107.3 for a page of 107.3 and its subrules)."""
    rules: dict[str, None] = {}
    for c in clauses:
        lab = c.label or c.parent
        if c.kind == "rule" and lab:
            rules.setdefault(rule_of(lab), None)
    return list(rules)


@dataclass
class Candidate(Record):
    """How well one English edition fits the text."""

    edition: int | None  # the store's edition id; None for a file of the packed archive
    date: str | None
    fit: float  # agreement, 1.0: every rule of the covered part present and identical
    exact: int  # rules whose content agrees exactly (text, or numbers, symbols, references)
    clauses: int  # rules compared
    differences: list[dict[str, Any]]
    matches: bool = False
    file: str | None = field(default=None, metadata=OPTIONAL)  # the archive file
    labels: float | None = field(default=None, metadata=OPTIONAL)  # label agreement


@dataclass
class Dating(Record):
    """Which English editions a text follows, with the evidence; ``source`` the one chosen
    (its slug, or the archive file to take), ``scope`` the part of the rules it covers."""

    edition: EditionInfo
    rules: list[str]
    summary: str
    range: list[str | None] | None  # [first, last] date of the matching editions
    matches: list[str | None]
    same_document: list[str]
    candidates: list[Candidate]
    scope: Scope | None = field(default=None, metadata=OPTIONAL)
    source: dict[str, Any] | None = field(default=None, metadata=OPTIONAL)
    # Set when read from the store: the revision whose ingest dated the text.
    stored: int | None = field(default=None, metadata=OPTIONAL)
    # The candidates themselves, for the caller that takes the chosen one.
    chosen: EnglishEdition | None = field(default=None, metadata={"internal": True})

    @classmethod
    def from_json(cls, data: dict[str, Any], edition: EditionInfo, stored: int) -> Dating:
        scope = data.get("scope")
        return cls(
            edition,
            data["rules"],
            data["summary"],
            data["range"],
            data["matches"],
            data["same_document"],
            [Candidate(**c) for c in data["candidates"]],
            Scope.from_json(scope) if scope else None,
            data.get("source"),
            stored,
        )


# --- comparing a text with one English edition --------------------------------------------


@dataclass
class _Fit:
    """How well a text fits one English edition in the part it covers: the agreement of its rules
    with the edition's (``fit``), the rules that read exactly alike, the differences to show, and
    what the vote between editions counts."""

    total: float  # summed agreement of the paired rules
    union: int  # rules of the text and of the edition in the covered part
    exact: int
    compared: int
    differences: list[dict[str, Any]]
    # What decides between editions paired by label (see vote): each rule's closeness to
    # the text, and the rules only one side has.
    closeness: dict[str, float] = field(default_factory=dict)
    unpaired: int = 0
    evidence: int = 0

    @property
    def fit(self) -> float:
        return self.total / self.union if self.union else 0.0


class _Comparer:
    """Scores rules of the text against English rules, each distinct English text once."""

    def __init__(self, target: EditionInfo, rules: list[ClauseView]):
        self.language = target.language
        self.same = is_english(target.language)
        self.by_label: dict[str, ClauseView] = {}
        for c in rules:
            if c.label and c.label not in self.by_label:
                self.by_label[c.label] = c
        self._t = {lab: featurize(c.norm, self.language) for lab, c in self.by_label.items()}
        self._en: dict[str, Any] = {}
        self._scores: dict[tuple[str, str], float] = {}
        self.ctx = Context()

    def calibrate(self, english: list[RuleText]) -> None:
        """The length ratio of this language to English, from the rules both have."""
        pairs = [(self._t[r.label], self._features(r.norm)) for r in english if r.label in self._t]
        la = sum(e.length for _, e in pairs) or 1
        lt = sum(t.length for t, _ in pairs) or 1
        self.ctx = Context(length_ratio=lt / la)

    def _features(self, text: str):
        got = self._en.get(text)
        if got is None:
            got = self._en[text] = featurize(text, "en")
        return got

    def score(self, label: str, english: str) -> float:
        key = (label, english)
        got = self._scores.get(key)
        if got is None:
            got = self._scores[key] = similarity_value(
                self._features(english), self._t[label], self.ctx
            )
        return got

    def closeness(self, label: str, english: str) -> float:
        """How close an English wording is to the text's rule, by what tells wordings apart:
        the text itself within one language; across languages, the numbers, symbols and rule
        references (their Dice coefficient; 1.0 when neither has any)."""
        t, e = self._t[label], self._features(english)
        if self.same:
            return self.score(label, english)
        if not t.marks and not e.marks:
            return 1.0
        return dice(t.marks, e.marks) or 0.0

    def exact(self, label: str, english: str) -> bool:
        t, e = self._t[label], self._features(english)
        if self.same:
            return t.fold == e.fold
        return bool(t.marks or e.marks) and t.marks == e.marks

    def differs(self, label: str, english: str) -> bool:
        """Something in the text says this is another wording (its marks, or its words in
        one language), not merely a translation."""
        t, e = self._t[label], self._features(english)
        return t.fold != e.fold if self.same else t.marks != e.marks

    def by_labels(self, english: list[RuleText], scope_labels: set[str]) -> _Fit:
        mine = {lab for lab in self.by_label if lab in scope_labels or not scope_labels}
        theirs = {r.label: r.norm for r in english}
        total, exact, diffs = 0.0, 0, []
        only_mine = sorted(mine - set(theirs), key=_label_order)
        only_theirs = sorted(set(theirs) - mine, key=_label_order)
        diffs += [{"clause": lab, "edition": None} for lab in only_mine[:10]]
        diffs += [{"clause": None, "edition": lab} for lab in only_theirs[:10]]
        for label in sorted(mine & set(theirs), key=_label_order):
            value = self.score(label, theirs[label])
            total += value
            if self.exact(label, theirs[label]):
                exact += 1
            elif len(diffs) < 20 and self.differs(label, theirs[label]):
                diffs.append({"clause": label, "edition": label, "score": round(value, 3)})
        fit = _Fit(total, len(mine | set(theirs)), exact, len(mine & set(theirs)), diffs)
        fit.closeness = {lab: self.closeness(lab, theirs[lab]) for lab in mine & set(theirs)}
        fit.unpaired = len(only_mine) + len(only_theirs)
        return fit


def _vote(fits: list[_Fit], tolerance: float) -> None:
    """Each rule of the text votes for the wordings closest to it (all of them, when the
    candidates read alike there: such a rule tells nothing); an edition's evidence is its
    votes less the rules only one side has. Whole numbers: an edition wins by a rule, never
    by the rounding of a score."""
    best: dict[str, float] = {}
    for fit in fits:
        for label, value in fit.closeness.items():
            if value > best.get(label, -1.0):
                best[label] = value
    for fit in fits:
        votes = sum(1 for lab, value in fit.closeness.items() if value >= best[lab] - tolerance)
        fit.evidence = votes - fit.unpaired


def _label_order(label: str) -> tuple:
    from ..text.labels import label_sort_key

    return label_sort_key(label)


def _fit_by_alignment(target: EditionInfo, mine: list[ClauseView], theirs: list[RuleText]) -> _Fit:
    """Align the text's rules with the edition's (no label bonus: the fit must measure
    content only, or every edition with the same labels would tie)."""
    if not mine or not theirs:
        return _Fit(0.0, len(mine) + len(theirs), 0, len(mine), [])
    a, b = to_items(mine, target.language), to_items(theirs, "en")
    steps = align_items(a, b, Settings(label_bonus=0.0))
    exact, diffs = 0, []
    for s in steps:
        if s.a and s.b and len(s.a) == 1 and len(s.b) == 1:
            same = a[s.a[0]].features.fold == b[s.b[0]].features.fold
            exact += int(same)
            if not same and s.score < 0.999 and len(diffs) < 20:
                diffs.append(
                    {
                        "clause": mine[s.a[0]].label,
                        "edition": theirs[s.b[0]].label,
                        "score": round(s.score, 3),
                    }
                )
        elif s.a and not s.b and len(diffs) < 20:
            diffs.append({"clause": mine[s.a[0]].label, "edition": None})
        elif s.b and not s.a and len(diffs) < 20:
            diffs.append({"clause": None, "edition": theirs[s.b[0]].label})
    fit = fit_quality(steps, len(a), len(b))
    return _Fit(fit, 1, exact, len(mine), diffs)


def _fit_glossary(
    target_entries: list[ClauseView], cand_entries: list[ClauseView]
) -> tuple[float, int, int, list[dict]]:
    theirs = {(c.term or "").casefold(): c for c in cand_entries}
    total, exact, diffs = 0.0, 0, []
    for c in target_entries:
        other = theirs.get((c.term or "").casefold())
        ratio = fuzz.ratio(c.norm, other.norm) / 100 if other else 0.0
        total += ratio
        exact += int(ratio >= 0.999)
        if ratio < 0.999:
            diffs.append({"term": c.term, "ratio": round(ratio, 3)})
    n = len(target_entries)
    return (total / n if n else 0.0), exact, n, diffs


# --- dating a text ------------------------------------------------------------------------


def date_text(
    session: Session,
    target: EditionInfo,
    clauses: list[ClauseView],
    english: list[EnglishEdition],
    infos: list[EditionInfo] | None = None,
) -> Dating:
    """Date ``target`` (its ``clauses``) against the English editions ``english``."""
    infos = infos if infos is not None else list_editions(session)
    rules = [c for c in clauses if c.kind == "rule"]
    if target.kind != "rules" or not rules:
        return _date_glossary(session, target, clauses, infos)
    labelled = [c for c in rules if c.label]
    t_labels = [c.label or c.parent for c in rules]
    by_labels = len(labelled) >= LABELLED_ENOUGH * len(rules)

    # 1. The covered part of each edition, and how well the labels agree there. A text that
    # touches one section of a chapter cannot cover the chapter: only the labels of the
    # sections it touches are read then (an archive file reads a few lines, not all).
    scoped: list[tuple[EnglishEdition, Scope, set[str], float]] = []
    mine = {c.label for c in labelled}
    touched = {section_of(r) for r in text_rules(t_labels)}
    per_chapter = Counter(chapter_of(x) for x in touched)
    sections = None if any(n >= COVERED_AT_LEAST for n in per_chapter.values()) else touched
    for cand in english:
        labels = cand.labels(session, sections)
        scope = covered_scope(t_labels, labels)
        inside = {lab for lab in labels if scope.holds(lab)}
        union = mine | inside
        agree = len(mine & inside) / len(union) if union else 0.0
        scoped.append((cand, scope, inside, agree))
    if by_labels:
        best_labels = max((s[3] for s in scoped), default=0.0)
        compared = [s for s in scoped if s[3] >= best_labels - LABEL_MARGIN]
    else:
        compared = scoped

    # 2. Content, once per distinct wording of the covered part.
    comparer = _Comparer(target, rules)
    fits: dict[int, _Fit] = {}
    memo: dict[tuple, _Fit] = {}
    calibrated = False
    for cand, _scope, inside, _ in compared:
        theirs = cand.rules(session, inside)
        key = tuple((r.label, r.norm) for r in theirs)
        fit = memo.get(key)
        if fit is None:
            if by_labels:
                if not calibrated:
                    comparer.calibrate(theirs)
                    calibrated = True
                fit = comparer.by_labels(theirs, inside)
            else:
                fit = _fit_by_alignment(target, rules, theirs)
            memo[key] = fit
        fits[id(cand)] = fit

    if by_labels:
        _vote(list(fits.values()), SAME_LANGUAGE_TOLERANCE if is_english(target.language) else 1e-9)

    # 3. The best, and what ties with it.
    rows: list[Candidate] = []
    best = max((f.evidence for f in fits.values()), default=None) if by_labels else None
    best_fit = max((f.fit for f in fits.values()), default=0.0)
    tolerance = SAME_LANGUAGE_TOLERANCE if is_english(target.language) else TRANSLATION_TOLERANCE
    matched: list[tuple[EnglishEdition, Scope]] = []
    for cand, scope, _inside, agree in scoped:
        fit = fits.get(id(cand))
        if fit is None:
            matches = False
        elif by_labels:
            matches = best is not None and fit.evidence >= best and fit.total > 0
        else:
            matches = best_fit > 0 and fit.fit >= best_fit - tolerance
        if matches:
            matched.append((cand, scope))
        rows.append(
            Candidate(
                cand.edition.id if cand.edition else None,
                cand.date,
                round(fit.fit, 4) if fit else 0.0,
                fit.exact if fit else 0,
                fit.compared if fit else 0,
                fit.differences if fit else [],
                matches,
                file=cand.file.name if cand.file else None,
                labels=round(agree, 4),
            )
        )
    chosen, scope = _choose(matched, target.date) if matched else (None, None)
    dates = sorted({c.date for c, _ in matched if c.date})
    summary = _summary(target, rows, dates, chosen)
    same_document = [e.slug for e in infos if e.source == target.source and e.id != target.id]
    summary += _beside(session, target, infos)
    return Dating(
        target,
        _rules_of(rules),
        summary,
        [dates[0], dates[-1]] if dates else None,
        dates,
        same_document,
        rows,
        scope,
        _source_json(chosen) if chosen else None,
        chosen=chosen,
    )


def _choose(
    matched: list[tuple[EnglishEdition, Scope]], date: str | None
) -> tuple[EnglishEdition, Scope]:
    """Of editions that fit equally well (nothing in the text tells them apart): for a dated
    text, the newest not after its date; else the oldest. The oldest is the careful answer:
    an English change the text cannot show (a reworded sentence) is then reported to the
    translator as a change to check, never taken as already translated."""
    if date:
        before = [m for m in matched if (m[0].date or "") <= date]
        if before:
            return max(before, key=lambda m: (m[0].date or "", m[0].in_store))
    return min(matched, key=lambda m: (m[0].date or "", not m[0].in_store))


def _source_json(chosen: EnglishEdition) -> dict[str, Any]:
    return {
        "key": chosen.key,
        "date": chosen.date,
        "edition": chosen.edition.id if chosen.edition else None,
        "file": chosen.file.name if chosen.file else None,
    }


def _summary(
    target: EditionInfo, rows: list[Candidate], dates: list[str], chosen: EnglishEdition | None
) -> str:
    if not dates or chosen is None:
        return f"{target.slug}: no English edition fits it."
    first, last = dates[0], dates[-1]
    later = [r for r in rows if (r.date or "") > last]
    earlier = [r for r in rows if (r.date or "") < first]
    span = f"English {first}" if first == last else f"English {first} to {last}"
    tail = (
        f" and no later edition (next: {_fit_of(later[0])})" if later else " (the newest there is)"
    )
    head = f" and no earlier one (previous: {_fit_of(earlier[-1])})" if earlier else ""
    best = max((r for r in rows if r.matches), key=lambda r: r.fit)
    where = "" if chosen.in_store else " (from the packed English archive)"
    return (
        f"{target.slug} matches {span}{tail}{head}; best fit {best.fit:.3f} "
        f"({best.exact}/{best.clauses} rules agreeing exactly); "
        f"made from {chosen.key}{where}."
    )


def _fit_of(row: Candidate) -> str:
    if row.clauses:
        return f"{row.date}, fit {row.fit:.3f}"
    return f"{row.date}, whose labels agree less ({row.labels:.3f})"


def _beside(session: Session, target: EditionInfo, infos: list[EditionInfo]) -> str:
    """A translation printed beside its English (a bilingual page, a forum post) is as old
    as that English: its date is sharper evidence than the translation's own fit."""
    if is_english(target.language):
        return ""
    beside = [
        e for e in infos if e.source == target.source and e.id != target.id and e.language == "en"
    ]
    if not beside:
        return ""
    other = date_text(
        session,
        beside[0],
        edition_clauses(session, beside[0].id),
        store_english(session, infos),
        infos,
    )
    if not other.range:
        return ""
    first, last = other.range
    span = first if first == last else f"{first} to {last}"
    return f" The same document holds {beside[0].slug}, which matches English {span}."


def _date_glossary(
    session: Session, target: EditionInfo, clauses: list[ClauseView], infos: list[EditionInfo]
) -> Dating:
    """A glossary (the 2006 glossary pages) by its terms, against the store's English."""
    mine = [c for c in clauses if c.kind == "glossary"]
    rows = []
    official = sorted(
        (
            e
            for e in infos
            if e.language == "en" and e.date and e.kind == "rules" and e.id != target.id
        ),
        key=lambda e: e.date or "",
    )
    for cand in official:
        theirs = [c for c in edition_clauses(session, cand.id) if c.kind == "glossary"]
        fit, exact, n, diffs = _fit_glossary(mine, theirs)
        rows.append(Candidate(cand.id, cand.date, round(fit, 4), exact, n, diffs[:20]))
    top = max((r.fit for r in rows), default=0.0)
    tolerance = SAME_LANGUAGE_TOLERANCE if is_english(target.language) else TRANSLATION_TOLERANCE
    for r in rows:
        r.matches = top > 0 and r.fit >= top - tolerance
    dates = [r.date for r in rows if r.matches and r.date]
    by_id = {e.id: e for e in official}
    chosen_info = None
    if dates:
        chosen_info = max(
            (by_id[r.edition] for r in rows if r.matches and r.edition in by_id),
            key=lambda e: e.date or "",
        )
    chosen = (
        EnglishEdition(chosen_info.slug, chosen_info.date, edition=chosen_info)
        if chosen_info
        else None
    )
    return Dating(
        target,
        [],
        _summary(target, rows, dates, chosen),
        [dates[0], dates[-1]] if dates else None,
        dates,
        [e.slug for e in infos if e.source == target.source and e.id != target.id],
        rows,
        None,
        _source_json(chosen) if chosen else None,
        chosen=chosen,
    )
