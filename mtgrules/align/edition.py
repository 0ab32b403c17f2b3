"""Whole-edition alignment (two editions, any languages): every clause of one paired with
another's. Computed here; storage.py stores it and reads it back (align_editions)."""

from __future__ import annotations

from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..store.queries import (
    ClauseView,
    EditionInfo,
    edition_clauses,
    find_edition_or_version,
    list_editions,
)
from ..text.labels import rule_of
from .dp import Step
from .features import Features, featurize
from .model import EditionAlignment, Pair
from .numbering import labels_count
from .sequence import Item, Settings, align_items, order_steps

# Noise (credits, addresses) is not rule text; aligning it would only add false links.
ALIGNED_KINDS = ("rule", "example", "heading", "glossary", "commentary")


def edition_info(session: Session, edition_id: int) -> EditionInfo:
    infos = list_editions(session)
    for info in infos:
        if info.id == edition_id:
            return info
    try:  # an earlier version of an edition, which diff compares with the live one
        return find_edition_or_version(session, infos, str(edition_id))
    except NotFoundError:
        raise NotFoundError(
            f"no edition with id {edition_id} in the store; list them with: mtgrules editions"
        ) from None


class ClauseCache:
    """Clauses and their features, kept across the alignments of one run (an ingest's plan):
    each English edition is read up to three times (with the edition before it, the one
    after it, and its translations), and consecutive editions share most of their texts.
    Bounded, so that the 110-edition archive does not hold every edition at once."""

    def __init__(self, editions: int = 6, features: int = 30_000):
        self._editions: dict[int, list[ClauseView]] = {}
        self._features: dict[tuple[str, str], Features] = {}
        self._max_editions = editions
        self._max_features = features

    def clauses(self, session: Session, edition_id: int) -> list[ClauseView]:
        got = self._editions.pop(edition_id, None)
        if got is None:
            got = edition_clauses(session, edition_id)
        self._editions[edition_id] = got  # most recently used last
        while len(self._editions) > self._max_editions:
            del self._editions[next(iter(self._editions))]
        return got

    def featurize(self, text: str, language: str) -> Features:
        key = (text, language)
        got = self._features.get(key)
        if got is None:
            if len(self._features) >= self._max_features:
                self._features.clear()
            got = self._features[key] = featurize(text, language)
        return got


def to_items(
    clauses: list[ClauseView], language: str, cache: ClauseCache | None = None
) -> list[Item]:
    make = cache.featurize if cache is not None else featurize
    return [
        Item(label=c.label, kind=c.kind, features=make(c.norm, language), key=c) for c in clauses
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
    return "renumbered"


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


def fragment_scope(small: list[ClauseView], big: list[ClauseView]) -> list[int] | None:
    """Indexes of ``big`` under the rules a small fragment (a page of 107.3) covers, or None
    when ``small`` is not a fragment. A fragment is aligned inside those rules only: its
    unlabelled paragraphs have nothing to hold on to among 4,000 clauses."""
    if len(small) * 5 > len(big):
        return None
    roots = {rule_of(c.label or c.parent or "") for c in small if c.label or c.parent} - {""}
    if not roots:
        return None
    return [
        k
        for k, c in enumerate(big)
        if (c.label and rule_of(c.label) in roots)
        or (c.label is None and c.parent and rule_of(c.parent) in roots)
    ]


def compute_edition_alignment(
    session: Session,
    info_a: EditionInfo,
    info_b: EditionInfo,
    settings: Settings | None = None,
    *,
    cache: ClauseCache | None = None,
) -> EditionAlignment:
    load = cache.clauses if cache is not None else edition_clauses
    a = [c for c in load(session, info_a.id) if c.kind in ALIGNED_KINDS]
    b = [c for c in load(session, info_b.id) if c.kind in ALIGNED_KINDS]
    scope_a, scope_b = fragment_scope(b, a), fragment_scope(a, b)
    ka = scope_a if scope_a is not None else list(range(len(a)))
    kb = scope_b if scope_b is not None else list(range(len(b)))
    if settings is None:
        settings = Settings(labels_agree=labels_count(info_a, info_b))
    sub = align_items(
        to_items([a[k] for k in ka], info_a.language, cache),
        to_items([b[k] for k in kb], info_b.language, cache),
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
