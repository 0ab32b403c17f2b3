"""Ranked candidate texts turned into hits: one hit per clause lineage, shown in its newest
edition, with the editions and dates it spans (see results.py for what a lineage is)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..align.links import inferred_labels
from ..store.queries import EditionInfo
from ..store.search_index import term_key
from ..text.labels import in_rule, label_sort_key
from .backend import Group
from .rank import Features
from .results import Hit

# Two texts under one label (or one parent) are one lineage when they share at least this
# share of their words (Jaccard): a rule reworded over the years stays one hit, while 702.19
# as vigilance (2011) and as trample (2013 on) share a number and nothing else.
SAME_LINEAGE = 0.5
# Texts under different labels (a rule renumbered and reworded at once: 608.5b in 2008,
# 808.5b in 2009, "he or she" -> "they") are one lineage only when nearly word for word the
# same and never in one edition together; "Multiple instances of flying/vigilance ... are
# redundant" (0.82) are two rules, and so are the ".1" rules of two card types (one word
# apart, but side by side in every edition).
SAME_TEXT = 0.88
SAME_TEXT_MIN_WORDS = 8


@dataclass
class Ranked:
    """A candidate text with its place in the order and its newest clause."""

    group: Group
    features: Features
    clause: Any  # the newest member clause: id, edition_id, kind, label, parent, term, raw...
    tokens: list[str]
    fuzzy: bool = False
    label: str | None = None  # the clause's label, or the one the aligner inferred
    label_inferred: bool = False
    head: int | None = None  # its lineage: the clause of the newest edition it became


def newest_member(members: list[tuple[int, int]], by_id: dict[int, EditionInfo]) -> tuple[int, int]:
    """The (edition, clause) of the newest edition among ``members`` (undated count as
    oldest; ties: the later edition id)."""
    rank = edition_rank(by_id)
    return max(members, key=lambda m: (rank[m[0]], m[1]))


def edition_rank(by_id: dict[int, EditionInfo]) -> dict[int, int]:
    """Each edition's place from oldest to newest (by date, undated first, then id): one
    integer to compare instead of a date string and an id, thousands of times a search."""
    cached = _RANKS.get(id(by_id))
    if cached is not None and cached[0] is by_id:
        return cached[1]
    order = sorted(by_id, key=lambda e: (by_id[e].date or "", e))
    rank = {e: i for i, e in enumerate(order)}
    _RANKS.clear()
    _RANKS[id(by_id)] = (by_id, rank)
    return rank


_RANKS: dict[int, tuple[dict, dict[int, int]]] = {}


def attach_labels(db: Any, ranked: list[Ranked]) -> None:
    """Each candidate's label: its clause's own, else the label the aligner inferred for it
    (stored links), marked inferred either way when it is not printed in the source."""
    missing = [r.clause.id for r in ranked if not r.clause.label and r.clause.kind == "rule"]
    inferred = inferred_labels(db, missing) if missing else {}
    for r in ranked:
        if r.clause.label:
            r.label, r.label_inferred = r.clause.label, bool(r.clause.label_inferred)
        elif r.clause.id in inferred:
            r.label, r.label_inferred = inferred[r.clause.id], True


def _lineage_key(r: Ranked) -> tuple:
    g = r.group
    if g.kind == "glossary" and g.term:
        return ("glossary", g.language, term_key(g.term))
    if r.label and g.kind in ("rule", "heading"):
        return ("rule", g.language, r.label)
    # Examples, commentary, unnumbered subrules: by the rule they sit under.
    return ("under", g.language, g.kind, r.clause.parent)


# Candidates are made hits in batches (their members and newest clause read per batch), and
# once the page is full a few more are looked at, for a lineage's other wordings.
BATCH = 30
MARGIN = 10


def lineages(
    ranked: list[Ranked],
    limit: int,
    load: Callable[[list[Ranked]], None],
    current_heads: Callable[[set[int]], set[int]] | None = None,
) -> list[list[Ranked]]:
    """Candidates (best first) gathered into at most ``limit`` lineages, best first. A
    lower-ranked text of a lineage already listed joins it (one more wording, more
    editions) instead of taking a place of its own. ``load`` fills a batch's members, newest
    clause and lineage head; candidates left without members (none in the editions
    searched) go.

    A lineage is first what the stored alignments say (one head: 502.9f of 2008 is 702.19g
    today). Texts the alignments do not follow (an undated page's English, a glossary entry
    across the 2009 renumbering) join by their label or term and their words, as before;
    but never two lineages that both reach today's edition under different heads."""
    out: list[list[Ranked]] = []
    sets: list[list[set[str]]] = []  # the word sets of each lineage's texts
    held: list[set[int]] = []  # the editions each lineage is already in
    heads: list[int | None] = []  # each lineage's head, when the alignments give one
    by_head: dict[tuple[str, int], int] = {}
    by_key: dict[tuple, list[int]] = {}
    by_kind: dict[tuple, list[int]] = {}  # (language, kind) -> lineages, for reworded ones
    after_full = 0
    for start in range(0, len(ranked), BATCH):
        batch = ranked[start : start + BATCH]
        load(batch)
        live = current_heads({r.head for r in batch if r.head}) if current_heads else set()
        for r in batch:
            if not r.group.members:
                continue
            if len(out) >= limit:
                after_full += 1
            key = _lineage_key(r)
            words = set(r.tokens)
            editions = {e for e, _c in r.group.members}
            lang = r.group.language
            live_head = r.head if r.head in live else None

            home = by_head.get((lang, r.head)) if r.head else None

            if home is None:
                for i in by_key.get(key, []):
                    if held[i] & editions or not _free(heads[i], live_head, live):
                        # Two texts found in one edition are two clauses, however alike (the
                        # ".1" rules of two card types differ by one word and coexist).
                        continue
                    if key[0] == "glossary" or _fits(words, sets[i], SAME_LINEAGE):
                        home = i
                        break
            if home is None and key[0] != "glossary" and len(words) >= SAME_TEXT_MIN_WORDS:
                for i in by_kind.get((lang, r.group.kind), []):
                    if (
                        not held[i] & editions
                        and _free(heads[i], live_head, live)
                        and _fits(words, sets[i], SAME_TEXT)
                    ):
                        home = i
                        break
            if home is not None:
                out[home].append(r)
                sets[home].append(words)
                held[home] |= editions
                if home not in by_key.setdefault(key, []):
                    by_key[key].append(home)
                if r.head and heads[home] is None:
                    heads[home] = r.head
                if r.head:
                    by_head.setdefault((lang, r.head), home)
            elif len(out) < limit:
                by_key.setdefault(key, []).append(len(out))
                by_kind.setdefault((lang, r.group.kind), []).append(len(out))
                if r.head:
                    by_head[(lang, r.head)] = len(out)
                out.append([r])
                sets.append([words])
                held.append(set(editions))
                heads.append(r.head)
        if after_full >= MARGIN:
            break
    return out


