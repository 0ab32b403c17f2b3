"""The multilingual termbase: which game-term forms mean the same thing (spell / sort / 咒语).

One home for the file, the concepts and the store table:
- the reviewed source of truth ships as ``mtgrules/data/termbase.tsv``, one row per concept
  and one column per language, several forms split by "|" (a long format, one
  ``concept, language, form`` per row, is read too, for termbases other people keep);
- ``sync_termbase`` copies it into the ``term`` table, beside the terms the aligner learns
  (``align/learning.py``), so that search and reports read one place;
- ``find_terms`` finds concepts in a clause (the aligner), ``Termbase.lookup`` finds the
  concepts a search query names.

Matching is longest-form-first, so "mana cost" is not also counted as "mana" and "cost", and
牌手 (player) is not also 牌 (card).

Players' words for the rules' words in one language ("ETB": enters the battlefield), read
for search queries only, are not termbase rows: see search/thesaurus.py.
"""

from __future__ import annotations

import csv
import io
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from .shipped import shipped_bytes
from .store.sql import fetch
from .text.fold import fold, folds_wide
from .text.language import base_language, is_chinese, is_traditional_tag, same_tag, writing_of

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

SHIPPED = "termbase.tsv"  # in mtgrules/data/
_LANG_COLUMNS = {"language", "lang", "locale"}
_FORM_COLUMNS = {"form", "term", "text", "word"}
_CONCEPT_COLUMNS = {"concept", "id", "key", "concept_id"}


def _match_key(form: str, language: str) -> str:
    # Chinese is matched as written, without folding: the text of a clause is searched for the
    # forms of its own script's column, and OpenCC on every clause would cost more than it buys.
    if is_chinese(language):
        return form
    if writing_of(language) == "japanese":
        # No spaces between Japanese words, but the scraped translation leaves one after each
        # link ("コピー 効果"): matched without them.
        return "".join(fold(form).split())
    return fold(form)


def _in_words(language: str) -> bool:
    """Are a language's terms whole words? Not in Chinese or Japanese (no spaces), nor in
    Korean, whose words carry their particles (주문을, 주문이: "spell" + object, subject)."""
    return not is_chinese(language) and writing_of(language) not in ("japanese", "hangul")


@dataclass
class Termbase:
    """Game terms by concept, in every language the termbase gives, looked up by folded form."""

    # concept -> [(language, form)], in file order
    concepts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # folded form -> {(concept, language)}
    _by_form: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    # The Chinese, Japanese and Korean forms, folded on the first lookup that can match one:
    # their fold loads OpenCC and the Han patterns (~10 ms), which a search for "stack"
    # (most searches: search runs this on every query) would pay for nothing.
    _wide: list[tuple[str, str, str]] = field(default_factory=list)

    def add(self, concept: str, language: str, form: str) -> None:
        concept, language, form = concept.strip(), language.strip(), form.strip()
        if not (concept and language and form):
            return
        if (language, form) in self.concepts.get(concept, []):
            return
        self.concepts.setdefault(concept, []).append((language, form))
        if folds_wide(form):
            self._wide.append((concept, language, form))
        else:
            self._by_form.setdefault(fold(form), set()).add((concept, language))

    @property
    def by_form(self) -> dict[str, set[tuple[str, str]]]:
        """Folded form -> {(concept, language)}, every form folded."""
        self._fold_wide()
        return self._by_form

    def _fold_wide(self) -> None:
        for concept, language, form in self._wide:
            self._by_form.setdefault(fold(form), set()).add((concept, language))
        self._wide.clear()

    @property
    def languages(self) -> list[str]:
        return sorted({lang for pairs in self.concepts.values() for lang, _ in pairs})

    def lookup(self, text: str) -> set[tuple[str, str]]:
        """(concept, language) pairs whose form is ``text`` (folded, so 'Pile' = 'pile')."""
        key = fold(text.strip())
        if folds_wide(key):
            self._fold_wide()
        return set(self._by_form.get(key, ()))

    def forms(self, concept: str, language: str) -> list[str]:
        """The forms of ``concept`` in ``language`` ('zh' covers both Chinese scripts)."""
        return [f for lang, f in self.concepts.get(concept, []) if same_tag(lang, language)]

    def column(self, language: str) -> str | None:
        """The termbase column for a clause's language: zh-Hant text reads the Traditional
        column, any other Chinese the Simplified one, fr-CA the fr column."""
        if is_chinese(language):
            want = "zh-Hant" if is_traditional_tag(language) else "zh-Hans"
        else:
            want = base_language(language)
        return next((lang for lang in self.languages if lang.lower() == want.lower()), None)

    def rows(self) -> list[tuple[str, str, str]]:
        return [(c, lang, f) for c, pairs in self.concepts.items() for lang, f in pairs]


