"""Alignments in the store: Alignment rows and their Links, written and read back here only.

Three kinds of alignment (the ``kind`` column):
- "editions": every clause of one edition paired with another edition (edition.py);
- "rule": the links of one rule's clauses between two of the editions that have it (rule.py),
  with the rule's label in the ``rule`` column;
- "lineage": for one step of the official English line (an edition and the one before it),
  the ancestors of the clauses the step's pairs leave new (ancestry.py): a rule left without
  a partner, a sentence of a glossary entry or of one of its earlier versions. Made at ingest
  (plan.py); trace, drift and the site read it through step_lineage / lineage_rows.
Readers ask for an alignment through align_editions and align_rule: the stored one when it
is current, else one computed now. A stored alignment is used only while its signature (aligner version, source digest,
settings) is the current one and, for a rule, while the same editions hold the rule; anything
else is stale and recomputed. Search reads the links through ``links_touching``.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..store.queries import EditionInfo, clauses_by_id, list_editions
from ..store.sql import fetch, fetch_in, in_list, json_dict, json_list, needs_full_session
from .ancestry import Ancestor, GlossaryChains, Version, closest_sentence, step_ancestry
from .composition import COPY as _COPY
from .composition import FORWARD as _FORWARD
from .composition import LINEAGE, edition_map, step_chain  # noqa: F401  (step_chain re-exported: plan.py)
from .composition import PLANNED as _PLANNED
from .edition import compute_edition_alignment, edition_info
from .english import is_official_english
from .lineage import link_ancestors
from .links import links_touching  # noqa: F401  (re-exported: the read side for search)
from .model import EditionAlignment, Linked, Member, Node, Pair, RuleAlignment
from .rule import (
    RuleEdition,
    build_groups,
    compute_rule_links,
    official_line,
    pair_rule_editions,
    rule_alignment,
    rule_editions,
    with_ancestors,
)
from .signature import ALIGNER_VERSION, signature  # noqa: F401  (re-exported)
from .stored import (  # noqa: F401  (re-exported: the read side of whole editions)
    EDITIONS,
    load_edition_alignment,
    stored_glossary_pairs,
)

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ..store.models import Alignment

RULE = "rule"


# Reading goes through plain SQL (store/sql.fetch), on a SQLAlchemy session and on the
# standard library's sqlite3 alike (drift and trace read a current SQLite store without
# importing SQLAlchemy: store/sql.py says why); the writes below import it when they run.


def _delete(session: Session, ids: list[int]) -> None:
    from sqlalchemy import delete

    from ..store.models import Alignment, Link

    if ids:
        session.execute(delete(Link).where(Link.alignment_id.in_(ids)))
        session.execute(delete(Alignment).where(Alignment.id.in_(ids)))


def _inferred_label(evidence: list[dict]) -> str | None:
    return next((e["value"] for e in evidence if e.get("feature") == "inferred-label"), None)


# --- what readers ask for -------------------------------------------------------------------


@dataclass
class Unstored:
    """An alignment a reader needed and the store did not hold current (never stored, or
    stored by another aligner): computed in memory, never written."""

    what: str  # "en-2009-05-01 -> en-2009-07-11", or "rule 107.3"
    seconds: float


_unstored: ContextVar[list[Unstored] | None] = ContextVar("unstored", default=None)


@contextmanager
def noting_unstored() -> Iterator[list[Unstored]]:
    """Collect the alignments computed in memory while the block runs (the command layer
    says how to store them when that took long: reads never write)."""
    notes: list[Unstored] = []
    token = _unstored.set(notes)
    try:
        yield notes
    finally:
        _unstored.reset(token)


def _note(what: str, started: float) -> None:
    notes = _unstored.get()
    if notes is not None:
        notes.append(Unstored(what, round(time.perf_counter() - started, 3)))


def align_editions(
    session: Session, a: int, b: int, *, refresh: bool = False, store: bool = False
) -> EditionAlignment:
    """Every clause of edition ``a`` paired with edition ``b`` (ids): the stored alignment
    when the current aligner made it, else one computed now. Computed alignments are stored
    only with ``store`` (ingest and `mtgrules align --store`): a read never writes, so it
    works on a read-only store."""
    info_a = edition_info(session, a)
    info_b = edition_info(session, b)
    if not refresh:
        if store:
            # The ingest's plan and `align --editions A B --store`: the pair itself.
            stored = load_edition_alignment(session, info_a, info_b)
        else:
            # Every reader: the one map of the pair, read through the stored links between
            # them (composition.edition_map: the steps of the line, an English copy's link
            # with its official English), else the pair as stored.
            stored = edition_map(session, info_a, info_b)
        if stored is not None:
            return stored
    needs_full_session(session)  # the aligner, in memory: on the usual session
    started = time.perf_counter()
    result = compute_edition_alignment(session, info_a, info_b)
    if store:
        save_edition_alignment(session, result)
    else:
        _note(f"{info_a.slug} -> {info_b.slug}", started)
    return result


def align_rule(
    session: Session,
    rule: str,
    *,
    as_of: int | None = None,
    refresh: bool = False,
    store: bool = False,
) -> RuleAlignment:
    """Every clause of ``rule`` in every edition that has it, grouped by what rule it states.

    With ``store`` the links are stored (one Alignment row per pair of editions, signed with
    the rule and the aligner's version) and read back while the same editions hold the
    rule; a new edition, or a new aligner version, makes them stale. Without it, the
    alignment is read from the stored edition pairs (chained_rule_alignment), else from
    the rule's stored links, and anything else is computed in memory."""
    editions = rule_editions(session, rule, as_of)
    ids = [e.info.id for e in editions]
    if not refresh:
        stored = load_rule_links(session, rule, ids)
        # The links every reader reads first (diff, update, the site): the edition pairs
        # stored at ingest, followed out of the rule. The editions no current pair reaches
        # are read from the rule's own stored links, else aligned here, and with ``store``
        # (`mtgrules align RULE --store`) those links are what is stored: the alignment
        # stored is the one every reader reads.
        chained = chained_rule_alignment(
            session,
            rule,
            editions,
            as_of,
            kept=stored[:2] if stored is not None else None,
            store=store and as_of is None,
        )
        if chained is not None:
            return chained
        if stored is not None:
            return rule_alignment(session, rule, editions, *stored, as_of)
    needs_full_session(session)
    started = time.perf_counter()
    links, inferred, extra = compute_rule_links(session, rule, editions, as_of)
    if store and as_of is None:
        save_rule_links(session, rule, ids, links, inferred)
    else:
        _note(f"rule {rule}", started)
    return rule_alignment(session, rule, editions, links, inferred, extra, as_of)


def chained_rule_alignment(
    session: Session,
    rule: str,
    editions: list[RuleEdition],
    as_of: int | None,
    *,
    kept: tuple[dict[Node, Linked], dict[Node, str]] | None = None,
    store: bool = False,
) -> RuleAlignment | None:
    """The rule's alignment read from the stored edition alignments (the ones every reader
    reads): its clauses in the editions that have it, followed through the stored pairs,
    across renumberings (a clause's link to a clause of another label keeps that clause in
    the group: 502.70b of 2009-05-01 is 702.15b's past) and moves out of the rule (806.7a's
    text under its 2012 number). An edition of the rule that no current stored pair reaches
    is aligned here, as compute_rule_links does (said as "aligned in memory"), unless
    ``kept`` (the rule's stored links, load_rule_links) has its links; with ``store`` the
    links aligned here are stored as the rule's links (save_rule_links). None when no
    edition of the rule is reached (a store made before alignments were kept)."""
    alive = {e.id: e for e in list_editions(session, as_of)}
    rows = {
        r.id: r
        for r in edition_alignment_rows(session)
        if r.current and r.origin == _PLANNED and r.a in alive and r.b in alive
    }
    # The lineage of each step (stored at ingest, step_lineage): read as the site reads it,
    # when the whole line has it; else the rule's ancestors are searched here (lineage.py).
    lineage = lineage_rows(session, alive)
    ancestry = {rid: ab for ab, rid in lineage.current.items()} if lineage.complete else {}
    reached = {e for r in rows.values() for e in (r.a, r.b)}
    ids = {e.info.id for e in editions}
    unreached = {i for i in ids if i not in reached}
    if unreached == ids:
        return None
    edition_of = {c.id: e.info.id for e in editions for c in e.clauses}
    extra_clauses: dict[int, list] = {}
    found: dict[tuple[int, int, int], tuple[float, list, str | None]] = {}
    lineage_found: dict[tuple[int, int, int, int | None], tuple[float, list, dict | None]] = {}
    sentence_sources: set[int] = set()
    frontier = set(edition_of)
    scope = in_list(sorted(rows))
    while frontier and rows:
        ends: set[int] = set()
        # By the target, a unary plus on alignment_id keeps SQLite on the target index
        # (links.py says why).
        for column, plus in (("source_clause_id", ""), ("target_clause_id", "+")):
            sql = (
                "SELECT alignment_id, source_clause_id, target_clause_id, score, evidence, "
                f"inferred_label FROM link WHERE {column} IN ({{ids}}) "
                f"AND {plus}alignment_id IN ({scope}) "
                "AND source_clause_id IS NOT NULL AND target_clause_id IS NOT NULL"
            )
            for aid, src, dst, score, evidence, label in fetch_in(
                session, sql, frontier, plain=True
            ):
                if (aid, src, dst) not in found:
                    found[(aid, src, dst)] = (float(score or 0.0), json_list(evidence), label)
                    ends.update((src, dst))
        if ancestry:
            # A step's lineage: from the clause it became back to its ancestor; forward from
            # a rule ancestor only (a glossary entry's sentence belongs to the clause it
            # became, as on the site, not the entry's other rules).
            lscope = in_list(sorted(ancestry))
            for column, plus in (("target_clause_id", "+"), ("source_clause_id", "")):
                sql = (
                    "SELECT alignment_id, source_clause_id, target_clause_id, score, evidence "
                    f"FROM link WHERE {column} IN ({{ids}}) AND {plus}alignment_id IN ({lscope})"
                )
                for aid, src, dst, score, evidence in fetch_in(session, sql, frontier, plain=True):
                    ev = json_list(evidence)
                    unit = next((e for e in ev if e.get("feature") == "sentence"), None)
                    if unit is not None and column == "source_clause_id":
                        continue
                    sentence = unit.get("value") if unit else None
                    if (aid, src, dst, sentence) in lineage_found:
                        continue
                    lineage_found[(aid, src, dst, sentence)] = (float(score or 0.0), ev, unit)
                    ends.add(dst)
                    (ends if unit is None else sentence_sources).add(src)
        frontier = {c for c in ends if c not in edition_of}
        for cid, (eid, view) in clauses_by_id(session, frontier).items():
            edition_of[cid] = eid
            extra_clauses.setdefault(eid, []).append(view)
    links: dict[Node, Linked] = {}
    inferred: dict[Node, str] = {}
    if unreached and kept is not None:
        # Stored by `align RULE --store`: the links that touch the editions not reached.
        links = {
            n: ln for n, ln in kept[0].items() if n[0] in unreached or ln.target[0] in unreached
        }
        inferred = {n: v for n, v in kept[1].items() if n in links}
    elif unreached:
        needs_full_session(session)
        started = time.perf_counter()
        links, inferred = pair_rule_editions(editions, unreached)
        if not store:
            _note(f"rule {rule}", started)
    if store:
        # What readers need beyond the edition pairs (often nothing), in place of any older
        # copy of the rule's links: the store holds the alignment every reader reads.
        save_rule_links(session, rule, [e.info.id for e in editions], links, inferred)
    for (aid, src, dst), (score, evidence, label) in sorted(found.items()):
        row = rows[aid]
        why = row.stats.get("why", "stored")
        a, b = (row.a, src), (row.b, dst)
        node, target = (a, b) if why == _FORWARD else (b, a)
        source: Node = (node[0], node[1], None)
        to: Node = (target[0], target[1], None)
        if source in links:
            # A split (505.6 became 708.6a-c): the clause's line goes on in the part that
            # opens it, as diff names it (505.6 -> 708.6a); the other parts begin there.
            continue
        # The words of compute_rule_links: the older edition's link is to the next one.
        via = {
            "feature": "via",
            "value": "next-edition" if why == _FORWARD else why,
            "edition": target[0],
        }
        links[source] = Linked(to, score, [via, *evidence])
        if label:
            inferred[source] = label
    touched = _touched_editions(editions, extra_clauses, alive)
    if ancestry:
        copies = [aid for aid, r in rows.items() if r.stats.get("why") == _COPY]
        extra = _lineage_members(
            session, lineage_found, sentence_sources, edition_of, links, copies
        )
    else:
        known = {(eid, cid, None) for cid, eid in edition_of.items()}
        continued = {
            ln.target[1]
            for ln in links.values()
            if ln.evidence and ln.evidence[0].get("value") == "next-edition"
        }
        extra = link_ancestors(
            session, rule, editions, official_line(editions), links, as_of, known, continued
        )
    result = build_groups(rule, touched, links, inferred, extra)
    result.editions = [e.info for e in editions]
    return with_ancestors(session, result, as_of)


def _lineage_members(
    session: Session,
    found: dict[tuple[int, int, int, int | None], tuple[float, list, dict | None]],
    sentence_sources: set[int],
    edition_of: dict[int, int],
    links: dict[Node, Linked],
    copies: list[int],
) -> list[tuple[Node, Member]]:
    """The stored lineage links a rule's chain reached, as links (a rule ancestor joins the
    group of the clause it became) and members (a glossary sentence, shown in that group).
    A copy of a glossary entry (the 2006 glossary page, paired with its official entry by
    the ``copies`` alignments) gives the sentence closest to the official one, as the
    site's history takes it (ancestry.closest_sentence)."""
    views = clauses_by_id(session, sentence_sources - set(edition_of)) if sentence_sources else {}
    extra: list[tuple[Node, Member]] = []
    for (_aid, src, dst, sentence), (score, evidence, unit) in sorted(
        found.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3] or 0)
    ):
        if dst not in edition_of:
            continue
        to: Node = (edition_of[dst], dst, None)
        if unit is None:
            if src not in edition_of:
                continue
            node: Node = (edition_of[src], src, None)
            if node not in links:
                links[node] = Linked(to, score, evidence)
            continue
        if src in views:
            eid, c = views[src]
        else:
            eid = edition_of.get(src)
            got = clauses_by_id(session, {src}).get(src)
            if eid is None or got is None:
                continue
            c = got[1]
        node = (eid, src, sentence)
        links[node] = Linked(to, score, evidence)
        extra.append(
            (
                node,
                Member(
                    edition=eid,
                    clause_id=src,
                    label=c.label,
                    label_inferred=False,
                    kind=c.kind,
                    text=unit.get("text", c.norm),
                    score=score,
                    evidence=evidence,
                    sentence=sentence,
                    term=c.term,
                    linked_to=dst,
                ),
            )
        )
    if copies and extra:
        extra += _copy_sentences(session, extra, copies, links)
    return extra


