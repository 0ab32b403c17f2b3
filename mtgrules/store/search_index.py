"""The full-text index beside the clause table, for SQLite (FTS5) and PostgreSQL (tsvector).

Part of the store: the index is written in the same transaction as the clauses it indexes
(store/clauses.py), and read by the search backend (search/backend.py).

Each distinct text is indexed once. The 110 English editions of the archive hold
350,000 clauses but only about 21,000 distinct texts (a rule keeps its wording for years), and
a search costs what the index returns: "stack" matched 27,000 clause rows (60 ms of bm25 on
this machine) but matches 1,600 distinct texts. So:

- ``search_group``: one row per distinct text, identified by ``key`` (a digest of language,
  kind, glossary term and normalized text: the same grouping a hit shows, "the same rule in
  14 English editions is one hit"); ``term_key`` is the glossary term as looked up exactly
  (``term_key`` below), indexed, so that "the glossary entry Stack" is one index probe;
- ``search_member``: which clauses (in which editions, under which printed label) hold that
  text: a hit lists the editions and the labels of its text without reading the clauses;
- ``search_clause_label_edition``: an index of clause by (label, edition), for "this rule
  number in these few editions" (the clauses beside a hit, the rule a glossary entry
  points to) without visiting the same number in a hundred other editions;
- SQLite: ``search_text``, a contentless FTS5 table (rowid = group id) over the folded text and term,
  with the ``unicode61`` tokenizer. Words rather than trigrams because (1) the fuzzy fallback
  needs a word vocabulary, which ``search_vocab`` (fts5vocab) gives for free; (2) bm25 ranks
  words better than trigrams; (3) Han characters are indexed one per word (see text/fold.py),
  so Chinese substrings of any length are found as phrases, even two-character words such as
  堆叠, which a trigram index cannot match. Contentless: the text is already in ``clause``.
  Counting distinct texts also makes bm25's document frequencies those of the rules text
  rather than of how many editions repeat it.

PostgreSQL: the same groups and members, and ``search_doc`` (group_id, tsv) with a GIN index,
in the 'simple' configuration on the same folded text.

Every object of this module is named ``search_*``; ``is_search_object`` lets Alembic's
autogenerate ignore them, since they are not (and cannot be, for FTS5) in the models.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..text.fold import fold_words, index_form, index_words

try:
    # BLAKE2 straight from CPython's own module: ``hashlib`` would load OpenSSL for it
    # (~3 ms, 11M instructions), and a search keys a few clauses at start-up.
    from _blake2 import blake2b
except ImportError:  # another Python implementation
    from hashlib import blake2b

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection
    from sqlalchemy.orm import Session

# SQLAlchemy is imported inside the writing functions only: search reads the names and
# keys of this module on its fast path (store/sql.py).

PREFIX = "search_"
FTS_TABLE = "search_text"
VOCAB_TABLE = "search_vocab"
GROUP_TABLE = "search_group"
MEMBER_TABLE = "search_member"
PG_TABLE = "search_doc"
LABEL_INDEX = "search_clause_label_edition"
WORD_TABLE = "search_word"
LINEAGE_TABLE = "search_lineage"
# refresh_lineages' scratch table: each clause's head, for the moment of one rebuild.
HEADS_TABLE = "search_lineage_heads"
# A lineage's clauses, their editions and labels by its head, from the index alone
# (migration 0010; 0006 indexed the head only, and every row then cost a lookup in the table).
LINEAGE_INDEX = f"ix_{LINEAGE_TABLE}_head_edition"
LINEAGE_INDEX_DDL = (
    f"CREATE INDEX IF NOT EXISTS {LINEAGE_INDEX} ON {LINEAGE_TABLE} "
    "(head, edition_id, clause_id, label)"
)
# The links that carry a label the aligner inferred (a page's unnumbered subrules), for
# `search 107.3g` and the labels beside a hit (migration 0010): a partial index, so it holds
# only those few links, on SQLite and PostgreSQL alike.
INFERRED_LINK_INDEX = "search_link_inferred"
INFERRED_LINK_DDL = (
    f"CREATE INDEX IF NOT EXISTS {INFERRED_LINK_INDEX} ON link "
    "(inferred_label, source_clause_id, target_clause_id) WHERE inferred_label IS NOT NULL"
)
# The per-clause FTS5 table of migrations 0003-0004, dropped by 0005.
LEGACY_FTS_TABLE = "search_fts"
# Noise (credits, addresses, scraped user names) is never a search result.
INDEXED_KINDS = ("rule", "heading", "example", "glossary", "commentary")

SQLITE_DDL = (
    f"CREATE TABLE IF NOT EXISTS {GROUP_TABLE} ("
    " id INTEGER PRIMARY KEY, key BLOB NOT NULL UNIQUE, language TEXT NOT NULL,"
    " kind TEXT NOT NULL, term TEXT, term_key TEXT, lemmas TEXT)",
    f"CREATE INDEX IF NOT EXISTS ix_{GROUP_TABLE}_term_key ON {GROUP_TABLE} (term_key)"
    " WHERE term_key IS NOT NULL",
    # WITHOUT ROWID: the primary key is the table, so "the members of these groups" is a
    # range scan that never touches another b-tree.
    f"CREATE TABLE IF NOT EXISTS {MEMBER_TABLE} ("
    " group_id INTEGER NOT NULL, edition_id INTEGER NOT NULL, clause_id INTEGER NOT NULL,"
    " label TEXT, PRIMARY KEY (group_id, edition_id, clause_id)) WITHOUT ROWID",
    f"CREATE INDEX IF NOT EXISTS {LABEL_INDEX} ON clause (label, edition_id)",
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {FTS_TABLE} USING fts5("
    "body, term, lemma, content='', tokenize='unicode61 remove_diacritics 2')",
    # 'row' vocabulary: one row per distinct word with its document count, for fuzzy matching.
    f"CREATE VIRTUAL TABLE IF NOT EXISTS {VOCAB_TABLE} USING fts5vocab({FTS_TABLE}, 'row')",
    *(
        f"CREATE TABLE IF NOT EXISTS {WORD_TABLE} ("
        " word TEXT NOT NULL, language TEXT NOT NULL, lemma TEXT NOT NULL,"
        " docs INTEGER NOT NULL, PRIMARY KEY (word, language)) WITHOUT ROWID",
        f"CREATE TABLE IF NOT EXISTS {LINEAGE_TABLE} ("
        " clause_id INTEGER PRIMARY KEY, head INTEGER NOT NULL, edition_id INTEGER NOT NULL,"
        " label TEXT)",
        LINEAGE_INDEX_DDL,
    ),
)
SQLITE_DROP = (
    f"DROP TABLE IF EXISTS {LINEAGE_TABLE}",
    f"DROP TABLE IF EXISTS {WORD_TABLE}",
    f"DROP INDEX IF EXISTS {LABEL_INDEX}",
    f"DROP TABLE IF EXISTS {VOCAB_TABLE}",
    f"DROP TABLE IF EXISTS {FTS_TABLE}",
    f"DROP TABLE IF EXISTS {MEMBER_TABLE}",
    f"DROP TABLE IF EXISTS {GROUP_TABLE}",
    f"DROP TABLE IF EXISTS {LEGACY_FTS_TABLE}",
)

# PostgreSQL: the same groups and members, and a tsvector per group with a GIN index, in the
# 'simple' configuration (no stemming, no stop words: four languages share it).
PG_DDL = (
    f"CREATE TABLE IF NOT EXISTS {GROUP_TABLE} ("
    " id INTEGER PRIMARY KEY, key BYTEA NOT NULL UNIQUE, language VARCHAR(16) NOT NULL,"
    " kind VARCHAR(16) NOT NULL, term TEXT, term_key TEXT, lemmas TEXT)",
    f"CREATE INDEX IF NOT EXISTS ix_{GROUP_TABLE}_term_key ON {GROUP_TABLE} (term_key)"
    " WHERE term_key IS NOT NULL",
    f"CREATE TABLE IF NOT EXISTS {MEMBER_TABLE} ("
    " group_id INTEGER NOT NULL, edition_id INTEGER NOT NULL, clause_id INTEGER NOT NULL,"
    " label VARCHAR(32), PRIMARY KEY (group_id, edition_id, clause_id))",
    f"CREATE INDEX IF NOT EXISTS {LABEL_INDEX} ON clause (label, edition_id)",
    f"CREATE TABLE IF NOT EXISTS {PG_TABLE} (group_id INTEGER PRIMARY KEY, tsv TSVECTOR NOT NULL)",
    f"CREATE INDEX IF NOT EXISTS ix_{PG_TABLE}_tsv ON {PG_TABLE} USING GIN (tsv)",
    f"CREATE TABLE IF NOT EXISTS {WORD_TABLE} ("
    " word TEXT NOT NULL, language VARCHAR(16) NOT NULL, lemma TEXT NOT NULL,"
    " docs INTEGER NOT NULL, PRIMARY KEY (word, language))",
    f"CREATE TABLE IF NOT EXISTS {LINEAGE_TABLE} ("
    " clause_id INTEGER PRIMARY KEY, head INTEGER NOT NULL, edition_id INTEGER NOT NULL,"
    " label VARCHAR(32))",
    LINEAGE_INDEX_DDL,
)
PG_DROP = (
    f"DROP TABLE IF EXISTS {LINEAGE_TABLE}",
    f"DROP TABLE IF EXISTS {WORD_TABLE}",
    f"DROP INDEX IF EXISTS {LABEL_INDEX}",
    f"DROP TABLE IF EXISTS {PG_TABLE}",
    f"DROP TABLE IF EXISTS {MEMBER_TABLE}",
    f"DROP TABLE IF EXISTS {GROUP_TABLE}",
)

# The glossary term weighs more than the body: a search for "stack" should put the glossary
# entry "Stack" above rules that merely mention the stack.
# One statement per batch (three arrays unnested server-side): a row-by-row executemany
# spent more time in round trips than PostgreSQL spends building the vectors.
# The lemmas weigh C: matched only by a query's lemma alternatives (search/query.py).
PG_INSERT = (
    f"INSERT INTO {PG_TABLE} (group_id, tsv) "
    "SELECT u.id, setweight(to_tsvector('simple', u.term), 'A') || to_tsvector('simple', u.body)"
    " || setweight(to_tsvector('simple', u.lemma), 'C') "
    "FROM unnest(CAST(:ids AS INTEGER[]), CAST(:bodies AS TEXT[]), CAST(:terms AS TEXT[]), "
    "CAST(:lemmas AS TEXT[])) AS u(id, body, term, lemma)"
)
_PARENTHESIS = re.compile(r"\s*\([^()]*\)\s*$")
# The Japanese glossary's headings: the term, its reading in full-width parentheses, then
# the English term after a full-width slash (相棒（あいぼう）／Companion).
_READING = re.compile(r"^([^（(]+)[（(][^）)]*[）)]\s*[／/].*$")


def term_key(term: str) -> str:
    """A glossary term as an exact lookup sees it: folded, words only, and without a
    trailing remark in parentheses ("Converted Mana Cost (Obsolete)" is the entry for
    "converted mana cost"; "Summoning Sickness (Informal)" for "summoning sickness"), nor
    a Japanese heading's reading and English (トランプル（とらんぷる）／Trample is the entry
    for トランプル)."""
    reading = _READING.match(term)
    if reading:
        term = reading.group(1)
    return " ".join(fold_words(_PARENTHESIS.sub("", term) or term))


# A heading naming a term's variants, split by commas: "Kicker, Kicked", "Control,
# Controller", "Phased In, Phased Out", "Remove from the Game, Removed, Removed-from-the-Game
# Zone (Obsolete)". A glued heading and definition ("Draw1. To put the top card ...,"
# in one archive edition) has a full stop or long pieces, and is not split.
_VARIANT_WORDS = 5


# Japanese headings list them with the ideographic comma: 統率、統率領域（とうそつ、
# とうそつりょういき）／Command is the entry for 統率 and for 統率領域 (the command zone).
_VARIANT_SEPARATOR = re.compile("[,\u3001]")


def term_keys(term: str) -> list[str]:
    """Every exact look-up a glossary heading answers: its ``term_key`` and, for a heading
    that lists variants, each of them ("kicker" and "kicked" find "Kicker, Kicked")."""
    whole = term_key(term)
    keys = [whole] if whole else []
    reading = _READING.match(term)
    heading = reading.group(1) if reading else _PARENTHESIS.sub("", term)
    if not _VARIANT_SEPARATOR.search(heading) or "." in heading:
        return keys
    parts = [term_key(p) for p in _VARIANT_SEPARATOR.split(heading)]
    if all(p and len(p.split()) <= _VARIANT_WORDS for p in parts):
        keys += [p for p in parts if p not in keys]
    return keys


def group_key(language: str, kind: str, term: str | None, norm: str) -> bytes:
    """The identity of a distinct text: what one search hit groups."""
    raw = "\x1f".join((language, kind, term or "", norm))
    return blake2b(raw.encode("utf-8"), digest_size=16).digest()


def is_search_object(name: str | None, type_: str, table_name: str | None = None) -> bool:
    """True for the tables and indexes this module owns (for Alembic's include_object):
    named search_*, or on a search_* table."""
    if name and name.startswith(PREFIX):
        return True
    return type_ != "table" and bool(table_name and table_name.startswith(PREFIX))


def include_object(obj, name, type_, reflected, compare_to) -> bool:
    """Alembic include_object hook: leave the search index out of model comparisons."""
    table = getattr(getattr(obj, "table", None), "name", None)
    return not is_search_object(name, type_, table)


def create_index_tables(conn: Connection) -> None:
    for ddl in PG_DDL if conn.dialect.name == "postgresql" else SQLITE_DDL:
        conn.exec_driver_sql(ddl)


def upgrade_lineages_for_reads(conn: Connection) -> None:
    """What migration 0010 adds for reads: the index of inferred links, each lineage
    clause's label (the numbers a hit's lineage had: "was 702.18, 702.17"), and the lineage
    index covering head, edition, clause and label; the lineages are then refreshed."""
    conn.exec_driver_sql(INFERRED_LINK_DDL)
    if not _has_column(conn, LINEAGE_TABLE, "label"):
        kind = "VARCHAR(32)" if conn.dialect.name == "postgresql" else "TEXT"
        conn.exec_driver_sql(f"ALTER TABLE {LINEAGE_TABLE} ADD COLUMN label {kind}")
    conn.exec_driver_sql(f"DROP INDEX IF EXISTS ix_{LINEAGE_TABLE}_head")
    conn.exec_driver_sql(LINEAGE_INDEX_DDL)
    refresh_lineages(conn)


def _has_column(conn: Connection, table: str, column: str) -> bool:
    if conn.dialect.name == "postgresql":
        rows = conn.exec_driver_sql(
            "SELECT column_name FROM information_schema.columns WHERE table_name = %s",
            (table,),
        ).fetchall()
        return column in {r[0] for r in rows}
    return column in {r[1] for r in conn.exec_driver_sql(f"PRAGMA table_info({table})")}


def drop_index_tables(conn: Connection) -> None:
    for ddl in PG_DROP if conn.dialect.name == "postgresql" else SQLITE_DROP:
        conn.exec_driver_sql(ddl)


def _index_rows(
    conn: Connection, rows: Iterable[tuple[int, int, str, str, str | None, str]]
) -> int:
    """Index (clause id, edition id, language, kind, term, norm) rows: each text joins its
    group, and a group seen for the first time gets its full-text row. Through the driver
    (executemany), in the caller's transaction: SQLAlchemy's per-row overhead would cost
    more than the database's own work for the 350,000 clauses of the archive."""
    keyed = [
        (group_key(language, kind, term, norm), cid, eid, language, kind, term, norm, label)
        for cid, eid, language, kind, term, norm, label in rows
        if kind in INDEXED_KINDS
    ]
    if not keyed:
        return 0
    pg = conn.dialect.name == "postgresql"
    mark = "%s" if pg else "?"
    wanted = list({k[0] for k in keyed})
    ids: dict[bytes, int] = {}
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        marks = ", ".join(mark for _ in chunk)
        found = conn.exec_driver_sql(
            f"SELECT key, id FROM {GROUP_TABLE} WHERE key IN ({marks})", tuple(chunk)
        ).fetchall()
        ids.update((bytes(key), gid) for key, gid in found)
    # Writers hold the store's write lock (store/session.py), so the next ids are ours.
    top = conn.exec_driver_sql(f"SELECT max(id) FROM {GROUP_TABLE}").scalar()
    next_id = (top or 0) + 1
    fresh: list[tuple[int, bytes, str, str, str | None, str]] = []
    for key, _cid, _eid, language, kind, term, norm, _label in keyed:
        if key in ids:
            continue
        ids[key] = next_id
        fresh.append((next_id, key, language, kind, term, norm))
        next_id += 1
    if fresh:
        words, lemmas = _lemmas_of(conn, [(f[2], f[4], f[5]) for f in fresh])
        groups = [
            (
                gid,
                key,
                language,
                kind,
                term,
                term_key(term) if (kind == "glossary" and term) else None,
                lem,
            )
            for (gid, key, language, kind, term, _n), lem in zip(fresh, lemmas, strict=True)
        ]
        texts = [
            (gid, index_form(norm), index_form(term) if term else "", lem)
            for (gid, _k, _l, _kind, term, norm), lem in zip(fresh, lemmas, strict=True)
        ]
        conn.exec_driver_sql(
            f"INSERT INTO {GROUP_TABLE} (id, key, language, kind, term, term_key, lemmas) "
            f"VALUES ({', '.join(mark for _ in range(7))})",
            groups,
        )
        if pg:
            from sqlalchemy import text

            gids, bodies, terms, lems = (list(col) for col in zip(*texts, strict=True))
            conn.execute(
                text(PG_INSERT), {"ids": gids, "bodies": bodies, "terms": terms, "lemmas": lems}
            )
        else:
            conn.exec_driver_sql(
                f"INSERT INTO {FTS_TABLE} (rowid, body, term, lemma) VALUES (?, ?, ?, ?)", texts
            )
        _count_words(conn, [f[2] for f in fresh], words, lemmas)
    conn.exec_driver_sql(
        f"INSERT INTO {MEMBER_TABLE} (group_id, edition_id, clause_id, label) "
        f"VALUES ({mark}, {mark}, {mark}, {mark})",
        [(ids[k[0]], k[2], k[1], k[7]) for k in keyed],
    )
    return len(keyed)


