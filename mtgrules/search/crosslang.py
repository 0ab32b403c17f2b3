"""Beside each hit, its clause in every other language: stored links, the same rule label in
an edition of the same date, or (for glossary entries) the termbase's form of the term."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from ..align.storage import links_touching
from ..store.queries import EditionInfo
from ..termbase import Termbase
from ..text.fold import fold, fold_words
from ..text.language import language_order, same_language, same_tag
from .backend import clauses_labelled, glossary_entries, load_clauses, ranked_matches
from .hits import make_hits
from .results import Aligned, Hit

PIVOT_HITS = 20  # per translation language
# Languages with more editions than this (Chinese: one per English date) are aligned by
# label anyway; the pivot is for the sparse ones, whose few clauses are otherwise buried.
PIVOT_MAX_EDITIONS = 3
# How alike (rapidfuzz ratio) a bilingual page's clause and a hit must be to pivot on it:
# scraped copies lose symbols ("an {X} in" -> "an in"), so not 100.
PIVOT_SIMILARITY = 85
# Rule numbers changed with the July 2009 renumbering: never align a label across it.
RENUMBERING = "2009-07-11"


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


def _pivot_agrees(hit: Hit, cand: EditionInfo, rows: list[Any], alive: list[EditionInfo]) -> bool:
    """May an undated scraped page (cand) sit beside a dated hit? Scraped pages quote some
    edition of the rule, not always the hit's. When the page also quotes the rule in the
    hit's language (a bilingual page), its clause must say what the hit says; when it does
    not, the same modern label is the best evidence there is."""
    from rapidfuzz import fuzz

    siblings = {
        e.id for e in alive if e.source == cand.source and same_language(e.language, hit.language)
    }
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

    def offer(
        hit: Hit, row: Any, via: str, rank: float = 0.0, checked: bool = False, own: bool = False
    ) -> None:
        info = by_id.get(row.edition_id)
        if info is None or same_tag(info.language, hit.language):
            return
        if same_language(info.language, hit.language):
            return  # zh-Hans beside zh-Hant is the same language
        where = _preference(hit, info, by_id, doc_of)
        if where is None and not (via == "link" or checked):
            return
        # A link from the very clause shown comes first: a grouped hit holds the same text in
        # editions of other dates, whose links lead to clauses numbered as of those dates
        # (zh 722 of 2026 beside en 719 of 2023, the same rule under its 2023 number).
        pref = (via == "link", own, rank, *(where or (False, "")))
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
    # 1. Links stored by the aligner, in either direction.
    pairs = links_touching(session, hit_ids)
    others = load_clauses(session, [b for _a, b, _s in pairs])
    for a, b, score in pairs:
        if b in others and a in by_clause:
            offer(by_clause[a], others[b], "link", score, own=a == by_clause[a].clause_id)

    other_ids = [e.id for e in alive]
    # 2. The same rule number in the other languages' editions (the label index does it).
    labelled = [h for h in hits if h.label and h.kind in ("rule", "heading")]
    if labelled:
        rows = clauses_labelled(session, sorted({h.label or "" for h in labelled}), other_ids)
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
                if cand.date is None and era and not same_tag(cand.language, h.language):
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
                if not same_tag(lang, h.language):
                    continue  # the English entry "Pile" is not the French term "pile"
                for lang, form in termbase.concepts[concept]:
                    if not same_tag(lang, h.language):
                        wanted.setdefault(fold(form), set()).add((h.clause_id, lang))
        if wanted:
            rows = glossary_entries(session, sorted(wanted), other_ids)
            for row in rows:
                for cid, lang in wanted.get(fold(row.term), ()):
                    # The French "pile" must not pick the English entry "Pile".
                    if same_tag(by_id[row.edition_id].language, lang):
                        offer(by_clause[cid], row, "termbase")
    for h in hits:
        h.aligned = [
            a
            for _p, a in sorted(
                found[h.clause_id].values(), key=lambda pa: language_order(pa[1].language)
            )
        ]


def pivot_clauses(
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
        eds = [e for e in alive if same_tag(e.language, lang)]
        words = fold_words(forms[0]) if forms else []
        if not eds or not words or len(eds) > PIVOT_MAX_EDITIONS:
            continue
        rows = ranked_matches(session, [[w] for w in words], eds, kinds, [], PIVOT_HITS)
        hits = make_hits(session, rows, by_id, False, words)
        attach_aligned(session, hits, alive, termbase)
        for h in hits:
            for a in h.aligned:
                if any(same_tag(a.language, q) for q in query_languages):
                    agree.setdefault(a.clause_id, set()).add(lang)
    return {cid: len(langs) for cid, langs in agree.items()}

