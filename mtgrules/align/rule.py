"""One rule across every edition and language: which clauses are the same rule.

Each edition's clauses of the rule are linked to one other edition's, by content:
- official English editions, each to the next newer one that has the rule (renumbering and
  insertions show as links between different labels);
- a dated translation (zh-Hans 2023-11-17) to the English edition of the same date;
- an undated page to the English text of the same document when it has one (bilingual
  pages), else to the official English edition it matches best (see dating.py);
- editions older than the rule (the 2006 glossary, the old 104.3c) through their clauses and
  glossary sentences that match a clause of the rule better than anything else (lineage.py).
Links chain into groups; a group's key is the label in the newest edition that has it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..store.queries import (
    ClauseView,
    EditionInfo,
    list_editions,
    rule_clauses,
    rule_not_found,
)
from ..text.language import is_english
from .dp import Step
from .edition import fragment_scope, to_items
from .lineage import link_ancestors
from .model import Group, Linked, Member, Node, RuleAlignment
from .numbering import labels_count
from .sequence import Item, Settings, align_items, order_steps

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass
class RuleEdition:
    """One edition's clauses of a rule, with the items the aligner reads them as."""

    info: EditionInfo
    clauses: list[ClauseView]
    items: list[Item] = field(default_factory=list)

    @property
    def official(self) -> bool:
        return self.info.date is not None and self.info.kind == "rules"

    @property
    def english(self) -> bool:
        return is_english(self.info.language)


def fit_quality(steps: list[Step], n_a: int | None = None, n_b: int | None = None) -> float:
    """How well two sequences fit: paired score mass over all items (1.0: every item paired
    with a perfect score). Items outside a fragment's rules do not count."""
    inside = [s for s in steps if not any(e.get("feature") == "scope" for e in s.evidence)]
    n_a = sum(len(s.a) for s in inside)
    n_b = sum(len(s.b) for s in inside)
    steps = inside
    if n_a + n_b == 0:
        return 0.0
    mass = sum(s.score * (len(s.a) + len(s.b)) for s in steps if s.a and s.b)
    return mass / (n_a + n_b)


def _align(a: RuleEdition, b: RuleEdition) -> list[Step]:
    """Align two editions' clauses of the rule; a fragment (a page of 107.3 against section
    107) is aligned inside the rules it covers only."""
    scope_b = fragment_scope(a.clauses, b.clauses)
    scope_a = fragment_scope(b.clauses, a.clauses)
    settings = Settings(labels_agree=labels_count(a.info, b.info))
    if scope_a is None and scope_b is None:
        return align_items(a.items, b.items, settings)
    ka = scope_a if scope_a is not None else list(range(len(a.items)))
    kb = scope_b if scope_b is not None else list(range(len(b.items)))
    sub = align_items([a.items[i] for i in ka], [b.items[j] for j in kb], settings)
    steps = [
        Step(tuple(ka[i] for i in s.a), tuple(kb[j] for j in s.b), s.score, s.evidence, s.crossing)
        for s in sub
    ]
    outside = [{"feature": "scope", "value": "outside the fragment's rules"}]
    steps += [Step((i,), (), 0.0, outside) for i in sorted(set(range(len(a.items))) - set(ka))]
    steps += [Step((), (j,), 0.0, outside) for j in sorted(set(range(len(b.items))) - set(kb))]
    return order_steps(steps)


def _link_steps(
    links: dict[Node, Linked], a: RuleEdition, b: RuleEdition, steps: list[Step], why: str
) -> None:
    for s in steps:
        if not s.a or not s.b:
            continue
        target_clause = b.clauses[s.b[0]]
        for i in s.a:
            src = a.clauses[i]
            evidence = [{"feature": "via", "value": why, "edition": b.info.id}, *s.evidence]
            if len(s.a) > 1 or len(s.b) > 1:
                evidence.append({"feature": "shape", "value": f"{len(s.a)}-{len(s.b)}"})
            if s.crossing:
                evidence.append({"feature": "order", "value": "crossing"})
            links[(a.info.id, src.id, None)] = Linked(
                (b.info.id, target_clause.id, None), s.score, evidence
            )


