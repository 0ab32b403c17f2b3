"""Where the clauses new in an edition came from, one edition step at a time.

The whole-edition aligner pairs clause with clause. A clause new in edition B (no partner in
the edition A before it) may still have come from A: from a rule the aligner left unpaired
(an old number that was split or rewritten), or from a sentence of a glossary entry (before
July 2009 the entry "X" held the rule that became 107.3f). lineage.py answers this for one
rule against every older edition; this module answers it for a whole pair of consecutive
editions at once, with lineage's verdict (lineage.Judge), so that the history of every rule
costs one pass per edition step instead of one pass per rule.

Older wordings of a glossary sentence are found as lineage.py finds them: the sentences of
the entry's earlier versions (its chain of edition alignments) are judged against the same
new clauses. A copy of a glossary entry (a scraped page) takes the sentence closest to the
official one (``closest_sentence``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rapidfuzz import fuzz

from ..store.queries import ClauseView
from .lineage import MIN_SHARED, Judge, WeightedOverlap, sentences, tokens

# An older wording of a glossary sentence is the sentence of the older entry most like it,
# when at least this alike (character similarity, rapidfuzz's ratio / 100).
SAME_SENTENCE = 0.6


@dataclass
class Ancestor:
    """A unit of the older edition (a rule, or one sentence of a glossary entry) that a clause
    new in the newer edition came from."""

    edition: int
    clause_id: int
    kind: str  # rule | glossary
    label: str | None
    term: str | None
    sentence: int | None
    text: str
    target: int  # the clause id in the newer edition
    score: float
    evidence: list[dict] = field(default_factory=list)


def step_ancestors(
    older_edition: int,
    older: list[ClauseView],
    newer_edition: int,
    newer: list[ClauseView],
    new_ids: set[int],
    free_ids: set[int],
    earlier: Callable[[int], list[Version]] | None = None,
) -> list[Ancestor]:
    """Ancestors in ``older`` of the clauses ``new_ids`` of ``newer`` (those the edition
    alignment left without a partner). Candidate units: the older rules in ``free_ids``
    (left without a partner too) and every sentence of an older glossary entry about one of
    the new clauses. Each unit goes to at most one new clause.

    ``earlier(clause id)`` gives the earlier versions of a glossary entry of ``older`` (its
    chain of edition alignments): when an entry holds an ancestor, the sentences of its
    earlier versions are judged too, against the same new clauses, as lineage.py judges
    the glossary of every older edition."""
    targets = [c for c in newer if c.id in new_ids and c.kind == "rule" and c.label]
    if not targets:
        return []
    target_tokens = [set(tokens(c.norm)) for c in targets]
    vocab: set[str] = set().union(*target_tokens)

    def may_share(text: str) -> bool:
        # A set test before any weighting: most units share nothing with the new clauses.
        keys = tokens(text).keys() & vocab
        return len(keys) >= MIN_SHARED and any(len(keys & t) >= MIN_SHARED for t in target_tokens)

    rules = [c for c in older if c.kind == "rule" and c.id in free_ids and may_share(c.norm)]
    entries = [c for c in older if c.kind == "glossary" and may_share(c.norm)]
    if not rules and not entries:
        return []
    base = [c for c in newer if c.kind == "rule" and c.label]
    model = WeightedOverlap([c.norm for c in base])
    position = {c.id: k for k, c in enumerate(base)}
    judge = Judge(model, base, [position[c.id] for c in targets])

    out: list[Ancestor] = []

    def take(version: Version, sentence: int | None, text: str) -> bool:
        verdict = judge(text)
        if verdict is None:
            return False
        k, value, best_label = verdict
        evidence: list[dict] = [
            {"feature": "via", "value": "lineage", "edition": newer_edition},
            {"feature": "weighted-overlap", "value": round(value, 3)},
            {"feature": "best-in-edition", "value": best_label},
        ]
        if sentence is not None:
            evidence.append({"feature": "sentence", "value": sentence, "text": text})
        out.append(
            Ancestor(
                version.edition,
                version.clause_id,
                version.kind,
                version.label,
                version.term,
                sentence,
                text,
                base[k].id,
                value,
                evidence,
            )
        )
        return True

    for c in rules:
        take(Version(older_edition, c.id, c.kind, c.label, c.term, c.norm), None, c.norm)
    for c in entries:
        if not judge.about(c.norm):
            continue
        found = False
        version = Version(older_edition, c.id, c.kind, c.label, c.term, c.norm)
        for i, text in enumerate(sentences(c.norm)):
            found = take(version, i, text) or found
        if not found or earlier is None:
            continue
        for old in earlier(c.id):
            if judge.about(old.text):
                for i, text in enumerate(sentences(old.text)):
                    take(old, i, text)
    return out


@dataclass(slots=True)
class Version:
    """A clause as the ancestry reads it: an older edition's rule or glossary entry."""

    edition: int
    clause_id: int
    kind: str
    label: str | None
    term: str | None
    text: str


