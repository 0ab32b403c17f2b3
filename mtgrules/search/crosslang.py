"""Beside each hit, its clause in every other language: stored links, the same rule label in
an edition of the same date, or (for glossary entries) the termbase's form of the term."""

from __future__ import annotations

from typing import Any

from ..align.links import inferred_labels, links_touching, translation_alignments
from ..store.queries import EditionInfo
from ..store.search_index import term_key
from ..store.sql import fetch, in_list
from ..termbase import Termbase
from ..text.fold import fold, fold_words
from ..text.labels import parent_of
from ..text.language import language_order, same_language, same_tag
from .backend import (
    Group,
    glossary_groups,
    groups_of_clauses,
    load_clauses,
    load_members,
    ranked_groups,
)
from .query import Expr, Term
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
    hit: Hit,
    cand: EditionInfo,
    by_id: dict[int, EditionInfo],
    doc_of: dict[int, str],
    where: dict[tuple[int, str | None], tuple[set, set]] | None = None,
    label: str | None = None,
) -> tuple | None:
    """Whether (None: no) and how well an edition of another language sits beside a hit:
    the same source page (a bilingual page), or the same date as one of the editions holding
    the hit's text. Rule numbers move
    between editions, so a label is never matched to an edition of another date: no clause
    is better than the wrong one. ``label``: only the dates at which the hit's clause
    carried that label (a lineage renumbered on the way had other numbers before).
    ``where`` caches each hit's (dates, pages)."""
    key = (hit.clause_id, label)
    known = where.get(key) if where is not None else None
    if known is None:
        editions = _carrying(hit, label) if label else hit.edition_ids
        known = (
            {by_id[e].date for e in editions if e in by_id},
            {doc_of.get(e) for e in editions},
        )
        if where is not None:
            where[key] = known
    dates, docs = known
    same_doc = doc_of.get(cand.id) in docs
    # Two undated scraped pages may quote different editions: only the pivot check
    # (_pivot_agrees) may put one beside the other.
    if not (same_doc or (cand.date is not None and cand.date in dates)):
        return None
    return (same_doc, cand.date or "")


def _carrying(hit: Hit, label: str) -> list[int]:
    """The editions where the hit's lineage carries ``label`` (all of them when the hit
    knows no per-edition labels: an inferred label, a rule-number search)."""
    found = [e for e, labs in hit.edition_labels.items() if label in labs]
    return found or (hit.edition_ids if label == hit.label else [])


def _labels(hit: Hit) -> list[str]:
    """The labels a hit's lineage carried, newest first (the shown one first)."""
    out = [hit.label] if hit.label else []
    for e in hit.edition_ids:  # newest first
        for lab in hit.edition_labels.get(e, []):
            if lab not in out:
                out.append(lab)
    return out


def _pivot_agrees(
    hit: Hit, cand: EditionInfo, rows: list[Any], alive: list[EditionInfo], label: str
) -> bool:
    """May an undated scraped page (cand) sit beside a dated hit under ``label``? Scraped
    pages quote some edition of the rule, not always the hit's. When the page also quotes
    the rule in the hit's language (a bilingual page), its clause must say what the hit
    says; when it does not, the same modern label is the best evidence there is."""
    siblings = {
        e.id for e in alive if e.source == cand.source and same_language(e.language, hit.language)
    }
    if not siblings:
        return True
    mine = fold(hit.text)
    theirs = [fold(r.raw) for r in rows if r.edition_id in siblings and r.label == label]
    if mine in theirs:
        return True  # a page quoting the very text: no need to measure
    if not theirs:
        return False
    from rapidfuzz import fuzz

    return any(fuzz.ratio(t, mine) >= PIVOT_SIMILARITY for t in theirs)


def _labelled(db: Any, labels: list[str], edition_ids: list[int]) -> list[Any]:
    """The rule and heading clauses carrying one of ``labels`` (the label index does it)."""
    if not labels:
        return []
    params = {f"l{i}": lab for i, lab in enumerate(labels)}
    return fetch(
        db,
        "SELECT id, edition_id, kind, label, label_inferred, parent, term, raw FROM clause "
        f"WHERE label IN ({', '.join(':' + k for k in params)}) "
        f"AND kind IN ('rule', 'heading') AND edition_id IN ({in_list(edition_ids)})",
        params,
    )