def _copy_sentences(
    session: Session,
    members: list[tuple[Node, Member]],
    copies: list[int],
    links: dict[Node, Linked],
) -> list[tuple[Node, Member]]:
    """The sentences of the copies of the glossary entries ``members`` are sentences of."""
    by_entry: dict[int, list[Member]] = {}
    for _node, m in members:
        by_entry.setdefault(m.clause_id, []).append(m)
    sql = (
        "SELECT source_clause_id, target_clause_id FROM link WHERE source_clause_id IN "
        f"({{ids}}) AND alignment_id IN ({in_list(sorted(copies))}) "
        "AND target_clause_id IS NOT NULL"
    )
    pairs = list(fetch_in(session, sql, by_entry, plain=True))
    views = clauses_by_id(session, {dst for _src, dst in pairs})
    out: list[tuple[Node, Member]] = []
    seen: set[Node] = set()
    for src, dst in pairs:
        if dst not in views:
            continue
        eid, copy = views[dst]
        if copy.kind != "glossary":
            continue
        for m in by_entry[src]:
            found = closest_sentence(m.text, copy.norm)
            if found is None or m.linked_to is None:
                continue
            node: Node = (eid, copy.id, found[0])
            if node in seen:
                continue
            seen.add(node)
            links[node] = links[(m.edition, m.clause_id, m.sentence)]
            out.append(
                (
                    node,
                    Member(
                        edition=eid,
                        clause_id=copy.id,
                        label=copy.label,
                        label_inferred=False,
                        kind=copy.kind,
                        text=found[1],
                        score=m.score,
                        evidence=m.evidence,
                        sentence=found[0],
                        term=copy.term,
                        linked_to=m.linked_to,
                    ),
                )
            )
    return out


