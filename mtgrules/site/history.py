"""The history of every rule at once, read from the edition alignments.

`mtgrules trace` follows one clause with align_rule, which aligns one rule across every
edition (1 to 30 s a rule on the bundled corpus). The site has a page for each of the 1,150
rules of today's rules, so it reads the same history from the whole-edition alignments it
needs anyway for the changelogs, which align_editions stores and reads back:

- each official English edition with the one before it (the "steps"), chained clause by
  clause back to 2003 through the 2009 renumbering;
- each English copy (a scraped page, the 2006 glossary page) with the official English
  edition of its date, or the newest one;
- each translation with the English edition it follows (reports.common.followed_english,
  as drift and trace choose it).

Each step's lineage (align/ancestry.py, stored at ingest by align/plan.py and read back by
align.storage.step_lineage, as trace and drift read it) adds what the pairs leave out:
rules rewritten under a new number and sentences of the old glossary. Each chain (a "group", as in align_rule) is laid out by
reports.trace.trace_members, the code that lays out `mtgrules trace`: the same spans, events,
copies and translations.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from ..align import EditionAlignment, Member
from ..align.ancestry import Ancestor, GlossaryChains, Version, closest_sentence
from ..align.plan import edition_lines, english_copy_reference
from ..align.reference import is_official_english
from ..reports.common import RULE_KINDS, followed_english, newest_english
from ..reports.trace import Trace, keyed_terms, trace_members
from ..store.queries import ClauseView, EditionInfo
from ..text.labels import label_sort_key, rule_of
from ..text.language import is_english

# A numbered rule (107.3), as opposed to a subrule (107.3a) or a section (107).
NUMBERED_RULE = re.compile(r"^[0-9]{3}\.[0-9]{1,4}$")


@dataclass
class Plan:
    """Which editions are compared with which."""

    lines: dict[str, list[EditionInfo]]  # language -> its dated rules editions, oldest first
    steps: list[tuple[EditionInfo, EditionInfo]]  # consecutive editions of one language
    # (English edition, edition) for every edition outside the official English line:
    # English copies first, since a translation may follow a copy (a bilingual page).
    references: list[tuple[EditionInfo, EditionInfo]]
    newest: EditionInfo | None  # the newest official English edition
    previous: dict[int, EditionInfo] = field(default_factory=dict)
    next: dict[int, EditionInfo] = field(default_factory=dict)


def plan_editions(infos: list[EditionInfo], sources: dict[int, int] | None = None) -> Plan:
    """The pairs the site reads: the pairs the ingest stores (align/plan.py), so that the
    site reads what is stored and every reader compares the same pairs. ``sources``: each
    translation's English as chosen at ingest (reference.find_source), by edition id."""
    lines = edition_lines(infos)
    steps = []
    previous: dict[int, EditionInfo] = {}
    nxt: dict[int, EditionInfo] = {}
    for line in lines.values():
        for a, b in zip(line, line[1:], strict=False):
            steps.append((a, b))
            previous[b.id], nxt[a.id] = a, b
    official = lines.get("en", [])
    newest = official[-1] if official else None
    by_id = {e.id: e for e in infos}
    copies, translations = [], []
    for e in infos:
        if is_official_english(e):
            continue
        if is_english(e.language):
            ref = english_copy_reference(e, infos)
            if ref is not None:
                copies.append((ref, e))
        else:
            ref = by_id.get((sources or {}).get(e.id, -1)) or followed_english(
                e, infos, newest_english(infos, exclude=e.id)
            )
            if ref is not None:
                translations.append((ref, e))
    return Plan(lines, steps, copies + translations, newest, previous, nxt)


@dataclass(slots=True)
class Rec:
    """What the history keeps of a clause (an alignment Member is made from it on demand)."""

    id: int
    edition: int
    label: str | None
    label_inferred: bool
    kind: str
    text: str
    term: str | None


@dataclass(slots=True)
class SentenceMember:
    """One sentence of a glossary entry that a rule came from."""

    rec: Rec
    sentence: int
    text: str
    target: int  # the official English clause (id) it led to
    score: float