def _inside(
    db: Any,
    c: Any,
    label: str | None,
    inferred: bool,
    inside: set[str] | frozenset[str],
    by_id: dict[int, EditionInfo],
) -> tuple[Any, str | None, bool]:
    """The clause shown for ``c``: itself, or the same text under a number inside the rules
    ``inside``, in the same edition (806.2b rather than 811.2b, asked about free-for-all)."""
    from .backend import load_clauses, same_text_clauses

    languages = {c.edition_id: by_id[c.edition_id].language}
    twins = same_text_clauses(db, [c], languages).get(c.id, [])
    alt = next(
        (cid for cid, lab in twins if cid != c.id and any(in_rule(lab, r) for r in inside)), None
    )
    if alt is None:
        return c, label, inferred
    row = load_clauses(db, [alt])[alt]
    return row, row.label, bool(row.label_inferred)


def _own_members(
    matched: set[tuple[int, int]], lineage: list[tuple[int, int]]
) -> set[tuple[int, int]]:
    """The (edition, clause) pairs a hit stands for: its lineage's clauses, and the clauses
    holding its matched texts in the editions where the lineage has none. In an edition where
    it has one, the same text under another number is another rule's: 2009-2015 printed
    "Second, the active player gets priority. Players may cast spells and activate abilities."
    as 503.2, 511.2 and 513.2, and only 511.2 is the lineage of today's 509.2 (503.2 is
    today's 507.2), so that 509.2 was not also 503.2 and 513.2."""
    held = {e for e, _c in lineage}
    return {(e, c) for e, c in matched if e not in held} | set(lineage)


