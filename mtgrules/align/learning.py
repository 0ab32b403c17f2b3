"""New termbase entries learned from the aligned clause pairs of an edition and its translation.

The shipped termbase (mtgrules/data/termbase.tsv, read by mtgrules/termbase.py) is the
reviewed source of truth. Learning looks at the clause pairs of an English edition and its translation: an English word and a target word
(or, for Chinese, a run of 2 to 4 characters) that keep appearing in the same pairs, and
rarely apart (Dice coefficient), are proposed as a term. Proposals are stored as Term rows
with source "learned" and printed as TSV rows a maintainer can review and append.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..record import Record
from ..store.models import Term
from ..text.fold import HAN_RUN, fold
from ..text.language import is_chinese, writing_of

_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
# Words of rules prose, not game terms; they co-occur with everything.
_PROSE = {
    "that", "this", "with", "from", "have", "their", "which", "other", "each", "would", "will",
    "into", "then", "than", "only", "also", "more", "does", "been", "were", "they", "them",
    "when", "while", "those", "these", "there", "such", "some", "example", "rule", "rules",
}  # fmt: skip


@dataclass
class LearnedTerm(Record):
    """A proposed termbase entry: an English term and its form in a translation's language, with
    their Dice coefficient and the number of aligned pairs that hold both."""

    english: str
    language: str
    form: str
    dice: float
    together: int

    def tsv(self) -> str:
        return f"{self.english}\t{self.language}\t{self.form}\t{self.dice:.2f}\t{self.together}"


# Runs of a script written without spaces between words (or with particles glued to them):
# Japanese kana and kanji, Korean Hangul syllables. Their units are 2-4 character n-grams, as
# for Chinese.
_RUNS = {
    "japanese": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\u3400-\u4dbf]+"),
    "hangul": re.compile(r"[\uac00-\ud7a3]+"),
}


def _units(text: str, language: str) -> set[str]:
    runs = HAN_RUN if is_chinese(language) else _RUNS.get(writing_of(language))
    if runs is not None:
        out: set[str] = set()
        for run in runs.findall(text):
            for n in (2, 3, 4):
                out.update(run[k : k + n] for k in range(len(run) - n + 1))
        return out
    return {w for w in _WORD.findall(fold(text)) if w not in _PROSE}


# A heading rule: a keyword's or a section's title ("702.2. Deathtouch", "112. Spells").
_TITLE_WORDS = 6
_READING = re.compile(r"[（(][^）)]*[）)]")


def heading_terms(english: list, translated: list, language: str) -> list[LearnedTerm]:
    """Terms a translation states beside the English it keeps, from aligned clause pairs
    ``(english clause, translated clause)``: a heading whose translation keeps the English
    title (Korean "702.2. 치명타 Deathtouch", Japanese "702.20. 警戒／Vigilance"), and a glossary
    heading keeping its English term ("相棒（あいぼう）／Companion"). The translated form is what
    is left once the English, the reading in brackets and the separators are taken out.
    Exact pairs, no statistics: each is said once by the translators themselves."""
    from .terms import kept_english, term_key

    found: dict[tuple[str, str], LearnedTerm] = {}
    for en, tr in zip(english, translated, strict=True):
        if en.kind == "glossary":
            title, text = en.term or "", tr.term or ""
        elif en.kind in ("rule", "heading") and en.label == tr.label:
            title, text = en.norm, tr.norm
            if len(title.split()) > _TITLE_WORDS or title.endswith((".", ":")):
                continue
        else:
            continue
        kept = kept_english(text) if en.kind == "glossary" else _kept_title(text, title)
        if not kept or term_key(kept) != term_key(title) and en.kind != "glossary":
            continue
        form = text.replace(kept, " ") if kept in text else text.split("／")[0]
        form = _READING.sub(" ", form.split("／")[0]).strip(" ／/,.:()（）・")
        if not form or form.isascii():
            continue
        key = (title, form)
        found.setdefault(key, LearnedTerm(title, language, form, 1.0, 0)).together += 1
    return sorted(found.values(), key=lambda t: t.english.lower())


def _kept_title(text: str, title: str) -> str | None:
    """The English title as a translated heading keeps it (case aside), or None."""
    at = text.lower().find(title.lower())
    return text[at : at + len(title)] if at >= 0 else None


def learn_terms(
    session: Session,
    english: int,
    translation: int,
    *,
    min_together: int = 5,
    min_dice: float = 0.6,
    store: bool = True,
) -> list[LearnedTerm]:
    """Term proposals from the aligned clauses of an English edition and a translation: the
    terms it states beside the English it keeps (heading_terms, dice 1.0), then words that
    keep appearing in the same pairs (Dice coefficient)."""
    from .edition import edition_info
    from .storage import align_editions

    info = edition_info(session, translation)
    result = align_editions(session, english, translation)
    pairs = [
        (p.a.norm, p.b.norm)
        for p in result.pairs
        if p.a and p.b and p.kind == "match" and p.a.kind == "rule" and p.score >= 0.5
    ]
    en_sets = [_units(a, "en") for a, _ in pairs]
    tg_sets = [_units(b, info.language) for _, b in pairs]
    en_df = Counter(w for s in en_sets for w in s)
    tg_df = Counter(t for s in tg_sets for t in s)
    known = {
        fold(form) for (form,) in session.execute(select(Term.form).where(Term.language == "en"))
    }
    limit = 0.3 * len(pairs)
    proposals: list[LearnedTerm] = []
    for word, df in en_df.items():
        if df < min_together or df > limit or word in known:
            continue
        together: Counter[str] = Counter()
        for k, s in enumerate(en_sets):
            if word in s:
                together.update(tg_sets[k])
        best: tuple[float, int, str] | None = None
        for unit, c in together.items():
            if c < min_together:
                continue
            d = 2 * c / (df + tg_df[unit])
            # On a near tie, prefer the longer form: 咒语 over 咒.
            if (
                best is None
                or d > best[0] + 0.02
                or (abs(d - best[0]) <= 0.02 and len(unit) > len(best[2]))
            ):
                best = (d, c, unit)
        if best and best[0] >= min_dice:
            proposals.append(LearnedTerm(word, info.language, best[2], round(best[0], 3), best[1]))
    proposals.sort(key=lambda t: (-t.dice, t.english))
    # The terms the translation states itself beside the English it keeps (keyword and
    # glossary headings) come first: exact pairs, each said by the translators.
    from ..store.queries import edition_clauses
    from .terms import pair_by_kept_terms

    aligned = [(p.a, p.b) for p in result.pairs if p.a and p.b]
    glossary = pair_by_kept_terms(
        [c for c in edition_clauses(session, english) if c.kind == "glossary"],
        [c for c in edition_clauses(session, translation) if c.kind == "glossary"],
    )
    aligned += [(en, tr) for en, tr, _ in glossary]
    stated = heading_terms([a for a, _ in aligned], [b for _, b in aligned], info.language)
    said = {fold(t.english) for t in stated}
    proposals = stated + [t for t in proposals if t.english not in said]
    if store:
        session.execute(
            delete(Term).where(Term.source == "learned", Term.language == info.language)
        )
        session.add_all(
            Term(concept=t.english, language=t.language, form=t.form, source="learned")
            for t in proposals
        )
        session.flush()
    return proposals