@dataclass
class Placement:
    """Where a group is shown: the page of a rule of the newest edition, and an anchor."""

    page: str  # the numbered rule, e.g. "107.3"
    anchor: str
    current: bool  # False: a subrule no longer in the rules, shown on its rule's page


class History:
    """Groups of clauses that state the same rule, across every edition."""

    def __init__(
        self, infos: list[EditionInfo], plan: Plan, terms: dict[int, set[str]] | None = None
    ):
        self.infos = infos
        # The glossary terms of each official English edition, read once (store.queries
        # glossary_terms): a history goes back through the entry that first carried it.
        self.terms = keyed_terms(terms or {})
        self.by_id = {e.id: e for e in infos}
        self.plan = plan
        order = plan.lines.get("en", [])
        self.rank = {e.id: k for k, e in enumerate(order)}  # official English, by date
        self.recs: dict[int, Rec] = {}
        self._up: dict[int, int] = {}
        self._texts: dict[str, str] = {}
        # Each glossary entry's earlier versions along the steps (the entries of the edition
        # before that it was aligned with), for the stored lineage's ``earlier``.
        self.earlier = GlossaryChains(self._versions)
        self._sentences: dict[tuple[int, int, int], SentenceMember] = {}
        # Clauses of other editions (copies, translations), each with the official English
        # clause it stands beside and the label inferred for it when it has none.
        self._attached: list[tuple[Rec, int, str | None]] = []
        self._proxy: dict[int, int] = {}  # a copy's clause -> its official English clause
        # A clause of a copy or translation -> its official English clause, and the number
        # inferred for it when it has none of its own.
        self.partner: dict[int, int] = {}
        self.inferred: dict[int, str] = {}
        self._copy_glossary: list[tuple[Rec, int]] = []
        self.labels: dict[int, dict[str, int]] = {}  # edition -> label -> clause id
        self.headings: dict[int, dict[str, str]] = {}  # edition -> section -> title
        self.lineage_links = 0
        self._groups: dict[int, list[int]] | None = None
        self._extra: dict[int, list[tuple[Rec, int | None, str, str | None]]] = {}
        self._keys: dict[int, str | None] = {}
        self._placements: dict[int, Placement] = {}

    # --- collecting -----------------------------------------------------------------------

    def _rec(self, c: ClauseView, edition: int) -> Rec:
        rec = self.recs.get(c.id)
        if rec is None:
            # Most wordings repeat from edition to edition: keep one copy of each text.
            text = self._texts.setdefault(c.norm, c.norm)
            rec = Rec(c.id, edition, c.label, c.label_inferred, c.kind, text, c.term)
            if c.label and c.kind == "rule":
                self.labels.setdefault(edition, {}).setdefault(c.label, c.id)
        return rec

    def _keep(self, c: ClauseView, edition: int) -> Rec:
        rec = self._rec(c, edition)
        self.recs[c.id] = rec
        self._up.setdefault(c.id, c.id)
        return rec

    def _find(self, n: int) -> int:
        up = self._up
        while up[n] != n:
            up[n] = up[up[n]]
            n = up[n]
        return n

    def _union(self, a: int, b: int) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra != rb:
            self._up[ra] = rb

    def add_step(self, ea: EditionAlignment) -> None:
        """Two consecutive official English editions: chain their paired clauses. The
        ancestors of the clauses the pairs leave new come after (add_ancestors), read from
        the step's stored lineage (align.storage.step_lineage), as trace reads them."""
        a_id, b_id = ea.a.id, ea.b.id
        for p in ea.pairs:
            for c, ed in ((p.a, a_id), (p.b, b_id)):
                if c is None:
                    continue
                if c.kind in RULE_KINDS:
                    self._keep(c, ed)
                elif c.kind == "heading" and c.label:
                    self.headings.setdefault(ed, {}).setdefault(c.label, c.norm)
            if p.a is not None and p.b is not None:
                if p.a.kind in RULE_KINDS and p.b.kind in RULE_KINDS:
                    self._union(p.a.id, p.b.id)
                    if p.a.kind == p.b.kind == "glossary":
                        self.earlier.add(p.a.id, p.b.id)

    def add_alone(self, edition: int, clauses: Iterable[ClauseView]) -> None:
        """An official English edition no step chains (the only one in the store): its
        clauses are kept as a step keeps them, each a group of its own, so that its rules
        have their pages as any edition's do."""
        for c in clauses:
            if c.kind in RULE_KINDS:
                self._keep(c, edition)
            elif c.kind == "heading" and c.label:
                self.headings.setdefault(edition, {}).setdefault(c.label, c.norm)

    def add_ancestors(self, ancestors: Iterable[Ancestor]) -> None:
        """A step's lineage: a rule ancestor joins the group of the clause it became; a
        sentence of a glossary entry is shown in that group."""
        for anc in ancestors:
            self.lineage_links += 1
            if anc.sentence is None:
                if anc.clause_id in self._up and anc.target in self._up:
                    self._union(anc.clause_id, anc.target)
            else:
                # A sentence may be the ancestor of rules new in different editions (as in
                # lineage.py, where each rule judges the old glossary for itself).
                key = (anc.clause_id, anc.sentence, anc.target)
                rec = self.recs.get(anc.clause_id)
                if key not in self._sentences and rec is not None:
                    self._sentences[key] = SentenceMember(
                        rec, anc.sentence, anc.text, anc.target, anc.score
                    )

    def _versions(self, ids: list[int]) -> dict[int, Version]:
        out = {}
        for i in ids:
            r = self.recs[i]
            out[i] = Version(r.edition, r.id, r.kind, r.label, r.term, r.text)
        return out

    def add_reference(self, ea: EditionAlignment, *, copy: bool) -> None:
        """An edition beside the English it follows (ea.a): each of its clauses joins the
        group of its English partner."""
        for p in ea.pairs:
            a, b = p.a, p.b
            if a is None or b is None or b.kind not in RULE_KINDS:
                continue
            official = self._proxy.get(a.id, a.id)
            if official not in self.recs:
                continue
            rec = self._rec(b, ea.b.id)
            inferred = None
            if rec.label is None and rec.kind == "rule" and a.label:
                inferred = a.label
            self._attached.append((rec, official, inferred))
            self.partner[b.id] = official
            if inferred:
                self.inferred[b.id] = inferred
            if copy:
                self._proxy[b.id] = official
                if b.kind == "glossary" and a.kind == "glossary":
                    self._copy_glossary.append((rec, official))

    # --- groups -------------------------------------------------------------------------------

    def finish(self) -> None:
        """Give copies of glossary entries their sentences, then form the groups."""
        by_entry: dict[int, list[SentenceMember]] = {}
        for sm in self._sentences.values():
            by_entry.setdefault(sm.rec.id, []).append(sm)
        for rec, official in self._copy_glossary:
            for sm in by_entry.get(official, []):
                found = closest_sentence(sm.text, rec.text)
                if found is not None:
                    self._sentences[(rec.id, found[0], sm.target)] = SentenceMember(
                        rec, found[0], found[1], sm.target, sm.score
                    )
        groups: dict[int, list[int]] = {}
        for cid in self.recs:
            groups.setdefault(self._find(cid), []).append(cid)
        self._groups = groups
        # Members from outside the official English line, by group: glossary sentences,
        # then copies and translations beside their English clause.
        for sm in self._sentences.values():
            self._extra.setdefault(self._find(sm.target), []).append(
                (sm.rec, sm.sentence, sm.text, None)
            )
        for rec, official, inferred in self._attached:
            self._extra.setdefault(self._find(official), []).append((rec, None, rec.text, inferred))
        for root, ids in groups.items():
            labelled = [
                self.recs[i] for i in ids if self.recs[i].label and self.recs[i].kind == "rule"
            ]
            if labelled:
                newest = max(labelled, key=lambda r: (self.rank.get(r.edition, -1), -r.id))
                self._keys[root] = newest.label
        self._place()

    def group_of(self, clause_id: int) -> int | None:
        if clause_id not in self._up:
            return None
        return self._find(clause_id)

    def key(self, group: int) -> str | None:
        return self._keys.get(group)

    def _place(self) -> None:
        newest = self.plan.newest
        if newest is None:
            return
        pages = set(self.rule_pages())
        last_rank = self.rank[newest.id]
        ended: list[tuple[int, Rec]] = []
        assert self._groups is not None
        for root, ids in self._groups.items():
            key = self._keys.get(root)
            if key is None:
                continue
            rule_recs = [
                self.recs[i]
                for i in ids
                if self.recs[i].kind == "rule" and self.recs[i].edition in self.rank
            ]
            if not rule_recs:
                continue
            last = max(rule_recs, key=lambda r: (self.rank[r.edition], -r.id))
            if self.rank[last.edition] == last_rank:
                if rule_of(key) in pages:
                    self._placements[root] = Placement(rule_of(key), key, True)
            else:
                ended.append((root, last))
        # A subrule no longer in the rules is shown on the page of the rule that held it when
        # it was last there, if that rule is still in the rules (under any number): never on
        # the page of an unrelated rule that reuses its old number.
        for root, last in ended:
            label = last.label or ""
            holder = rule_of(label)
            if holder == label:
                continue
            holder_id = self.labels.get(last.edition, {}).get(holder)
            if holder_id is None:
                continue
            placed = self._placements.get(self._find(holder_id))
            if placed is not None and placed.current and placed.anchor == placed.page:
                date = self.by_id[last.edition].date
                self._placements[root] = Placement(placed.page, f"{label}~{date}", False)

    def rule_pages(self) -> list[str]:
        """The numbered rules of the newest official English edition, in rules order."""
        newest = self.plan.newest
        if newest is None:
            return []
        labels = self.labels.get(newest.id, {})
        return sorted((lab for lab in labels if NUMBERED_RULE.match(lab)), key=label_sort_key)

    def placement(self, clause_id: int) -> Placement | None:
        group = self.group_of(clause_id)
        return self._placements.get(group) if group is not None else None

    def placement_of_group(self, group: int) -> Placement | None:
        return self._placements.get(group)

    def page_groups(self) -> dict[str, list[int]]:
        """Rule page -> its groups, in the order the page shows them."""
        out: dict[str, list[tuple[bool, tuple, int]]] = {}
        for root, pl in self._placements.items():
            key = self._keys.get(root) or ""
            out.setdefault(pl.page, []).append((not pl.current, label_sort_key(key), root))
        return {page: [root for *_, root in sorted(items)] for page, items in out.items()}

    # --- reading ------------------------------------------------------------------------------

    def traces(self, groups: Iterable[int]) -> list[tuple[int, Trace]]:
        """The Trace of each group, laid out as `mtgrules trace` lays it out. Members are
        made here, a page at a time, not kept for every group at once."""
        assert self._groups is not None
        out = []
        for g in groups:
            members = [_member(self.recs[i]) for i in self._groups.get(g, [])]
            for rec, sentence, text, inferred in self._extra.get(g, []):
                m = _member(rec)
                if sentence is not None:
                    m.text, m.sentence = text, sentence
                if inferred:
                    m.label, m.label_inferred = inferred, True
                members.append(m)
            key = self._keys.get(g) or ""
            out.append((g, trace_members(key, key, members, self.infos, self._terms_of)))
        return out

    def _terms_of(self, ids: list[int]) -> dict[int, dict[str, str]]:
        return {i: self.terms[i] for i in ids if i in self.terms}

    def resolver(self, edition: int) -> Callable[[str], Placement | None]:
        """Where a rule reference written in ``edition`` points, in that edition's own
        numbering: "rule 502.9" in 2008 is today's 702.19b, and links there."""
        english = edition
        if edition not in self.labels or not is_official_english(self.by_id[edition]):
            for ref, e in self.plan.references:
                if e.id == edition:
                    english = ref.id
                    break
        labels = self.labels.get(english, {})

        def resolve(label: str) -> Placement | None:
            cid = labels.get(label)
            if cid is None:
                return None
            return self.placement(self._proxy.get(cid, cid))

        return resolve


def _member(rec: Rec) -> Member:
    return Member(
        edition=rec.edition,
        clause_id=rec.id,
        label=rec.label,
        label_inferred=rec.label_inferred,
        kind=rec.kind,
        text=rec.text,
        score=1.0,
        term=rec.term,
    )