def _free(head: int | None, live_head: int | None, live: set[int]) -> bool:
    """Whether a text whose head is ``live_head`` may join a lineage headed ``head``: not
    when both are clauses of today's edition (two clauses today, whatever their words)."""
    return not (live_head and head and head != live_head and head in live)


def _labels_by_edition(
    members: set[tuple[int, int]], labels_of: dict[int, str | None]
) -> dict[int, list[str]]:
    # Only the labelled clauses are sorted: a glossary entry's lineage (no labels) holds up
    # to one clause an edition of the archive's 120.
    out: dict[int, list[str]] = {}
    for eid, cid in sorted(m for m in members if labels_of.get(m[1])):
        labels = out.setdefault(eid, [])
        label = labels_of[cid]
        if label not in labels:
            labels.append(label)
    return out


def _fits(words: set[str], texts: list[set[str]], threshold: float) -> bool:
    return any(_similar(words, other, threshold) for other in texts)


def _similar(a: set[str], b: set[str], threshold: float) -> bool:
    """Jaccard of two word sets at least ``threshold`` (the sizes alone may rule it out)."""
    la, lb = len(a), len(b)
    small, large = (la, lb) if la <= lb else (lb, la)
    if not large or small < threshold * large:
        return not large
    shared = len(a & b)
    return shared >= threshold * (la + lb - shared)


def _complete_glossary_lineages(
    db: Any,
    groups: list[list[Ranked]],
    extra: dict[int, list[tuple[int, int]]],
    allowed: set[int] | None,
) -> None:
    """A glossary entry's other wordings join its hit even when the search did not rank
    them (they hold fewer of the query's words): before, "stack" said "also in 14 editions"
    with --limit 1 and 18 with --limit 30, as the 2006-2009 wording of Stack was found or
    not. By its term, as lineages() joins them, and never a second entry of one edition."""
    from .backend import glossary_groups, load_members

    shown_groups = {r.group.id for lin in groups for r in lin}
    wanted: dict[tuple[str, str], list[int]] = {}
    for i, lin in enumerate(groups):
        key = _lineage_key(lin[0])
        if key[0] == "glossary":
            wanted.setdefault((key[1], key[2]), []).append(i)
    if not wanted:
        return
    found = [
        g
        for g in glossary_groups(db, sorted({k for _lang, k in wanted}), None)
        if g.id not in shown_groups and g.term and (g.language, term_key(g.term)) in wanted
    ]
    load_members(db, found, allowed)
    for g in found:
        for i in wanted[(g.language, term_key(g.term or ""))]:
            held = {e for r in groups[i] for e, _c in r.group.members} | {e for e, _c in extra[i]}
            if g.members and not held & {e for e, _c in g.members}:
                extra[i] = sorted(set(extra[i]) | set(g.members))
                break