def _touched_editions(
    editions: list[RuleEdition], extra: dict[int, list], alive: dict[int, EditionInfo]
) -> list[RuleEdition]:
    """The rule's editions with the clauses its stored links reach outside the rule added,
    and the editions only those clauses are in, in the store's order of editions."""
    by_id = {e.info.id: e for e in editions}
    out = []
    for eid, info in alive.items():
        have = by_id.get(eid)
        more = extra.get(eid, [])
        if have is None and not more:
            continue
        clauses = sorted([*(have.clauses if have else []), *more], key=lambda c: c.position)
        out.append(RuleEdition(info, clauses, have.items if have else []))
    return out


# --- whole editions ------------------------------------------------------------------------


def save_edition_alignment(
    session: Session, result: EditionAlignment, *, origin: dict[str, Any] | None = None
) -> int:
    """Store ``result``, replacing any older whole-edition alignment of the same pair (the
    rule alignments over the same pair belong to align_rule and stay). ``origin`` goes into
    the row's stats: who asked for it and why (the ingest's plan, see plan.py)."""
    from sqlalchemy import select

    from ..store.models import Alignment

    old = session.scalars(
        select(Alignment.id).where(
            Alignment.kind == EDITIONS,
            Alignment.edition_a == result.a.id,
            Alignment.edition_b == result.b.id,
        )
    ).all()
    _delete(session, list(old))
    row = Alignment(
        kind=EDITIONS,
        rule=None,
        edition_a=result.a.id,
        edition_b=result.b.id,
        signature=signature(),
        created_at=dt.datetime.now(dt.UTC),
        stats={**result.stats, **(origin or {}), "links": len(result.pairs)},
    )
    session.add(row)
    session.flush()
    if result.pairs:
        _insert_links(session, row.id, result.pairs)
    return row.id


