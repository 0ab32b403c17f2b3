"""Writing an edition's clauses: the clause rows and their full-text index entries, together.

One function, so that no writer can add clauses the search cannot find: ingest calls it and
knows nothing of the index.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from sqlalchemy import insert
from sqlalchemy.orm import Session

from ..model import Clause as ParsedClause
from .models import Clause
from .search_index import index_clauses

_COLUMNS = (
    "edition_id",
    "position",
    "line",
    "kind",
    "label",
    "parent",
    "label_inferred",
    "term",
    "raw",
    "norm",
    "flags",
    "refs",
)
_SQLITE_INSERT = (
    f"INSERT INTO clause ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' for _ in _COLUMNS)})"
)


def _json(value: list[Any]) -> str:
    # Most clauses have no flags and no references: skip the encoder for them; the others
    # repeat across editions (the same rule cites the same rules), so encode each list once.
    return "[]" if not value else _encoded(tuple(value))


@lru_cache(maxsize=65536)
def _encoded(value: tuple[Any, ...]) -> str:
    return json.dumps(list(value))


def insert_clauses(session: Session, edition_id: int, clauses: Sequence[ParsedClause]) -> int:
    """Write the parsed ``clauses`` of an edition, in order, and index them, in the caller's
    transaction. Returns the number of clauses written."""
    if not clauses:
        return 0
    conn = session.connection()
    if conn.dialect.name == "sqlite":
        # Straight on the driver, in the same transaction: SQLAlchemy's per-row parameter
        # handling cost more than SQLite's own work for the ~70,000 clauses of the corpus.
        driver = conn.connection.driver_connection
        driver.executemany(
            _SQLITE_INSERT,
            [
                (
                    edition_id,
                    i,
                    c.line,
                    c.kind,
                    c.label,
                    c.parent,
                    c.label_inferred,
                    c.term,
                    c.raw,
                    c.norm,
                    _json(c.flags),
                    _json(c.refs),
                )
                for i, c in enumerate(clauses)
            ],
        )
        id_at = dict(
            driver.execute(
                "SELECT position, id FROM clause WHERE edition_id = ?", (edition_id,)
            ).fetchall()
        )
    else:
        result = session.execute(
            insert(Clause.__table__).returning(Clause.position, Clause.id),
            [
                {
                    "edition_id": edition_id,
                    "position": i,
                    "line": c.line,
                    "kind": c.kind,
                    "label": c.label,
                    "parent": c.parent,
                    "label_inferred": c.label_inferred,
                    "term": c.term,
                    "raw": c.raw,
                    "norm": c.norm,
                    "flags": c.flags,
                    "refs": c.refs,
                }
                for i, c in enumerate(clauses)
            ],
        )
        id_at = {position: cid for position, cid in result}
    index_clauses(
        session,
        edition_id,
        [(id_at[i], c.kind, c.term, c.norm, c.label) for i, c in enumerate(clauses)],
    )
    return len(clauses)