def make_hits(
    db: Any,
    groups: list[list[Ranked]],
    by_id: dict[int, EditionInfo],
    words: list[str],
    allowed: set[int] | None = None,
    newest: set[int] | None = None,
    inside: set[str] | frozenset[str] = frozenset(),
) -> list[Hit]:
    """One hit per lineage: its newest clause, every edition holding it, the labels it had.

    A lineage the alignments follow is shown in its newest clause of the hit's language
    among the editions searched (``allowed``), even when only an older wording matched: the
    rule as it reads today. A lineage none of whose clauses is in ``newest`` (the newest
    edition of its language) is obsolete: gone from the rules, shown in its last wording.
    Where that edition prints the same text under several numbers, the one inside the rules
    ``inside`` (those of the features the query names) is shown."""
    from .backend import lineage_members, load_clauses

    heads = {r.head for lin in groups for r in lin if r.head}
    chains = lineage_members(db, heads) if heads else {}
    extra: dict[int, list[tuple[int, int]]] = {}
    # The label of every clause of the lineages: the numbers a hit had through the years
    # ("was 702.18, 702.17"), whichever of its wordings matched.
    chain_labels = {c: label for chain in chains.values() for _e, c, label in chain}
    for i, lin in enumerate(groups):
        lang = lin[0].group.language
        found = {
            (e, c)
            for h in {r.head for r in lin if r.head}
            for e, c, _label in chains.get(h, [])
            if (allowed is None or e in allowed) and e in by_id and by_id[e].language == lang
        }
        extra[i] = sorted(found)
    _complete_glossary_lineages(db, groups, extra, allowed)
    rank = edition_rank(by_id)
    wanted = set()
    for i, lin in enumerate(groups):
        if extra[i]:
            top = max(extra[i], key=lambda m: (rank[m[0]], m[1]))
            if all(r.clause.id != top[1] for r in lin):
                wanted.add(top[1])
    rows = load_clauses(db, wanted) if wanted else {}
    hits = []
    shown_rows: list[Any] = []
    for i, lin in enumerate(groups):
        best = lin[0]
        members = _own_members({m for r in lin for m in r.group.members}, extra[i])
        shown = max(lin, key=lambda r: rank[r.clause.edition_id])
        c, label, inferred = shown.clause, shown.label, shown.label_inferred
        if extra[i]:
            top = max(extra[i], key=lambda m: (rank[m[0]], m[1]))
            # Only the same kind of clause: a glossary entry stays one under --kind glossary.
            if rank[top[0]] > rank[c.edition_id] and top[1] in rows and rows[top[1]].kind == c.kind:
                c = rows[top[1]]
                label, inferred = c.label or label, bool(c.label_inferred) if c.label else inferred
        if inside and not any(in_rule(label, r) for r in inside):
            c, label, inferred = _inside(db, c, label, inferred, inside, by_id)
        newest_first = sorted(members, key=lambda m: (rank[m[0]], m[1]), reverse=True)
        edition_ids = list(dict.fromkeys(eid for eid, _cid in newest_first))
        dates = [by_id[e].date for e in edition_ids if by_id[e].date]
        labels_of = {cid: chain_labels.get(cid) for _e, cid in extra[i]}
        labels_of.update((cid, lab) for r in lin for cid, lab in r.group.labels.items())
        labels_of.setdefault(c.id, c.label)
        labels = list(dict.fromkeys(filter(None, (labels_of.get(cid) for _e, cid in newest_first))))
        if not labels and label:
            labels = [label]
        info = by_id[c.edition_id]
        obsolete = bool(
            newest is not None
            and info.date
            and not any(e in newest for e in edition_ids)
            and any(by_id[n].language == info.language and by_id[n].date for n in newest)
        )
        shown_rows.append(c)
        hits.append(
            Hit(
                clause_id=c.id,
                edition=info.slug,
                edition_id=info.id,
                language=info.language,
                kind=c.kind,
                label=label,
                parent=c.parent,
                term=c.term,
                text=c.raw,
                score=best.features.score(),
                fuzzy=best.fuzzy,
                editions=[by_id[e].slug for e in edition_ids],
                edition_ids=edition_ids,
                clause_ids=[cid for _e, cid in newest_first],
                clause_editions=[e for e, _cid in newest_first],
                words=words,
                first_date=min(dates) if dates else None,
                last_date=max(dates) if dates else None,
                versions=len({r.group.id for r in lin}) + (c.id not in {r.clause.id for r in lin}),
                labels=labels,
                label_inferred=inferred,
                partial=not best.features.full,
                edition_labels=_labels_by_edition(members, labels_of),
                obsolete=obsolete,
                relevance=best.features.relevance(),
            )
        )
    _name_same_texts(db, hits, shown_rows, by_id)
    return hits


def _name_same_texts(
    db: Any, hits: list[Hit], rows: list[Any], by_id: dict[int, EditionInfo]
) -> None:
    """Each hit's other numbers in its own edition for the very same text (Hit.same_text),
    whichever lineage each number belongs to: today's 504.2, 507.2, 508.2 and 509.2 all
    say "Second, the active player gets priority.", and each goes back its own way."""
    from .backend import same_text_clauses

    twins = same_text_clauses(db, rows, {c.edition_id: by_id[c.edition_id].language for c in rows})
    for hit, c in zip(hits, rows, strict=True):
        hit.same_text = sorted(
            {lab for _cid, lab in twins.get(c.id, []) if lab and lab != hit.label},
            key=label_sort_key,
        )