def _insert_links(session: Session, alignment_id: int, pairs: list[Pair]) -> None:
    """One executemany of plain rows: a whole edition is 4,000 links, and an ingest of the
    archive stores 110 such alignments (ORM objects one by one took most of the time)."""
    _insert_rows(
        session,
        [
            (
                alignment_id,
                p.kind,
                p.a.id if p.a else None,
                p.b.id if p.b else None,
                float(p.score),
                p.evidence,
                _inferred_label(p.evidence),
            )
            for p in pairs
        ],
    )


def _insert_rows(session: Session, rows: list[tuple]) -> None:
    """Links as plain rows (alignment id, kind, source, target, score, evidence, inferred
    label), in one executemany."""
    if not rows:
        return
    from sqlalchemy import insert

    from ..store.models import Link

    dialect = session.get_bind().dialect
    if dialect.name == "sqlite":
        # SQLite stores JSON as text: handing the driver the rows, serialized as SQLAlchemy
        # would, skips its per-row parameter processing (a third of the time of the links).
        encode = _evidence_encoder(getattr(dialect, "_json_serializer", None) or json.dumps)
        session.connection().exec_driver_sql(
            f"INSERT INTO {Link.__table__.name} (alignment_id, kind, source_clause_id, "
            "target_clause_id, score, evidence, inferred_label) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(*r[:5], encode(r[5]), r[6]) for r in rows],
        )
        return
    columns = ("alignment_id", "kind", "source_clause_id", "target_clause_id", "score")
    session.execute(
        insert(Link.__table__),
        [
            {**dict(zip(columns, r[:5], strict=True)), "evidence": r[5], "inferred_label": r[6]}
            for r in rows
        ],
    )