def index_clauses(
    session: Session, edition_id: int, rows: list[tuple[int, str, str | None, str, str | None]]
) -> int:
    """Index freshly written clauses of one edition, given as (id, kind, term, norm, label),
    in the same transaction. From the rows in hand: reading them back would cost a query."""
    from sqlalchemy import text

    conn = session.connection()
    language = conn.execute(
        text("SELECT language FROM edition WHERE id = :e"), {"e": int(edition_id)}
    ).scalar_one()
    return _index_rows(
        conn,
        (
            (cid, edition_id, language, kind, term, norm, label)
            for cid, kind, term, norm, label in rows
        ),
    )


def has_power_toughness_text(conn: Connection) -> bool:
    """Whether any indexed clause holds a slash, as every power and toughness does
    (migration 0012 reindexes only such a store)."""
    from sqlalchemy import text

    kinds = ", ".join(f"'{k}'" for k in INDEXED_KINDS)
    # The pattern is a bound parameter: psycopg reads a literal '%/' as a placeholder.
    row = conn.execute(
        text(f"SELECT 1 FROM clause c WHERE c.kind IN ({kinds}) AND c.norm LIKE :slash LIMIT 1"),
        {"slash": "%/%"},
    ).first()
    return row is not None


def has_ordinal_lemmas(conn: Connection) -> bool:
    """Whether the index holds a word lemmatised to a number (first -> 1, from English's
    lookup table before text/lemmas.py left those out): migration 0013 reindexes only such
    a store."""
    from sqlalchemy import text

    # Those opening with a digit, by their first character: a range such as lemma < ':'
    # would follow PostgreSQL's collation, which may not order punctuation after digits.
    digits = ", ".join(f"'{d}'" for d in "0123456789")
    rows = conn.execute(
        text(f"SELECT word, lemma FROM {WORD_TABLE} WHERE substr(lemma, 1, 1) IN ({digits})")
    )
    return any(lemma.isdigit() and not word.isdigit() for word, lemma in rows)