def _glossary_entries(db: Any, forms: list[str], edition_ids: list[int]) -> list[Any]:
    """Glossary clauses whose term is one of ``forms`` (exactly, as search_index.term_key
    reads a term, or one of a heading's variants), in these editions: through the index's
    group table."""
    keys = sorted({term_key(f) for f in forms if term_key(f)})
    groups = glossary_groups(db, keys, None)
    load_members(db, groups, set(edition_ids))
    rows = load_clauses(db, [cid for g in groups for _e, cid in g.members])
    return list(rows.values())


def _reachable(
    hits: list[Hit], alive: list[EditionInfo], by_id: dict[int, EditionInfo]
) -> list[int]:
    """The editions a clause beside these hits can come from (see _preference): another
    language's edition of one of a hit's dates or pages, and the undated pages (whose own
    clauses _pivot_agrees compares). Not the other 100 English editions of an archive."""
    places: dict[str, tuple[set, set]] = {}  # per hit language: its hits' dates and pages
    for h in hits:
        dates, docs = places.setdefault(h.language, (set(), set()))
        for e in h.edition_ids:
            if e in by_id:
                dates.add(by_id[e].date)
                docs.add(by_id[e].source)
    return [
        e.id
        for e in alive
        if e.date is None
        or any(
            (e.date in dates or e.source in docs) and not same_language(e.language, lang)
            for lang, (dates, docs) in places.items()
        )
    ]


