"""Do two SQLite stores hold the same thing? Table by table, row by row, and the full-text
index term by term: the check that a change to the ingest's cost changed nothing it writes.

Run: .venv/bin/python benchmarks/compare_stores.py STORE_A STORE_B
Build both from the same files given the same way (the paths given are stored), e.g.
`mtgrules --db A ingest corpus` on main and `mtgrules --db B ingest corpus` on a branch.
Left out: the times each store was written at (revision.created_at, alignment.created_at)
and the alignment signature's hash of the aligner's code (it names the code that ran, which
a change to its cost alone changes). The FTS5 index is compared through an fts5vocab
'instance' table (term, row, column, offset): its b-tree pages may be laid out otherwise
for the same contents. Exit code 0 when the stores match, 1 with the first differences.
"""

from __future__ import annotations

import hashlib
import re
import sqlite3
import sys

# Columns that say when, not what.
_WHEN = {("revision", "created_at"), ("alignment", "created_at")}
_CODE_HASH = re.compile(r";code=[0-9a-f]+")
_SHOWN = 3  # differing rows shown per table


def _tables(db: sqlite3.Connection) -> list[str]:
    names = [
        n
        for (n,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%'"
            " ORDER BY name"
        )
    ]
    virtual = {
        n
        for (n,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL%'"
        )
    }
    # An FTS5 table's shadow tables (search_text_data, ...) hold its b-tree pages.
    return [n for n in names if not any(n.startswith(v + "_") for v in virtual)]


def _rows(db: sqlite3.Connection, table: str) -> list[tuple]:
    columns = [r[1] for r in db.execute(f'PRAGMA table_info("{table}")')]
    kept = [c for c in columns if (table, c) not in _WHEN]
    listed = ", ".join(f'"{c}"' for c in kept)
    rows = db.execute(f'SELECT {listed} FROM "{table}"').fetchall()
    if table == "alignment" and "signature" in kept:
        at = kept.index("signature")
        rows = [(*r[:at], _CODE_HASH.sub("", r[at]), *r[at + 1 :]) for r in rows]
    return sorted(rows, key=repr)


def _fts_tables(db: sqlite3.Connection) -> list[str]:
    return [
        n
        for (n,) in db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND sql LIKE '%USING fts5(%'"
            " ORDER BY name"
        )
    ]


def _fts_rows(db: sqlite3.Connection, table: str) -> list[tuple]:
    vocab = f"temp.cmp_{table}"
    db.execute(
        f"CREATE VIRTUAL TABLE IF NOT EXISTS {vocab} USING fts5vocab(main, {table}, 'instance')"
    )
    return db.execute(f"SELECT term, doc, col, offset FROM {vocab} ORDER BY 1, 2, 3, 4").fetchall()


def snapshot(path: str) -> dict[str, list[tuple]]:
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out = {t: _rows(db, t) for t in _tables(db)}
        out.update({f"{t} (fts5 instances)": _fts_rows(db, t) for t in _fts_tables(db)})
        return out
    finally:
        db.close()


def _digest(rows: list[tuple]) -> str:
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


def main() -> int:
    if len(sys.argv) != 3:
        sys.exit("usage: compare_stores.py STORE_A STORE_B")
    a, b = snapshot(sys.argv[1]), snapshot(sys.argv[2])
    same = True
    for table in sorted(set(a) | set(b)):
        ra, rb = a.get(table), b.get(table)
        if ra is None or rb is None:
            print(f"{table}: only in {'B' if ra is None else 'A'}")
            same = False
            continue
        if ra == rb:
            print(f"{table}: {len(ra)} rows, identical ({_digest(ra)})")
            continue
        same = False
        only_a = sorted(set(ra) - set(rb), key=repr)
        only_b = sorted(set(rb) - set(ra), key=repr)
        print(
            f"{table}: DIFFERS ({len(ra)} vs {len(rb)} rows; {len(only_a)} only in A, {len(only_b)} only in B)"
        )
        for r in only_a[:_SHOWN]:
            print(f"  A: {r!r:.300}")
        for r in only_b[:_SHOWN]:
            print(f"  B: {r!r:.300}")
    print("identical" if same else "the stores differ")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
