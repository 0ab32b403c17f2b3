"""search index over distinct texts

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30

The per-clause index (SQLite's FTS5 ``search_fts``, PostgreSQL's ``search_doc`` by clause)
becomes an index over each distinct text once: ``search_group`` (the distinct texts, the
glossary term looked up exactly), ``search_member`` (which clauses hold each text) and the
full-text rows by group (``search_text`` on SQLite, ``search_doc`` on PostgreSQL). The
archive's 350,000 clauses are 21,000 texts, and a search costs what the index returns
(store/search_index.py).
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The index as 0003 made it, for the downgrade (self-contained: the code of the day builds
# only the present form).
_LEGACY_SQLITE = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS search_fts USING fts5("
    "body, term, content='', tokenize='unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS search_vocab USING fts5vocab(search_fts, 'row')",
)
_LEGACY_PG = (
    "CREATE TABLE IF NOT EXISTS search_doc ("
    " clause_id INTEGER PRIMARY KEY REFERENCES clause(id), tsv TSVECTOR NOT NULL)",
    "CREATE INDEX IF NOT EXISTS ix_search_doc_tsv ON search_doc USING GIN (tsv)",
)
_KINDS = "('rule', 'heading', 'example', 'glossary', 'commentary')"


def upgrade() -> None:
    from mtgrules.store.search_index import drop_index_tables, rebuild_index

    conn = op.get_bind()
    drop_index_tables(conn)
    rebuild_index(conn)


def downgrade() -> None:
    import sqlalchemy as sa

    from mtgrules.store.search_index import drop_index_tables
    from mtgrules.text.fold import index_form

    conn = op.get_bind()
    drop_index_tables(conn)
    pg = conn.dialect.name == "postgresql"
    for ddl in _LEGACY_PG if pg else _LEGACY_SQLITE:
        conn.exec_driver_sql(ddl)
    rows = conn.exec_driver_sql(
        f"SELECT id, norm, term FROM clause WHERE kind IN {_KINDS}"
    ).fetchall()
    docs = [(cid, index_form(n), index_form(t) if t else "") for cid, n, t in rows]
    if not docs:
        return
    if pg:
        ids, bodies, terms = (list(col) for col in zip(*docs, strict=True))
        conn.execute(
            sa.text(
                "INSERT INTO search_doc (clause_id, tsv) SELECT u.id, "
                "setweight(to_tsvector('simple', u.term), 'A') || to_tsvector('simple', u.body) "
                "FROM unnest(CAST(:ids AS INTEGER[]), CAST(:bodies AS TEXT[]), "
                "CAST(:terms AS TEXT[])) AS u(id, body, term)"
            ),
            {"ids": ids, "bodies": bodies, "terms": terms},
        )
    else:
        conn.exec_driver_sql("INSERT INTO search_fts (rowid, body, term) VALUES (?, ?, ?)", docs)