def attach_aligned(
    session: Any,
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
    places: dict[tuple[int, str | None], tuple[set, set]] = {}  # per hit: dates and pages

    def offer(
        hit: Hit,
        row: Any,
        via: str,
        rank: float = 0.0,
        checked: bool = False,
        label: str | None = None,
        own: bool = False,
    ) -> None:
        info = by_id.get(row.edition_id)
        if info is None or same_tag(info.language, hit.language):
            return
        if same_language(info.language, hit.language):
            return  # zh-Hans beside zh-Hant is the same language
        where = _preference(hit, info, by_id, doc_of, places, label)
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
    other_ids = _reachable(hits, alive, by_id)
    # 1. Links stored by the aligner, in either direction: those of alignments between two
    # languages (a link may join any two languages, whatever their dates).
    alignments = translation_alignments(session, {e.id: e.language for e in alive})
    edition_of = {
        cid: eid for h in hits for cid, eid in zip(h.clause_ids, h.clause_editions, strict=False)
    }
    pairs = links_touching(session, hit_ids, alignments, edition_of)
    others = load_clauses(session, [b for _a, b, _s in pairs])
    for a, b, score in pairs:
        if b in others and a in by_clause:
            offer(by_clause[a], others[b], "link", score, own=a == by_clause[a].clause_id)

    # 2. The same rule number in the other languages' editions (the label index does it),
    # under every number the hit's lineage carried, each at the dates it carried it.
    labelled = [h for h in hits if h.label and h.kind in ("rule", "heading")]
    if labelled:
        wanted = sorted({lab for h in labelled for lab in _labels(h)})
        rows = _labelled(session, wanted, other_ids)
        same_label: dict[str, list[Any]] = {}
        for row in rows:
            same_label.setdefault(row.label, []).append(row)
        for h in labelled:
            for label in _labels(h):
                carrying = _carrying(h, label)
                if not carrying:
                    continue
                # The era of the newest edition that printed this number.
                era = _era(max((by_id[e].date or "" for e in carrying if e in by_id), default=""))
                era = era or any(by_id[e].date is None for e in carrying if e in by_id)
                candidates = same_label.get(label, [])
                pivot_ok: dict[str, bool] = {}  # per source page
                for row in candidates:
                    # Undated pages quote modern rules: never beside a pre-2009 number.
                    if _era(by_id[row.edition_id].date) != era:
                        continue
                    parent = parent_of(label)
                    if parent and row.parent and parent != row.parent:
                        continue
                    cand = by_id[row.edition_id]
                    # A label the aligner inferred (modern numbering, from the English it
                    # was aligned with) says nothing of the numbering another undated page
                    # prints: the Spanish page's 107.3g* is not the French forum's 107.3g.
                    inferred = h.label_inferred or bool(getattr(row, "label_inferred", False))
                    mine = by_id[h.edition_id]
                    if (
                        inferred
                        and cand.date is None
                        and mine.date is None
                        and cand.source != mine.source
                    ):
                        continue
                    checked = False
                    if cand.date is None and era and not same_tag(cand.language, h.language):
                        if cand.source not in pivot_ok:
                            pivot_ok[cand.source] = _pivot_agrees(h, cand, candidates, alive, label)
                        checked = pivot_ok[cand.source]
                    offer(h, row, "label", checked=checked, label=label)
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
            rows = _glossary_entries(session, sorted(wanted), other_ids)
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
    # A clause beside a hit that prints no label (the Spanish page's subrules) carries the
    # label the aligner inferred for it at ingest, marked as such (107.3b*).
    unlabelled = [a for h in hits for a in h.aligned if a.label is None and a.kind == "rule"]
    if unlabelled:
        inferred = inferred_labels(session, [a.clause_id for a in unlabelled])
        for a in unlabelled:
            if a.clause_id in inferred:
                a.label, a.label_inferred = inferred[a.clause_id], True


def concordant_groups(
    db: Any,
    translations: dict[str, list[str]],
    query_languages: list[str],
    by_id: dict[int, EditionInfo],
    kinds: tuple[str, ...] | None,
    termbase: Termbase,
) -> set[int]:
    """Texts in the query's language whose clause in another language holds the query's
    translation: for "stack", the English clauses whose French, Spanish or Chinese side says
    pile, pila, 堆叠 (a concordance). A small search per translation language, then one
    (cheap) alignment of them all; rank.py uses it only to order the rules that use a term."""
    alive = list(by_id.values())
    probes: list[Group] = []
    for lang, forms in translations.items():
        eds = [e for e in alive if same_tag(e.language, lang)]
        words = fold_words(forms[0]) if forms else []
        if not eds or not words or len(eds) > PIVOT_MAX_EDITIONS:
            continue
        expr = Expr(tuple(Term((w,)) for w in words), "and")
        groups = ranked_groups(
            db, expr, languages=sorted({e.language for e in eds}), kinds=kinds, limit=PIVOT_HITS
        )
        for g in groups:
            g.members = [(-1, -1)]  # filled below, for these editions only
        probes += groups
    if not probes:
        return set()
    allowed = {e.id for e in alive if any(same_tag(e.language, lang) for lang in translations)}
    load_members(db, probes, allowed)
    hits = [_probe(g, by_id) for g in probes if g.members]
    rows = load_clauses(db, [h.clause_id for h in hits])
    for h in hits:
        row = rows[h.clause_id]
        h.label, h.parent, h.text, h.kind, h.term = (
            row.label,
            row.parent,
            row.raw,
            row.kind,
            row.term,
        )
    attach_aligned(db, hits, alive, termbase)
    agree = {
        a.clause_id
        for h in hits
        for a in h.aligned
        if any(same_tag(a.language, q) for q in query_languages)
    }
    if not agree:
        return set()
    rows = load_clauses(db, agree)
    languages = {e.id: e.language for e in alive}
    return {g.id for g in groups_of_clauses(db, list(rows.values()), languages)}


def _probe(group: Group, by_id: dict[int, EditionInfo]) -> Hit:
    """A bare hit for a group (its newest clause), for attach_aligned to fill."""
    eid, cid = max(group.members, key=lambda m: (by_id[m[0]].date or "", m[0], m[1]))
    info = by_id[eid]
    newest_first = sorted(group.members, key=lambda m: (by_id[m[0]].date or "", m[0]), reverse=True)
    return Hit(
        clause_id=cid,
        edition=info.slug,
        edition_id=eid,
        language=group.language,
        kind=group.kind,
        label=None,
        parent=None,
        term=group.term,
        text="",
        score=0.0,
        editions=[by_id[e].slug for e, _c in newest_first],
        edition_ids=[e for e, _c in newest_first],
        clause_ids=[c for _e, c in newest_first],
        clause_editions=[e for e, _c in newest_first],
    )
