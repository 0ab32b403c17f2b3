"""Two editions far apart (en-2009-07-11 and en-2026-01-16) paired through the stored
alignments of every edition between them, as a historian follows each clause edition by
edition, rather than aligned afresh in one step.

The ingest stores each dated edition with the one before it (plan.py's previous-edition
pairs). When every step from A to B is stored by the current aligner, A's clause is paired
with what its line became in B: the links are followed step by step (a split goes on in
each of its parts, a merge gathers its clauses). A clause whose line ends on the way is
removed; one of B whose line starts on the way is added, even when a clause of A reads
alike: that is what the editions between say happened (a rule deleted, another written).

From a newer edition to an older one (diff en-2026-01-16 en-2025-11-14) the same links
are read from the other side (reversed_alignment): one map per pair of editions, whichever
way a reader asks for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..store.queries import EditionInfo, edition_clauses
from ..store.sql import fetch, in_list
from .model import EditionAlignment, Pair
from .signature import signature
from .stored import EDITIONS, load_edition_alignment

# Who made the edition alignments every reader follows: the ingest's plan (plan.INGEST), not
# a pair stored for one reader (plan.FOR_READERS: `update`'s English with the newest) nor
# one someone stored by hand with `mtgrules align --editions A B --store`.
PLANNED = "ingest"
# Why the plan links two editions (plan.py): the older edition to the newer one; every other
# pair links the translation or copy (b) to the English it follows (a).
FORWARD = "previous-edition"
# ...and an English copy (a scraped page, the 2006 glossary page, b) with its official English.
COPY = "english-copy"
# The kind of a step's lineage (storage.save_step_lineage): the ancestors of what it left new.
LINEAGE = "lineage"

# One step of a path of stored alignments: (alignment id, read from the other side).
Hop = tuple[int, bool]


@dataclass
class StoredPairs:
    """The plan's stored pairs that relate editions far apart, read in plain SQL."""

    steps: dict[int, tuple[int, int]]  # older edition -> (alignment id, the next edition)
    copies: dict[int, tuple[int, int]]  # English copy -> (alignment id, its official English)
    links: dict[int, Any]  # alignment id -> how many links it was stored with


def stored_pairs(db: Any) -> StoredPairs:
    """The steps and copies the current aligner stored at ingest (whether each still has all
    its links is checked for the alignments a path reads: _complete)."""
    steps: dict[int, tuple[int, int]] = {}
    copies: dict[int, tuple[int, int]] = {}
    links: dict[int, Any] = {}
    for rid, a, b, stats in fetch(
        db,
        "SELECT id, edition_a, edition_b, stats FROM alignment "
        "WHERE kind = :kind AND signature = :sig ORDER BY id",
        {"kind": EDITIONS, "sig": signature()},
        plain=True,
    ):
        stats = (json.loads(stats) if isinstance(stats, str) else stats) or {}
        if stats.get("by") != PLANNED:
            continue
        if stats.get("why") == FORWARD:
            steps[a] = (rid, b)
        elif stats.get("why") == COPY:
            copies[b] = (rid, a)
        else:
            continue
        links[rid] = stats.get("links")
    return StoredPairs(steps, copies, links)


def _complete(db: Any, stored: StoredPairs, hops: list[Hop]) -> bool:
    ids = sorted({aid for aid, _back in hops})
    if not ids:
        return True
    counts = dict(
        fetch(
            db,
            "SELECT alignment_id, count(*) FROM link "
            f"WHERE alignment_id IN ({in_list(ids)}) GROUP BY alignment_id",
            plain=True,
        )
    )
    return all(counts.get(i, 0) == stored.links.get(i) for i in ids)


