"""The full-text index beside the clause table, for SQLite (FTS5) and PostgreSQL (tsvector).

Part of the store: the index is written in the same transaction as the clauses it indexes
(store/clauses.py), and read by the search backend (search/backend.py).

SQLite: ``search_fts``, a contentless FTS5 table (rowid = clause.id) over the folded text,
with the ``unicode61`` tokenizer. Words rather than trigrams because (1) the fuzzy fallback
needs a word vocabulary, which ``search_vocab`` (fts5vocab) gives for free; (2) bm25 ranks
words better than trigrams; (3) Han characters are indexed one per word (see text/fold.py), so
Chinese substrings of any length are found as phrases, even two-character words such as 堆叠,
which a trigram index cannot match. Contentless: the text is already in ``clause``.

PostgreSQL: ``search_doc`` (clause_id, tsv) with a GIN index, using the 'simple'
configuration on the same folded text (no stemming, no stop words: four languages share it).

Every object of this module is named ``search_*``; ``is_search_object`` lets Alembic's
autogenerate ignore them, since they are not (and cannot be, for FTS5) in the models.
"""

from __future__ import annotations

from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Session

from ..text.fold import index_form

PREFIX = "search_"
FTS_TABLE = "search_fts"
VOCAB_TABLE = "search_vocab"
PG_TABLE = "search_doc"
# Noise (credits, addresses, scraped user names) is never a search result.
INDEXED_KINDS = ("rule", "heading", "example", "glossary", "commentary")

SQLITE_DDL = (
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "body, term, content='', tokenize='unicode61 remove_diacritics 2')",
    # 'row' vocabulary: one row per distinct word with its document count, for fuzzy matching.
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {VOCAB_TABLE} USING fts5vocab({FTS_TABLE}, 'row')",
)
SQLITE_DROP = (f"DROP TABLE IF EXISTS {VOCAB_TABLE}", f"DROP TABLE IF EXISTS {FTS_TABLE}")

PG_DDL = (
    f"CREATE TABLE IF NOT EXISTS {PG_TABLE} ("
    " clause_id INTEGER PRIMARY KEY REFERENCES clause(id),"
    " tsv TSVECTOR NOT NULL)",
    f"CREATE INDEX IF NOT EXISTS ix_{PG_TABLE}_tsv ON {PG_TABLE} USING GIN (tsv)",
)
PG_DROP = (f"DROP TABLE IF EXISTS {PG_TABLE}",)

# The glossary term weighs more than the body: a search for "stack" should put the glossary
# entry "Stack" above rules that merely mention the stack.
# One statement per edition (three arrays unnested server-side): a row-by-row executemany
# spent more time in round trips than PostgreSQL spends building the vectors.
PG_INSERT = text(
    f"INSERT INTO {PG_TABLE} (clause_id, tsv) "
    "SELECT u.id, setweight(to_tsvector('simple', u.term), 'A') || to_tsvector('simple', u.body) "
    "FROM unnest(CAST(:ids AS INTEGER[]), CAST(:bodies AS TEXT[]), CAST(:terms AS TEXT[])) "
    "AS u(id, body, term)"
)
SQLITE_INSERT = f"INSERT INTO {FTS_TABLE} (rowid, body, term) VALUES (?, ?, ?)"


def is_search_object(name: str | None, type_: str, table_name: str | None = None) -> bool:
    """True for the tables and indexes this module owns (for Alembic's include_object)."""
    if type_ == "table":
        return bool(name and name.startswith(PREFIX))
    return bool(table_name and table_name.startswith(PREFIX))


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Alembic include_object hook: leave the search index out of model comparisons."""
    table = getattr(getattr(obj, "table", None), "name", None)
    return not is_search_object(name, type_, table)


def create_index_tables(conn: Connection) -> None:
    for ddl in PG_DDL if conn.dialect.name == "postgresql" else SQLITE_DDL:
        conn.exec_driver_sql(ddl)


def drop_index_tables(conn: Connection) -> None:
    for ddl in PG_DROP if conn.dialect.name == "postgresql" else SQLITE_DROP:
        conn.exec_driver_sql(ddl)


def _rows(conn: Connection, where: str, params: tuple) -> list[tuple[int, str, str]]:
    kinds = ", ".join(f"'{k}'" for k in INDEXED_KINDS)
    sql = f"SELECT id, norm, term FROM clause WHERE kind IN ({kinds}) AND {where}"
    if conn.dialect.name == "sqlite":
        # Straight on the driver (same connection, same transaction): SQLAlchemy's row
        # processing costs more than the query for the ~70,000 rows of a full ingest.
        result = conn.connection.driver_connection.execute(sql, params).fetchall()
    else:
        result = conn.exec_driver_sql(sql.replace("?", "%s"), params).fetchall()
    return [(cid, index_form(norm), index_form(term) if term else "") for cid, norm, term in result]


def _insert(conn: Connection, rows: list[tuple[int, str, str]]) -> None:
    if not rows:
        return
    if conn.dialect.name == "postgresql":
        ids, bodies, terms = (list(col) for col in zip(*rows, strict=True))
        conn.execute(PG_INSERT, {"ids": ids, "bodies": bodies, "terms": terms})
    else:
        # One executemany straight on the driver cursor: no per-row SQLAlchemy overhead.
        conn.exec_driver_sql(SQLITE_INSERT, rows)


def index_clauses(session: Session, rows: list[tuple[int, str, str | None, str]]) -> int:
    """Index freshly written clauses, given as (id, kind, term, norm), in the same transaction.
    From the rows in hand: reading them back from the clause table would cost a query."""
    indexed = [
        (cid, index_form(norm), index_form(term) if term else "")
        for cid, kind, term, norm in rows
        if kind in INDEXED_KINDS
    ]
    _insert(session.connection(), indexed)
    return len(indexed)


def rebuild_index(conn: Connection) -> int:
    """Index every clause not yet indexed: used by the migration for stores that predate it."""
    create_index_tables(conn)
    if conn.dialect.name == "postgresql":
        where = f"id NOT IN (SELECT clause_id FROM {PG_TABLE})"
    else:
        # A contentless FTS5 table cannot tell which rowids it holds; start from scratch.
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')")
        where = "1 = 1"
    rows = _rows(conn, where, ())
    _insert(conn, rows)
    return len(rows)