# The evidence of most links (78% of the corpus's 112,000): none (a clause deleted or
# inserted) or an identical text. Each is serialized once per alignment, not once per link.
_EXACT_TEXT = [{"feature": "text", "value": 1.0, "exact": True}]


def _evidence_encoder(dumps: Callable[[Any], str]) -> Callable[[list[dict]], str]:
    empty, exact = dumps([]), dumps(_EXACT_TEXT)

    def encode(evidence: list[dict]) -> str:
        if not evidence:
            return empty
        # == alone would take an int 1 for 1.0 or True (which serialize otherwise).
        if (
            evidence == _EXACT_TEXT
            and type(evidence[0]["value"]) is float
            and evidence[0]["exact"] is True
        ):
            return exact
        return dumps(evidence)

    return encode


@dataclass
class StoredAlignment:
    """One stored whole-edition alignment, as the ingest's plan sees it."""

    id: int
    a: int
    b: int
    current: bool  # made by this aligner, with all its links
    stats: dict[str, Any]

    @property
    def origin(self) -> str | None:
        return self.stats.get("by")


def _alignment_rows(session: Session, kind: str) -> list[tuple[int, int, int, dict, bool]]:
    """Every stored alignment of ``kind``, oldest first, as (id, a, b, stats, current): one
    query for the rows and one count of links per row. A row is current while this aligner
    made it and all its links are there (an alignment whose links are gone is not)."""
    rows = fetch(
        session,
        "SELECT id, edition_a, edition_b, signature, stats FROM alignment "
        "WHERE kind = :kind ORDER BY id",
        {"kind": kind},
        plain=True,
    )
    if not rows:
        return []
    counts = dict(
        fetch(
            session,
            "SELECT alignment_id, count(*) FROM link WHERE alignment_id IN "
            "(SELECT id FROM alignment WHERE kind = :kind) GROUP BY alignment_id",
            {"kind": kind},
            plain=True,
        )
    )
    sig = signature()
    out = []
    for rid, a, b, sig_, stats in rows:
        stats = json_dict(stats)
        out.append((rid, a, b, stats, sig_ == sig and counts.get(rid, 0) == stats.get("links")))
    return out


