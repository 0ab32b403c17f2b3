"""`mtgrules search`: ranked full-text hits in every language, each with its aligned clauses.

The work is done by the database (FTS5 MATCH + bm25, or tsvector @@ + ts_rank): Python only
builds the query, groups nothing larger than one page of hits and fetches their neighbours.
User text never reaches MATCH / to_tsquery raw: it is cut into folded words (letters and
digits only) and each word is quoted, so ``AND``, ``OR``, ``:`` or braces are just text. The
operators a user could believe work (``"``, ``*``, ``^``, ``NEAR(``) get a QueryError instead.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import text
from sqlalchemy.exc import DBAPIError
from sqlalchemy.orm import Session

from ..errors import QueryError
from ..store.queries import EditionInfo, filter_editions, list_editions
from .index import FTS_TABLE, PG_TABLE, VOCAB_TABLE
from .termbase import Termbase, load_termbase, same_language
from .text import MAX_QUERY_CHARS, MAX_QUERY_WORDS, fold, is_han, query_words

# --kind: what a reader calls rules also covers section headings and the examples under rules.
KIND_GROUPS: dict[str, tuple[str, ...]] = {
    "rules": ("rule", "heading", "example"),
    "glossary": ("glossary",),
    "commentary": ("commentary",),
}
DEFAULT_LIMIT = 20
MAX_LIMIT = 500
# Fewer exact hits than this and the fuzzy fallback runs ("little" in the issue).
FUZZY_BELOW = 3
FUZZY_CUTOFF = 75  # rapidfuzz ratio, 0-100: 'annouced' vs 'announced' is 94
FUZZY_PER_WORD = 3
# A hit whose language is the one the termbase gives for the query ranks higher: "pile" is a
# French game term, so French clauses come before English ones about piles of cards.
TERM_LANGUAGE_BOOST = 10.0  # in effect a sort key: the term's language first
# A hit whose clause in another language holds the query's termbase translation ("stack"
# beside a French clause with "pile") is what a concordance is for: rank it up.
PIVOT_BOOST = 1.0  # per language that agrees
PIVOT_HITS = 20  # per translation language
# Languages with more editions than this (Chinese: one per English date) are aligned by
# label anyway; the pivot is for the sparse ones, whose few clauses are otherwise buried.
PIVOT_MAX_EDITIONS = 3
# How alike (rapidfuzz ratio) a bilingual page's clause and a hit must be to pivot on it:
# scraped copies lose symbols ("an {X} in" -> "an in"), so not 100.
PIVOT_SIMILARITY = 85
# Rule numbers changed with the July 2009 renumbering: never align a label across it.
RENUMBERING = "2009-07-11"
# Words in nearly every clause. Dropped from a query that has other words: they rank
# nothing, and "the"* alone matches 38,000 clauses (bm25 over all of them is the slow part).
STOP_WORDS = frozenset(
    "a an and are as at be by for from in is it its of on or that the this to with "
    "au aux ce de des du en et il la le les un une que qui "
    "al con del el las lo los para por se su y".split()
)
# Full-text operators a user may type thinking they work; they would be searched as plain
# words (every word is quoted), which is not what was meant: say so instead.
_FTS_SYNTAX = re.compile(r"[*^]|\bNEAR\s*\(", re.I)
# ts_rank weights {D, C, B, A}: the glossary term (A) 5x the body (D), as bm25 on SQLite;
# normalization 1 divides by the log of the length, as bm25 favours short clauses.
PG_WEIGHTS = "'{0.2, 0.2, 0.2, 1.0}'"
# The label shapes of sources/labels.py: ASCII digits, bounded.
_RULE_QUERY = re.compile(r"^\s*([0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?)\.?\s*$", re.I)


@dataclass
class Aligned:
    clause_id: int
    edition: str
    edition_id: int
    language: str
    kind: str
    label: str | None
    term: str | None
    text: str
    via: str  # link (stored by the aligner) | label (same rule number) | termbase (glossary)

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "language": self.language,
            "label": self.label,
            "text": self.text,
            "kind": self.kind,
            "term": self.term,
            "via": self.via,
        }


@dataclass
class Hit:
    clause_id: int
    edition: str
    edition_id: int
    language: str
    kind: str
    label: str | None
    parent: str | None
    term: str | None
    text: str
    score: float
    fuzzy: bool = False
    # Every edition holding this very text (the hit shows the newest one).
    editions: list[str] = field(default_factory=list)
    edition_ids: list[int] = field(default_factory=list)
    clause_ids: list[int] = field(default_factory=list)
    aligned: list[Aligned] = field(default_factory=list)
    # Folded words to highlight in this hit (the query's, or the fuzzy replacements).
    words: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition,
            "edition_id": self.edition_id,
            "language": self.language,
            "label": self.label,
            "kind": self.kind,
            "term": self.term,
            "text": self.text,
            "score": self.score,
            "fuzzy": self.fuzzy,
            "editions": self.editions,
            "aligned": [a.as_json() for a in self.aligned],
        }


@dataclass
class SearchResult:
    query: str
    mode: str  # rule | text
    words: list[str]
    hits: list[Hit]
    fuzzy_words: dict[str, list[str]] = field(default_factory=dict)
    # Termbase forms of the query in other languages: {"fr": ["pile"], ...}.
    translations: dict[str, list[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "mode": self.mode,
            "words": self.words,
            "fuzzy_words": self.fuzzy_words,
            "translations": self.translations,
            "hits": [h.as_json() for h in self.hits],
        }


# --- query checks --------------------------------------------------------------------------


def check_query(query: str) -> str:
    if not isinstance(query, str) or not query.strip():
        raise QueryError(
            "the search query is empty; give words (stack, coût, 堆叠) or a rule number (107.3g)."
        )
    if len(query) > MAX_QUERY_CHARS:
        raise QueryError(
            f"the search query is {len(query)} characters long; keep it under "
            f"{MAX_QUERY_CHARS} (a few words or a rule number such as 107.3g)."
        )
    if _FTS_SYNTAX.search(query) or query.count('"') % 2:
        raise QueryError(
            "search takes plain words or a rule number, not full-text syntax "
            '(" * ^ NEAR( ...); e.g.: mtgrules search combat damage'
        )
    return query.strip()


def _kinds(kind: str | None) -> tuple[str, ...] | None:
    if kind is None:
        return None
    if kind not in KIND_GROUPS:
        raise QueryError(f"unknown kind '{kind}'; use one of: {', '.join(KIND_GROUPS)}.")
    return KIND_GROUPS[kind]


def _words(query: str) -> list[str]:
    words = query_words(query)
    if not words:
        raise QueryError(
            f"'{query[:40]}' has no letters or digits to search for; give words "
            "(stack, coût, 堆叠) or a rule number (107.3g)."
        )
    if len(words) > MAX_QUERY_WORDS:
        raise QueryError(
            f"the search query has {len(words)} words; give at most {MAX_QUERY_WORDS}."
        )
    return words


def fts_match(groups: list[list[str]]) -> str:
    """An FTS5 MATCH expression: AND of groups, OR inside a group, every word quoted.

    The words come from query_words (letters and digits only), so no quote can appear inside;
    a Han run becomes a phrase of single characters, the way the index stores it."""

    def term(word: str) -> str:
        if is_han(word):
            return '"' + " ".join(word) + '"'
        # Prefix match for real words (stack -> stacks); short ones exact, or "a" matches all.
        return f'"{word}"*' if len(word) >= 3 else f'"{word}"'

    parts = []
    for group in groups:
        alts = [term(w) for w in group]
        parts.append(alts[0] if len(alts) == 1 else "(" + " OR ".join(alts) + ")")
    return " AND ".join(parts)


def pg_tsquery(groups: list[list[str]]) -> str:
    """The same query for PostgreSQL's to_tsquery('simple', ...)."""

    def term(word: str) -> str:
        if is_han(word):
            return "(" + " <-> ".join(f"'{ch}'" for ch in word) + ")"
        return f"'{word}':*" if len(word) >= 3 else f"'{word}'"

    return " & ".join("(" + " | ".join(term(w) for w in group) + ")" for group in groups)


