"""Strict precision, recall and F1 of the aligner against hand-checked gold, as sentence
aligners are scored: a predicted link counts only if it is exactly a gold link.

Two golds:
- rule gold (tests/gold/align_107_3.tsv): every unit (clause, or glossary sentence) of a
  rule across editions, with the key of the group it belongs to;
- edition gold: clause pairs between two editions, from clauses whose text is unchanged and
  unique on both sides, plus a hand-checked sample (tests/gold/editions_sample.tsv).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from ..store.queries import edition_clauses, list_editions
from .model import RuleAlignment


@dataclass
class Score:
    """Strict counts against a gold: the links predicted, the gold links, and those in both
    (``tp``), from which precision, recall and F1 follow."""

    tp: int
    predicted: int
    gold: int

    @property
    def precision(self) -> float:
        return self.tp / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.tp / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def as_json(self) -> dict:
        return {
            "tp": self.tp,
            "predicted": self.predicted,
            "gold": self.gold,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "f1": round(self.f1, 4),
        }


def strict_score(predicted: set, gold: set) -> Score:
    return Score(len(predicted & gold), len(predicted), len(gold))


@dataclass
class RuleGold:
    """A rule gold (tests/gold/align_107_3.tsv) as read: the group key of an English unit by the
    start of its text, and the keys of each listed edition's rule clauses, in order."""

    prefixes: list[tuple[str, str]]  # (text prefix, key or "-" or "?")
    orders: dict[str, list[str]]  # edition slug -> keys of its rule clauses, in order