def best_reference(
    fragment: RuleEdition, candidates: list[RuleEdition]
) -> tuple[RuleEdition, list[Step], list[tuple[RuleEdition, float]]]:
    """The official edition whose clauses the fragment fits best (newest on a tie)."""
    scored = []
    for cand in candidates:
        steps = _align(fragment, cand)
        scored.append((fit_quality(steps, len(fragment.items), len(cand.items)), cand, steps))
    top = max(q for q, _, _ in scored)
    best = [t for t in scored if t[0] >= top - 1e-9]
    q, cand, steps = best[-1]
    return cand, steps, [(c, q) for q, c, _ in scored]


def load_rule_editions(session: Session, rule: str, as_of: int | None) -> list[RuleEdition]:
    out = []
    for info in list_editions(session, as_of):
        clauses = rule_clauses(session, info.id, rule)
        if clauses:
            out.append(RuleEdition(info, clauses, to_items(clauses, info.language)))
    return out


def rule_editions(session: Session, rule: str, as_of: int | None = None) -> list[RuleEdition]:
    """The editions that have ``rule``, with its clauses; an error when none has it."""
    editions = load_rule_editions(session, rule, as_of)
    if not editions:
        raise rule_not_found(session, rule, as_of=as_of)
    return editions


def rule_alignment(
    session: Session,
    rule: str,
    editions: list[RuleEdition],
    links: dict[Node, Linked],
    inferred: dict[Node, str],
    extra: list[tuple[Node, Member]],
    as_of: int | None = None,
) -> RuleAlignment:
    """The groups of a rule's links (computed here or read back by storage.py), with the
    older editions its ancestors come from."""
    return with_ancestors(session, build_groups(rule, editions, links, inferred, extra), as_of)


def with_ancestors(session: Session, result: RuleAlignment, as_of: int | None) -> RuleAlignment:
    have = {e.id for e in result.editions}
    older = {m.edition for g in result.groups for m in g.members} - have
    result.ancestors = [e for e in list_editions(session, as_of) if e.id in older]
    return result


def compute_rule_links(
    session: Session, rule: str, editions: list[RuleEdition], as_of: int | None
) -> tuple[dict[Node, Linked], dict[Node, str], list[tuple[Node, Member]]]:
    links, inferred = pair_rule_editions(editions)
    # 3. lineage: editions older than the rule, and glossary sentences
    extra = link_ancestors(session, rule, editions, official_line(editions), links, as_of)
    return links, inferred, extra


def official_line(editions: list[RuleEdition]) -> list[RuleEdition]:
    """The official English editions among ``editions``, oldest first."""
    return sorted(
        (e for e in editions if e.official and e.english), key=lambda e: e.info.date or ""
    )


def pair_rule_editions(
    editions: list[RuleEdition], only: set[int] | None = None
) -> tuple[dict[Node, Linked], dict[Node, str]]:
    """Each edition's clauses of the rule linked to its partner's (the next official English
    edition, or the English a translation or copy follows), aligned here. ``only``: the
    editions (ids) whose links to make; the others' links are read from the store."""
    links: dict[Node, Linked] = {}
    inferred: dict[Node, str] = {}
    official_en = official_line(editions)
    # 1. official English chain, oldest to newest
    for older, newer in zip(official_en, official_en[1:], strict=False):
        if only is None or older.info.id in only or newer.info.id in only:
            _link_steps(links, older, newer, _align(older, newer), "next-edition")
    # 2. every other edition to a reference English edition
    for ed in editions:
        if ed in official_en or (only is not None and ed.info.id not in only):
            continue
        ref: RuleEdition | None = None
        why = ""
        steps: list[Step] = []
        if ed.official:
            same_date = [e for e in official_en if e.info.date == ed.info.date]
            if same_date:
                ref, why = same_date[0], "same-date"
        if ref is None and not ed.english:
            same_doc = [
                e
                for e in editions
                if e.english and not e.official and e.info.source == ed.info.source
            ]
            if same_doc:
                ref, why = same_doc[0], "same-document"
        if ref is not None:
            steps = _align(ed, ref)
        elif official_en:
            ref, steps, _ = best_reference(ed, official_en)
            why = "best-fit"
        if ref is None:
            continue
        _link_steps(links, ed, ref, steps, why)
        for s in steps:
            if s.a and s.b:
                for i in s.a:
                    c = ed.clauses[i]
                    if c.label is None and c.kind == "rule":
                        inferred[(ed.info.id, c.id, None)] = ref.clauses[s.b[0]].label or ""
    return links, inferred


