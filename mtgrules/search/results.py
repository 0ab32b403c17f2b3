"""What a search returns: ranked hits, each with its clauses in the other languages.

A hit is one clause *lineage*: the same clause through the editions that hold it, shown in
the newest of them. Identical texts are always one lineage; texts that differ are one
lineage when they are the same glossary entry (the same term, in one language) or the same
rule (the same label, in one language, with mostly the same words: 702.19 was vigilance
before it was trample, and is two lineages). The JSON keeps the per-hit fields
{edition, language, label, kind, term, text, score, fuzzy, aligned[...]} and adds:

- ``editions``: every edition holding the lineage, newest first (slugs);
- ``edition_count``: how many (``len(editions)``): "also in N editions" is this minus one;
- ``first_date`` / ``last_date``: the oldest and newest dated editions among them (null when
  only undated pages hold it);
- ``versions``: how many distinct wordings the lineage has among the matches (1: the same
  text in every edition);
- ``labels``: the labels it carried, newest first (["702.19", "702.18", "702.17"] for
  trample's rule through its renumberings);
- ``same_text``: the other numbers the hit's own edition prints the same text under, in the
  rules' order (["806.2b"] beside 811.2b); usually empty;
- ``label_inferred``: the label is the aligner's (a page printing no numbers), shown 107.3a*;
- ``partial``: not every searched word is in it (the fallback for questions: ranked by how
  many of the words, weighted by their rarity, it holds).

- ``obsolete``: no clause of the newest edition of its language descends from it (the
  stored alignments say so): gone from the rules; ``last_date`` is its last edition's date;
- ``relevance``: how well it answers, from 0 to 1 (the share of the query it holds, as a
  phrase or close together, and whether it is the term's definition): what text output
  shows as a bar and a percentage.

``score`` is the rank folded into one number (larger is better; see search/rank.py), not a
bm25 value: scores are comparable within one result only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Aligned:
    """A clause of another language or edition shown beside a hit, and how it was found."""

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
    """One text found: its newest clause, its score, and the editions and translations that hold it."""

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
    # Every edition holding this lineage (the hit shows the newest one), newest first.
    editions: list[str] = field(default_factory=list)
    edition_ids: list[int] = field(default_factory=list)
    clause_ids: list[int] = field(default_factory=list)
    # The edition of each of clause_ids, in the same order.
    clause_editions: list[int] = field(default_factory=list)
    aligned: list[Aligned] = field(default_factory=list)
    # Folded words to highlight in this hit (the query's, or the fuzzy replacements).
    words: list[str] = field(default_factory=list)
    first_date: str | None = None
    last_date: str | None = None
    versions: int = 1
    labels: list[str] = field(default_factory=list)
    label_inferred: bool = False
    partial: bool = False
    # The labels the lineage's clause carries in each edition (edition id -> labels: an
    # edition may print one text under two numbers), for pairing it by number with another
    # language's clause of the same date or page.
    edition_labels: dict[int, list[str]] = field(default_factory=dict)
    # No clause of the newest edition of its language descends from it: gone from today's
    # rules (its last date is last_date).
    obsolete: bool = False
    # How well it answers, 0-1, for a reader (a bar or a percentage), unlike ``score``.
    relevance: float = 1.0
    # The other numbers its own edition prints this very text under, in the rules' order:
    # today's rules repeat "Exactly one of the attack left, attack right, and attack multiple
    # players options must be used" as 806.2b and 811.2b (2009 as 805.2b and 809.2b, among
    # others). Not former numbers:
    # ``labels`` keeps those (and these too, as numbers the lineage carried).
    same_text: list[str] = field(default_factory=list)

    @property
    def also_in(self) -> int:
        """How many other editions hold this lineage."""
        return max(len(self.editions) - 1, 0)

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "edition_id": self.edition_id,
            "language": self.language,
            "label": self.label,
            "label_inferred": self.label_inferred,
            "kind": self.kind,
            "term": self.term,
            "text": self.text,
            "score": self.score,
            "relevance": round(self.relevance, 3),
            "obsolete": self.obsolete,
            "fuzzy": self.fuzzy,
            "partial": self.partial,
            "editions": self.editions,
            "edition_count": len(self.editions),
            "first_date": self.first_date,
            "last_date": self.last_date,
            "versions": self.versions,
            "labels": self.labels,
            "same_text": self.same_text,
            "aligned": [a.as_json() for a in self.aligned],
        }


@dataclass
class SearchResult:
    """What ``search`` returns: the query as read, its hits in order, and how it was searched."""

    query: str
    mode: str  # rule | text
    words: list[str]
    hits: list[Hit]
    fuzzy_words: dict[str, list[str]] = field(default_factory=dict)
    # Termbase forms of the query in other languages: {"fr": ["pile"], ...}.
    translations: dict[str, list[str]] = field(default_factory=dict)
    # The languages ranked first: --lang, else those the query's spelling or the termbase
    # say it is written in (maná: es; coût: fr; 堆疊: zh-Hant), else English.
    languages: list[str] = field(default_factory=list)
    # The termbase's forms searched instead of the query as typed ({"en": ["stack"]} for
    # "スタック" in a store without Japanese texts; {"fr": ["pile"]} for "stack" --lang fr);
    # empty when the query was searched as typed.
    searched_as: dict[str, list[str]] = field(default_factory=dict)
    # English names in a Japanese or Korean query, searched as the translation's words for
    # them ({"LTB": ["戦場を離れる"]}); empty when the query had none.
    read_as: dict[str, list[str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # The rank decides the order; relevance is measured apart from it (rank.py), and a
        # hit placed lower (a subrule after its rule, an older wording after today's) could
        # show more than one above it: 98% under 96%. A reader takes the bar as the order,
        # so it never rises down the list.
        ceiling = 1.0
        for hit in self.hits:
            hit.relevance = min(hit.relevance, ceiling)
            ceiling = hit.relevance

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "words": self.words,
            "languages": self.languages,
            "fuzzy_words": self.fuzzy_words,
            "translations": self.translations,
            "searched_as": self.searched_as,
            "read_as": self.read_as,
            "hits": [h.as_json() for h in self.hits],
        }
