"""Stored links as other layers read them (search): plain SQL through store/sql.py.

The aligner writes and reads its own rows in storage.py; this is the read side for readers
that must start fast (``mtgrules search`` opens the store without SQLAlchemy, see
store/sql.py), so it imports nothing of the aligner itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..store.sql import fetch, in_list
from ..text.language import same_language

# Ids are inlined (never bound parameters), so no driver limit applies; chunks keep each
# statement of a reasonable size.
_CHUNK = 2000


def translation_alignments(db: Any, language_of: Mapping[int, str]) -> list[tuple[int, int, int]]:
    """The stored alignments between editions of two languages, as (id, edition a, edition
    b): the only ones whose links can put another language's clause beside a hit (an
    archive's hundred alignments of one English edition with the next are not)."""
    rows = fetch(db, "SELECT id, edition_a, edition_b FROM alignment", plain=True)
    return [
        (a, ea, eb)
        for a, ea, eb in rows
        if ea in language_of
        and eb in language_of
        and not same_language(language_of[ea], language_of[eb])
    ]


def links_touching(
    db: Any,
    clause_ids: Iterable[int],
    alignments: Sequence[tuple[int, int, int]] | None = None,
    edition_of: Mapping[int, int] | None = None,
) -> list[tuple[int, int, float]]:
    """Every stored link with one end in ``clause_ids``, as (that end, the other end, score),
    in both directions; links with a missing end are left out. ``alignments`` ((id, edition
    a, edition b), as translation_alignments gives them): only their links. ``edition_of``
    (clause id -> edition id): clauses of editions on neither side of those alignments are
    not looked up at all (a hit's lineage spans a hundred English editions of an archive; a
    few of them have a translation)."""
    ids = sorted(set(clause_ids))
    if not ids:
        return []
    scope = "SELECT id FROM alignment"
    if alignments is not None:
        if not alignments:
            return []
        scope = in_list(sorted({a for a, _ea, _eb in alignments}))
        if edition_of is not None:
            sides = {e for _a, ea, eb in alignments for e in (ea, eb)}
            ids = [c for c in ids if c not in edition_of or edition_of[c] in sides]
            if not ids:
                return []
    out: list[tuple[int, int, float]] = []
    for i in range(0, len(ids), _CHUNK):
        chunk = in_list(ids[i : i + _CHUNK])
        # Two indexed lookups: "alignment_id IN (...)" lets the source side use the
        # (alignment_id, source_clause_id) index; the target side has its own.
        forward = (
            "SELECT source_clause_id, target_clause_id, score FROM link "
            f"WHERE alignment_id IN ({scope}) AND source_clause_id IN ({chunk})"
        )
        # The unary plus keeps the planner on the target index: with no statistics it would
        # rather scan each alignment's links by the first index.
        backward = (
            "SELECT target_clause_id, source_clause_id, score FROM link "
            f"WHERE target_clause_id IN ({chunk})"
            + (f" AND +alignment_id IN ({scope})" if alignments is not None else "")
        )
        for sql in (forward, backward):
            out.extend(
                (a, b, float(score or 0.0))
                for a, b, score in fetch(db, sql)
                if a is not None and b is not None
            )
    return out


def inferred_labels(db: Any, clause_ids: Iterable[int]) -> dict[int, str]:
    """The label the aligner inferred for each of these clauses that prints none (the
    Spanish page's subrules), from the stored links that carry one. A link's inferred label
    belongs to its unlabelled end, never to its labelled one. Where several alignments
    inferred a label, the whole-edition alignment made at ingest wins, then the newest."""
    ids = sorted(set(clause_ids))
    found: dict[int, tuple[tuple[int, int], str]] = {}
    for i in range(0, len(ids), _CHUNK):
        chunk = in_list(ids[i : i + _CHUNK])
        # One lookup per end, each on its index (see links_touching).
        for end in ("source_clause_id", "target_clause_id"):
            rows = fetch(
                db,
                f"SELECT l.{end}, l.inferred_label, a.id, a.kind, a.stats FROM link l "
                f"JOIN alignment a ON a.id = l.alignment_id JOIN clause c ON c.id = l.{end} "
                f"WHERE l.{end} IN ({chunk}) AND l.inferred_label IS NOT NULL "
                "AND c.label IS NULL",
                plain=True,
            )
            for cid, label, alignment_id, kind, stats in rows:
                if not label:
                    continue
                rank = (int(kind == "editions" and _made_by_ingest(stats)), alignment_id)
                if cid not in found or rank > found[cid][0]:
                    found[cid] = (rank, label)
    return {cid: label for cid, (_rank, label) in found.items()}


def _made_by_ingest(stats: Any) -> bool:
    # JSON comes back parsed from PostgreSQL and as text from bare SQLite.
    if isinstance(stats, str):
        import json  # here: a search that meets no inferred label never needs it

        try:
            stats = json.loads(stats)
        except ValueError:
            return False
    return isinstance(stats, dict) and stats.get("by") == "ingest"


def clauses_inferred_as(db: Any, label: str) -> list[int]:
    """Ids of the unlabelled clauses the aligner inferred ``label`` for (the Spanish page's
    107.3a), whichever alignment inferred it."""
    found: set[int] = set()
    for end in ("source_clause_id", "target_clause_id"):
        rows = fetch(
            db,
            f"SELECT l.{end} FROM link l JOIN clause c ON c.id = l.{end} "
            "WHERE l.inferred_label = :label AND c.label IS NULL",
            {"label": label},
            plain=True,
        )
        found.update(cid for (cid,) in rows if cid is not None)
    return sorted(found)
