"""What a search returns: ranked hits, each with its clauses in the other languages."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Aligned:
    clause_id: int
    edition: str
    edition_id: int
    language: str
    kind: str
    label: str | None
    term: str | None
    text: str
    via: str  # link (stored by the aligner) | label (same rule number) | termbase (glossary)
    label_inferred: bool = False  # the label is the aligner's: the source has none

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "language": self.language,
            "label": self.label,
            **({"label_inferred": True} if self.label_inferred else {}),
            "text": self.text,
            "kind": self.kind,
            "term": self.term,
            "via": self.via,
        }


@dataclass
class Hit:
    clause_id: int
    edition: str
    edition_id: int
    language: str
    kind: str
    label: str | None
    parent: str | None
    term: str | None
    text: str
    score: float
    fuzzy: bool = False
    # Every edition holding this very text (the hit shows the newest one).
    editions: list[str] = field(default_factory=list)
    edition_ids: list[int] = field(default_factory=list)
    clause_ids: list[int] = field(default_factory=list)
    aligned: list[Aligned] = field(default_factory=list)
    # Folded words to highlight in this hit (the query's, or the fuzzy replacements).
    words: list[str] = field(default_factory=list)
    label_inferred: bool = False  # the label is the aligner's: the source has none

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "edition_id": self.edition_id,
            "language": self.language,
            "label": self.label,
            **({"label_inferred": True} if self.label_inferred else {}),
            "kind": self.kind,
            "term": self.term,
            "text": self.text,
            "score": self.score,
            "fuzzy": self.fuzzy,
            "editions": self.editions,
            "aligned": [a.as_json() for a in self.aligned],
        }


@dataclass
class SearchResult:
    query: str
    mode: str  # rule | text
    words: list[str]
    hits: list[Hit]
    fuzzy_words: dict[str, list[str]] = field(default_factory=dict)
    # Termbase forms of the query in other languages: {"fr": ["pile"], ...}.
    translations: dict[str, list[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "words": self.words,
            "fuzzy_words": self.fuzzy_words,
            "translations": self.translations,
            "hits": [h.as_json() for h in self.hits],
        }

