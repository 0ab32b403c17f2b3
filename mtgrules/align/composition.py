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

from typing import TYPE_CHECKING

from ..store.queries import EditionInfo, edition_clauses
from ..store.sql import fetch, in_list
from .model import EditionAlignment, Pair

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


def chain_between(
    steps: dict[int, tuple[int, int]], a: EditionInfo, b: EditionInfo
) -> list[tuple[int, int, int]]:
    """The steps from ``a`` to ``b`` (alignment id, older, newer), given each stored step as
    older edition -> (alignment id, newer edition); [] when some step is missing (or ``b``
    is not after ``a`` on its line)."""
    chain = []
    cur = a.id
    while cur != b.id:
        if cur not in steps or len(chain) > len(steps):
            return []
        aid, nxt = steps[cur]
        chain.append((aid, cur, nxt))
        cur = nxt
    return chain


def composed_alignment(
    session: Session, a: EditionInfo, b: EditionInfo, chain: list[tuple[int, int, int]]
) -> EditionAlignment:
    """``a`` paired with ``b`` through ``chain``, the stored steps between them
    (chain_between)."""
    # clause of A -> {clause of the current edition: the lowest score on the way}
    reach: dict[int, dict[int, float]] = {}
    views_a = edition_clauses(session, a.id)
    for c in views_a:
        reach[c.id] = {c.id: 1.0}
    for aid, _older, _newer in chain:
        forward: dict[int, list[tuple[int, float]]] = {}
        for src, dst, score in fetch(
            session,
            "SELECT source_clause_id, target_clause_id, score FROM link "
            f"WHERE alignment_id IN ({in_list([aid])}) AND source_clause_id IS NOT NULL "
            "AND target_clause_id IS NOT NULL",
            plain=True,
        ):
            forward.setdefault(src, []).append((dst, float(score or 0.0)))
        for start, ends in reach.items():
            nxt: dict[int, float] = {}
            for cid, score in ends.items():
                for dst, s in forward.get(cid, ()):
                    nxt[dst] = min(nxt.get(dst, 1.0), score, s)
            reach[start] = nxt
    views_b = edition_clauses(session, b.id)
    by_id = {c.id: c for c in views_b}
    sources: dict[int, int] = {}
    for ends in reach.values():
        for cid in ends:
            sources[cid] = sources.get(cid, 0) + 1
    evidence = [{"feature": "composed", "value": len(chain)}]
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
    composed = [a.id, *(newer for _aid, _older, newer in chain)]
    result.stats = {
        "clauses_a": len(views_a),
        "clauses_b": len(views_b),
        **result.counts(),
        "composed": composed,
    }
    return result


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