def edition_alignment_rows(session: Session) -> list[StoredAlignment]:
    """Every stored whole-edition alignment, oldest first (_alignment_rows)."""
    return [
        StoredAlignment(rid, a, b, current, stats)
        for rid, a, b, stats, current in _alignment_rows(session, EDITIONS)
    ]


def delete_alignments(session: Session, ids: Iterable[int]) -> None:
    """Remove alignments and their links (the ingest's plan no longer needs them)."""
    _delete(session, sorted(set(ids)))


# --- the lineage of each step of the official English line ---------------------------------


def official_steps(session: Session, alive: dict[int, EditionInfo]) -> dict[int, tuple[int, int]]:
    """Each official English edition of ``alive`` -> (alignment id, the edition before it):
    the steps of the line the ingest stored (plan.py), current ones only."""
    back: dict[int, tuple[int, int]] = {}
    for r in edition_alignment_rows(session):
        if (
            r.current
            and r.origin == _PLANNED
            and r.stats.get("why") == _FORWARD
            and r.a in alive
            and r.b in alive
            and is_official_english(alive[r.a])
            and is_official_english(alive[r.b])
        ):
            back[r.b] = (r.id, r.a)
    return back


@dataclass
class LineageRows:
    """The stored lineage of the line's steps, as readers check it."""

    steps: dict[int, tuple[int, int]]  # official_steps
    current: dict[tuple[int, int], int]  # (older, newer edition) -> lineage alignment id
    others: list[tuple[int, int, int]]  # (id, a, b) of the other lineage rows (stale)

    @property
    def complete(self) -> bool:
        """Every step of the line has its lineage stored by the current aligner."""
        return all((a, b) in self.current for b, (_aid, a) in self.steps.items())


def lineage_rows(session: Session, alive: dict[int, EditionInfo] | None = None) -> LineageRows:
    """The stored lineage rows, current or not. One is current while it was made by this
    aligner, has all its links, and the steps it was made from (step_chain) are the line's
    current steps: a new edition at the end of the line leaves every older step's lineage
    current; an edition inserted before a step makes that step's lineage stale."""
    alive = alive if alive is not None else {e.id: e for e in list_editions(session)}
    back = official_steps(session, alive)
    current: dict[tuple[int, int], int] = {}
    others = []
    for rid, a, b, stats, made in _alignment_rows(session, LINEAGE):
        ok = made and b in back and back[b][1] == a and stats.get("steps") == step_chain(back, b)
        if ok:
            current[(a, b)] = rid
        else:
            others.append((rid, a, b))
    return LineageRows(back, current, others)


def line_glossary_chains(session: Session, steps: dict[int, tuple[int, int]]) -> GlossaryChains:
    """The glossary entries' earlier versions along the stored steps (their glossary-to-
    glossary links), oldest step first, as the site's history chains them."""
    rank = {}
    for b in steps:
        rank[steps[b][0]] = len(step_chain(steps, b))

    def versions_of(ids: list[int]) -> dict[int, Version]:
        return {
            cid: Version(eid, c.id, c.kind, c.label, c.term, c.norm)
            for cid, (eid, c) in clauses_by_id(session, ids).items()
        }

    chains = GlossaryChains(versions_of)
    if not rank:
        return chains
    found = fetch(
        session,
        "SELECT l.alignment_id, l.id, l.source_clause_id, l.target_clause_id FROM link l "
        "JOIN clause cs ON cs.id = l.source_clause_id "
        "JOIN clause ct ON ct.id = l.target_clause_id "
        f"WHERE l.alignment_id IN ({in_list(sorted(rank))}) "
        "AND cs.kind = 'glossary' AND ct.kind = 'glossary'",
        plain=True,
    )
    for _aid, _lid, src, dst in sorted(found, key=lambda r: (rank[r[0]], r[1])):
        chains.add(src, dst)
    return chains


