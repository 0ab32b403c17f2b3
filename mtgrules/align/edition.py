"""Whole-edition alignment (two editions, any languages): every clause of one paired with
another's. Computed here; storage.py stores it and reads it back (align_editions)."""

from __future__ import annotations

import operator
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..errors import NotFoundError
from ..store.queries import (
    ClauseView,
    EditionInfo,
    edition_clauses,
    find_edition_or_version,
    list_editions,
)
from ..text.labels import rule_of
from ..text.language import same_language
from .dp import Step
from .features import Features, featurize
from .model import EditionAlignment, Pair
from .numbering import labels_count
from .sequence import Item, Settings, align_items, order_steps
from .terms import pair_by_kept_terms

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

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
        # Editions the caller will still ask for, and how often (expect()).
        self._wanted: Counter[int] = Counter()
        # An edition's aligned clauses as items, by (edition, language): the same edition is
        # the newer side of one pair and the older side of the next.
        self._items: dict[tuple[int, str], list[Item]] = {}

    def expect(self, edition_ids: Iterable[int]) -> None:
        """The editions the coming alignments read, once per pair: one still wanted is kept
        over the bound (up to three times it). A plan reads the English editions of its
        translations again after the whole English line (16 of the corpus's 44 reads)."""
        self._wanted = Counter(edition_ids)

    def clauses(self, session: Session, edition_id: int) -> list[ClauseView]:
        got = self._editions.pop(edition_id, None)
        if got is None:
            got = edition_clauses(session, edition_id)
        self._editions[edition_id] = got  # most recently used last
        if self._wanted[edition_id] > 0:
            self._wanted[edition_id] -= 1
        while len(self._editions) > self._max_editions:
            idle = [e for e in self._editions if not self._wanted[e]]
            if not idle and len(self._editions) <= 3 * self._max_editions:
                break
            gone = idle[0] if idle else next(iter(self._editions))
            del self._editions[gone]
            for key in [k for k in self._items if k[0] == gone]:
                del self._items[key]
        return got

    def items(self, edition_id: int, language: str, clauses: list[ClauseView]) -> list[Item]:
        """to_items(clauses, language) of an edition's clauses, kept while the edition is:
        Items and their features are only read by the aligner, never changed."""
        key = (edition_id, language)
        got = self._items.get(key)
        if (
            got is None
            or len(got) != len(clauses)
            or not all(map(operator.is_, (x.key for x in got), clauses))
        ):
            got = self._items[key] = to_items(clauses, language, self)
        return got

    def drop_items(self) -> None:
        """Forget the items of every edition (a worker process, whose editions arrive anew
        with each pair: kept, they would only grow), keeping the features of their texts."""
        self._items.clear()

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


def aligned_clauses(clauses: list[ClauseView]) -> list[ClauseView]:
    """The clauses of an edition the aligner pairs (ALIGNED_KINDS), in order."""
    return [c for c in clauses if c.kind in ALIGNED_KINDS]


def compute_edition_alignment(
    session: Session,
    info_a: EditionInfo,
    info_b: EditionInfo,
    settings: Settings | None = None,
    *,
    cache: ClauseCache | None = None,
) -> EditionAlignment:
    load = cache.clauses if cache is not None else edition_clauses
    a = aligned_clauses(load(session, info_a.id))
    b = aligned_clauses(load(session, info_b.id))
    return edition_alignment(
        info_a, info_b, a, b, edition_steps(info_a, info_b, a, b, settings, cache)
    )


def edition_alignment(
    info_a: EditionInfo,
    info_b: EditionInfo,
    a: list[ClauseView],
    b: list[ClauseView],
    steps: list[Step],
) -> EditionAlignment:
    """The pairs of clauses ``steps`` (edition_steps of ``a`` and ``b``) make."""
    result = EditionAlignment(info_a, info_b, steps_to_pairs(steps, a, b))
    result.stats = {"clauses_a": len(a), "clauses_b": len(b), **result.counts()}
    return result


def edition_steps(
    info_a: EditionInfo,
    info_b: EditionInfo,
    a: list[ClauseView],
    b: list[ClauseView],
    settings: Settings | None = None,
    cache: ClauseCache | None = None,
) -> list[Step]:
    """The aligner's steps between two editions' aligned clauses (aligned_clauses), as
    indexes into ``a`` and ``b``: a function of its arguments alone (no store), so that a
    worker process computes the same steps as the ingesting one (align/workers.py)."""
    scope_a, scope_b = fragment_scope(b, a), fragment_scope(a, b)
    ka = scope_a if scope_a is not None else list(range(len(a)))
    kb = scope_b if scope_b is not None else list(range(len(b)))
    if settings is None:
        settings = Settings(labels_agree=labels_count(info_a, info_b))
    # Glossary entries of a translation whose headings keep the English term: paired by that
    # term (align/terms.py), not by place (each language sorts its glossary its own way; the
    # sequence DP over 700 entries in two orders costs most of the alignment and pairs wrong).
    kept: list[Step] = []
    if not same_language(info_a.language, info_b.language):
        ga = [k for k in ka if a[k].kind == "glossary"]
        gb = [k for k in kb if b[k].kind == "glossary"]
        index_a = {a[k].id: k for k in ga}
        index_b = {b[k].id: k for k in gb}
        for x, y, term in pair_by_kept_terms([a[k] for k in ga], [b[k] for k in gb]):
            kept.append(
                Step(
                    (index_a[x.id],),
                    (index_b[y.id],),
                    0.95,
                    [{"feature": "kept-term", "value": term}],
                )
            )
        taken_a = {s.a[0] for s in kept}
        taken_b = {s.b[0] for s in kept}
        ka = [k for k in ka if k not in taken_a]
        kb = [k for k in kb if k not in taken_b]

    def items(info: EditionInfo, clauses: list[ClauseView], ks: list[int]) -> list[Item]:
        if cache is not None and len(ks) == len(clauses):  # the whole edition
            return cache.items(info.id, info.language, clauses)
        return to_items([clauses[k] for k in ks], info.language, cache)

    sub = align_items(items(info_a, a, ka), items(info_b, b, kb), settings)
    if not kept and len(ka) == len(a) and len(kb) == len(b):
        # Whole editions (ka and kb every index, in order): the aligner's steps, already in
        # order_steps' order, are the edition's (most pairs; 3,000-4,000 steps each).
        steps = sub
    else:
        steps = [
            Step(
                tuple(ka[i] for i in s.a),
                tuple(kb[j] for j in s.b),
                s.score,
                s.evidence,
                s.crossing,
            )
            for s in sub
        ]
        steps += kept
        paired_a = set(ka) | {s.a[0] for s in kept}
        paired_b = set(kb) | {s.b[0] for s in kept}
        # Clauses outside a fragment's rules have no counterpart in it.
        steps += [Step((i,), (), 0.0) for i in sorted(set(range(len(a))) - paired_a)]
        steps += [Step((), (j,), 0.0) for j in sorted(set(range(len(b))) - paired_b)]
        steps = order_steps(steps)
    return steps
