"""Results of the aligner: a rule across editions (groups), and two whole editions (pairs).

The bottom of the aligner's layers (tests/test_layers.py), with renumbering.py below it: every
other module of align/ may use these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..store.queries import ClauseView, EditionInfo
from .renumbering import Renumbering, pairs_renumbering

# A unit of one rule's alignment: (edition id, clause id, sentence index or None).
Node = tuple[int, int, int | None]


@dataclass
class Linked:
    """One link of a rule's alignment: a unit is the same rule as ``target`` (a unit of a
    newer or reference edition), with the score and evidence of the pairing."""

    target: Node
    score: float
    evidence: list[dict]


@dataclass
class Member:
    """One unit of a rule's alignment: a clause (or one sentence of a glossary entry) of one
    edition, with its label, text, and the score and evidence of its link."""

    edition: int
    clause_id: int
    label: str | None
    label_inferred: bool
    kind: str
    text: str  # normalized
    score: float
    evidence: list[dict] = field(default_factory=list)
    # A glossary paragraph holds several rules: each sentence is its own member.
    sentence: int | None = None
    term: str | None = None
    # The clause (id) this member was linked to in a newer or reference edition.
    linked_to: int | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "edition": self.edition,
            "clause_id": self.clause_id,
            "label": self.label,
            "label_inferred": self.label_inferred,
            "kind": self.kind,
            "text": self.text,
            "score": round(self.score, 4),
            "evidence": self.evidence,
        }
        if self.sentence is not None:
            out["sentence"] = self.sentence
        if self.term is not None:
            out["term"] = self.term
        if self.linked_to is not None:
            out["linked_to"] = self.linked_to
        return out


@dataclass
class Group:
    """The units of a rule's alignment that are one rule across editions, keyed by its label in the
    newest edition that has it (None when no unit is labelled)."""

    key: str | None
    members: list[Member]

    def as_json(self) -> dict[str, Any]:
        return {"key": self.key, "members": [m.as_json() for m in self.members]}


@dataclass
class RuleAlignment:
    """One rule across editions: the groups of its units, the editions that have the rule, and the
    older editions its ancestors come from."""

    rule: str
    editions: list[EditionInfo]  # the editions that have the rule
    groups: list[Group]
    # Older editions whose clauses or glossary sentences are members (the rule's ancestors).
    ancestors: list[EditionInfo] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "editions": [e.header_json() for e in self.editions],
            "ancestors": [e.header_json() for e in self.ancestors],
            "groups": [g.as_json() for g in self.groups],
        }


PAIR_KINDS = ("match", "renumbered", "inserted", "deleted", "split", "merge")


@dataclass
class Pair:
    """Two clauses paired by an edition alignment (no ``a``: inserted; no ``b``: deleted), with the
    score, evidence and kind of the pairing."""

    a: ClauseView | None
    b: ClauseView | None
    score: float
    evidence: list[dict]
    kind: str  # one of PAIR_KINDS

    def as_json(self) -> dict[str, Any]:
        def side(c: ClauseView | None) -> dict[str, Any] | None:
            if c is None:
                return None
            return {"id": c.id, "label": c.label, "kind": c.kind, "text": c.norm}

        return {
            "kind": self.kind,
            "a": side(self.a),
            "b": side(self.b),
            "score": round(self.score, 4),
            "evidence": self.evidence,
        }


@dataclass
class EditionAlignment:
    """Two whole editions aligned: every pair of their clauses, with the alignment's stats."""

    a: EditionInfo
    b: EditionInfo
    pairs: list[Pair]
    stats: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {
            "a": self.a.header_json(),
            "b": self.b.header_json(),
            "stats": self.stats,
            "renumbering": self.renumbering().as_json(),
            "pairs": [p.as_json() for p in self.pairs],
        }

    def renumbering(self) -> Renumbering:
        """What the pair renumbered, counted as every reader counts it (renumbering.py)."""
        return pairs_renumbering(self.pairs)

    def counts(self) -> dict[str, int]:
        out = {k: 0 for k in PAIR_KINDS}
        for p in self.pairs:
            out[p.kind] += 1
        return out