def save_step_lineage(
    session: Session, a: int, b: int, ancestors: list[Ancestor], steps: list[int]
) -> int:
    """Store one step's lineage (replacing any older one of the same step): a link from
    each ancestor (a rule of ``a``, or a glossary entry of ``a`` or of an older edition,
    the sentence in its evidence) to the clause of ``b`` it became."""
    from sqlalchemy import select

    from ..store.models import Alignment

    old = session.scalars(
        select(Alignment.id).where(
            Alignment.kind == LINEAGE, Alignment.edition_a == a, Alignment.edition_b == b
        )
    ).all()
    _delete(session, list(old))
    row = Alignment(
        kind=LINEAGE,
        rule=None,
        edition_a=a,
        edition_b=b,
        signature=signature(),
        created_at=dt.datetime.now(dt.UTC),
        stats={"by": _PLANNED, "why": LINEAGE, "steps": steps, "links": len(ancestors)},
    )
    session.add(row)
    session.flush()
    _insert_rows(
        session,
        [
            (row.id, LINEAGE, x.clause_id, x.target, float(x.score), x.evidence, None)
            for x in ancestors
        ],
    )
    return row.id


def load_step_lineage(session: Session, alignment_id: int) -> list[Ancestor]:
    """A stored step's lineage, as step_ancestry made it."""
    from sqlalchemy import select

    from ..store.models import Alignment, Clause, Link

    row = session.get(Alignment, alignment_id)
    assert row is not None
    found = session.execute(
        select(
            Link.source_clause_id,
            Link.target_clause_id,
            Link.score,
            Link.evidence,
            Clause.edition_id,
            Clause.kind,
            Clause.label,
            Clause.term,
            Clause.norm,
        )
        .join(Clause, Clause.id == Link.source_clause_id)
        .where(Link.alignment_id == alignment_id)
        .order_by(Link.id)
    ).all()
    out = []
    for src, dst, score, evidence, eid, kind, label, term, norm in found:
        evidence = list(evidence or [])
        unit = next((e for e in evidence if e.get("feature") == "sentence"), None)
        sentence = unit.get("value") if unit else None
        text = unit.get("text", norm) if unit else norm
        out.append(
            Ancestor(eid, src, kind, label, term, sentence, text, dst, float(score), evidence)
        )
    return out


def step_lineage(
    session: Session,
    ea: EditionAlignment,
    rows: LineageRows,
    earlier: Callable[[int], list[Version]] | None = None,
) -> list[Ancestor]:
    """The ancestors of the clauses the step ``ea`` (an official English edition and the one
    before it) leaves new: stored at ingest, read back; else found now, in memory (said as
    "aligned in memory"; 0.2-0.5 s a step). ``earlier``: the glossary chains to search when
    not stored (default: read from the stored steps)."""
    rid = rows.current.get((ea.a.id, ea.b.id))
    if rid is not None:
        return load_step_lineage(session, rid)
    started = time.perf_counter()
    if earlier is None:
        earlier = line_glossary_chains(session, rows.steps)
    out = step_ancestry(ea.a.id, ea.b.id, ea.pairs, earlier)
    _note(f"lineage {ea.a.slug} -> {ea.b.slug}", started)
    return out


# --- one rule across editions --------------------------------------------------------------


@dataclass
class _RuleRow:
    """A stored alignment row of one rule: the pair of editions its links join, with the aligner's
    signature and the row's stats (the editions aligned over, its number of links)."""

    id: int
    edition_a: int
    edition_b: int
    signature: str
    stats: dict[str, Any]


def _rule_rows(session: Session, rule: str) -> list[_RuleRow]:
    return [
        _RuleRow(rid, a, b, sig, json_dict(stats))
        for rid, a, b, sig, stats in fetch(
            session,
            "SELECT id, edition_a, edition_b, signature, stats FROM alignment "
            "WHERE kind = :kind AND rule = :rule ORDER BY id",
            {"kind": RULE, "rule": rule},
            plain=True,
        )
    ]


def save_rule_links(
    session: Session,
    rule: str,
    editions: list[int],
    links: dict[Node, Linked],
    inferred: dict[Node, str],
) -> None:
    """Store one rule's links (replacing the rule's older ones): one Alignment row per pair
    of editions that links touch, each link with its evidence and inferred label."""
    from ..store.models import Alignment, Link

    _delete(session, [row.id for row in _rule_rows(session, rule)])
    sig = signature()
    now = dt.datetime.now(dt.UTC)
    counts: dict[tuple[int, int], int] = {}
    for node, link in links.items():
        pair = (node[0], link.target[0])
        counts[pair] = counts.get(pair, 0) + 1
    by_pair: dict[tuple[int, int], Alignment] = {}
    for node, link in links.items():
        pair = (node[0], link.target[0])
        row = by_pair.get(pair)
        if row is None:
            row = Alignment(
                kind=RULE,
                rule=rule,
                edition_a=pair[0],
                edition_b=pair[1],
                signature=sig,
                created_at=now,
                stats={"editions": editions, "links": counts[pair]},
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
                kind=RULE,
                rule=rule,
                edition_a=editions[0],
                edition_b=editions[0],
                signature=sig,
                created_at=now,
                stats={"editions": editions},
            )
        )
    session.flush()