def has_charwise_text(conn: Connection) -> bool:
    """Whether any indexed clause holds kana or Hangul (migration 0011 reindexes only
    such a store: the index of any other text is the same in 0010's form and today's)."""
    kinds = ", ".join(f"'{k}'" for k in INDEXED_KINDS)
    if conn.dialect.name == "postgresql":
        test = "(c.norm ~ '[\u3041-\u30ff\uac00-\ud7a3]' OR c.term ~ '[\u3041-\u30ff]')"
    else:
        test = "(c.norm GLOB '*[\u3041-\u30ff\uac00-\ud7a3]*' OR c.term GLOB '*[\u3041-\u30ff]*')"
    row = conn.exec_driver_sql(
        f"SELECT 1 FROM clause c WHERE c.kind IN ({kinds}) AND {test} LIMIT 1"
    ).first()
    return row is not None


def rebuild_index(conn: Connection) -> int:
    """Index every clause from scratch: used by the migrations for stores that predate the
    index or its present form (a contentless FTS5 table cannot tell which rowids it holds)."""
    create_index_tables(conn)
    if conn.dialect.name == "postgresql":
        for table in (PG_TABLE, MEMBER_TABLE, GROUP_TABLE, WORD_TABLE):
            conn.exec_driver_sql(f"DELETE FROM {table}")
    else:
        conn.exec_driver_sql(f"INSERT INTO {FTS_TABLE}({FTS_TABLE}) VALUES ('delete-all')")
        for table in (MEMBER_TABLE, GROUP_TABLE, WORD_TABLE):
            conn.exec_driver_sql(f"DELETE FROM {table}")
    kinds = ", ".join(f"'{k}'" for k in INDEXED_KINDS)
    result = conn.exec_driver_sql(
        "SELECT c.id, c.edition_id, e.language, c.kind, c.term, c.norm, c.label FROM clause c "
        f"JOIN edition e ON e.id = c.edition_id WHERE c.kind IN ({kinds}) ORDER BY c.id"
    ).fetchall()
    return _index_rows(conn, [tuple(r) for r in result])


