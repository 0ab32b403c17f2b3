"""The database side of search: SQL for SQLite (FTS5, bm25) and PostgreSQL (tsvector, ts_rank).

The work is done by the database: Python only builds the query and groups nothing larger
than one page of hits. Identical texts are grouped (the same rule in 14 English editions is
one hit).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ..errors import QueryError
from ..store.queries import EditionInfo
from ..store.search_index import FTS_TABLE, PG_TABLE, VOCAB_TABLE
from ..text.fold import fold_words, is_han
from .query import fts_match, pg_tsquery

# A hit whose language is the one the termbase gives for the query ranks higher: "pile" is a
# French game term, so French clauses come before English ones about piles of cards.
TERM_LANGUAGE_BOOST = 10.0  # in effect a sort key: the term's language first
# A hit whose clause in another language holds the query's termbase translation ("stack"
# beside a French clause with "pile") is what a concordance is for: rank it up.
PIVOT_BOOST = 1.0  # per language that agrees
# ts_rank weights {D, C, B, A}: the glossary term (A) 5x the body (D), as bm25 on SQLite;
# normalization 1 divides by the log of the length, as bm25 favours short clauses.
PG_WEIGHTS = "'{0.2, 0.2, 0.2, 1.0}'"


@dataclass
class MatchRow:
    score: float
    language: str
    clause_ids: list[int]
    edition_ids: list[int]


def in_list(ids: list[int]) -> str:
    # Integers from the store itself, never user text: safe to inline, and lets SQLite use
    # the IN-list directly.
    return ", ".join(str(int(i)) for i in ids) or "NULL"


def ranked_matches(
    session: Session,
    groups: list[list[str]],
    editions: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    boost_languages: list[str],
    limit: int,
    pivots: dict[int, int] | None = None,
) -> list[MatchRow]:
    """Ranked matches, identical texts grouped (the same rule in 14 English editions is one
    hit), best first. Scores are positive, larger is better."""
    dialect = session.get_bind().dialect.name
    kind_sql = f"AND c.kind IN ({', '.join(repr(k) for k in kinds)})" if kinds else ""
    boost = (
        "CASE WHEN e.language IN ("
        + ", ".join(f":bl{i}" for i in range(len(boost_languages)))
        + f") THEN {TERM_LANGUAGE_BOOST} ELSE 1.0 END"
        if boost_languages
        else "1.0"
    )
    if pivots:
        # Hits whose clauses in other languages hold the query's termbase translation (see
        # crosslang.pivot_clauses): the more languages agree, the higher.
        by_count: dict[int, list[int]] = {}
        for cid, n in pivots.items():
            by_count.setdefault(n, []).append(cid)
        cases = " ".join(
            f"WHEN c.id IN ({in_list(sorted(ids))}) THEN {1.0 + PIVOT_BOOST * n}"
            for n, ids in sorted(by_count.items(), reverse=True)
        )
        boost += f" * max(CASE {cases} ELSE 1.0 END)"
    params: dict[str, Any] = {f"bl{i}": lang for i, lang in enumerate(boost_languages)}
    params["limit"] = limit
    if dialect == "postgresql":
        params["q"] = pg_tsquery(groups)
        sql = f"""
            SELECT max(ts_rank({PG_WEIGHTS}, d.tsv, q.q, 1)) * {boost} AS score, e.language,
                   string_agg(c.id::text, ','), string_agg(c.edition_id::text, ',')
            FROM {PG_TABLE} d CROSS JOIN to_tsquery('simple', :q) AS q(q)
            JOIN clause c ON c.id = d.clause_id
            JOIN edition e ON e.id = c.edition_id
            WHERE d.tsv @@ q.q AND c.edition_id IN ({in_list([e.id for e in editions])}) {kind_sql}
            GROUP BY e.language, c.kind, c.term, c.norm
            ORDER BY score DESC LIMIT :limit"""
    else:
        params["q"] = fts_match(groups)
        # bm25 is negative (more negative = better); the glossary term column weighs 5x.
        # MATERIALIZED: bm25 only works in the FTS query itself, not once flattened into
        # the outer GROUP BY.
        sql = f"""
            WITH m AS MATERIALIZED (
                SELECT rowid AS id, bm25({FTS_TABLE}, 1.0, 5.0) AS r
                FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :q)
            SELECT -min(m.r) * {boost} AS score, e.language,
                   group_concat(c.id), group_concat(c.edition_id)
            FROM m
            JOIN clause c ON c.id = m.id
            JOIN edition e ON e.id = c.edition_id
            WHERE c.edition_id IN ({in_list([e.id for e in editions])}) {kind_sql}
            GROUP BY e.language, c.kind, c.term, c.norm
            ORDER BY score DESC LIMIT :limit"""
    try:
        rows = session.execute(text(sql), params).all()
    except DBAPIError as exc:
        # Should not happen (every word is quoted), but a query must never become a traceback.
        raise QueryError(f"cannot search for that query: {exc.orig}") from None
    return [MatchRow(float(score or 0.0), lang, _ids(ids), _ids(eds)) for score, lang, ids, eds in rows]


def vocabulary(session: Session) -> tuple[str, ...]:
    """Every word of the index a person might mistype (for the fuzzy fallback), sorted."""
    dialect = session.get_bind().dialect.name
    marker = session.execute(text("SELECT max(id) FROM clause")).scalar() or 0
    key = (str(session.get_bind().url), dialect, int(marker))
    cached = _VOCAB_CACHE.get(key)
    if cached is not None:
        return cached
    if dialect == "postgresql":
        sql = f"SELECT word FROM ts_stat('SELECT tsv FROM {PG_TABLE}')"
    else:
        sql = f"SELECT term FROM {VOCAB_TABLE}"
    # Only words a person might mistype: no digits, no single Han characters.
    words = tuple(sorted(w for (w,) in session.execute(text(sql)) if w.isalpha() and not is_han(w)))
    _VOCAB_CACHE.clear()  # one store at a time is the normal case; keep memory flat
    _VOCAB_CACHE[key] = words
    return words


_VOCAB_CACHE: dict[tuple[str, str, int], tuple[str, ...]] = {}


def load_clauses(session: Session, ids: list[int]) -> dict[int, Any]:
    if not ids:
        return {}
    rows = session.execute(
        text(
            "SELECT id, edition_id, kind, label, parent, term, raw FROM clause "
            f"WHERE id IN ({in_list(ids)})"
        )
    ).all()
    return {r.id: r for r in rows}


def clauses_labelled(session: Session, labels: list[str], edition_ids: list[int]) -> list[Any]:
    """The rule and heading clauses carrying one of ``labels`` (the label index does it)."""
    if not labels:
        return []
    params = {f"l{i}": lab for i, lab in enumerate(labels)}
    return session.execute(
        text(
            "SELECT id, edition_id, kind, label, parent, term, raw FROM clause "
            f"WHERE label IN ({', '.join(':' + k for k in params)}) "
            f"AND kind IN ('rule', 'heading') AND edition_id IN ({in_list(edition_ids)})"
        ),
        params,
    ).all()


def glossary_entries(session: Session, forms: list[str], edition_ids: list[int]) -> list[Any]:
    """Glossary clauses whose term may be one of ``forms`` (the caller compares exactly).

    On SQLite through the index's term column: ``clause.term`` has no index of its own and
    a scan of the clause table costs more than the whole search."""
    cols = "c.id, c.edition_id, c.kind, c.label, c.parent, c.term, c.raw"
    where = f"c.kind = 'glossary' AND c.edition_id IN ({in_list(edition_ids)})"
    if session.get_bind().dialect.name == "postgresql":
        params = {f"t{i}": t for i, t in enumerate(forms)}
        sql = (
            f"SELECT {cols} FROM clause c WHERE {where} "
            f"AND lower(c.term) IN ({', '.join(':' + k for k in params)})"
        )
        return session.execute(text(sql), params).all()
    phrases = [fold_words(f) for f in forms]
    match = (
        "term : ("
        + " OR ".join(
            "(" + fts_match([[w] for w in ws]).replace('"*', '"') + ")" for ws in phrases if ws
        )
        + ")"
    )
    sql = (
        f"SELECT {cols} FROM {FTS_TABLE} f JOIN clause c ON c.id = f.rowid "
        f"WHERE {FTS_TABLE} MATCH :q AND {where}"
    )
    return session.execute(text(sql), {"q": match}).all()


def _ids(value: object) -> list[int]:
    return [int(x) for x in str(value).split(",")]


def rule_matches(
    session: Session, label: str, edition_ids: list[int], kinds: tuple[str, ...] | None
) -> list[MatchRow]:
    """The clauses labelled ``label`` (rules and headings), identical texts grouped."""
    kind_sql = f"AND c.kind IN ({', '.join(repr(k) for k in kinds)})" if kinds else ""
    if session.get_bind().dialect.name == "postgresql":
        agg, agg_e = "string_agg(c.id::text, ',')", "string_agg(c.edition_id::text, ',')"
    else:
        agg, agg_e = "group_concat(c.id)", "group_concat(c.edition_id)"
    rows = session.execute(
        text(
            f"SELECT e.language, {agg}, {agg_e} FROM clause c JOIN edition e ON e.id = c.edition_id "
            f"WHERE c.label = :label AND c.kind IN ('rule', 'heading') {kind_sql} "
            f"AND c.edition_id IN ({in_list(edition_ids)}) "
            "GROUP BY e.language, c.kind, c.norm"
        ),
        {"label": label},
    ).all()
    return [MatchRow(1.0, lang, _ids(ids), _ids(eds)) for lang, ids, eds in rows]