def closest_sentence(text: str, entry: str) -> tuple[int, str, float] | None:
    """The sentence of glossary entry ``entry`` that is an older (or the same) wording of
    ``text``: (index, sentence, similarity 0..1), or None when none is alike enough."""
    best: tuple[int, str, float] | None = None
    for i, sent in enumerate(sentences(entry)):
        sim = fuzz.ratio(text, sent) / 100
        if sim >= SAME_SENTENCE and (best is None or sim > best[2]):
            best = (i, sent, sim)
    return best


def step_ancestry(
    older_edition: int,
    newer_edition: int,
    pairs: list,
    earlier: Callable[[int], list[Version]] | None = None,
) -> list[Ancestor]:
    """The ancestors of the clauses one edition step leaves new, read off the step's pairs
    (EditionAlignment.pairs: a rule of the newer edition with no partner is new, a rule of
    the older one with no partner is free to be an ancestor). The one computation behind
    the stored lineage of every step (plan.py stores it, storage.step_lineage reads it)."""
    older: dict[int, ClauseView] = {}
    newer: dict[int, ClauseView] = {}
    new_ids: set[int] = set()
    free_ids: set[int] = set()
    for p in pairs:
        if p.a is not None:
            older[p.a.id] = p.a
        if p.b is not None:
            newer[p.b.id] = p.b
        if p.a is None and p.b is not None and p.b.kind == "rule":
            new_ids.add(p.b.id)
        elif p.b is None and p.a is not None and p.a.kind == "rule":
            free_ids.add(p.a.id)
    if not new_ids:
        return []
    return step_ancestors(
        older_edition,
        list(older.values()),
        newer_edition,
        list(newer.values()),
        new_ids,
        free_ids,
        earlier,
    )


class GlossaryChains:
    """Each glossary entry's earlier versions along the edition steps (the entries of the
    edition before that it was paired with, more than one when entries were merged), for
    step_ancestors' ``earlier``. ``versions_of(ids)``: the clauses as Versions, asked for a
    whole generation of older entries at once (one query, not one per entry)."""

    def __init__(self, versions_of: Callable[[list[int]], dict[int, Version]]):
        self.pred: dict[int, list[int]] = {}
        self.versions_of = versions_of
        self._known: dict[int, Version] = {}

    def add(self, older_id: int, newer_id: int) -> None:
        self.pred.setdefault(newer_id, []).append(older_id)

    def __call__(self, clause_id: int) -> list[Version]:
        """The earlier versions of a glossary entry, newest first."""
        order: list[int] = []
        seen = {clause_id}
        frontier = [clause_id]
        while frontier:
            older = []
            for cur in frontier:
                for prev in self.pred.get(cur, ()):
                    if prev not in seen:
                        seen.add(prev)
                        older.append(prev)
                        order.append(prev)
            frontier = older
        missing = [i for i in order if i not in self._known]
        if missing:
            self._known.update(self.versions_of(missing))
        return [self._known[i] for i in order]