def line_path(stored: StoredPairs, a: EditionInfo, b: EditionInfo) -> list[Hop] | None:
    """The stored alignments that lead from ``a`` to ``b``, the one map of a pair of
    editions every reader reads: the steps of their line between them (read from the other
    side when ``b`` is the older), and for an English copy off the line (a scraped page, the
    2006 glossary page) first or last its link with its official English. None when no
    such path is stored (a translation with an English of another line, an edition stored
    with no pair)."""

    def along(x: int, y: int) -> list[Hop] | None:
        if x == y:
            return []
        fwd = _chain(stored.steps, x, y)
        if fwd is not None:
            return [(aid, False) for aid in fwd]
        back = _chain(stored.steps, y, x)
        if back is not None:
            return [(aid, True) for aid in reversed(back)]
        return None

    hops = along(a.id, b.id)
    if hops is not None:
        return hops
    start, end = stored.copies.get(a.id), stored.copies.get(b.id)
    if start is None and end is None:
        return None
    middle = along(start[1] if start else a.id, end[1] if end else b.id)
    if middle is None:
        return None
    return ([(start[0], True)] if start else []) + middle + ([(end[0], False)] if end else [])


def _chain(steps: dict[int, tuple[int, int]], x: int, y: int) -> list[int] | None:
    out: list[int] = []
    cur = x
    while cur != y:
        if cur not in steps or len(out) > len(steps):
            return None
        aid, cur = steps[cur]
        out.append(aid)
    return out


def edition_map(db: Any, a: EditionInfo, b: EditionInfo) -> EditionAlignment | None:
    """``a`` paired with ``b`` through the stored alignments between them (line_path): one
    stored step as stored, several composed, read from the other side the other way round.
    Else the pair as stored, if it is (a translation with its English; this also reads a
    pair stored by hand), either way round. None: nothing stored relates them (the caller
    aligns them)."""
    stored = stored_pairs(db)
    hops = line_path(stored, a, b)
    if hops is not None and hops and _complete(db, stored, hops):
        if len(hops) == 1:
            aid, back = hops[0]
            one = load_edition_alignment(db, b, a) if back else load_edition_alignment(db, a, b)
            if one is not None:
                return reversed_alignment(one) if back else with_lineage(db, one, stored, hops)
        elif all(back for _aid, back in hops):
            # Newer to older along the line: the older-to-newer map, read from the other side.
            forward = [(aid, False) for aid, _back in reversed(hops)]
            return reversed_alignment(composed_alignment(db, b, a, forward))
        else:
            composed = composed_alignment(db, a, b, hops)
            return with_lineage(db, composed, stored, hops)
    direct = load_edition_alignment(db, a, b)
    if direct is not None:
        return direct
    back = load_edition_alignment(db, b, a)
    return reversed_alignment(back) if back is not None else None


# The evidence of a clause of B new under its label whose text the stored lineage of a step
# on the way says came from clauses of A (a rule rewritten under another number, a glossary
# entry that became rules): its ancestors in A, as trace shows them.
ANCESTORS = "ancestors"


def with_lineage(
    db: Any, ea: EditionAlignment, stored: StoredPairs, hops: list[Hop]
) -> EditionAlignment:
    """``ea`` (``a`` with ``b`` through ``hops``, older to newer) with each inserted clause
    that the stored lineage of a step between them derives from clauses of ``a`` carrying
    them in its evidence ({"feature": "ancestors", "value": [...]}, in ``a``'s order). The
    pairs and their counts stay: the clause is new under its label, written from older
    text. 2009-07-11's 107.3 ("Many objects use the letter X...") is new in that step, from
    the glossary entry "X" of 2009-05-01, so a diff from 2009-05-01 to today says so."""
    derived = _lineage_sources(db, ea.a.id, stored, hops)
    if not derived:
        return ea
    order = {p.a.id: k for k, p in enumerate(ea.pairs) if p.a is not None}
    views_a = {p.a.id: p.a for p in ea.pairs if p.a is not None}
    pairs = []
    for p in ea.pairs:
        found = derived.get(p.b.id) if p.a is None and p.b is not None else None
        if found:
            ancestors = [
                {"id": c.id, "kind": c.kind, "label": c.label, "term": c.term}
                for c in sorted(
                    (views_a[i] for i in found if i in views_a), key=lambda c: order[c.id]
                )
            ]
            if ancestors:
                p = Pair(
                    None,
                    p.b,
                    p.score,
                    [*p.evidence, {"feature": ANCESTORS, "value": ancestors}],
                    p.kind,
                )
        pairs.append(p)
    result = EditionAlignment(ea.a, ea.b, pairs)
    result.stats = dict(ea.stats)
    return result


