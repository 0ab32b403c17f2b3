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
from ..text.language import is_chinese

_WORD = re.compile(r"[^\W\d_]{4,}", re.UNICODE)
# Words of rules prose, not game terms; they co-occur with everything.
_PROSE = {
    "that", "this", "with", "from", "have", "their", "which", "other", "each", "would", "will",
    "into", "then", "than", "only", "also", "more", "does", "been", "were", "they", "them",
    "when", "while", "those", "these", "there", "such", "some", "example", "rule", "rules",
}  # fmt: skip


@dataclass
class LearnedTerm(Record):
    english: str
    language: str
    form: str
    dice: float
    together: int

    def tsv(self) -> str:
        return f"{self.english}\t{self.language}\t{self.form}\t{self.dice:.2f}\t{self.together}"


def _units(text: str, language: str) -> set[str]:
    if is_chinese(language):
        out: set[str] = set()
        for run in HAN_RUN.findall(text):
            for n in (2, 3, 4):
                out.update(run[k : k + n] for k in range(len(run) - n + 1))
        return out
    return {w for w in _WORD.findall(fold(text)) if w not in _PROSE}


def learn_terms(
    session: Session,
    english: int,
    translation: int,
    *,
    min_together: int = 5,
    min_dice: float = 0.6,
    store: bool = True,
) -> list[LearnedTerm]:
    """Term proposals from the aligned rule clauses of an English edition and a translation."""
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
