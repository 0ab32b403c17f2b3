"""Stored links as other layers read them (search): plain SQL through store/sql.py.

The aligner writes and reads its own rows in storage.py; this is the read side for readers
that must start fast (``mtgrules search`` opens the store without SQLAlchemy, see
store/sql.py), so it imports nothing of the aligner itself.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..store.sql import fetch, in_list

# Ids are inlined (never bound parameters), so no driver limit applies; chunks keep each
# statement of a reasonable size.
_CHUNK = 2000


def links_touching(
    db: Any, clause_ids: Iterable[int], editions: Iterable[int] | None = None
) -> list[tuple[int, int, float]]:
    """Every stored link with one end in ``clause_ids``, as (that end, the other end, score),
    in both directions; links with a missing end are left out. ``editions``: only links of
    alignments with one of these editions on either side (the editions that can sit beside
    a hit), so that a store with no such alignment answers in one query."""
    ids = sorted(set(clause_ids))
    if not ids:
        return []
    scope = "SELECT id FROM alignment"
    if editions is not None:
        eds = in_list(sorted(set(editions)))
        found = [
            a
            for (a,) in fetch(
                db, f"SELECT id FROM alignment WHERE edition_a IN ({eds}) OR edition_b IN ({eds})"
            )
        ]
        if not found:
            return []
        scope = in_list(found)
    out: list[tuple[int, int, float]] = []
    for i in range(0, len(ids), _CHUNK):
        chunk = in_list(ids[i : i + _CHUNK])
        # Two indexed lookups: "alignment_id IN (...)" lets the source side use the
        # (alignment_id, source_clause_id) index; the target side has its own.
        forward = (
            "SELECT source_clause_id, target_clause_id, score FROM link "
            f"WHERE alignment_id IN ({scope}) AND source_clause_id IN ({chunk})"
        )
        backward = (
            "SELECT target_clause_id, source_clause_id, score FROM link "
            f"WHERE target_clause_id IN ({chunk})"
            + (f" AND alignment_id IN ({scope})" if editions is not None else "")
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
    belongs to whichever of its two ends has no label of its own."""
    ids = sorted(set(clause_ids))
    out: dict[int, str] = {}
    for i in range(0, len(ids), _CHUNK):
        chunk = in_list(ids[i : i + _CHUNK])
        # One lookup per end, each on its index (see links_touching); newest link first.
        for end in ("source_clause_id", "target_clause_id"):
            scope = "alignment_id IN (SELECT id FROM alignment) AND " if end[0] == "s" else ""
            rows = fetch(
                db,
                f"SELECT {end}, inferred_label FROM link WHERE {scope}{end} IN ({chunk}) "
                "AND inferred_label IS NOT NULL ORDER BY id DESC",
            )
            for cid, label in rows:
                out.setdefault(cid, label)
    return out