# --- the database side ---------------------------------------------------------------------


@dataclass
class _Row:
    score: float
    language: str
    clause_ids: list[int]
    edition_ids: list[int]


def _in_list(ids: list[int]) -> str:
    # Integers from the store itself, never user text: safe to inline, and lets SQLite use
    # the IN-list directly.
    return ", ".join(str(int(i)) for i in ids) or "NULL"


def _run(
    session: Session,
    groups: list[list[str]],
    editions: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    boost_languages: list[str],
    limit: int,
    pivots: dict[int, int] | None = None,
) -> list[_Row]:
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
        # _pivot_clauses): the more languages agree, the higher.
        by_count: dict[int, list[int]] = {}
        for cid, n in pivots.items():
            by_count.setdefault(n, []).append(cid)
        cases = " ".join(
            f"WHEN c.id IN ({_in_list(sorted(ids))}) THEN {1.0 + PIVOT_BOOST * n}"
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
            WHERE d.tsv @@ q.q AND c.edition_id IN ({_in_list([e.id for e in editions])}) {kind_sql}
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
            WHERE c.edition_id IN ({_in_list([e.id for e in editions])}) {kind_sql}
            GROUP BY e.language, c.kind, c.term, c.norm
            ORDER BY score DESC LIMIT :limit"""
    try:
        rows = session.execute(text(sql), params).all()
    except DBAPIError as exc:
        # Should not happen (every word is quoted), but a query must never become a traceback.
        raise QueryError(f"cannot search for that query: {exc.orig}") from None
    return [
        _Row(
            float(score or 0.0),
            lang,
            [int(x) for x in str(ids).split(",")],
            [int(x) for x in str(eds).split(",")],
        )
        for score, lang, ids, eds in rows
    ]


def _vocab(session: Session) -> tuple[str, ...]:
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


def _known(vocab: tuple[str, ...], word: str) -> bool:
    """True if some indexed word starts with ``word`` (the exact search is a prefix search)."""
    i = bisect.bisect_left(vocab, word)
    return i < len(vocab) and vocab[i].startswith(word)


def fuzzy_groups(
    session: Session, words: list[str]
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Each unknown word replaced by its nearest indexed words (rapidfuzz over the index
    vocabulary, a few thousand words, not over the clauses)."""
    from rapidfuzz import fuzz, process

    vocab = _vocab(session)
    groups: list[list[str]] = []
    replaced: dict[str, list[str]] = {}
    for word in words:
        if is_han(word) or len(word) < 4 or _known(vocab, word):
            groups.append([word])
            continue
        near = process.extract(
            word, vocab, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=FUZZY_PER_WORD
        )
        alts = [w for w, _score, _i in near]
        if alts:
            replaced[word] = alts
            groups.append(alts)
        else:
            groups.append([word])
    return groups, replaced


# --- hits and their aligned clauses --------------------------------------------------------


def _load_clauses(session: Session, ids: list[int]) -> dict[int, Any]:
    if not ids:
        return {}
    rows = session.execute(
        text(
            "SELECT id, edition_id, kind, label, parent, term, raw FROM clause "
            f"WHERE id IN ({_in_list(ids)})"
        )
    ).all()
    return {r.id: r for r in rows}


def _newest(info_ids: list[int], by_id: dict[int, EditionInfo]) -> int:
    """Index of the newest edition among ``info_ids`` (undated ones count as oldest)."""
    return max(range(len(info_ids)), key=lambda i: (by_id[info_ids[i]].date or "", info_ids[i]))


def _make_hits(
    session: Session,
    rows: list[_Row],
    by_id: dict[int, EditionInfo],
    fuzzy: bool,
    words: list[str],
) -> list[Hit]:
    picks = [row.clause_ids[_newest(row.edition_ids, by_id)] for row in rows]
    clauses = _load_clauses(session, picks)
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


def _era(date: str | None) -> bool:
    """True for editions numbered the modern way (undated scraped pages quote modern rules)."""
    return date is None or date >= RENUMBERING


def _preference(
    hit: Hit, cand: EditionInfo, by_id: dict[int, EditionInfo], doc_of: dict[int, str]
) -> tuple | None:
    """Whether (None: no) and how well an edition of another language sits beside a hit:
    the same source page (a bilingual page), or the same date as one of the editions holding
    the hit's text. Rule numbers move
    between editions, so a label is never matched to an edition of another date: no clause
    is better than the wrong one."""
    dates = {by_id[e].date for e in hit.edition_ids if e in by_id}
    docs = {doc_of.get(e) for e in hit.edition_ids}
    same_doc = doc_of.get(cand.id) in docs
    # Two undated scraped pages may quote different editions: only the pivot check
    # (_pivot_agrees) may put one beside the other.
    if not (same_doc or (cand.date is not None and cand.date in dates)):
        return None
    return (same_doc, cand.date or "")


def _glossary_entries(session: Session, forms: list[str], edition_ids: list[int]) -> list[Any]:
    """Glossary clauses whose term may be one of ``forms`` (the caller compares exactly).

    On SQLite through the index's term column: ``clause.term`` has no index of its own and
    a scan of the clause table costs more than the whole search."""
    cols = "c.id, c.edition_id, c.kind, c.label, c.parent, c.term, c.raw"
    where = f"c.kind = 'glossary' AND c.edition_id IN ({_in_list(edition_ids)})"
    if session.get_bind().dialect.name == "postgresql":
        params = {f"t{i}": t for i, t in enumerate(forms)}
        sql = (
            f"SELECT {cols} FROM clause c WHERE {where} "
            f"AND lower(c.term) IN ({', '.join(':' + k for k in params)})"
        )
        return session.execute(text(sql), params).all()
    phrases = [query_words(f) for f in forms]
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


def _pivot_agrees(hit: Hit, cand: EditionInfo, rows: list[Any], alive: list[EditionInfo]) -> bool:
    """May an undated scraped page (cand) sit beside a dated hit? Scraped pages quote some
    edition of the rule, not always the hit's. When the page also quotes the rule in the
    hit's language (a bilingual page), its clause must say what the hit says; when it does
    not, the same modern label is the best evidence there is."""
    from rapidfuzz import fuzz

    base = hit.language.split("-")[0]
    siblings = {e.id for e in alive if e.source == cand.source and e.language.split("-")[0] == base}
    if not siblings:
        return True
    mine = fold(hit.text)
    return any(
        r.edition_id in siblings
        and r.label == hit.label
        and fuzz.ratio(fold(r.raw), mine) >= PIVOT_SIMILARITY
        for r in rows
    )


def attach_aligned(
    session: Session,
    hits: list[Hit],
    alive: list[EditionInfo],
    termbase: Termbase,
) -> None:
    """Beside each hit, one clause per other language: stored aligner links when there are
    any, else the same rule label (and parent) in an edition of that language, else (for
    glossary entries) the termbase form of the entry's term. A few indexed queries per page
    of hits, never an alignment run."""
    if not hits:
        return
    by_id = {e.id: e for e in alive}
    doc_of = {e.id: e.source for e in alive}
    found: dict[int, dict[str, tuple[tuple, Aligned]]] = {h.clause_id: {} for h in hits}

    def offer(hit: Hit, row: Any, via: str, rank: float = 0.0, checked: bool = False) -> None:
        info = by_id.get(row.edition_id)
        if info is None or same_language(info.language, hit.language):
            return
        if info.language.split("-")[0] == hit.language.split("-")[0]:
            return  # zh-Hans beside zh-Hant is the same language
        where = _preference(hit, info, by_id, doc_of)
        if where is None and not (via == "link" or checked):
            return
        pref = (via == "link", rank, *(where or (False, "")))
        current = found[hit.clause_id].get(info.language)
        if current is None or pref > current[0]:
            aligned = Aligned(
                row.id,
                info.slug,
                info.id,
                info.language,
                row.kind,
                row.label,
                row.term,
                row.raw,
                via,
            )
            found[hit.clause_id][info.language] = (pref, aligned)

    # Links may sit on any clause of a grouped hit (the same text in other editions).
    by_clause = {cid: h for h in hits for cid in h.clause_ids}
    hit_ids = list(by_clause)
    # 1. Links stored by the aligner, in either direction. "alignment_id IN (...)" lets
    # SQLite use the (alignment_id, source_clause_id) index.
    if session.execute(text("SELECT 1 FROM link LIMIT 1")).first() is not None:
        ids = _in_list(hit_ids)
        pairs = session.execute(
            text(
                "SELECT source_clause_id AS a, target_clause_id AS b, score FROM link "
                f"WHERE alignment_id IN (SELECT id FROM alignment) AND source_clause_id IN ({ids}) "
                "UNION ALL SELECT target_clause_id, source_clause_id, score FROM link "
                f"WHERE target_clause_id IN ({ids})"
            )
        ).all()
        others = _load_clauses(session, [b for _a, b, _s in pairs if b is not None])
        for a, b, score in pairs:
            if b in others and a in by_clause:
                offer(by_clause[a], others[b], "link", float(score or 0.0))

    other_ids = [e.id for e in alive]
    # 2. The same rule number in the other languages' editions (the label index does it).
    labelled = [h for h in hits if h.label and h.kind in ("rule", "heading")]
    if labelled:
        labels = sorted({h.label for h in labelled})
        params = {f"l{i}": lab for i, lab in enumerate(labels)}
        rows = session.execute(
            text(
                "SELECT id, edition_id, kind, label, parent, term, raw FROM clause "
                f"WHERE label IN ({', '.join(':' + k for k in params)}) "
                f"AND kind IN ('rule', 'heading') AND edition_id IN ({_in_list(other_ids)})"
            ),
            params,
        ).all()
        same_label: dict[str, list[Any]] = {}
        for row in rows:
            same_label.setdefault(row.label, []).append(row)
        for h in labelled:
            era = _era(by_id[h.edition_id].date)
            candidates = same_label.get(h.label or "", [])
            pivot_ok: dict[str, bool] = {}  # per source page
            for row in candidates:
                # Undated pages quote modern rules: never beside a pre-2009 number.
                if _era(by_id[row.edition_id].date) != era:
                    continue
                if h.parent and row.parent and h.parent != row.parent:
                    continue
                cand = by_id[row.edition_id]
                checked = False
                if cand.date is None and era and not same_language(cand.language, h.language):
                    if cand.source not in pivot_ok:
                        pivot_ok[cand.source] = _pivot_agrees(h, cand, candidates, alive)
                    checked = pivot_ok[cand.source]
                offer(h, row, "label", checked=checked)
    # 3. Glossary entries: the termbase says what the entry's term is called elsewhere.
    glossary = [h for h in hits if h.kind == "glossary" and h.term]
    if glossary and termbase.concepts:
        # folded form -> {(hit clause id, language of that form)}
        wanted: dict[str, set[tuple[int, str]]] = {}
        for h in glossary:
            for concept, lang in termbase.lookup(h.term or ""):
                if not same_language(lang, h.language):
                    continue  # the English entry "Pile" is not the French term "pile"
                for lang, form in termbase.concepts[concept]:
                    if not same_language(lang, h.language):
                        wanted.setdefault(fold(form), set()).add((h.clause_id, lang))
        if wanted:
            rows = _glossary_entries(session, sorted(wanted), other_ids)
            for row in rows:
                for cid, lang in wanted.get(fold(row.term), ()):
                    # The French "pile" must not pick the English entry "Pile".
                    if same_language(by_id[row.edition_id].language, lang):
                        offer(by_clause[cid], row, "termbase")
    order = {lang: i for i, lang in enumerate(("en", "fr", "es", "zh-Hans", "zh-Hant"))}
    for h in hits:
        h.aligned = [
            a
            for _p, a in sorted(
                found[h.clause_id].values(), key=lambda pa: order.get(pa[1].language, 9)
            )
        ]


# --- the entry point -----------------------------------------------------------------------


def search(
    session: Session,
    query: str,
    *,
    language: str | None = None,
    edition: str | None = None,
    kind: str | None = None,
    limit: int = DEFAULT_LIMIT,
    as_of: int | None = None,
    aligned: bool = True,
) -> SearchResult:
    """Search the clauses of the editions alive at ``as_of`` (None: now)."""
    query = check_query(query)
    kinds = _kinds(kind)
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}.")
    alive = list_editions(session, as_of)
    editions = filter_editions(alive, language=language, edition=edition)
    by_id = {e.id: e for e in alive}

    rule = _RULE_QUERY.match(query)
    if rule:
        return _rule_search(session, query, rule.group(1).lower(), editions, kinds, by_id, limit)

    words = _words(query)
    termbase = load_termbase(session)
    matches = termbase.lookup(query)
    query_languages = sorted({lang for _c, lang in matches})
    translations: dict[str, list[str]] = {}
    for concept, _lang in sorted(matches):
        for lang, form in termbase.concepts.get(concept, []):
            if not any(same_language(lang, q) for q in query_languages):
                translations.setdefault(lang, [])
                if form not in translations[lang]:
                    translations[lang].append(form)
    boost = [
        e.language for e in alive if any(same_language(e.language, q) for q in query_languages)
    ]

    content = [w for w in words if w not in STOP_WORDS] or words
    groups = [[w] for w in content]
    highlight = list(content)
    pivots: dict[int, int] = {}
    if aligned and translations:
        pivots = _pivot_clauses(session, translations, query_languages, alive, kinds, termbase)
    rows = _run(session, groups, editions, kinds, sorted(set(boost)), limit, pivots)
    # Asked for a language the query's term is not in ("stack" --lang fr) and it finds next
    # to nothing there as typed: search that language's form of the term instead ("pile").
    # As typed first, because "pile" --lang en means English piles of cards.
    if (
        language
        and len(rows) < min(FUZZY_BELOW, limit)
        and query_languages
        and not any(same_language(language, q) for q in query_languages)
    ):
        forms = [
            f for lang, fs in translations.items() if same_language(lang, language) for f in fs
        ]
        form_words = [fw for fw in (query_words(f) for f in forms) if fw]
        if form_words:
            single = [fw[0] for fw in form_words if len(fw) == 1]
            # Several one-word forms: any of them; else the first form, all its words.
            groups = [single] if len(single) > 1 else [[w] for w in form_words[0]]
            highlight = [w for fw in form_words for w in fw]
            rows = _run(session, groups, editions, kinds, [], limit)
    hits = _make_hits(session, rows, by_id, False, highlight)
    fuzzy_words: dict[str, list[str]] = {}
    if len(hits) < min(FUZZY_BELOW, limit):
        fgroups, fuzzy_words = fuzzy_groups(session, [w for g in groups for w in g])
        if not fuzzy_words and len(groups) > 1:
            # Every word is known but not all together: any of them, still marked fuzzy.
            fgroups = [[w for g in groups for w in g]]
        if fuzzy_words or len(groups) > 1:
            seen = {h.clause_id for h in hits}
            more = _run(session, fgroups, editions, kinds, sorted(set(boost)), limit)
            fwords = [w for g in fgroups for w in g]
            extra = [
                h for h in _make_hits(session, more, by_id, True, fwords) if h.clause_id not in seen
            ]
            hits += extra[: limit - len(hits)]
    if aligned:
        attach_aligned(session, hits, alive, termbase)
    return SearchResult(query, "text", words, hits, fuzzy_words, translations)


