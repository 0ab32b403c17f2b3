"""`mtgrules search`: ranked full-text hits in every language, each with its aligned clauses.

The steps, one module each: the query checked and folded (query.py), matched and ranked by
the database (backend.py), a fuzzy fallback for mistyped words (fuzzy.py), hits built from the
matches (hits.py), and the clauses in other languages attached (crosslang.py).
"""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..errors import QueryError
from ..store.queries import EditionInfo, filter_editions, list_editions
from ..termbase import load_termbase
from ..text.fold import fold_words
from ..text.labels import match_rule_query
from ..text.language import language_order, same_tag
from .backend import MatchRow, load_clauses, ranked_matches, rule_matches
from .crosslang import attach_aligned, pivot_clauses
from .fuzzy import FUZZY_BELOW, fuzzy_groups
from .hits import make_hits
from .query import (
    DEFAULT_LIMIT,
    MAX_LIMIT,
    STOP_WORDS,
    check_query,
    kinds_of,
    query_words_checked,
)
from .results import Hit, SearchResult


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
    kinds = kinds_of(kind)
    if not 1 <= limit <= MAX_LIMIT:
        raise QueryError(f"--limit must be between 1 and {MAX_LIMIT}, not {limit}.")
    alive = list_editions(session, as_of)
    editions = filter_editions(alive, language=language, edition=edition)
    by_id = {e.id: e for e in alive}

    rule = match_rule_query(query)
    if rule:
        return _rule_search(session, query, rule, editions, kinds, by_id, limit)

    words = query_words_checked(query)
    termbase = load_termbase(session)
    matches = termbase.lookup(query)
    query_languages = sorted({lang for _c, lang in matches})
    translations: dict[str, list[str]] = {}
    for concept, _lang in sorted(matches):
        for lang, form in termbase.concepts.get(concept, []):
            if not any(same_tag(lang, q) for q in query_languages):
                translations.setdefault(lang, [])
                if form not in translations[lang]:
                    translations[lang].append(form)
    boost = [
        e.language for e in alive if any(same_tag(e.language, q) for q in query_languages)
    ]

    content = [w for w in words if w not in STOP_WORDS] or words
    groups = [[w] for w in content]
    highlight = list(content)
    pivots: dict[int, int] = {}
    if aligned and translations:
        pivots = pivot_clauses(session, translations, query_languages, alive, kinds, termbase)
    rows = ranked_matches(session, groups, editions, kinds, sorted(set(boost)), limit, pivots)
    # Asked for a language the query's term is not in ("stack" --lang fr) and it finds next
    # to nothing there as typed: search that language's form of the term instead ("pile").
    # As typed first, because "pile" --lang en means English piles of cards.
    if (
        language
        and len(rows) < min(FUZZY_BELOW, limit)
        and query_languages
        and not any(same_tag(language, q) for q in query_languages)
    ):
        forms = [
            f for lang, fs in translations.items() if same_tag(lang, language) for f in fs
        ]
        form_words = [fw for fw in (fold_words(f) for f in forms) if fw]
        if form_words:
            single = [fw[0] for fw in form_words if len(fw) == 1]
            # Several one-word forms: any of them; else the first form, all its words.
            groups = [single] if len(single) > 1 else [[w] for w in form_words[0]]
            highlight = [w for fw in form_words for w in fw]
            rows = ranked_matches(session, groups, editions, kinds, [], limit)
    hits = make_hits(session, rows, by_id, False, highlight)
    fuzzy_words: dict[str, list[str]] = {}
    if len(hits) < min(FUZZY_BELOW, limit):
        fgroups, fuzzy_words = fuzzy_groups(session, [w for g in groups for w in g])
        if not fuzzy_words and len(groups) > 1:
            # Every word is known but not all together: any of them, still marked fuzzy.
            fgroups = [[w for g in groups for w in g]]
        if fuzzy_words or len(groups) > 1:
            seen = {h.clause_id for h in hits}
            more = ranked_matches(session, fgroups, editions, kinds, sorted(set(boost)), limit)
            fwords = [w for g in fgroups for w in g]
            extra = [
                h for h in make_hits(session, more, by_id, True, fwords) if h.clause_id not in seen
            ]
            hits += extra[: limit - len(hits)]
    if aligned:
        attach_aligned(session, hits, alive, termbase)
    mark_inferred_labels(session, hits)
    return SearchResult(query, "text", words, hits, fuzzy_words, translations)


def mark_inferred_labels(session: Session, hits: list[Hit]) -> None:
    """Unlabelled clauses (the Spanish page's subrules), hits or beside them, carry the label
    the aligner inferred at ingest, marked as such."""
    from ..align.inferred import fill_inferred_labels

    items = [*hits, *(a for h in hits for a in h.aligned)]
    fill_inferred_labels(session, items, id_of=lambda x: x.clause_id)


def _rule_search(
    session: Session,
    query: str,
    label: str,
    editions: list[EditionInfo],
    kinds: tuple[str, ...] | None,
    by_id: dict[int, EditionInfo],
    limit: int,
) -> SearchResult:
    """A rule number: that clause in every edition, identical texts grouped, by language,
    newest first within a language."""
    found = rule_matches(session, label, [e.id for e in editions], kinds)
    found += _inferred_matches(session, label, editions, kinds)
    found.sort(key=lambda r: max(by_id[e].date or "" for e in r.edition_ids), reverse=True)
    found.sort(key=lambda r: language_order(r.language))  # stable: newest first stays
    hits = make_hits(session, found[:limit], by_id, False, [])
    mark_inferred_labels(session, hits)
    return SearchResult(query, "rule", [label], hits)


def _inferred_matches(
    session: Session, label: str, editions: list[EditionInfo], kinds: tuple[str, ...] | None
) -> list[MatchRow]:
    """Unlabelled clauses the aligner labelled ``label`` (the Spanish page's subrules)."""
    if kinds and "rule" not in kinds:
        return []
    from ..align.storage import clauses_inferred_as

    ids = clauses_inferred_as(session, label)
    if not ids:
        return []
    wanted = {e.id: e for e in editions}
    rows = load_clauses(session, ids)
    return [
        MatchRow(1.0, wanted[c.edition_id].language, [c.id], [c.edition_id])
        for c in rows.values()
        if c.edition_id in wanted and c.kind == "rule"
    ]