def _lineage_sources(
    db: Any, start: int, stored: StoredPairs, hops: list[Hop]
) -> dict[int, set[int]]:
    """Clause of the path's last edition -> the clauses of edition ``start`` it descends from
    through a stored lineage link (an ancestor of a clause new in a step), followed on along
    the pairs of the steps after it. A clause of any edition on the way counts as the clause
    of ``start`` it continues (a lineage names glossary entries of editions before its step)."""
    lineage = _current_lineage(db, stored)
    editions = _editions_on(db, hops, start)
    continues: dict[int, set[int]] = {
        c.id: {c.id} for c in edition_clauses(db, start)
    }  # any clause on the way -> the clauses of start it continues
    derived: dict[int, set[int]] = {}
    prev = start
    for (aid, back), here in zip(hops, editions, strict=True):
        ids = [aid]
        step_lineage = None if back else lineage.get((prev, here))
        if step_lineage is not None:
            ids.append(step_lineage)
        for alignment_id, src, dst in fetch(
            db,
            "SELECT alignment_id, source_clause_id, target_clause_id FROM link "
            f"WHERE alignment_id IN ({in_list(ids)}) AND source_clause_id IS NOT NULL "
            "AND target_clause_id IS NOT NULL",
            plain=True,
        ):
            if alignment_id == aid:
                if back:
                    src, dst = dst, src
                continues.setdefault(dst, set()).update(continues.get(src, ()))
                derived.setdefault(dst, set()).update(derived.get(src, ()))
            else:
                derived.setdefault(dst, set()).update(continues.get(src, ()), derived.get(src, ()))
        prev = here
    return {cid: found for cid, found in derived.items() if found}


def _current_lineage(db: Any, stored: StoredPairs) -> dict[tuple[int, int], int]:
    """(older, newer edition) -> the lineage stored at ingest for that step, while it was made
    by this aligner, has all its links and was made from the line's current steps (its
    glossary chains: storage.lineage_rows says why an edition inserted before a step makes
    the step's lineage stale)."""
    back = {nxt: (aid, prev) for prev, (aid, nxt) in stored.steps.items()}
    rows = fetch(
        db,
        "SELECT id, edition_a, edition_b, stats FROM alignment "
        "WHERE kind = :kind AND signature = :sig ORDER BY id",
        {"kind": LINEAGE, "sig": signature()},
        plain=True,
    )
    made: dict[tuple[int, int], tuple[int, Any]] = {}
    for rid, ea, eb, stats in rows:
        stats = (json.loads(stats) if isinstance(stats, str) else stats) or {}
        if eb in back and back[eb][1] == ea and stats.get("steps") == step_chain(back, eb):
            made[(ea, eb)] = (rid, stats.get("links"))
    if not made:
        return {}
    counts = dict(
        fetch(
            db,
            "SELECT alignment_id, count(*) FROM link "
            f"WHERE alignment_id IN ({in_list(sorted(rid for rid, _ in made.values()))}) "
            "GROUP BY alignment_id",
            plain=True,
        )
    )
    return {pair: rid for pair, (rid, links) in made.items() if counts.get(rid, 0) == links}


def step_chain(back: dict[int, tuple[int, int]], edition: int) -> list[int]:
    """The step alignments (ids) from the line's oldest edition up to ``edition``, oldest
    first: what a step's lineage was made from (its own pairs and the glossary entries'
    earlier versions along the steps before it)."""
    ids: list[int] = []
    seen: set[int] = set()
    while edition in back and edition not in seen:
        seen.add(edition)
        aid, edition = back[edition]
        ids.append(aid)
    return ids[::-1]


