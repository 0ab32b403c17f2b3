"""search index with lemmas, each language's words, and lineages

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02

The full-text rows gain a lemma column (spaCy's lookup tables, text/lemmas.py), so that
"sacrificed" finds "sacrifice"; ``search_group.lemmas`` keeps each text's lemmas for
ranking; ``search_word`` holds every word of each language with its lemma and how many texts
hold it (a query's language and lemmas are read from it without spaCy); ``search_lineage``
gives each clause the clause of the newest edition it became, from the stored alignments.
The index is rebuilt from the clauses, as 0005 did.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# The index as 0005 made it, for the downgrade (self-contained: the code of the day builds
# only the present form).
_V5_SQLITE = (
    "CREATE TABLE search_group (id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE,"
    " language TEXT NOT NULL, kind TEXT NOT NULL, term TEXT, term_key TEXT)",
    "CREATE INDEX ix_search_group_term_key ON search_group (term_key) WHERE term_key IS NOT NULL",
    "CREATE VIRTUAL TABLE search_text USING fts5("
    "body, term, content='', tokenize='unicode61 remove_diacritics 2')",
    "CREATE VIRTUAL TABLE search_vocab USING fts5vocab(search_text, 'row')",
)


def upgrade() -> None:
    from mtgrules.store.search_index import drop_index_tables, rebuild_index, refresh_lineages

    conn = op.get_bind()
    drop_index_tables(conn)
    rebuild_index(conn)
    refresh_lineages(conn)


def downgrade() -> None:
    conn = op.get_bind()
    conn.exec_driver_sql("DROP TABLE IF EXISTS search_lineage")
    conn.exec_driver_sql("DROP TABLE IF EXISTS search_word")
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("ALTER TABLE search_group DROP COLUMN IF EXISTS lemmas")
        # The lemma lexemes (weight C) stay in the vectors; 0005's queries never ask for them.
        return
    rows = conn.exec_driver_sql(
        "SELECT id, key, language, kind, term, term_key FROM search_group"
    ).fetchall()
    texts = conn.exec_driver_sql(
        "SELECT m.group_id, c.norm, c.term FROM search_member m JOIN clause c ON c.id = m.clause_id"
        " WHERE m.clause_id IN (SELECT min(clause_id) FROM search_member GROUP BY group_id)"
    ).fetchall()
    for name in ("search_vocab", "search_text"):
        conn.exec_driver_sql(f"DROP TABLE IF EXISTS {name}")
    conn.exec_driver_sql("DROP INDEX IF EXISTS ix_search_group_term_key")
    conn.exec_driver_sql("ALTER TABLE search_group RENAME TO search_group_v6")
    for ddl in _V5_SQLITE:
        conn.exec_driver_sql(ddl)
    conn.exec_driver_sql(
        "INSERT INTO search_group VALUES (?, ?, ?, ?, ?, ?)", [tuple(r) for r in rows]
    )
    conn.exec_driver_sql("DROP TABLE search_group_v6")
    from mtgrules.text.fold import index_form

    conn.exec_driver_sql(
        "INSERT INTO search_text (rowid, body, term) VALUES (?, ?, ?)",
        [(gid, index_form(norm), index_form(term) if term else "") for gid, norm, term in texts],
    )