# --- lemmas and the words of each language ------------------------------------------------


def text_words(term: str | None, norm: str) -> tuple[str, ...]:
    """The index tokens of a text as ranking reads them: its glossary term, then its body."""
    return index_words(f"{term} {norm}" if term else norm)


def _lemmas_of(
    conn: Connection, texts: list[tuple[str, str | None, str]]
) -> tuple[list[tuple[str, ...]], list[str]]:
    """Each (language, term, norm) text's words (text_words) and its lemmas, one per word,
    joined by spaces (text/lemmas.py; a word with no lemma stands for itself)."""
    from ..text.lemmas import has_lemmas, lemmatize

    known: dict[str, set[str]] = {}
    words = [text_words(term, norm) for _lang, term, norm in texts]
    for (language, _t, _n), ws in zip(texts, words, strict=True):
        known.setdefault(language, set()).update(ws)
    own = {language: list(ws) for language, ws in known.items()}  # the texts' own words
    mark = "%s" if conn.dialect.name == "postgresql" else "?"
    for language, ws in known.items():
        if has_lemmas(language):
            # lemmatize asks the known words only for the singular of a word in -s: those
            # are looked up among the stored words, rather than reading every word of the
            # language again for each edition (22 reads of 10,000-16,000 words).
            wanted = sorted({w[:-1] for w in ws if len(w) > 3 and w.endswith("s")} - ws)
            for i in range(0, len(wanted), 500):
                chunk = wanted[i : i + 500]
                rows = conn.exec_driver_sql(
                    f"SELECT word FROM {WORD_TABLE} WHERE language = {mark} "
                    f"AND word IN ({', '.join(mark for _ in chunk)})",
                    (language, *chunk),
                ).fetchall()
                ws.update(w for (w,) in rows)
    # Each distinct word of a language is looked up once (lemmatize takes each word alone,
    # against the same table and the same known words): the texts repeat most of them.
    lemma_of: dict[str, dict[str, str]] = {}
    for language, distinct in own.items():
        if has_lemmas(language):
            lemmas = lemmatize(distinct, language, known[language])
            lemma_of[language] = dict(zip(distinct, lemmas, strict=True))
    out = []
    for (language, _t, _n), ws in zip(texts, words, strict=True):
        table = lemma_of.get(language)
        out.append(" ".join([table[w] for w in ws] if table is not None else ws))
    return words, out