def _pivot_clauses(
    session: Session,
    translations: dict[str, list[str]],
    query_languages: list[str],
    alive: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    termbase: Termbase,
) -> dict[int, int]:
    """Clauses in the query's language aligned to a clause holding the query's translation:
    for "stack", the English clauses whose French, Spanish or Chinese side says pile, pila,
    堆叠. A small search per translation language, then the usual (cheap) alignment."""
    agree: dict[int, set[str]] = {}
    by_id = {e.id: e for e in alive}
    for lang, forms in translations.items():
        eds = [e for e in alive if same_language(e.language, lang)]
        words = query_words(forms[0]) if forms else []
        if not eds or not words or len(eds) > PIVOT_MAX_EDITIONS:
            continue
        rows = _run(session, [[w] for w in words], eds, kinds, [], PIVOT_HITS)
        hits = _make_hits(session, rows, by_id, False, words)
        attach_aligned(session, hits, alive, termbase)
        for h in hits:
            for a in h.aligned:
                if any(same_language(a.language, q) for q in query_languages):
                    agree.setdefault(a.clause_id, set()).add(lang)
    return {cid: len(langs) for cid, langs in agree.items()}


def _rule_search(
    session: Session,
    query: str,
    label: str,
    editions: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    by_id: dict[int, EditionInfo],
    limit: int,
) -> SearchResult:
    """A rule number: that clause in every edition, identical texts grouped, by language."""
    kind_sql = f"AND c.kind IN ({', '.join(repr(k) for k in kinds)})" if kinds else ""
    dialect = session.get_bind().dialect.name
    agg = "string_agg(c.id::text, ',')" if dialect == "postgresql" else "group_concat(c.id)"
    agg_e = (
        "string_agg(c.edition_id::text, ',')"
        if dialect == "postgresql"
        else "group_concat(c.edition_id)"
    )
    rows = session.execute(
        text(
            f"SELECT e.language, {agg}, {agg_e} FROM clause c JOIN edition e ON e.id = c.edition_id "
            f"WHERE c.label = :label AND c.kind IN ('rule', 'heading') {kind_sql} "
            f"AND c.edition_id IN ({_in_list([e.id for e in editions])}) "
            "GROUP BY e.language, c.kind, c.norm"
        ),
        {"label": label},
    ).all()
    found = [
        _Row(
            1.0, lang, [int(x) for x in str(ids).split(",")], [int(x) for x in str(eds).split(",")]
        )
        for lang, ids, eds in rows
    ]
    order = {lang: i for i, lang in enumerate(("en", "fr", "es", "zh-Hans", "zh-Hant"))}
    found.sort(
        key=lambda r: (
            order.get(r.language, 9),
            # newest first; ISO dates sort as strings
            "".join(
                chr(0x10FFFF - ord(ch)) for ch in max(by_id[e].date or "" for e in r.edition_ids)
            ),
        )
    )
    hits = _make_hits(session, found[:limit], by_id, False, [])
    return SearchResult(query, "rule", [label], hits)