def load_rule_gold(path: Path) -> RuleGold:
    prefixes, orders = [], {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        kind, where, match, key = line.split("\t")
        if kind == "text":
            prefixes.append((match, key))
        elif kind == "order":
            orders[where] = key.split()
    prefixes.sort(key=lambda p: -len(p[0]))  # longest prefix wins
    return RuleGold(prefixes, orders)


def _gold_key(text: str, gold: RuleGold) -> str | None:
    for prefix, key in gold.prefixes:
        if text.startswith(prefix):
            return key
    return None


def score_rule(session: Session, result: RuleAlignment, gold: RuleGold) -> tuple[Score, list]:
    """Units are (edition, clause, sentence); a link is (unit, group key)."""
    slugs = {e.id: e.slug for e in list_editions(session)}
    langs = {e.id: e.language for e in list_editions(session)}
    predicted: dict[tuple, str | None] = {}
    ordinal: dict[int, int] = {}
    gold_links: dict[tuple, str] = {}
    ignored: set[tuple] = set()
    for g in result.groups:
        for m in g.members:
            predicted[(m.edition, m.clause_id, m.sentence)] = g.key
    # Gold units: clauses of the rule in every edition that has it, plus any English unit
    # (old rule, glossary sentence) the gold names by its text.
    for info in result.editions:
        order = gold.orders.get(info.slug)
        rule_members = [
            m
            for g in result.groups
            for m in g.members
            if m.edition == info.id and m.kind == "rule" and m.sentence is None
        ]
        rule_members.sort(key=lambda m: m.clause_id)
        for k, m in enumerate(rule_members):
            unit = (m.edition, m.clause_id, None)
            ordinal[m.clause_id] = k
            if order is not None:
                if k < len(order):
                    gold_links[unit] = order[k]
            elif langs[info.id].startswith("en"):
                key = _gold_key(m.text, gold)
                if key == "?":
                    ignored.add(unit)
                elif key and key != "-":
                    gold_links[unit] = key
    from .lineage import sentences

    rule_editions = {e.id for e in result.editions}
    for info in list_editions(session):
        if info.id in rule_editions or not info.language.startswith("en"):
            continue
        for c in edition_clauses(session, info.id):
            if c.kind == "rule":
                units = [(None, c.norm)]
            elif c.kind == "glossary" and c.norm and any(p in c.norm for p, _ in gold.prefixes):
                units = list(enumerate(sentences(c.norm)))
            else:
                continue
            for sentence, text in units:
                key = _gold_key(text, gold)
                unit = (info.id, c.id, sentence)
                if key == "?":
                    ignored.add(unit)
                elif key and key != "-":
                    gold_links[unit] = key
    pred = {(u, k) for u, k in predicted.items() if k is not None and u not in ignored}
    # Members the gold does not cover at all (headings, commentary) are not links to judge.
    pred = {
        (u, k) for u, k in pred if u in gold_links or u[2] is not None or u[0] not in rule_editions
    }
    gl = set(gold_links.items())
    errors = sorted(
        [("missing", slugs.get(u[0]), u, k) for u, k in gl - pred]
        + [("wrong", slugs.get(u[0]), u, k) for u, k in pred - gl],
        key=str,
    )
    return strict_score(pred, gl), errors


def edition_gold(
    session: Session, a: int, b: int, sample: Path | None = None
) -> set[tuple[int, int]]:
    """Pairs of clause ids: unchanged unique texts, plus the hand-checked sample rows."""
    ca = [c for c in edition_clauses(session, a) if c.kind != "noise"]
    cb = [c for c in edition_clauses(session, b) if c.kind != "noise"]

    def unique(cs):
        seen: dict[str, list] = {}
        for c in cs:
            seen.setdefault(c.norm, []).append(c)
        return {t: v[0] for t, v in seen.items() if len(v) == 1}

    ua, ub = unique(ca), unique(cb)
    gold = {(ua[t].id, ub[t].id) for t in ua.keys() & ub.keys()}
    if sample is not None and sample.exists():
        slugs = {e.id: e.slug for e in list_editions(session)}
        by_label_a = {c.label: c for c in ca if c.label}
        by_label_b = {c.label: c for c in cb if c.label}
        for line in sample.read_text(encoding="utf-8").splitlines():
            if not line.strip() or line.startswith("#"):
                continue
            sa, sb, la, lb = line.split("\t")[:4]
            if sa == slugs[a] and sb == slugs[b] and la in by_label_a and lb in by_label_b:
                gold.add((by_label_a[la].id, by_label_b[lb].id))
    return gold


def score_editions(session: Session, a: int, b: int, sample: Path | None = None) -> Score:
    from .storage import align_editions

    return _score_pairs(align_editions(session, a, b), edition_gold(session, a, b, sample))


def label_gold(session: Session, a: int, b: int) -> set[tuple[int, int]]:
    """Gold for one edition and its official translation (same date): rule clauses with the
    same label are the same clause (the translation keeps the official numbering)."""
    ca = {c.label: c for c in edition_clauses(session, a) if c.kind == "rule" and c.label}
    cb = {c.label: c for c in edition_clauses(session, b) if c.kind == "rule" and c.label}
    return {(ca[k].id, cb[k].id) for k in ca.keys() & cb.keys()}


def score_translation(session: Session, a: int, b: int) -> Score:
    from .storage import align_editions

    return _score_pairs(align_editions(session, a, b), label_gold(session, a, b))


def _score_pairs(result, gold: set[tuple[int, int]]) -> Score:
    """Strict score of an edition alignment, counting only pairs whose source the gold covers."""
    covered = {x for x, _ in gold}
    predicted = {
        (p.a.id, p.b.id)
        for p in result.pairs
        if p.a is not None and p.b is not None and p.a.id in covered
    }
    return strict_score(predicted, gold)


def composed_gold(session: Session, a: int, b: int, via: int) -> set[tuple[int, int]]:
    """Gold for an English edition ``a`` and a translation ``b`` of another date, composed of
    two facts that need no aligner: ``via``, the English of ``b``'s date, numbers its clauses
    as ``b`` does (same label, same clause); and an English clause whose text is unchanged
    and unique in ``via`` and ``a`` is the same clause in both. Rule clauses only."""
    ca = [c for c in edition_clauses(session, a) if c.kind == "rule"]
    cv = [c for c in edition_clauses(session, via) if c.kind == "rule"]
    cb = [c for c in edition_clauses(session, b) if c.kind == "rule" and c.label]

    def unique(cs, key):
        seen: dict = {}
        for c in cs:
            seen.setdefault(key(c), []).append(c)
        return {k: v[0] for k, v in seen.items() if len(v) == 1 and k}

    text_a, text_v = unique(ca, lambda c: c.norm), unique(cv, lambda c: c.norm)
    label_b = unique(cb, lambda c: c.label)
    gold = set()
    for text, x in text_v.items():
        if text in text_a and x.label in label_b:
            gold.add((text_a[text].id, label_b[x.label].id))
    return gold


def score_cross_date(session: Session, a: int, b: int, via: int) -> Score:
    """A translation read against an English edition of another date (renumbered in
    between), scored against composed_gold. Nothing is stored."""
    from .edition import compute_edition_alignment, edition_info

    result = compute_edition_alignment(session, edition_info(session, a), edition_info(session, b))
    return _score_pairs(result, composed_gold(session, a, b, via))