def _count_words(
    conn: Connection,
    languages: list[str],
    words: list[tuple[str, ...]],
    lemmas: list[str],
) -> None:
    """Add the words of new distinct texts to their language's vocabulary (word, lemma,
    how many texts hold it): what a query's words are looked up in, for their language and
    their lemma. The other forms of every lemma (spaCy's table) join with no texts, so that
    a form the rules never print ("sacrificing") still finds its lemma."""
    from ..text.lemmas import forms_of, has_lemmas

    # (word, lemma) -> how many of the texts hold it, per language, counted in C: a word's
    # lemma is the same in every text of one batch (_lemmas_of), so this is the number of
    # texts that hold the word.
    held: dict[str, Counter] = {}
    for language, ws, lem in zip(languages, words, lemmas, strict=True):
        pairs = set(zip(ws, lem.split(" "), strict=False))
        held.setdefault(language, Counter()).update(pairs)
    counts: dict[tuple[str, str], list] = {
        (w, language): [lm, n] for language, found in held.items() for (w, lm), n in found.items()
    }
    if not counts:
        return
    pg = conn.dialect.name == "postgresql"
    mark = "%s" if pg else "?"
    conn.exec_driver_sql(
        f"INSERT INTO {WORD_TABLE} (word, language, lemma, docs) VALUES ({mark}, {mark}, {mark}, {mark}) "
        "ON CONFLICT (word, language) DO UPDATE SET docs = "
        f"{WORD_TABLE}.docs + excluded.docs, lemma = excluded.lemma",
        [(w, lang, lm, n) for (w, lang), (lm, n) in counts.items()],
    )
    by_language: dict[str, set[str]] = {}
    for (_w, lang), (lm, _n) in counts.items():
        by_language.setdefault(lang, set()).add(lm)
    for lang, lems in by_language.items():
        if not has_lemmas(lang):
            continue
        extra = [(f, lang, lm, 0) for f, lm in forms_of(lems, lang).items()]
        if extra:
            conn.exec_driver_sql(
                f"INSERT INTO {WORD_TABLE} (word, language, lemma, docs) "
                f"VALUES ({mark}, {mark}, {mark}, {mark}) ON CONFLICT (word, language) DO NOTHING",
                extra,
            )


