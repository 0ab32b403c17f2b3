"""Rule alignments in the store: Alignment rows (one per pair of editions) and their Links.

Whole-edition alignments are stored by edition.py; this module stores the links that make
up one rule's groups, so that `align RULE`, reports and search read them back instead of
recomputing. A stored rule alignment is used only when its signature (aligner version,
termbase, settings, rule) matches and it was made over the same editions.
"""

from __future__ import annotations

import datetime as dt

from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from ..store.models import Alignment, Clause, Link
from .edition import signature
from .model import Member


def rule_signature(rule: str) -> str:
    return signature(f"rule={rule}")


def _rows(session: Session, rule: str) -> list[Alignment]:
    return list(
        session.scalars(select(Alignment).where(Alignment.signature.like(f"%;rule={rule};%"))).all()
    )


def save_rule_links(session: Session, rule: str, editions: list[int], links, inferred) -> None:
    old = [row.id for row in _rows(session, rule)]
    if old:
        session.execute(delete(Link).where(Link.alignment_id.in_(old)))
        session.execute(delete(Alignment).where(Alignment.id.in_(old)))
    sig = rule_signature(rule)
    now = dt.datetime.now(dt.UTC)
    by_pair: dict[tuple[int, int], Alignment] = {}
    counts: dict[tuple[int, int], int] = {}
    for node, link in links.items():
        pair = (node[0], link.target[0])
        counts[pair] = counts.get(pair, 0) + 1
    for node, link in links.items():
        pair = (node[0], link.target[0])
        row = by_pair.get(pair)
        if row is None:
            row = Alignment(
                edition_a=pair[0],
                edition_b=pair[1],
                signature=sig,
                created_at=now,
                stats={"rule": rule, "editions": editions, "links": counts[pair]},
            )
            session.add(row)
            session.flush()
            by_pair[pair] = row
        via = next((e.get("value") for e in link.evidence if e.get("feature") == "via"), "link")
        session.add(
            Link(
                alignment_id=row.id,
                kind=str(via)[:24],
                source_clause_id=node[1],
                target_clause_id=link.target[1],
                score=float(link.score),
                evidence=link.evidence,
                inferred_label=inferred.get(node),
            )
        )
    if not links:
        # Still record that the rule was aligned over these editions (nothing to link).
        session.add(
            Alignment(
                edition_a=editions[0],
                edition_b=editions[0],
                signature=sig,
                created_at=now,
                stats={"rule": rule, "editions": editions},
            )
        )
    session.flush()


def load_rule_links(session: Session, rule: str, editions: list[int]):
    """(links, inferred, extra members) as compute_rule_links returns them, or None."""
    from .rule import Linked

    rows = _rows(session, rule)
    sig = rule_signature(rule)
    if not rows or any(r.signature != sig or r.stats.get("editions") != editions for r in rows):
        return None
    by_id = {r.id: r for r in rows}
    links: dict = {}
    inferred: dict = {}
    extra: list = []
    have = set(editions)
    stored = session.scalars(select(Link).where(Link.alignment_id.in_(by_id))).all()
    per_row: dict[int, int] = {}
    for ln in stored:
        per_row[ln.alignment_id] = per_row.get(ln.alignment_id, 0) + 1
    if any(per_row.get(r.id, 0) != r.stats.get("links", 0) for r in rows):
        return None  # some links are gone: the chain would break, so recompute
    outside = {ln.source_clause_id for ln in stored if by_id[ln.alignment_id].edition_a not in have}
    clauses = (
        {c.id: c for c in session.scalars(select(Clause).where(Clause.id.in_(outside)))}
        if outside
        else {}
    )
    for ln in stored:
        row = by_id[ln.alignment_id]
        evidence = list(ln.evidence or [])
        unit = next((e for e in evidence if e.get("feature") == "sentence"), None)
        sentence = unit.get("value") if unit else None
        node = (row.edition_a, ln.source_clause_id, sentence)
        links[node] = Linked((row.edition_b, ln.target_clause_id, None), ln.score, evidence)
        if ln.inferred_label:
            inferred[node] = ln.inferred_label
        if row.edition_a not in have:
            c = clauses[ln.source_clause_id]
            extra.append(
                (
                    node,
                    Member(
                        edition=row.edition_a,
                        clause_id=c.id,
                        label=c.label,
                        label_inferred=False,
                        kind=c.kind,
                        text=unit.get("text", c.norm) if unit else c.norm,
                        score=ln.score,
                        evidence=evidence,
                        sentence=sentence,
                        term=c.term,
                        linked_to=ln.target_clause_id,
                    ),
                )
            )
    return links, inferred, extra
