"""Whole-edition alignment (two editions, any languages), stored so others read it back."""

from __future__ import annotations

import datetime as dt
import hashlib
from functools import lru_cache
from importlib import resources

from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..store.models import Alignment, Link
from ..store.queries import ClauseView, EditionInfo, edition_clauses, list_editions
from .dp import Step
from .features import featurize
from .model import EditionAlignment, Pair
from .sequence import Item, Settings, align_items, order_steps

ALIGNER_VERSION = "3.1"
# Noise (credits, addresses) is not rule text; aligning it would only add false links.
ALIGNED_KINDS = ("rule", "example", "heading", "glossary", "commentary")


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The aligner's own source and termbase: any change to either makes stored links stale,
    without anyone having to remember to bump a version number."""
    h = hashlib.sha256()
    package = resources.files("mtgrules.align")
    for name in sorted(p.name for p in package.iterdir() if p.name.endswith(".py")):
        h.update(package.joinpath(name).read_bytes())
    h.update(resources.files("mtgrules").joinpath("data/termbase.tsv").read_bytes())
    return h.hexdigest()[:16]


def signature(kind: str = "editions", settings: Settings | None = None) -> str:
    """Who made a stored alignment: links made under another signature are stale."""
    s = settings or Settings()
    knobs = f"{s.skip_same}/{s.skip_cross}/{s.label_confirm_same}/{s.label_confirm_cross}/{s.move_same}/{s.move_cross}"
    return f"mtgrules-align/{ALIGNER_VERSION};{kind};code={_code_digest()};{knobs}"


def edition_info(session: Session, edition_id: int) -> EditionInfo:
    for info in list_editions(session):
        if info.id == edition_id:
            return info
    raise NotFoundError(
        f"no edition with id {edition_id} in the store; list them with: mtgrules editions"
    )


def to_items(clauses: list[ClauseView], language: str) -> list[Item]:
    return [
        Item(label=c.label, kind=c.kind, features=featurize(c.norm, language), key=c)
        for c in clauses
    ]


def pair_kind(step: Step, a: list[ClauseView], b: list[ClauseView]) -> str:
    if not step.b:
        return "deleted"
    if not step.a:
        return "inserted"
    if len(step.b) > 1:
        return "split"
    if len(step.a) > 1:
        return "merge"
    x, y = a[step.a[0]], b[step.b[0]]
    if x.label == y.label and (x.label is not None or x.term == y.term):
        return "match"
    if x.label is None and y.label is None and x.kind == y.kind:
        return "match"
    if (x.label is None) != (y.label is None) and x.kind == y.kind == "rule":
        # An unlabelled paragraph (the Spanish page) takes its label from its counterpart.
        return "match"
    return "moved"


def steps_to_pairs(steps: list[Step], a: list[ClauseView], b: list[ClauseView]) -> list[Pair]:
    pairs: list[Pair] = []
    for step in steps:
        kind = pair_kind(step, a, b)
        evidence = list(step.evidence)
        if len(step.a) == 1 and len(step.b) == 1:
            x, y = a[step.a[0]], b[step.b[0]]
            if (x.label is None) != (y.label is None) and x.kind == y.kind == "rule":
                evidence = [*evidence, {"feature": "inferred-label", "value": x.label or y.label}]
        if step.crossing:
            evidence = [*evidence, {"feature": "order", "value": "crossing"}]
        if kind == "split":
            for j in step.b:
                pairs.append(Pair(a[step.a[0]], b[j], step.score, evidence, kind))
        elif kind == "merge":
            for i in step.a:
                pairs.append(Pair(a[i], b[step.b[0]], step.score, evidence, kind))
        else:
            pairs.append(
                Pair(
                    a[step.a[0]] if step.a else None,
                    b[step.b[0]] if step.b else None,
                    step.score,
                    evidence,
                    kind,
                )
            )
    return pairs


def _root(label: str) -> str:
    """The rule a label belongs to: 107.3a -> 107.3; 107.3 -> 107.3."""
    return label[:-1] if label[-1].isalpha() else label


def fragment_scope(small: list[ClauseView], big: list[ClauseView]) -> list[int] | None:
    """Indexes of ``big`` under the rules a small fragment (a page of 107.3) covers, or None
    when ``small`` is not a fragment. A fragment is aligned inside those rules only: its
    unlabelled paragraphs have nothing to hold on to among 4,000 clauses."""
    if len(small) * 5 > len(big):
        return None
    roots = {_root(c.label or c.parent or "") for c in small if c.label or c.parent} - {""}
    if not roots:
        return None
    return [
        k
        for k, c in enumerate(big)
        if (c.label and _root(c.label) in roots)
        or (c.label is None and c.parent and _root(c.parent) in roots)
    ]


def compute_edition_alignment(
    session: Session, info_a: EditionInfo, info_b: EditionInfo, settings: Settings | None = None
) -> EditionAlignment:
    a = [c for c in edition_clauses(session, info_a.id) if c.kind in ALIGNED_KINDS]
    b = [c for c in edition_clauses(session, info_b.id) if c.kind in ALIGNED_KINDS]
    scope_a, scope_b = fragment_scope(b, a), fragment_scope(a, b)
    ka = scope_a if scope_a is not None else list(range(len(a)))
    kb = scope_b if scope_b is not None else list(range(len(b)))
    sub = align_items(
        to_items([a[k] for k in ka], info_a.language),
        to_items([b[k] for k in kb], info_b.language),
        settings,
    )
    steps = [
        Step(tuple(ka[i] for i in s.a), tuple(kb[j] for j in s.b), s.score, s.evidence, s.crossing)
        for s in sub
    ]
    # Clauses outside a fragment's rules have no counterpart in it.
    steps += [Step((i,), (), 0.0) for i in sorted(set(range(len(a))) - set(ka))]
    steps += [Step((), (j,), 0.0) for j in sorted(set(range(len(b))) - set(kb))]
    steps = order_steps(steps)
    result = EditionAlignment(info_a, info_b, steps_to_pairs(steps, a, b))
    result.stats = {"clauses_a": len(a), "clauses_b": len(b), **result.counts()}
    return result


def load_edition_alignment(
    session: Session, info_a: EditionInfo, info_b: EditionInfo, sig: str
) -> EditionAlignment | None:
    row = session.scalars(
        select(Alignment)
        .where(
            Alignment.edition_a == info_a.id,
            Alignment.edition_b == info_b.id,
            Alignment.signature == sig,
        )
        .order_by(Alignment.id.desc())
    ).first()
    if row is None:
        return None
    stored = session.scalar(
        select(func.count()).select_from(Link).where(Link.alignment_id == row.id)
    )
    if stored != (row.stats or {}).get("links"):
        return None  # incomplete (links removed by hand or by an older version): recompute
    views = {c.id: c for c in edition_clauses(session, info_a.id)}
    views.update({c.id: c for c in edition_clauses(session, info_b.id)})
    pairs = []
    for link in session.scalars(select(Link).where(Link.alignment_id == row.id).order_by(Link.id)):
        pairs.append(
            Pair(
                views.get(link.source_clause_id) if link.source_clause_id else None,
                views.get(link.target_clause_id) if link.target_clause_id else None,
                link.score,
                list(link.evidence or []),
                link.kind,
            )
        )
    return EditionAlignment(info_a, info_b, pairs, dict(row.stats or {}))


def save_edition_alignment(session: Session, result: EditionAlignment, sig: str) -> int:
    # Older whole-edition runs for this pair are stale once a new signature has run: drop
    # their links. Rows of rule alignments over the same pair belong to align_rule: keep them.
    old = session.scalars(
        select(Alignment.id).where(
            Alignment.edition_a == result.a.id,
            Alignment.edition_b == result.b.id,
            Alignment.signature.like("%;editions;%"),
        )
    ).all()
    if old:
        session.execute(delete(Link).where(Link.alignment_id.in_(old)))
        session.execute(delete(Alignment).where(Alignment.id.in_(old)))
    row = Alignment(
        edition_a=result.a.id,
        edition_b=result.b.id,
        signature=sig,
        created_at=dt.datetime.now(dt.UTC),
        stats={**result.stats, "links": len(result.pairs)},
    )
    session.add(row)
    session.flush()
    session.add_all(
        Link(
            alignment_id=row.id,
            kind=p.kind,
            source_clause_id=p.a.id if p.a else None,
            target_clause_id=p.b.id if p.b else None,
            score=float(p.score),
            evidence=p.evidence,
            inferred_label=next(
                (e["value"] for e in p.evidence if e.get("feature") == "inferred-label"), None
            ),
        )
        for p in result.pairs
    )
    session.flush()
    return row.id


def align_editions(
    session: Session, a: int, b: int, *, refresh: bool = False, store: bool = True
) -> EditionAlignment:
    """Align every clause of edition ``a`` with edition ``b`` (ids). Reads the stored result
    when one with the current signature exists; computes and stores it otherwise."""
    info_a = edition_info(session, a)
    info_b = edition_info(session, b)
    sig = signature()
    if not refresh:
        stored = load_edition_alignment(session, info_a, info_b, sig)
        if stored is not None:
            return stored
    result = compute_edition_alignment(session, info_a, info_b)
    if store:
        save_edition_alignment(session, result, sig)
    return result