# --- lineages: which clause of the newest edition each clause became ---------------------


def refresh_lineages(conn: Connection) -> int:
    """Rebuild ``search_lineage`` from the stored alignments made at ingest: each clause's
    head, the last clause of its chain through the English editions (the one before it
    linked to the one after, 2009's renumbering included), a translation's clause through
    the English clause it translates. A search gives one hit per (language, head).

    Links are followed, never texts compared: 502.9f of 2008 and 702.19g of 2026 share a
    head because each step says so. A clause split in two follows its best link."""
    pg = conn.dialect.name == "postgresql"
    rows = conn.exec_driver_sql(
        "SELECT a.id, a.edition_a, a.edition_b, a.stats, ea.language, eb.language "
        "FROM alignment a JOIN edition ea ON ea.id = a.edition_a "
        "JOIN edition eb ON eb.id = a.edition_b WHERE a.kind = 'editions'"
    ).fetchall()
    chain, translation = [], []
    successor: dict[int, int] = {}  # edition -> the next edition of its chain
    for aid, ea, eb, stats, lang_a, lang_b in rows:
        info = _stats(stats)
        if info.get("by") != "ingest":
            continue
        if info.get("why") == "previous-edition":
            chain.append(aid)
            successor[ea] = eb
        elif lang_a != lang_b or info.get("why") in ("same-date", "same-document", "best-fit"):
            translation.append(aid)
    forward: dict[int, tuple[float, int]] = {}  # older clause -> (score, newer clause)
    source: dict[int, tuple[float, int]] = {}  # translation clause -> (score, English clause)
    for ids, into, flip in ((chain, forward, False), (translation, source, True)):
        if not ids:
            continue
        # Row by row, not fetchall(), and without the clauses' editions and labels (the
        # database joins them in at the end): the archive's ingest peaked here, its 335,000
        # links held in Python several times over.
        found = conn.exec_driver_sql(
            "SELECT l.source_clause_id, l.target_clause_id, l.score "
            "FROM link l JOIN clause cs ON cs.id = l.source_clause_id "
            "JOIN clause ct ON ct.id = l.target_clause_id "
            f"WHERE l.alignment_id IN ({', '.join(str(int(i)) for i in ids)})"
        )
        # Straight from the driver's cursor: a row made by SQLAlchemy for each of the
        # archive's 310,000 links cost more than the loop below (0.45 s of 2.0 s).
        for src, tgt, score in found.cursor:
            a, b = (tgt, src) if flip else (src, tgt)
            best = into.get(a)
            if best is None or (float(score or 0.0), -b) > (best[0], -best[1]):
                into[a] = (float(score or 0.0), b)
    _continue_glossary(conn, successor, forward)
    heads: dict[int, int] = {}

    def head(c: int) -> int:
        path = []
        seen = set()
        while c in forward and c not in seen and c not in heads:
            seen.add(c)
            path.append(c)
            c = forward[c][1]
        top = heads.get(c, c)
        for p in path:
            heads[p] = top
        return top

    out = {c: head(c) for c in list(forward)}
    for t, (_score, english) in source.items():
        out[t] = head(english)
    for c in list(out.values()):
        out.setdefault(c, c)
    forward.clear()
    source.clear()
    heads.clear()
    conn.exec_driver_sql(f"DELETE FROM {LINEAGE_TABLE}")
    mark = "%s" if pg else "?"
    # (clause, head) pairs into a temporary table, 50,000 at a time as they are made; the
    # database adds each clause's edition and label as it copies them into the lineage.
    conn.exec_driver_sql(
        f"CREATE TEMPORARY TABLE {HEADS_TABLE} (clause_id INTEGER PRIMARY KEY, head INTEGER)"
    )
    pairs = iter(out.items())
    while chunk := list(itertools.islice(pairs, 50000)):
        conn.exec_driver_sql(f"INSERT INTO {HEADS_TABLE} VALUES ({mark}, {mark})", chunk)
    written = conn.exec_driver_sql(
        f"INSERT INTO {LINEAGE_TABLE} (clause_id, head, edition_id, label) "
        f"SELECT t.clause_id, t.head, c.edition_id, c.label FROM {HEADS_TABLE} t "
        "JOIN clause c ON c.id = t.clause_id"
    ).rowcount
    conn.exec_driver_sql(f"DROP TABLE {HEADS_TABLE}")
    return int(written)


