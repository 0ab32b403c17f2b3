"""The termbase as the search sees it: which game-term forms mean the same thing.

Read from the ``term`` table when the aligner has filled it, else from the shipped
``mtgrules/data/termbase.tsv`` when present, else empty (search still works, one language
at a time, with aligned clauses found by rule label).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import Term
from .text import fold

TERMBASE_TSV = Path(__file__).resolve().parents[1] / "data" / "termbase.tsv"
_LANG_COLUMNS = {"language", "lang", "locale"}
_FORM_COLUMNS = {"form", "term", "text", "word"}
_CONCEPT_COLUMNS = {"concept", "id", "key", "concept_id"}


def same_language(a: str, b: str) -> bool:
    """'zh' covers 'zh-Hans' and 'zh-Hant'; 'en' is 'en'."""
    a, b = a.lower(), b.lower()
    return a == b or a.startswith(b + "-") or b.startswith(a + "-")


@dataclass
class Termbase:
    # concept -> [(language, form)]
    concepts: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    # folded form -> {(concept, language)}
    by_form: dict[str, set[tuple[str, str]]] = field(default_factory=dict)

    def add(self, concept: str, language: str, form: str) -> None:
        form = form.strip()
        if not (concept and language and form):
            return
        self.concepts.setdefault(concept, []).append((language, form))
        self.by_form.setdefault(fold(form), set()).add((concept, language))

    def lookup(self, text: str) -> set[tuple[str, str]]:
        """(concept, language) pairs whose form is ``text`` (folded, so 'Pile' = 'pile')."""
        return set(self.by_form.get(fold(text.strip()), ()))

    def forms(self, concept: str, language: str) -> list[str]:
        return [f for lang, f in self.concepts.get(concept, []) if same_language(lang, language)]


def _read_tsv(path: Path) -> Termbase:
    tb = Termbase()
    with path.open(encoding="utf-8", newline="") as fh:
        rows = [r for r in csv.reader(fh, delimiter="\t") if r and not r[0].startswith("#")]
    if not rows:
        return tb
    header = [h.strip().lower() for h in rows[0]]
    lang_col = next((i for i, h in enumerate(header) if h in _LANG_COLUMNS), None)
    form_col = next((i for i, h in enumerate(header) if h in _FORM_COLUMNS), None)
    concept_col = next((i for i, h in enumerate(header) if h in _CONCEPT_COLUMNS), 0)
    if lang_col is not None and form_col is not None:
        # Long format: concept, language, form (one form per row).
        for r in rows[1:]:
            if len(r) > max(lang_col, form_col, concept_col):
                tb.add(r[concept_col].strip(), r[lang_col].strip(), r[form_col])
        return tb
    # Wide format: concept, then one column per language; several forms split by | or ;.
    for r in rows[1:]:
        concept = r[concept_col].strip() if len(r) > concept_col else ""
        for i, cell in enumerate(r):
            if i == concept_col or i >= len(rows[0]):
                continue
            for form in cell.replace(";", "|").split("|"):
                tb.add(concept, rows[0][i].strip(), form)
    return tb


_tsv_cache: dict[tuple[str, float], Termbase] = {}


def load_termbase(session: Session) -> Termbase:
    tb = Termbase()
    for concept, language, form in session.execute(select(Term.concept, Term.language, Term.form)):
        tb.add(concept, language, form)
    if tb.concepts or not TERMBASE_TSV.exists():
        return tb
    try:
        key = (str(TERMBASE_TSV), TERMBASE_TSV.stat().st_mtime)
        if key not in _tsv_cache:
            _tsv_cache.clear()
            _tsv_cache[key] = _read_tsv(TERMBASE_TSV)
        return _tsv_cache[key]
    except (OSError, UnicodeDecodeError, csv.Error):
        # A half-written termbase (another engineer's file) must not break searching.
        return tb