def _resolve_label(
    node: Node,
    links: dict[Node, Linked],
    inferred: dict[Node, str],
    label_of: dict[Node, str | None],
) -> str | None:
    """A label for an unlabelled clause: its own reference's label, followed up the chain."""
    if node in inferred and inferred[node]:
        return inferred[node]
    seen = set()
    cur = node
    while cur in links and cur not in seen:
        seen.add(cur)
        cur = links[cur].target
        if label_of.get(cur):
            return label_of[cur]
    return None


def build_groups(
    rule: str,
    editions: list[RuleEdition],
    links: dict[Node, Linked],
    inferred: dict[Node, str],
    extra: list[tuple[Node, Member]],
) -> RuleAlignment:
    """Groups of the units that ``links`` (one per unit) chain together; each group keyed by
    its label in the newest edition."""
    date_rank = {e.info.id: (e.official, e.info.date or "", e.info.id) for e in editions}
    members: dict[Node, Member] = {}
    label_of: dict[Node, str | None] = {}
    for ed in editions:
        for c in ed.clauses:
            node = (ed.info.id, c.id, None)
            label_of[node] = c.label
    for ed in editions:
        for c in ed.clauses:
            node = (ed.info.id, c.id, None)
            link = links.get(node)
            label, label_inferred = c.label, c.label_inferred
            evidence = list(link.evidence) if link else []
            if label is None and c.kind == "rule":
                label = _resolve_label(node, links, inferred, label_of)
                label_inferred = label is not None
                if label is not None:
                    evidence.append({"feature": "inferred-label", "value": label})
            members[node] = Member(
                edition=ed.info.id,
                clause_id=c.id,
                label=label,
                label_inferred=label_inferred,
                kind=c.kind,
                text=c.norm,
                score=link.score if link else 1.0,
                evidence=evidence,
                linked_to=link.target[1] if link else None,
            )
    for node, member in extra:
        members[node] = member
    # union-find over links
    parent: dict[Node, Node] = {n: n for n in members}

    def find(n: Node) -> Node:
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n

    for node, link in links.items():
        if node in members and link.target in members:
            ra, rb = find(node), find(link.target)
            if ra != rb:
                parent[ra] = rb
    clusters: dict[Node, list[Node]] = {}
    for n in members:
        clusters.setdefault(find(n), []).append(n)
    rank = {**date_rank}

    def newest_label(nodes: list[Node]) -> str | None:
        labelled = [n for n in nodes if label_of.get(n)]
        if not labelled:
            return None
        best = max(labelled, key=lambda n: rank.get(n[0], (False, "", 0)))
        return label_of[best]

    order = {e.info.id: k for k, e in enumerate(editions)}
    groups = []
    for nodes in clusters.values():
        nodes.sort(key=lambda n: (order.get(n[0], -1), n[1], n[2] or 0))
        groups.append(Group(newest_label(nodes), [members[n] for n in nodes]))

    def group_sort(g: Group) -> tuple:
        from ..text.labels import label_sort_key

        key = label_sort_key(g.key) if g.key else (10**9, "")
        return (key, g.members[0].edition, g.members[0].clause_id)

    groups.sort(key=group_sort)
    return RuleAlignment(rule, [e.info for e in editions], groups)