def _continue_glossary(
    conn: Connection, successor: dict[int, int], forward: dict[int, tuple[float, int]]
) -> None:
    """Carry a glossary entry over an edition that lost its glossary in the copy: the
    archive's 2013-02-01 holds 30 of the 470 entries of 2012-10-01, so no link leaves the
    other 440, and a search for a word only their older wordings held found them obsolete.
    An entry that no link carries into such an edition (one whose glossary holds less than
    half the entries of the edition before it) continues as the entry of the same term in
    the first whole edition after it: a glossary entry is named by its term, as a rule by
    its number.

    Only across such a gap: where the next edition has its whole glossary, the aligner's
    links stand. 2009-07-11 rewrote the glossary's long explanations as short definitions,
    and the aligner linked 128 of 2009-05-01's 403 entries; carrying the others by their
    term lent today's "Main Phase" the 2009 explanation's "one land per turn", ahead of
    305.2 (19 of the 1157 relevance queries fell, none rose)."""
    if not successor:
        return
    editions = ", ".join(str(int(e)) for e in {*successor, *successor.values()})
    # Sizes first (one grouped count): the terms are read, and folded, only for the editions
    # around a gap, which most stores have none of.
    size = dict(
        conn.exec_driver_sql(
            "SELECT edition_id, count(*) FROM clause WHERE kind = 'glossary' "
            f"AND term IS NOT NULL AND edition_id IN ({editions}) GROUP BY edition_id"
        ).fetchall()
    )

    def lost_glossary(edition: int | None, before: int) -> bool:
        return edition is not None and size.get(edition, 0) * 2 < before

    gaps: dict[int, int] = {}  # an edition before a gap -> the first whole edition after it
    for eid, nxt in successor.items():
        if size.get(eid) and lost_glossary(nxt, size[eid]):
            after = nxt
            while lost_glossary(after, size[eid]):
                after = successor.get(after)
            if after is not None:
                gaps[eid] = after
    if not gaps:
        return
    wanted = ", ".join(str(int(e)) for e in {*gaps, *gaps.values()})
    terms: dict[int, list[tuple[int, str]]] = {}
    for cid, eid, term in conn.exec_driver_sql(
        "SELECT id, edition_id, term FROM clause WHERE kind = 'glossary' "
        f"AND term IS NOT NULL AND edition_id IN ({wanted}) ORDER BY id"
    ).fetchall():
        key = term_key(term)
        if key:
            terms.setdefault(eid, []).append((cid, key))
    for eid, after in gaps.items():
        entries: dict[str, int] = {}
        for cid, key in terms.get(after, ()):
            entries.setdefault(key, cid)
        for cid, key in terms.get(eid, ()):
            if cid not in forward and key in entries:
                forward[cid] = (0.0, entries[key])


def _stats(value) -> dict:
    if isinstance(value, str):
        import json

        try:
            value = json.loads(value)
        except ValueError:
            return {}
    return value if isinstance(value, dict) else {}