def composed_alignment(
    db: Any, a: EditionInfo, b: EditionInfo, hops: list[Hop]
) -> EditionAlignment:
    """``a`` paired with ``b`` through ``hops``, the stored alignments between them
    (line_path), each read forward or from the other side."""
    # clause of A -> {clause of the current edition: the lowest score on the way}
    reach: dict[int, dict[int, float]] = {}
    views_a = edition_clauses(db, a.id)
    for c in views_a:
        reach[c.id] = {c.id: 1.0}
    path = [a.id]
    for aid, back in hops:
        forward: dict[int, list[tuple[int, float]]] = {}
        ends = fetch(
            db,
            "SELECT source_clause_id, target_clause_id, score FROM link "
            f"WHERE alignment_id IN ({in_list([aid])}) AND source_clause_id IS NOT NULL "
            "AND target_clause_id IS NOT NULL",
            plain=True,
        )
        for src, dst, score in ends:
            if back:
                src, dst = dst, src
            forward.setdefault(src, []).append((dst, float(score or 0.0)))
        for start, here in reach.items():
            nxt: dict[int, float] = {}
            for cid, score in here.items():
                for dst, s in forward.get(cid, ()):
                    nxt[dst] = min(nxt.get(dst, 1.0), score, s)
            reach[start] = nxt
    views_b = edition_clauses(db, b.id)
    by_id = {c.id: c for c in views_b}
    path += _editions_on(db, hops, a.id)
    sources: dict[int, int] = {}
    for ends in reach.values():
        for cid in ends:
            sources[cid] = sources.get(cid, 0) + 1
    evidence = [{"feature": "composed", "value": len(hops)}]
    pairs: list[Pair] = []
    reached: set[int] = set()
    for c in views_a:
        ends = reach[c.id]
        if not ends:
            pairs.append(Pair(c, None, 0.0, list(evidence), "deleted"))
            continue
        for cid, score in sorted(ends.items(), key=lambda kv: by_id[kv[0]].position):
            reached.add(cid)
            d = by_id[cid]
            if len(ends) > 1:
                kind = "split"
            elif sources[cid] > 1:
                kind = "merge"
            elif c.label and d.label and c.label != d.label:
                kind = "renumbered"
            else:
                kind = "match"
            pairs.append(Pair(c, d, score, list(evidence), kind))
    for d in views_b:
        if d.id not in reached:
            pairs.append(Pair(None, d, 0.0, list(evidence), "inserted"))
    result = EditionAlignment(a, b, pairs)
    result.stats = {
        "clauses_a": len(views_a),
        "clauses_b": len(views_b),
        **result.counts(),
        "composed": path,
    }
    return result


def _editions_on(db: Any, hops: list[Hop], start: int) -> list[int]:
    """The editions a path of hops passes after ``start``, in order."""
    ids = [aid for aid, _back in hops]
    ends = {
        rid: (ea, eb)
        for rid, ea, eb in fetch(
            db,
            f"SELECT id, edition_a, edition_b FROM alignment WHERE id IN ({in_list(ids)})",
            plain=True,
        )
    }
    out = []
    cur = start
    for aid, back in hops:
        ea, eb = ends[aid]
        cur = ea if back else eb
        out.append(cur)
    return out


# A pair read from the other side: what B added, A lacks; what A split, B merged.
_MIRROR = {"inserted": "deleted", "deleted": "inserted", "split": "merge", "merge": "split"}


def reversed_alignment(ea: EditionAlignment) -> EditionAlignment:
    """``ea`` (B with A, as stored or composed) read as A with B: every pair turned round,
    its evidence saying so. The counts and the renumbering are the mirror of ``ea``'s."""
    evidence = {"feature": "reversed", "value": f"{ea.a.slug} -> {ea.b.slug}"}
    pairs = [
        Pair(p.b, p.a, p.score, [*p.evidence, evidence], _MIRROR.get(p.kind, p.kind))
        for p in ea.pairs
    ]
    stats = dict(ea.stats)
    if "clauses_a" in stats or "clauses_b" in stats:
        stats["clauses_a"], stats["clauses_b"] = stats.get("clauses_b"), stats.get("clauses_a")
    result = EditionAlignment(ea.b, ea.a, pairs)
    result.stats = {**stats, **result.counts(), "reversed": True}
    return result