def parse_termbase(text: str) -> Termbase:
    """A termbase from TSV text, wide (concept, then a column per language) or long."""
    tb = Termbase()
    rows = [
        r
        for r in csv.reader(io.StringIO(text), delimiter="\t")
        if r and r[0].strip() and not r[0].startswith("#")
    ]
    if not rows:
        return tb
    header = [h.strip() for h in rows[0]]
    lowered = [h.lower() for h in header]
    lang_col = next((i for i, h in enumerate(lowered) if h in _LANG_COLUMNS), None)
    form_col = next((i for i, h in enumerate(lowered) if h in _FORM_COLUMNS), None)
    concept_col = next((i for i, h in enumerate(lowered) if h in _CONCEPT_COLUMNS), 0)
    if lang_col is not None and form_col is not None:
        for r in rows[1:]:
            if len(r) > max(lang_col, form_col, concept_col):
                tb.add(r[concept_col], r[lang_col], r[form_col])
        return tb
    for r in rows[1:]:
        concept = r[concept_col] if len(r) > concept_col else ""
        for i, cell in enumerate(r[: len(header)]):
            if i == concept_col:
                continue
            for form in cell.replace(";", "|").split("|"):
                tb.add(concept, header[i], form)
    return tb


def shipped_termbase_bytes() -> bytes:
    return shipped_bytes(SHIPPED)


@lru_cache(maxsize=1)
def shipped_termbase() -> Termbase:
    """The reviewed termbase shipped with mtgrules (read once per process)."""
    return parse_termbase(shipped_termbase_bytes().decode("utf-8"))


def load_termbase(session: Session) -> Termbase:
    """The store's termbase (shipped and learned terms), else the shipped file."""
    tb = Termbase()
    # Plain SQL: search reads the termbase on its fast path (store/sql.py).
    for concept, language, form in fetch(
        session, "SELECT concept, language, form FROM term ORDER BY id"
    ):
        tb.add(concept, language, form)
    return tb if tb.concepts else shipped_termbase()


def sync_termbase(session: Session) -> int:
    """Copy the shipped termbase into the ``term`` table (once per termbase content)."""
    from sqlalchemy import delete, func, select

    from .store.models import Term

    rows = shipped_termbase().rows()
    have = session.scalar(select(func.count()).select_from(Term).where(Term.source == "termbase"))
    if have == len(rows):
        return 0
    session.execute(delete(Term).where(Term.source == "termbase"))
    session.add_all(
        Term(concept=c, language=lang, form=form, source="termbase") for c, lang, form in rows
    )
    session.flush()
    return len(rows)


# --- finding the shipped termbase's concepts in a clause (the aligner's feature) -----------


@lru_cache(maxsize=32)
def _matcher(language: str) -> tuple[re.Pattern[str], dict[str, str]] | None:
    tb = shipped_termbase()
    column = tb.column(language)
    if column is None:
        return None
    lookup: dict[str, str] = {}
    for concept, pairs in tb.concepts.items():
        for lang, form in pairs:
            if lang == column:
                lookup.setdefault(_match_key(form, column), concept)
    if not lookup:
        return None
    alternatives = "|".join(re.escape(f) for f in sorted(lookup, key=len, reverse=True))
    if not _in_words(column):
        return re.compile(f"(?:{alternatives})"), lookup
    # Latin scripts: whole words only; the alternation is longest-first, so the regex takes
    # the longest form at each position.
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), lookup


def find_terms(text: str, language: str) -> Counter[str]:
    """Concepts of the shipped termbase found in ``text`` (a multiset: counts matter).
    A language without a column gives none: the aligner then works from labels, numbers,
    symbols and references alone."""
    matcher = _matcher(language)
    if matcher is None:
        return Counter()
    pattern, lookup = matcher
    target = _match_key(text, language)
    return Counter(lookup[m.group(0)] for m in pattern.finditer(target) if m.group(0) in lookup)
