"""Where the clauses new in an edition came from, one edition step at a time.

The whole-edition aligner pairs clause with clause. A clause new in edition B (no partner in
the edition A before it) may still have come from A: from a rule the aligner left unpaired
(an old number that was split or rewritten), or from a sentence of a glossary entry (before
July 2009 the entry "X" held the rule that became 107.3f). lineage.py answers this for one
rule against every older edition; this module answers it for a whole pair of consecutive
editions at once, with lineage's scores and thresholds, so that the history of every rule
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
from ..text.labels import rule_of
from .lineage import (
    MIN_SCORE,
    MIN_SHARED,
    MIN_TOKENS,
    NEAR_BEST,
    WHOLE_ENTRY,
    WeightedOverlap,
    place_among,
    sentences,
    tokens,
)

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
    model = WeightedOverlap([tokens(c.norm) for c in base])
    position = {c.id: k for k, c in enumerate(base)}
    target_idx = [position[c.id] for c in targets]
    by_rule: dict[str, list[int]] = {}
    for k in target_idx:
        by_rule.setdefault(rule_of(base[k].label or ""), []).append(k)
    whole = _Postings(model)
    # The new clauses' weights by token: a unit is scored against all of them in one pass
    # over its own tokens (2009-07-11 has 400 new clauses; most units share a few words).
    postings: dict[str, list[tuple[int, float]]] = {}
    for k in target_idx:
        for t, w in model.vectors[k].items():
            postings.setdefault(t, []).append((k, w))

    def near(v: dict[str, float]) -> tuple[float, int]:
        acc: dict[int, float] = {}
        for t, x in v.items():
            for k, w in postings.get(t, ()):
                acc[k] = acc.get(k, 0.0) + x * w
        if not acc:
            return 0.0, -1
        k = max(acc, key=acc.__getitem__)
        return acc[k], k

    verdicts: dict[str, tuple[int, float, str | None] | None] = {}

    def judge(text: str) -> tuple[int, float, str | None] | None:
        if text in verdicts:
            return verdicts[text]
        verdicts[text] = None
        counts = tokens(text)
        if len(counts) < MIN_TOKENS:
            return None
        v = model.weigh(counts)
        near_value, nearest = near(v)
        if near_value < MIN_SCORE:
            return None
        best, best_value = whole.best(v)
        if near_value < NEAR_BEST * best_value:
            return None
        # Among the subrules of the nearest new clause's rule (lineage.place_among).
        placed = place_among(
            model, v, counts, text, base, by_rule[rule_of(base[nearest].label or "")]
        )
        if placed is None:
            return None
        k, value = placed
        verdicts[text] = (k, value, base[best].label)
        return verdicts[text]

    def about(entry: str) -> bool:
        return near(model.weigh(tokens(entry)))[0] >= WHOLE_ENTRY

    about_cache: dict[str, bool] = {}

    def about_once(entry: str) -> bool:
        if entry not in about_cache:
            about_cache[entry] = about(entry)
        return about_cache[entry]

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
        if not about_once(c.norm):
            continue
        found = False
        version = Version(older_edition, c.id, c.kind, c.label, c.term, c.norm)
        for i, text in enumerate(sentences(c.norm)):
            found = take(version, i, text) or found
        if not found or earlier is None:
            continue
        for old in earlier(c.id):
            if about_once(old.text):
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


class _Postings:
    """WeightedOverlap.best with numpy: the best clause of a whole edition for a unit, one
    vector operation per token of the unit (a unit's common words have postings in a third
    of the edition; adding them up one by one in Python was most of a site build)."""

    def __init__(self, model: WeightedOverlap):
        import numpy as np

        self.np = np
        self.size = len(model.vectors)
        lists: dict[str, tuple[list[int], list[float]]] = {}
        for k, vec in enumerate(model.vectors):
            for t, w in vec.items():
                ks, ws = lists.setdefault(t, ([], []))
                ks.append(k)
                ws.append(w)
        self.postings = {
            t: (np.array(ks, dtype=np.int64), np.array(ws)) for t, (ks, ws) in lists.items()
        }

    def best(self, v: dict[str, float]) -> tuple[int, float]:
        acc = self.np.zeros(self.size)
        for t, x in v.items():
            p = self.postings.get(t)
            if p is not None:
                acc[p[0]] += x * p[1]  # a clause appears once per token: no repeated index
        k = int(acc.argmax())
        return k, float(acc[k])


def closest_sentence(text: str, entry: str) -> tuple[int, str, float] | None:
    """The sentence of glossary entry ``entry`` that is an older (or the same) wording of
    ``text``: (index, sentence, similarity 0..1), or None when none is alike enough."""
    best: tuple[int, str, float] | None = None
    for i, sent in enumerate(sentences(entry)):
        sim = fuzz.ratio(text, sent) / 100
        if sim >= SAME_SENTENCE and (best is None or sim > best[2]):
            best = (i, sent, sim)
    return best
