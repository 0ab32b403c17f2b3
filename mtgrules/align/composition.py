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
                return reversed_alignment(one) if back else one
        elif all(back for _aid, back in hops):
            # Newer to older along the line: the older-to-newer map, read from the other side.
            forward = [(aid, False) for aid, _back in reversed(hops)]
            return reversed_alignment(composed_alignment(db, b, a, forward))
        else:
            return composed_alignment(db, a, b, hops)
    direct = load_edition_alignment(db, a, b)
    if direct is not None:
        return direct
    back = load_edition_alignment(db, b, a)
    return reversed_alignment(back) if back is not None else None


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
