"""Stored whole-edition alignments read back in plain SQL (store/sql.py): the read side of
storage.py, on a SQLAlchemy session and on the standard library's sqlite3 alike.

Why apart from storage.py: `mtgrules update` reads two stored alignments and nothing else of
the aligner's rows, and opens a current SQLite store without SQLAlchemy (whose import is a
quarter of its time; store/sql.py says why start-up matters).
"""

from __future__ import annotations

import json
from typing import Any

from ..store.queries import EditionInfo, edition_clauses
from ..store.sql import fetch, in_list
from .model import EditionAlignment, Pair
from .signature import signature

EDITIONS = "editions"


def _json(value: Any) -> Any:
    """A JSON column as Python whatever the driver returns (text on SQLite)."""
    return json.loads(value) if isinstance(value, str) else value


def load_edition_alignment(
    db: Any, info_a: EditionInfo, info_b: EditionInfo
) -> EditionAlignment | None:
    """The stored alignment of ``info_a`` with ``info_b`` made by the current aligner, or
    None (never stored, stale, or incomplete)."""
    rows = fetch(
        db,
        "SELECT id, stats FROM alignment WHERE kind = :kind AND edition_a = :a "
        "AND edition_b = :b AND signature = :sig ORDER BY id DESC LIMIT 1",
        {"kind": EDITIONS, "a": info_a.id, "b": info_b.id, "sig": signature()},
        plain=True,
    )
    if not rows:
        return None
    alignment_id, stats = rows[0][0], dict(_json(rows[0][1]) or {})
    stored = fetch(
        db, "SELECT count(*) FROM link WHERE alignment_id = :id", {"id": alignment_id}, plain=True
    )[0][0]
    if stored != stats.get("links"):
        return None  # incomplete (links removed by hand or by an older version): recompute
    views = {c.id: c for c in edition_clauses(db, info_a.id)}
    views.update({c.id: c for c in edition_clauses(db, info_b.id)})
    # Plain rows: a whole edition has 4,000 links, and readers such as the site read a
    # hundred alignments.
    links = fetch(
        db,
        "SELECT source_clause_id, target_clause_id, score, evidence, kind FROM link "
        "WHERE alignment_id = :id ORDER BY id",
        {"id": alignment_id},
        plain=True,
    )
    # Most links' evidence is one of a few texts (none, an identical text: 78% of the
    # corpus's links), decoded once each; every pair has a list of its own.
    decoded: dict[Any, list] = {}

    def evidence_of(value: Any) -> list:
        if not isinstance(value, str):
            return list(value or [])
        got = decoded.get(value)
        if got is None:
            got = decoded[value] = list(json.loads(value) or [])
        return list(got)

    pairs = [
        Pair(
            views.get(source) if source else None,
            views.get(target) if target else None,
            score,
            evidence_of(evidence),
            kind,
        )
        for source, target, score, evidence, kind in links
    ]
    return EditionAlignment(info_a, info_b, pairs, stats)


def stored_glossary_pairs(
    db: Any, english: set[int], translated: set[int]
) -> list[tuple[str, str]]:
    """(English term, translated term) of every stored whole-edition link between a glossary
    entry of an ``english`` edition and one of a ``translated`` edition."""
    if not english or not translated:
        return []
    en, tr = in_list(sorted(english)), in_list(sorted(translated))
    rows = fetch(
        db,
        "SELECT a.edition_a, src.term, dst.term FROM alignment a "
        "JOIN link l ON l.alignment_id = a.id "
        "JOIN clause src ON src.id = l.source_clause_id "
        "JOIN clause dst ON dst.id = l.target_clause_id "
        "WHERE a.kind = :kind AND a.signature = :sig "
        f"AND ((a.edition_a IN ({en}) AND a.edition_b IN ({tr})) "
        f"OR (a.edition_a IN ({tr}) AND a.edition_b IN ({en}))) "
        "AND src.kind = 'glossary' AND dst.kind = 'glossary'",
        {"kind": EDITIONS, "sig": signature()},
        plain=True,
    )
    return [
        (a_term, b_term) if edition_a in english else (b_term, a_term)
        for edition_a, a_term, b_term in rows
        if a_term and b_term
    ]
