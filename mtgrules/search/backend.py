"""The database side of search: SQL for SQLite (FTS5, bm25) and PostgreSQL (tsvector, ts_rank)
over the index of distinct texts (store/search_index.py).

The database matches and scores; Python gets back one row per distinct text (a "group": the
same rule in 14 English editions is one group), never one per clause. Every function takes a
SQLAlchemy Session or a LiteSession (store/sql.py) and writes plain SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..errors import QueryError
from ..store.search_index import (
    FTS_TABLE,
    GROUP_TABLE,
    LINEAGE_TABLE,
    MEMBER_TABLE,
    PG_TABLE,
    VOCAB_TABLE,
    WORD_TABLE,
    group_key,
    term_keys,
)
from ..store.sql import dialect_of, fetch, fetch_in, in_list, scalar, store_url
from ..text.fold import KATAKANA_RANGES, fold_words, has_han, is_charwise, is_han, is_hangul
from .query import Expr

# ts_rank weights {D, C, B, A}: the glossary term (A) 5x the body (D), as bm25 on SQLite;
# normalization 1 divides by the log of the length, as bm25 favours short clauses.
PG_WEIGHTS = "'{0.2, 0.2, 0.2, 1.0}'"

T = TypeVar("T")


@dataclass
class Group:
    """One distinct text that matched: its score and the clauses (editions) holding it."""

    id: int
    score: float  # larger is better; comparable only within one query expression
    language: str
    kind: str
    term: str | None
    # (edition id, clause id) of every clause holding the text, in the editions searched.
    members: list[tuple[int, int]] = field(default_factory=list)
    # The label each of those clauses prints (clause id -> label; None when unnumbered).
    labels: dict[int, str | None] = field(default_factory=dict)


def _kind_sql(kinds: Sequence[str] | None, column: str = "g.kind") -> str:
    return f"AND {column} IN ({', '.join(repr(k) for k in kinds)})" if kinds else ""


def _lang_sql(languages: Sequence[str] | None, params: dict[str, Any]) -> str:
    if not languages:
        return ""
    names = []
    for i, lang in enumerate(languages):
        params[f"lang{i}"] = lang
        names.append(f":lang{i}")
    return f"AND g.language IN ({', '.join(names)})"


def ranked_groups(
    db: Any,
    expr: Expr,
    *,
    languages: Sequence[str] | None = None,
    kinds: Sequence[str] | None = None,
    limit: int = 100,
    weights: Sequence[float] | None = None,
) -> list[Group]:
    """The best ``limit`` distinct texts matching ``expr``, best first (members not loaded).
    ``weights``: each term's idf, which PostgreSQL's ts_rank lacks (_pg_score); SQLite's
    bm25 has its own."""
    params: dict[str, Any] = {"n": int(limit)}
    where = _lang_sql(languages, params) + " " + _kind_sql(kinds)
    if dialect_of(db) == "postgresql":
        params["q"] = expr.tsquery()
        sql = f"""
            SELECT g.id, {_pg_score(expr, weights, params)} AS score, g.language, g.kind, g.term
            FROM {PG_TABLE} d CROSS JOIN to_tsquery('simple', :q) AS q(q)
            JOIN {GROUP_TABLE} g ON g.id = d.group_id
            WHERE d.tsv @@ q.q {where}
            ORDER BY score DESC, g.id LIMIT :n"""
    else:
        params["q"] = expr.match()
        # bm25 is negative (more negative = better); the glossary term column weighs 5x.
        # MATERIALIZED: bm25 only works in the FTS query itself, not once joined. Without
        # a filter, the best rows are cut before the join (bm25 is computed for every match
        # anyway; the join then reads 100 groups, not thousands).
        cut = "" if where.strip() else "ORDER BY r LIMIT :n"
        sql = f"""
            WITH m AS MATERIALIZED (
                SELECT rowid AS id, bm25({FTS_TABLE}, 1.0, 5.0) AS r
                FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :q {cut})
            SELECT g.id, -m.r AS score, g.language, g.kind, g.term
            FROM m JOIN {GROUP_TABLE} g ON g.id = m.id
            WHERE 1 = 1 {where}
            ORDER BY m.r, g.id LIMIT :n"""
    try:
        rows = fetch(db, sql, params, plain=True)
    except Exception as exc:  # the driver's error, whichever driver it is
        if not _is_query_error(exc):
            raise
        # Should not happen (every word is quoted), but a query must never become a traceback.
        raise QueryError(f"cannot search for that query: {exc}") from None
    return [Group(r[0], float(r[1] or 0.0), r[2], r[3], r[4]) for r in rows]


def _pg_score(expr: Expr, weights: Sequence[float] | None, params: dict[str, Any]) -> str:
    """The SQL score of a text for ``expr`` on PostgreSQL. ts_rank has no inverse document
    frequency: for any of a question's words (its OR fetch), a text repeating the common
    ones ("creature", "player") outranked one holding the rare one, and the answer could be
    left out of the texts weighed (held-out set 17: MRR@10 0.676 on PostgreSQL, 0.743 on
    SQLite's bm25). There each term is ranked alone and weighed by its idf (``weights``), as
    bm25 sums its terms: 0.746 -> 0.761 over 877 queries. Not for an AND fetch, whose texts
    all hold every word: weighed so too (0.762), it let 702.154a Enlist into the first three
    for "can tapped creatures attack"."""
    if expr.op != "or" or weights is None or len(expr.terms) < 2:
        return f"ts_rank({PG_WEIGHTS}, d.tsv, q.q, 1)"
    parts = []
    for i, (term, weight) in enumerate(zip(expr.terms, weights, strict=True)):
        params[f"t{i}"] = Expr((term,)).tsquery()
        parts.append(
            f"{float(weight):.6f} * ts_rank({PG_WEIGHTS}, d.tsv, to_tsquery('simple', :t{i}), 1)"
        )
    return "(" + " + ".join(parts) + ")"


def _is_query_error(exc: Exception) -> bool:
    name = type(exc).__name__
    return name in ("OperationalError", "ProgrammingError", "DBAPIError", "SyntaxError")


def document_count(db: Any, expr: Expr) -> int:
    """How many distinct texts match ``expr`` (for the rarity of a query word)."""
    if dialect_of(db) == "postgresql":
        sql = f"SELECT count(*) FROM {PG_TABLE} WHERE tsv @@ to_tsquery('simple', :q)"
        return int(scalar(db, sql, {"q": expr.tsquery()}) or 0)
    sql = f"SELECT count(*) FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH :q"
    return int(scalar(db, sql, {"q": expr.match()}) or 0)


def total_documents(db: Any) -> int:
    # Group ids are dense (store/search_index.py), so the largest is the count, read from
    # the primary key's last entry instead of a scan.
    return int(scalar(db, f"SELECT max(id) FROM {GROUP_TABLE}") or 0)


# What a search reads of the whole index (its vocabulary, average lengths...), per name:
# (store, index size) and the value. One store at a time is the normal case: one entry
# per name keeps memory flat.
_PER_INDEX: dict[str, tuple[tuple[str, int], Any]] = {}


def per_index(db: Any, name: str, build: Callable[[Any], T]) -> T:
    """``build(db)``, kept while the store and the size of its index stay the same (an
    ingest or a removal changes the size: group ids are dense)."""
    key = (store_url(db), total_documents(db))
    kept = _PER_INDEX.get(name)
    if kept is not None and kept[0] == key:
        return kept[1]
    value = build(db)
    _PER_INDEX[name] = (key, value)
    return value


# Texts read to estimate the average length per language (BM25's length normalisation).
LENGTH_SAMPLE = 500


def average_lengths(db: Any) -> dict[str, float]:
    """The average number of index tokens of a text, per language, estimated from every
    n-th text of the index (group ids are dense). Kept per index."""

    def build(db: Any) -> dict[str, float]:
        total = total_documents(db)
        step = max(total // LENGTH_SAMPLE, 1)
        ids = range(1, total + 1, step)
        words = "length(lemmas) - length(replace(lemmas, ' ', '')) + 1"
        rows = fetch(
            db,
            f"SELECT language, avg({words}), count(*) FROM {GROUP_TABLE} "
            f"WHERE id IN ({in_list(ids)}) AND lemmas IS NOT NULL AND lemmas != '' "
            "GROUP BY language",
            plain=True,
        )
        # A language the sample barely holds is left to the candidates' own average.
        return {lang: float(avg) for lang, avg, n in rows if avg and int(n) >= 20}

    return per_index(db, "average_lengths", build)


def load_members(db: Any, groups: Iterable[Group], edition_ids: set[int] | None) -> None:
    """Fill each group's members, keeping only the clauses of ``edition_ids`` (None: all)."""
    by_id = {g.id: g for g in groups}
    if not by_id:
        return
    for g in by_id.values():
        g.members, g.labels = [], {}
    sql = f"SELECT group_id, edition_id, clause_id, label FROM {MEMBER_TABLE} "
    for gid, eid, cid, label in fetch_in(db, sql + "WHERE group_id IN ({ids})", by_id, plain=True):
        if edition_ids is None or eid in edition_ids:
            by_id[gid].members.append((eid, cid))
            by_id[gid].labels[cid] = label


def sample_clauses(db: Any, group_ids: Iterable[int]) -> dict[int, int]:
    """One clause id per group (any: a group's clauses hold the same text), for groups
    holding at least one clause."""
    sql = f"SELECT group_id, min(clause_id) FROM {MEMBER_TABLE} "
    rows = fetch_in(db, sql + "WHERE group_id IN ({ids}) GROUP BY group_id", group_ids)
    return {gid: cid for gid, cid in rows}


def glossary_groups(db: Any, keys: Sequence[str], kinds: Sequence[str] | None) -> list[Group]:
    """The glossary texts whose term is exactly one of ``keys`` (search_index.term_key), or
    whose heading lists one of them among its variants ("kicker" finds "Kicker, Kicked")."""
    if not keys or (kinds and "glossary" not in kinds):
        return []
    params = {f"k{i}": k for i, k in enumerate(keys)}
    rows = fetch(
        db,
        f"SELECT id, language, kind, term FROM {GROUP_TABLE} "
        f"WHERE term_key IN ({', '.join(':' + k for k in params)})",
        params,
    )
    # The headings with variants are few (about 100 in the archive's 120 editions): read
    # them all and split them here, which needs no second key per heading in the index.
    wanted, seen = set(keys), {r[0] for r in rows}
    rows += [r for r, variants in _variant_headings(db) if r[0] not in seen and wanted & variants]
    return [Group(r[0], 0.0, r[1], r[2], r[3]) for r in rows]


def glossary_term_keys(db: Any) -> frozenset[str]:
    """Every glossary entry's term key (search_index.term_key; about 1,600 in the archive's
    120 editions), kept per index."""

    def build(db: Any) -> frozenset[str]:
        rows = fetch(
            db,
            f"SELECT DISTINCT term_key FROM {GROUP_TABLE} WHERE term_key IS NOT NULL",
            plain=True,
        )
        return frozenset(r[0] for r in rows)

    return per_index(db, "glossary_term_keys", build)


def _variant_headings(db: Any) -> list[tuple[tuple, frozenset[str]]]:
    """Each glossary heading with a comma or a Japanese 、 (id, language, kind, term) beside
    the variants it lists. A scan of every glossary text (2 ms on the archive, asked several
    times per search), so kept per index."""

    def build(db: Any) -> list[tuple[tuple, frozenset[str]]]:
        rows = fetch(
            db,
            f"SELECT id, language, kind, term FROM {GROUP_TABLE} "
            "WHERE term_key IS NOT NULL AND (term LIKE :comma OR term LIKE :ja_comma)",
            {"comma": "%,%", "ja_comma": "%\u3001%"},
            plain=True,
        )
        found = [(tuple(r), frozenset(term_keys(r[3])[1:])) for r in rows]
        return [(r, variants) for r, variants in found if variants]

    return per_index(db, "variant_headings", build)


def symbol_entries(db: Any, symbol: str, edition_ids: Iterable[int]) -> list[tuple[str, str]]:
    """(term, text) of the glossary entries about a symbol ("Tap Symbol", "Mana Symbol") in
    these editions whose text holds ``symbol`` as printed ("{T}")."""
    ids = sorted(set(edition_ids))
    if not ids:
        return []
    rows = fetch(
        db,
        "SELECT term, raw FROM clause WHERE kind = 'glossary' "
        f"AND edition_id IN ({in_list(ids)}) AND lower(term) LIKE :symbol_word "
        "AND raw LIKE :printed",
        {"symbol_word": "%symbol%", "printed": f"%{symbol}%"},
        plain=True,
    )
    # LIKE ignores case on SQLite, not on PostgreSQL: the symbol is compared as printed.
    return [(term, raw) for term, raw in rows if symbol in raw]


def groups_of_clauses(db: Any, clauses: Sequence[Any], languages: dict[int, str]) -> list[Group]:
    """The groups holding these clause rows (id, edition_id, kind, term, norm), found by the
    group key (an index probe; no clause -> group index is needed)."""
    return list(groups_by_clause(db, clauses, languages).values())


def groups_by_clause(
    db: Any, clauses: Sequence[Any], languages: dict[int, str]
) -> dict[int, Group]:
    """The group holding each of these clause rows, by clause id (groups_of_clauses)."""
    keys = {c.id: group_key(languages[c.edition_id], c.kind, c.term, c.norm) for c in clauses}
    if not keys:
        return {}
    params = {f"k{i}": k for i, k in enumerate(sorted(set(keys.values())))}
    rows = fetch(
        db,
        f"SELECT id, language, kind, term, key FROM {GROUP_TABLE} "
        f"WHERE key IN ({', '.join(':' + k for k in params)})",
        params,
    )
    by_key = {bytes(r[4]): Group(r[0], 0.0, r[1], r[2], r[3]) for r in rows}
    return {cid: by_key[k] for cid, k in keys.items() if k in by_key}


def same_text_clauses(
    db: Any, clauses: Sequence[Any], languages: dict[int, str]
) -> dict[int, list[tuple[int, str | None]]]:
    """For each clause row, the clauses of its edition holding the same text (its group's
    members there) with their labels: today's 806.2b and 811.2b are one
    sentence, "Exactly one of the attack left, attack right, and attack multiple players
    options must be used"."""
    groups = groups_by_clause(db, clauses, languages)
    if not groups:
        return {}
    # One query for all: each group's members in the editions asked about.
    editions = sorted({c.edition_id for c in clauses})
    sql = (
        f"SELECT group_id, edition_id, clause_id, label FROM {MEMBER_TABLE} WHERE group_id IN "
        + "({ids})"
        + f" AND edition_id IN ({in_list(editions)})"
    )
    held: dict[tuple[int, int], list[tuple[int, str | None]]] = {}
    for g, e, cid, label in fetch_in(db, sql, {g.id for g in groups.values()}, plain=True):
        held.setdefault((int(g), int(e)), []).append((int(cid), label))
    return {
        c.id: sorted(held.get((groups[c.id].id, c.edition_id), []))
        for c in clauses
        if c.id in groups
    }


def group_rows(db: Any, ids: Iterable[int]) -> list[Group]:
    """Groups by id (members not loaded)."""
    ids = sorted(set(ids))
    if not ids:
        return []
    rows = fetch(
        db, f"SELECT id, language, kind, term FROM {GROUP_TABLE} WHERE id IN ({in_list(ids)})"
    )
    return [Group(r[0], 0.0, r[1], r[2], r[3]) for r in rows]


def clauses_labelled(
    db: Any, pairs: Sequence[tuple[int, str]], kinds: Sequence[str] = ("rule", "heading")
) -> list[Any]:
    """Clauses carrying a label in an edition, for (edition id, label) pairs: each pair one
    look-up in the (label, edition) index. Not "label IN (...) AND edition_id IN (...)",
    which read every edition's clause of each label (1,664 rows for 100 pairs on the
    archive, 7 ms), nor a row-value IN, which SQLite answers by a scan."""
    wanted = sorted(set(pairs))
    out: list[Any] = []
    for i in range(0, len(wanted), 200):
        chunk = wanted[i : i + 200]
        params: dict[str, Any] = {}
        tests = []
        for k, (eid, label) in enumerate(chunk):
            params[f"l{k}"], params[f"e{k}"] = label, int(eid)
            tests.append(f"(label = :l{k} AND edition_id = :e{k})")
        out += fetch(
            db,
            "SELECT id, edition_id, kind, label, parent, term, norm, raw, position FROM clause "
            f"WHERE ({' OR '.join(tests)}) AND kind IN ({', '.join(repr(k) for k in kinds)})",
            params,
        )
    # In the order of the label index, as callers have always read them.
    return sorted(out, key=lambda r: (r.label, r.edition_id, r.id))


def load_clauses(db: Any, ids: Iterable[int]) -> dict[int, Any]:
    sql = (
        "SELECT id, edition_id, kind, label, label_inferred, parent, term, raw, norm, refs "
        "FROM clause WHERE id IN ({ids})"
    )
    return {r.id: r for r in fetch_in(db, sql, ids)}


def load_texts(db: Any, ids: Iterable[int]) -> dict[int, Any]:
    """Only what ranking reads of a clause: its glossary term and normalized text."""
    return {
        r.id: r for r in fetch_in(db, "SELECT id, term, norm FROM clause WHERE id IN ({ids})", ids)
    }


def vocabulary(db: Any) -> dict[str, int]:
    """Every word of the index a person might mistype, with the number of distinct texts
    holding it (for the fuzzy fallback). Kept per index."""

    def build(db: Any) -> dict[str, int]:
        if dialect_of(db) == "postgresql":
            sql = f"SELECT word, ndoc FROM ts_stat('SELECT tsv FROM {PG_TABLE}')"
        else:
            sql = f"SELECT term, doc FROM {VOCAB_TABLE}"
        # Only words a person might mistype: no digits, no single Han characters.
        return {w: int(n) for w, n in fetch(db, sql) if w.isalpha() and not is_charwise(w)}

    return per_index(db, "vocabulary", build)


def han_terms(db: Any) -> frozenset[str]:
    """The store's own Chinese words: the Han runs of two characters or more in its glossary
    terms, folded (衍生物, 拥有者, 横置, 阻挡; the Japanese glossary's 手札, 上限 too). What a
    Chinese question is cut into words with (query.han_words). Kept per index."""

    def build(db: Any) -> frozenset[str]:
        sql = (
            f"SELECT DISTINCT term FROM {GROUP_TABLE} WHERE kind = 'glossary' AND term IS NOT NULL"
        )
        words: set[str] = set()
        for (term,) in fetch(db, sql):
            if has_han(term):
                words.update(w for w in fold_words(term) if is_han(w) and len(w) >= 2)
        return frozenset(words)

    return per_index(db, "han_terms", build)


def katakana_terms(db: Any) -> frozenset[str]:
    """The store's own katakana words of three kana or more: the katakana runs of its
    glossary terms (クリンナップ and ステップ of クリンナップ・ステップ), what a katakana word
    the index lacks is matched against (fuzzy.katakana_correction). Kept per index."""

    def build(db: Any) -> frozenset[str]:
        sql = (
            f"SELECT DISTINCT term FROM {GROUP_TABLE} WHERE kind = 'glossary' AND term IS NOT NULL"
        )
        words: set[str] = set()
        for (term,) in fetch(db, sql):
            words.update(w for w in fold_words(term) if len(w) >= 3 and is_katakana(w))
        return frozenset(words)

    return per_index(db, "katakana_terms", build)


def is_katakana(word: str) -> bool:
    """Whether every character is katakana (text/fold.py's ranges: the long-vowel mark ー
    is one of them)."""
    return bool(word) and all(any(lo <= ch <= hi for lo, hi in KATAKANA_RANGES) for ch in word)


def rule_groups(
    db: Any, label: str, edition_ids: list[int], kinds: Sequence[str] | None
) -> list[tuple[str, list[int], list[int]]]:
    """The clauses labelled ``label`` (rules and headings), identical texts grouped: one
    (language, clause ids, edition ids) per text."""
    kind_sql = _kind_sql(kinds, "c.kind")
    rows = fetch(
        db,
        "SELECT e.language, c.kind, c.norm, c.id, c.edition_id FROM clause c "
        "JOIN edition e ON e.id = c.edition_id "
        f"WHERE c.label = :label AND c.kind IN ('rule', 'heading') {kind_sql} "
        f"AND c.edition_id IN ({in_list(edition_ids)}) ORDER BY c.id",
        {"label": label},
    )
    grouped: dict[tuple[str, str, str], tuple[list[int], list[int]]] = {}
    for lang, kind, norm, cid, eid in rows:
        ids, eds = grouped.setdefault((lang, kind, norm), ([], []))
        ids.append(cid)
        eds.append(eid)
    return [(k[0], ids, eds) for k, (ids, eds) in grouped.items()]


def word_rows(db: Any, words: Sequence[str]) -> list[tuple[str, str, str, int]]:
    """(word, language, lemma, texts holding it) for each of ``words`` the store's
    vocabulary knows (store/search_index.py), in every language that has it."""
    wanted = sorted({w for w in words if w})
    if not wanted:
        return []
    params = {f"w{i}": w for i, w in enumerate(wanted)}
    rows = fetch(
        db,
        f"SELECT word, language, lemma, docs FROM {WORD_TABLE} "
        f"WHERE word IN ({', '.join(':' + k for k in params)})",
        params,
        plain=True,
    )
    return [(w, lang, lemma, int(n)) for w, lang, lemma, n in rows]


def group_lemmas(db: Any, group_ids: Iterable[int]) -> dict[int, list[str]]:
    """Each group's lemmas, one per token of its text (store/search_index.text_words)."""
    sql = f"SELECT id, lemmas FROM {GROUP_TABLE} WHERE id IN " + "({ids})"
    rows = fetch_in(db, sql, group_ids, plain=True)
    return {gid: (lem or "").split(" ") if lem else [] for gid, lem in rows}


def lineage_heads(db: Any, clause_ids: Iterable[int]) -> dict[int, int]:
    """The head (the clause of the newest edition it became, search_lineage) of each of
    these clauses that the stored alignments follow; clauses they do not are left out."""
    sql = f"SELECT clause_id, head FROM {LINEAGE_TABLE} WHERE clause_id IN " + "({ids})"
    return {int(c): int(h) for c, h in fetch_in(db, sql, clause_ids, plain=True)}


def lineage_members(db: Any, heads: Iterable[int]) -> dict[int, list[tuple[int, int, str | None]]]:
    """Every (edition id, clause id, label) of each lineage, by head (the head included)."""
    ids = set(heads)
    out: dict[int, list[tuple[int, int, str | None]]] = {h: [] for h in sorted(ids)}
    sql = f"SELECT head, edition_id, clause_id, label FROM {LINEAGE_TABLE} WHERE head IN "
    for h, e, c, label in fetch_in(db, sql + "({ids})", ids, plain=True):
        out[h].append((e, c, label))
    return out


def clauses_in_editions(
    db: Any, group_ids: Iterable[int], edition_ids: Iterable[int]
) -> dict[int, int]:
    """For those of ``group_ids`` that some clause of ``edition_ids`` holds, one such clause."""
    ids, eds = sorted(set(group_ids)), sorted(set(edition_ids))
    if not ids or not eds:
        return {}
    sql = (
        f"SELECT group_id, max(clause_id) FROM {MEMBER_TABLE} WHERE group_id IN "
        + "({ids})"
        + f" AND edition_id IN ({in_list(eds)}) GROUP BY group_id"
    )
    return {int(g): int(c) for g, c in fetch_in(db, sql, ids, plain=True)}


def clause_editions(db: Any, clause_ids: Iterable[int]) -> dict[int, int]:
    """The edition of each of these clauses."""
    ids = sorted(set(clause_ids))
    if not ids:
        return {}
    rows = fetch(db, f"SELECT id, edition_id FROM clause WHERE id IN ({in_list(ids)})", plain=True)
    return {int(c): int(e) for c, e in rows}


def clause_kinds(db: Any, clause_ids: Iterable[int]) -> dict[int, tuple[int, str]]:
    """The edition and kind of each of these clauses."""
    ids = sorted(set(clause_ids))
    if not ids:
        return {}
    rows = fetch(
        db, f"SELECT id, edition_id, kind FROM clause WHERE id IN ({in_list(ids)})", plain=True
    )
    return {int(c): (int(e), str(k)) for c, e, k in rows}


def clause_labels(db: Any, clause_ids: Iterable[int]) -> dict[int, tuple[int, str | None]]:
    """The edition and printed label of each of these clauses."""
    ids = sorted(set(clause_ids))
    if not ids:
        return {}
    rows = fetch(
        db, f"SELECT id, edition_id, label FROM clause WHERE id IN ({in_list(ids)})", plain=True
    )
    return {int(c): (int(e), lab) for c, e, lab in rows}


def _following(db: Any, wanted: dict[tuple[int, str], int], window: int) -> list[Any]:
    """The clauses standing after each (edition, label) at its position, at most ``window``
    positions on, in document order per edition (the position index)."""
    if not wanted:
        return []
    ranges = " OR ".join(
        f"(edition_id = {int(e)} AND position > {int(p)} AND position <= {int(p) + window})"
        for (e, _lab), p in sorted(wanted.items())
    )
    return fetch(
        db,
        "SELECT id, edition_id, kind, label, parent, term, norm, raw, position FROM clause "
        f"WHERE {ranges} ORDER BY edition_id, position",
    )


def clauses_under(db: Any, parents: Sequence[Any], first: int) -> list[Any]:
    """The first ``first`` rules under each of these clauses (rows with id, edition_id,
    label, position), in document order (405 -> 405.1, 405.2, 405.3; 702.19 -> 702.19a,
    702.19b, 702.19c).

    Read from the clauses that follow each one in its edition (the position index), not by
    parent label: the same number has subrules in every edition of an archive, and only one
    edition's are wanted."""
    wanted = {(c.edition_id, c.label): c.position for c in parents if c.label}
    # Examples sit between subrules: a window wide enough for FIRST rules and theirs.
    rows = _following(db, wanted, first * 12)
    out, taken = [], {}
    for r in rows:
        key = (r.edition_id, r.parent)
        if r.kind == "rule" and key in wanted and taken.get(key, 0) < first:
            taken[key] = taken.get(key, 0) + 1
            out.append(r)
    return out


def _holds(head: str, label: str) -> bool:
    """Is ``label`` a rule under ``head``? A chapter holds its general section (8: 800,
    800.4a), a section its rules (810: 810.4, 810.9a), a keyword rule its subrules (702.19:
    702.19a, not 702.190 nor 702.2)."""
    if len(head) == 1:
        return label == head + "00" or label.startswith(head + "00.")
    if "." not in head:
        return label.startswith(head + ".")
    return label.startswith(head) and label[len(head) :].isalpha()


def clauses_within(db: Any, heads: Sequence[Any], window: int) -> list[Any]:
    """The rules under each of these headings or keyword rules, at any depth (810 -> 810.1,
    810.4, 810.9a; 702.19 -> 702.19a-e), in document order: the clauses that follow each
    head in its edition (the position index) up to the first rule outside it, at most
    ``window`` positions on."""
    wanted = {(c.edition_id, c.label): c.position for c in heads if c.label}
    by_edition: dict[int, list[Any]] = {}
    for r in _following(db, wanted, window):
        by_edition.setdefault(r.edition_id, []).append(r)
    out: list[Any] = []
    for (eid, head), position in sorted(wanted.items()):
        for r in by_edition.get(eid, []):
            if r.position <= position or r.kind not in ("rule", "heading") or not r.label:
                continue
            if not _holds(head, r.label):
                break
            out.append(r)
    return out


# The keyword rules (702.6 Equip, 701.15 Goad) are rules whose parent is the section; the
# features of chapters 7 to 9 (730 Day and Night, 903 Commander) are section headings.
_KEYWORD_PARENTS = ("701", "702")


def feature_titles(db: Any, editions: Iterable[int]) -> list[Any]:
    """The titles that may name a feature of the game in these editions: every section
    heading, and every keyword rule (rows with edition_id, label, norm). Read through the
    edition's position index: a few thousand rows an edition, under a millisecond."""
    ids = sorted({int(e) for e in editions})
    if not ids:
        return []
    return fetch(
        db,
        "SELECT edition_id, label, norm FROM clause "
        f"WHERE edition_id IN ({in_list(ids)}) AND (kind = 'heading' OR "
        f"(kind = 'rule' AND parent IN ({', '.join(repr(p) for p in _KEYWORD_PARENTS)})))",
    )


def bilingual_names(db: Any) -> dict[str, list[tuple[str, str]]]:
    """Per language, (English name, the translation's word) of every title or glossary
    heading a Japanese or Korean text prints in both: the kormtgcr keyword rules ("702.2.
    치명타 Deathtouch", word first) and the Japanese glossary ("呪禁（じゅきん）／Hexproof",
    "コントロール、コントローラー（…）／Control/Controller": each variant with its name).
    What an English name in a Japanese or Korean question, and a Korean player's loanword
    (loanword.py), are searched as. Kept per index."""

    def build(db: Any) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {"ko": [], "ja": []}
        sql = (
            "SELECT DISTINCT c.norm FROM clause c JOIN edition e ON e.id = c.edition_id "
            "WHERE e.language LIKE 'ko%' AND (c.kind = 'heading' OR (c.kind = 'rule' AND "
            f"c.parent IN ({', '.join(repr(p) for p in _KEYWORD_PARENTS)})))"
        )
        for (norm,) in fetch(db, sql):
            native, *english = norm.split()
            if (
                is_hangul(native)
                and 0 < len(english) <= MAX_TITLE_WORDS
                and all(map(_latin, english))
            ):
                out["ko"].append((" ".join(english), native))
        sql = (
            f"SELECT DISTINCT term FROM {GROUP_TABLE} "
            "WHERE kind = 'glossary' AND language LIKE 'ja%' AND term LIKE '%／%'"
        )
        for (term,) in fetch(db, sql):
            heading, _, english = term.rpartition("／")
            natives = heading.split("（")[0].split("、")
            names = english.split("/")
            if len(names) != len(natives):
                names = [english] * len(natives)
            out["ja"] += [(n.strip(), w.strip()) for n, w in zip(names, natives, strict=True)]
        return out

    return per_index(db, "bilingual_names", build)


def _latin(word: str) -> bool:
    bare = word.replace("-", "")
    return bare.isascii() and bare.isalpha()


# A title longer than this is a sentence, not a name.
MAX_TITLE_WORDS = 4