@dataclass
class _StoredLink:
    """A stored link of a rule, as read back: a clause of its row's first edition linked to a clause
    of the second, with the score, evidence and any inferred label."""

    alignment_id: int
    source_clause_id: int
    target_clause_id: int
    score: float
    evidence: list[dict[str, Any]]
    inferred_label: str | None


def load_rule_links(
    session: Session, rule: str, editions: list[int]
) -> tuple[dict[Node, Linked], dict[Node, str], list[tuple[Node, Member]]] | None:
    """(links, inferred labels, members from older editions) as compute_rule_links returns
    them, or None when nothing current is stored for the rule over these editions."""
    rows = _rule_rows(session, rule)
    sig = signature()
    if not rows or any(r.signature != sig or r.stats.get("editions") != editions for r in rows):
        return None
    by_id = {r.id: r for r in rows}
    stored = [
        _StoredLink(aid, src, dst, float(score), json_list(evidence), label)
        for aid, src, dst, score, evidence, label in fetch(
            session,
            "SELECT alignment_id, source_clause_id, target_clause_id, score, evidence, "
            f"inferred_label FROM link WHERE alignment_id IN ({in_list(sorted(by_id))}) "
            "ORDER BY alignment_id, id",
            plain=True,
        )
    ]
    per_row: dict[int, int] = {}
    for ln in stored:
        per_row[ln.alignment_id] = per_row.get(ln.alignment_id, 0) + 1
    if any(per_row.get(r.id, 0) != r.stats.get("links", 0) for r in rows):
        return None  # some links are gone: the chain would break, so recompute
    have = set(editions)
    outside = {ln.source_clause_id for ln in stored if by_id[ln.alignment_id].edition_a not in have}
    clauses = {cid: c for cid, (_eid, c) in clauses_by_id(session, outside).items()}
    links: dict = {}
    inferred: dict = {}
    extra: list = []
    for ln in stored:
        row = by_id[ln.alignment_id]
        evidence = list(ln.evidence)
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


# --- reading links for other readers (reports) ---------------------------------------------


# --- checking stored links (check.py) ------------------------------------------------------


@dataclass
class RelabelledLink:
    """A stored link between two clauses that carry different labels."""

    link_id: int
    alignment_id: int
    alignment_kind: str
    rule: str | None
    link_kind: str
    score: float
    a_clause: int
    b_clause: int
    a_edition: int
    b_edition: int
    a_label: str
    b_label: str
    a_kind: str
    b_kind: str
    a_text: str
    b_text: str
    a_language: str
    b_language: str


def relabelled_links(
    session: Session, edition_pairs: Iterable[tuple[int, int]]
) -> list[RelabelledLink]:
    """Every stored link, of any alignment between one of ``edition_pairs`` (a, b), whose two
    clauses both have a label and the labels differ."""
    from sqlalchemy import select
    from sqlalchemy.orm import aliased

    from ..store.models import Alignment, Clause, Edition, Link

    wanted = set(edition_pairs)
    ids = [
        aid
        for aid, a, b in session.execute(
            select(Alignment.id, Alignment.edition_a, Alignment.edition_b)
        )
        if (a, b) in wanted
    ]
    ca, cb = aliased(Clause), aliased(Clause)
    ea, eb = aliased(Edition), aliased(Edition)
    out: list[RelabelledLink] = []
    for i in range(0, len(ids), 500):
        chunk = ids[i : i + 500]
        query = (
            select(
                Link.id,
                Alignment.id,
                Alignment.kind,
                Alignment.rule,
                Link.kind,
                Link.score,
                ca.id,
                cb.id,
                ca.edition_id,
                cb.edition_id,
                ca.label,
                cb.label,
                ca.kind,
                cb.kind,
                ca.norm,
                cb.norm,
                ea.language,
                eb.language,
            )
            .join(Alignment, Link.alignment_id == Alignment.id)
            .join(ca, ca.id == Link.source_clause_id)
            .join(cb, cb.id == Link.target_clause_id)
            .join(ea, ea.id == ca.edition_id)
            .join(eb, eb.id == cb.edition_id)
            .where(
                Link.alignment_id.in_(chunk),
                ca.label.is_not(None),
                cb.label.is_not(None),
                ca.label != cb.label,
            )
            .order_by(Link.id)
        )
        out.extend(RelabelledLink(*row) for row in session.execute(query))
    return out
