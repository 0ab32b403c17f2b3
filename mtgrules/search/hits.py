"""Rows of matches turned into hits: the newest edition of each grouped text shown."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..store.queries import EditionInfo
from .backend import MatchRow, load_clauses
from .results import Hit


def _newest(info_ids: list[int], by_id: dict[int, EditionInfo]) -> int:
    """Index of the newest edition among ``info_ids`` (undated ones count as oldest)."""
    return max(range(len(info_ids)), key=lambda i: (by_id[info_ids[i]].date or "", info_ids[i]))


def make_hits(
    session: Session,
    rows: list[MatchRow],
    by_id: dict[int, EditionInfo],
    fuzzy: bool,
    words: list[str],
) -> list[Hit]:
    picks = [row.clause_ids[_newest(row.edition_ids, by_id)] for row in rows]
    clauses = load_clauses(session, picks)
    hits = []
    for row, cid in zip(rows, picks, strict=True):
        c = clauses[cid]
        info = by_id[c.edition_id]
        newest_first = sorted(
            set(row.edition_ids), key=lambda e: (by_id[e].date or "", e), reverse=True
        )
        slugs = [by_id[e].slug for e in newest_first]
        hits.append(
            Hit(
                clause_id=cid,
                edition=info.slug,
                edition_id=info.id,
                language=info.language,
                kind=c.kind,
                label=c.label,
                parent=c.parent,
                term=c.term,
                text=c.raw,
                score=round(row.score, 4),
                fuzzy=fuzzy,
                editions=slugs,
                edition_ids=newest_first,
                clause_ids=row.clause_ids,
                words=words,
            )
        )
    return hits

