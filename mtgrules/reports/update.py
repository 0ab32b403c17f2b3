"""The translator's update report: translation T, made from English S, brought up to English N.

Never T against N in one step: across language and time at once, the aligner blames the
translation for every change the English made since. Instead the report pivots through S:

1. T is aligned with S, the English it was made from (same date: labels and content agree);
2. S is aligned with N (one language: the aligner is at its best there);
3. the two are composed. Each clause of N gets one status: ``unchanged`` (keep the
   translation), ``changed`` (the English changed since S: the word diff beside the current
   translation), ``new`` (translate it), ``renumbered`` (old label -> new label); each clause
   of S that N dropped is ``removed``. A clause of T with no partner in S is matched with N
   directly, and marked as lower confidence.

Glossary entries are matched by their term (align/glossary.py), never by their position.
The translation's own defects found on the way (duplicate labels, gaps, untranslated
English, the QA checks) are reported beside the statuses.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..align.glossary import term_key
from ..align.reference import SourceChoice, find_source
from ..align.renumbering import Renumbering, is_renumbered, renumbering
from ..align.scope import Scope, covered_scope
from ..errors import NotFoundError, QueryError
from ..record import INTERNAL, OPTIONAL, Record
from ..store.queries import (
    ClauseView,
    EditionInfo,
    edition_clauses,
    find_edition,
    list_editions,
    reading_editions,
)
from ..store.sql import needs_full_session
from ..text.labels import label_sort_key
from ..text.language import is_english
from . import checks as qa
from .common import newest_english
from .drift import DriftClause, EditionDrift
from .drift import Renumbering as DriftRenumbering
from .worddiff import changed, summarize, word_diff

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

STATUSES = ("unchanged", "changed", "new", "renumbered", "removed")
# What a translator translates: rules, their examples, section headings, glossary entries.
UPDATED_KINDS = ("rule", "example", "heading", "glossary")
# A clause of T that its source lacks is matched with N straight only on this much evidence.
DIRECT_MIN_SCORE = 0.6


@dataclass
class UpdateItem(Record):
    """One clause of the target English N (or, when ``removed``, of the source S) and what
    the translation must do about it."""

    status: str  # unchanged | changed | new | renumbered | removed
    kind: str  # rule | example | heading | glossary
    label: str | None  # the label in N (in S for a removed clause)
    from_label: str | None  # the label in S, when there is a partner there
    parent: str | None
    term: str | None  # a glossary entry's English term
    english: str  # N's text (S's for a removed clause): what to translate
    translation: str | None  # the translation's current text, if it has the clause
    # "pivot": through S; "direct": T matched with N straight (lower confidence); "none".
    confidence: str = "pivot"
    translated_term: str | None = field(default=None, metadata=OPTIONAL)
    translation_label: str | None = field(default=None, metadata=OPTIONAL)
    english_before: str | None = field(default=None, metadata=OPTIONAL)  # S's text
    english_diff: list[dict[str, Any]] | None = field(default=None, metadata=OPTIONAL)
    gist: str | None = field(default=None, metadata=OPTIONAL)
    # The translation lacks this clause although its source English had it.
    gap: bool | None = field(default=None, metadata=OPTIONAL)
    # A glossary entry whose English term changed (Totem Armor -> Umbra Armor).
    renamed_from: str | None = field(default=None, metadata=OPTIONAL)
    n_id: int | None = field(default=None, metadata=INTERNAL)  # the clause of N


@dataclass
class Defects(Record):
    """The translation's own defects, found while aligning it with its source."""

    mislabels: list[dict[str, Any]]  # {label (as in T), expected (S's), kind, text}
    duplicate_labels: list[str]
    gaps: list[dict[str, Any]]  # clauses of S the translation lacks
    untranslated: list[str]  # labels of clauses still in English


@dataclass
class UpdateReport(Record):
    """The update report of translation T, made from English S, against English N: each clause of N
    with its status, the clauses N dropped, those T has beyond N, and T's own defects and QA
    findings."""

    edition: EditionInfo  # the translation T
    reference: EditionInfo  # the target English N
    source: SourceChoice  # the English S it was made from
    clauses: list[UpdateItem]  # one per clause of N, in N's order
    removed: list[UpdateItem]
    added: list[DriftClause]  # clauses of T with no counterpart in N
    defects: Defects
    checks: list[qa.Finding]
    # The part of the rules T covers (align/scope.py); the report is about that part of N.
    scope: Scope | None = None
    # S -> N's renumbering (align.renumbering, as diff S N counts it): (S label, N label).
    moves: list[tuple[str, str]] = field(default_factory=list, metadata=INTERNAL)

    # The translation says its glossary is left out ("<생략>"): not listed entry by entry.
    glossary_omitted: bool = False

    @property
    def renumbering(self) -> Renumbering:
        return renumbering(self.moves)

    @property
    def missing(self) -> list[DriftClause]:
        """What the translation lacks against N: its new clauses (rules, examples, headings,
        glossary entries) and its gaps, the clauses of status "new", so that drift's
        "missing" and update's "new" are one count. A glossary entry whose English term was
        renamed is changed, not missing: the translation has it, under the old term (the
        rename is shown with it)."""
        return [
            DriftClause(i.label, i.parent, i.kind, i.english, i.term)
            for i in self.clauses
            if i.status == "new"
        ]

    @property
    def renumbered(self) -> list[DriftRenumbering]:
        """The clauses N numbers otherwise than S, whatever their wording (the renumbering
        map of S -> N, which diff S N prints too); a split names each part, a merge each
        clause merged. Read against an English of another date (a best fit), the translation's
        own label is the one it has to change: zh-Hans-2026-02-27's 506.3e-g, read against
        en-2026-01-16, are 506.3d-f there although S and N are the same edition."""
        moves = list(self.moves)
        if self.source.how == "best-fit":
            own = {
                (i.from_label, i.translation_label)
                for i in self.clauses
                if i.kind == "rule" and i.from_label and i.translation_label
            }
            mine = dict(own)
            moves = [(mine.get(a, a), b) for a, b in moves]
            moves += sorted(
                {
                    (i.translation_label, i.label)
                    for i in self.clauses
                    if i.kind == "rule"
                    and i.translation_label
                    and i.label
                    and i.translation_label != i.label
                }
                - set(moves)
            )
        return [DriftRenumbering(self.edition.id, a, b) for a, b in moves]

    @property
    def changed(self) -> list[UpdateItem]:
        return [i for i in self.clauses if i.status == "changed"]

    @property
    def downgrade(self) -> bool:
        return (self.reference.date or "") < (self.source.edition.date or "")

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for item in [*self.clauses, *self.removed]:
            out[item.status] += 1
        return out

    def summary(self) -> dict[str, Any]:
        errors = sum(1 for f in self.checks if f.severity == qa.ERROR)
        return {
            **self.counts(),
            "matched": sum(1 for i in self.clauses if i.translation is not None),
            "missing": len(self.missing),
            "added": len(self.added),
            "renumbered_labels": len(self.renumbered),
            "direct": sum(1 for i in self.clauses if i.confidence == "direct"),
            "gaps": len(self.defects.gaps),
            "mislabels": len(self.defects.mislabels),
            "errors": errors,
            "warnings": len(self.checks) - errors,
        }

    def as_json(self) -> dict[str, Any]:
        return {
            "edition": self.edition.header_json(),
            "reference": self.reference.header_json(),
            "source": {
                **self.source.edition.header_json(),
                "how": self.source.how,
                "why": self.source.why,
                "fit": self.source.fit,
            },
            "missing": [m.as_json() for m in self.missing],
            "added": [a.as_json() for a in self.added],
            "renumbered": [r.as_json() for r in self.renumbered],
            "changed": [
                {
                    "label": i.label,
                    "from_label": i.from_label,
                    "kind": i.kind,
                    "term": i.term,
                    "english": i.english,
                    "english_before": i.english_before,
                    "english_diff": i.english_diff,
                    "gist": i.gist,
                    "translation": i.translation,
                }
                for i in self.changed
            ],
            "removed": [i.as_json() for i in self.removed],
            "checks": [f.as_json() for f in self.checks],
            "defects": self.defects.as_json(),
            "renumbering": self.renumbering.as_json(),
            **({"scope": self.scope.as_json()} if self.scope is not None else {}),
            **({"glossary_omitted": True} if self.glossary_omitted else {}),
            "summary": self.summary(),
            "clauses": [i.as_json() for i in self.clauses],
        }

    def has_differences(self) -> bool:
        return any(i.status != "unchanged" for i in [*self.clauses, *self.removed]) or any(
            f.severity == qa.ERROR for f in self.checks
        )

    def as_drift(self) -> EditionDrift:
        """The same content as `drift --edition T --reference N` reports it."""
        s = self.summary()
        summary = {
            "matched": s["matched"],
            "missing": s["missing"],
            "added": s["added"],
            "renumbered": s["renumbered_labels"],
            "errors": s["errors"],
            "warnings": s["warnings"],
        }
        # In drift's terms every renumbering is a label move of a matched clause.
        moved = [
            DriftRenumbering(r.edition, r.from_label, r.to_label, pair="renumbered")
            for r in self.renumbered
        ]
        return EditionDrift(
            self.edition,
            self.reference,
            self.missing,
            self.added,
            moved,
            self.checks,
            summary,
            defects=self.defects,
            renumbering=self.renumbering,
        )


# --- composing the two alignments ----------------------------------------------------------


def _pairs(
    session: Session, a: EditionInfo, b: EditionInfo
) -> list[tuple[ClauseView, ClauseView, float]]:
    """Clause pairs (a side, b side, score) of the pair's one map (composition.edition_map:
    the stored steps between two English editions, composed, as diff and trace read them),
    read in plain SQL (on the fast path too, store/sql.py); one computed in memory is the
    aligner's business."""
    from ..align.composition import edition_map

    alignment = edition_map(session, a, b)
    if alignment is None:
        needs_full_session(session)
        from ..align import align_editions

        alignment = align_editions(session, a.id, b.id)
    return [(p.a, p.b, p.score) for p in alignment.pairs if p.a and p.b]


def _index(pairs) -> tuple[dict[int, list[ClauseView]], dict[int, list[ClauseView]]]:
    forward: dict[int, list[ClauseView]] = defaultdict(list)
    backward: dict[int, list[ClauseView]] = defaultdict(list)
    for a, b, _score in pairs:
        forward[a.id].append(b)
        backward[b.id].append(a)
    return forward, backward


def _glossary(clauses: list[ClauseView]) -> list[ClauseView]:
    return [c for c in clauses if c.kind == "glossary"]


def _learned_terms(
    session: Session, language: str, infos: list[EditionInfo]
) -> dict[str, set[str]]:
    """Term pairs the store already knows for ``language``: translated term -> English terms,
    from the glossary pairs of stored alignments of its editions with their English."""
    from ..align.stored import stored_glossary_pairs

    ids = {e.id for e in infos if e.language == language}
    english = {e.id for e in infos if is_english(e.language)}
    out: dict[str, set[str]] = defaultdict(set)
    for en_term, tr_term in stored_glossary_pairs(session, english, ids):
        out[term_key(tr_term)].add(term_key(en_term))
    return out


def update_report(
    session: Session,
    translation: str,
    *,
    to: str | None = None,
    source: str | None = None,
    as_of: int | None = None,
) -> UpdateReport:
    """What translation ``translation`` must change to follow English ``to`` (see
    _update_report). Each edition is read once: the English it was made from is read for
    itself and again by both stored alignments it is composed through."""
    with reading_editions():
        return _update_report(session, translation, to=to, source=source, as_of=as_of)


def _update_report(
    session: Session,
    translation: str,
    *,
    to: str | None = None,
    source: str | None = None,
    as_of: int | None = None,
) -> UpdateReport:
    """What translation ``translation`` must change to follow English ``to`` (default: the
    newest English edition). ``source``: the English it was made from, if the store cannot
    tell (by default: its own English, the English of its date, else the best fit)."""
    from ..align.glossary import match_same_language, match_translation

    infos = list_editions(session, as_of)
    target = find_edition(infos, translation)
    if is_english(target.language):
        raise QueryError(
            f"{target.slug} is English; update brings a translation up to date. To compare two "
            f"English editions run: mtgrules diff {target.slug} NEWER"
        )
    if to:
        reference = find_edition(infos, to)
    else:
        newest = newest_english(infos, exclude=target.id)
        if newest is None:
            # NotFound, not a usage error: the command was right, the store lacks the English
            # (never ingested, or removed since).
            undated = [e for e in infos if is_english(e.language) and e.id != target.id]
            which = (
                f"; an undated one can be named: --to {undated[0].slug}"
                if undated
                else "; ingest one first (a rules file, or mtgrules ingest --archive for "
                "every English edition 2003-2026), then run update again"
            )
            raise NotFoundError(f"the store holds no dated English edition to update to{which}")
        reference = newest
    if not is_english(reference.language):
        raise QueryError(
            f"--to names {reference.slug}, which is {reference.language}; give the English "
            "edition to update to (e.g. --to en-2026-01-16)"
        )
    if source:
        chosen = find_edition(infos, source)
        if not is_english(chosen.language):
            raise QueryError(f"--source names {chosen.slug}, which is not English")
        origin = SourceChoice(chosen, "given", f"{chosen.slug} was given with --source")
    else:
        origin = find_source(session, target, infos)
    src = origin.edition
    if (reference.date or "") < (src.date or ""):
        raise QueryError(
            f"{reference.slug} is older than {src.slug}, the English {target.slug} was made "
            f"from; give a newer --to (to see what changed between them: mtgrules diff "
            f"{reference.slug} {src.slug})"
        )

    t_clauses = _translatable(edition_clauses(session, target.id))
    s_all = _translatable(edition_clauses(session, src.id))
    n_all = (
        s_all if reference.id == src.id else _translatable(edition_clauses(session, reference.id))
    )
    # The part of the rules the translation covers (align/scope.py): every chapter, or whole
    # chapters, sections or single rules. A page on 107.3 is brought up to date on 107.3, not
    # blamed for the 4,000 other clauses; a translation of chapter 1 on all of chapter 1 as it
    # is now, sections added since (123, Stickers) and rules added inside it (107.16) included.
    scope = covered_scope(
        [c.label or c.parent for c in t_clauses if c.kind == "rule"],
        [c.label for c in s_all if c.kind == "rule" and c.label],
    )
    # A glossary the translation says it leaves out (the Korean "용어사전" then "<생략>",
    # stored by ingest) is one line of the report, not 700 missing entries.
    glossary_omitted = _glossary_omitted(session, target)
    glossary_too = not glossary_omitted and (
        scope.whole or any(c.kind == "glossary" for c in t_clauses)
    )
    s_clauses = [c for c in s_all if _held(scope, c, glossary_too)]

    # 1. T with S. Glossary entries by term (see align/glossary.py), the rest as aligned.
    st_all = _pairs(session, src, target)
    st = [(a, b, sc) for a, b, sc in st_all if a.kind != "glossary" and b.kind != "glossary"]
    st_gloss = match_translation(
        _glossary(s_clauses),
        _glossary(t_clauses),
        target.language,
        [(a, b, sc) for a, b, sc in st_all if a.kind == b.kind == "glossary"],
        _learned_terms(session, target.language, infos),
    )
    st += [(m.a, m.b, m.score) for m in st_gloss]
    by_place = _duplicates_by_place(s_clauses, t_clauses, st)
    st += by_place
    s_to_t, t_to_s = _index(st)

    # 2. S with N (nothing to align when T is brought up to its own source).
    if reference.id == src.id:
        sn = [(c, c, 1.0) for c in s_clauses]
    else:
        sn_all = _pairs(session, src, reference)
        sn = [(a, b, sc) for a, b, sc in sn_all if a.kind != "glossary" and b.kind != "glossary"]
        sn += [
            (m.a, m.b, m.score) for m in match_same_language(_glossary(s_clauses), _glossary(n_all))
        ]
    wanted = {c.id for c in s_clauses}
    if scope.whole:
        n_clauses = [n for n in n_all if glossary_too or n.kind != "glossary"]
    else:
        # The covered part, in N's numbering: the partners of the covered clauses of S, and
        # what N holds in the covered chapters, sections and rules (followed through the
        # renumbering: 2023's section 723 is 2026's 726).
        n_scope = scope.follow(
            (a.label or a.parent, b.label or b.parent) for a, b, _ in sn if a.kind == b.kind
        )
        partners = {b.id for a, b, _ in sn if a.id in wanted}
        n_clauses = [n for n in n_all if n.id in partners or _held(n_scope, n, glossary_too)]
    s_to_n, n_to_s = _index(sn)
    s_to_n = {
        k: [n for n in v if n.kind in UPDATED_KINDS] for k, v in s_to_n.items() if k in wanted
    }

    # 3. Compose: one item per clause of N.
    items: list[UpdateItem] = []
    for n in n_clauses:
        sources = [s for s in n_to_s.get(n.id, []) if s.id in wanted]
        translated = [t for s in sources for t in s_to_t.get(s.id, [])]
        items.append(_item(n, sources, translated))

    # 4. Clauses of T its source lacks: matched with N straight (lower confidence).
    paired_t = {t.id for ts in s_to_t.values() for t in ts}
    leftovers = [t for t in t_clauses if t.id not in paired_t]
    rescued = _direct(leftovers, items, n_clauses, target.language)
    for t, k in rescued:
        item = items[k]
        item.translation, item.confidence, item.gap = t.text, "direct", None
        item.translation_label = t.label if t.label != item.label else None
        if item.status == "new":
            item.status = (
                "unchanged"
                if not item.from_label or item.from_label == item.label
                else "renumbered"
            )
            if item.english_before is not None and changed(
                word_diff(item.english_before, item.english)
            ):
                item.status = "changed"
    rescued_ids = {t.id for t, _ in rescued}
    if origin.how == "best-fit":
        # The translation numbers a clause otherwise than S (the rules inserted between the
        # English it was made from and S): its label must change to N's.
        for item in items:
            if (
                item.status == "unchanged"
                and item.kind == "rule"
                and item.translation_label
                and item.translation_label != item.label
            ):
                item.status = "renumbered"

    # 5. Clauses of S that N dropped.
    removed = [
        UpdateItem(
            "removed",
            s.kind,
            s.label,
            s.label,
            s.parent,
            s.term,
            s.norm,
            " ".join(t.text for t in s_to_t.get(s.id, [])) or None,
            translated_term=next((t.term for t in s_to_t.get(s.id, []) if t.term), None),
        )
        for s in s_clauses
        if not s_to_n.get(s.id)
    ]
    removed_s = {s.id for s in s_clauses if not s_to_n.get(s.id)}
    added = [
        DriftClause(t.label, t.parent, t.kind, t.norm, t.term)
        for t in t_clauses
        if t.kind in ("rule", "example", "glossary")
        and t.id not in rescued_ids
        and (t.id not in t_to_s or all(s.id in removed_s for s in t_to_s[t.id]))
    ]

    defects = _defects(origin, s_clauses, t_clauses, s_to_t, t_to_s, {t.id for _, t, _ in by_place})
    findings = _checks(target, reference, items, st, s_to_n)
    defects.untranslated = sorted(
        {f.label or f.key or "" for f in findings if f.check == "untranslated"} - {""},
        key=label_sort_key,
    )
    in_n = {n.id for n in n_clauses}
    moves = sorted(
        {
            (s.label or "", n.label or "")
            for s, n, _score in sn
            if s.id in wanted and n.id in in_n and is_renumbered(s, n)
        }
    )
    return UpdateReport(
        target,
        reference,
        origin,
        items,
        removed,
        added,
        defects,
        findings,
        scope,
        moves,
        glossary_omitted,
    )


def _glossary_omitted(session: Session, edition: EditionInfo) -> bool:
    """Does the translation say its glossary is left out? (stored by ingest, migration 0008)"""
    from ..store.sql import scalar

    return bool(
        scalar(session, "SELECT glossary_omitted FROM edition WHERE id = :e", {"e": edition.id})
    )


def _duplicates_by_place(
    s_clauses: list[ClauseView],
    t_clauses: list[ClauseView],
    st: list[tuple[ClauseView, ClauseView, float]],
) -> list[tuple[ClauseView, ClauseView, float]]:
    """A rule of T printed under the label of the rule before it (the Korean 2020's second
    101.4d, its 101.4e), unpaired, alone between two paired rules, where S has one unpaired
    rule between the same two: that rule, by its place (the aligner does not pair clauses
    under different labels on weak content, and a translation without numbers or references
    is weak content). It is then listed with the mislabels."""
    counts = Counter(t.label for t in t_clauses if t.kind == "rule" and t.label)
    s_rules = [c for c in s_clauses if c.kind == "rule"]
    t_rules = [c for c in t_clauses if c.kind == "rule"]
    pos_s = {c.id: k for k, c in enumerate(s_rules)}
    pos_t = {c.id: k for k, c in enumerate(t_rules)}
    paired = sorted((pos_s[a.id], pos_t[b.id]) for a, b, _ in st if a.id in pos_s and b.id in pos_t)
    from ..align.sequence import longest_increasing

    anchors = longest_increasing(paired)
    used_s = {i for i, _ in paired}
    used_t = {j for _, j in paired}
    out = []
    bounds = [(-1, -1), *anchors, (len(s_rules), len(t_rules))]
    for (a0, b0), (a1, b1) in zip(bounds, bounds[1:], strict=False):
        gap_s = [k for k in range(a0 + 1, a1) if k not in used_s]
        gap_t = [k for k in range(b0 + 1, b1) if k not in used_t]
        if len(gap_s) == len(gap_t) == 1:
            s_rule, t_rule = s_rules[gap_s[0]], t_rules[gap_t[0]]
            if t_rule.label and counts[t_rule.label] > 1 and s_rule.label != t_rule.label:
                out.append((s_rule, t_rule, 0.5))
    return out


def _held(scope: Scope, clause: ClauseView, glossary_too: bool) -> bool:
    """Is a clause inside the part of the rules a translation covers? A glossary entry is
    when the translation has a glossary (or is whole)."""
    if clause.kind == "glossary":
        return glossary_too
    return scope.holds(clause.label or clause.parent)


def _translatable(clauses: list[ClauseView]) -> list[ClauseView]:
    """The clauses a translator translates: rules, examples, glossary entries and the
    numbered section headings (not "Glossary" or "Credits")."""
    return [c for c in clauses if c.kind in UPDATED_KINDS and (c.kind != "heading" or c.label)]


def _item(n: ClauseView, sources: list[ClauseView], translated: list[ClauseView]) -> UpdateItem:
    s = sources[0] if sources else None
    item = UpdateItem(
        "new",
        n.kind,
        n.label,
        s.label if s else None,
        n.parent,
        n.term,
        n.norm,
        " ".join(t.text for t in translated) or None,
        translated_term=next((t.term for t in translated if t.term), None),
        n_id=n.id,
    )
    if s is None:
        return item
    # A renumbering names S's label; where the translation wrote another (a mislabel, listed
    # with the defects), its own label is shown beside it.
    t_labels = [t.label for t in translated if t.label]
    if t_labels and s.label not in t_labels:
        item.translation_label = t_labels[0]
    before = " ".join(x.norm for x in sources)
    item.english_before = before
    if not translated:
        item.gap = True
        return item
    words = word_diff(before, n.norm) if before != n.norm else []
    renamed = n.kind == "glossary" and term_key(s.term) != term_key(n.term)
    if renamed:
        item.renamed_from = s.term
    if changed(words) or renamed:
        item.status = "changed"
        item.english_diff = words
        item.gist = "; ".join(
            ([f"term renamed: {s.term} -> {n.term}"] if renamed else [])
            + ([summarize(words)] if changed(words) else [])
        )
    elif s.label != n.label and n.kind in ("rule", "heading"):
        item.status = "renumbered"
    else:
        item.status = "unchanged"
    if item.status == "unchanged":
        item.english_before = None  # the same as english
    return item


def _direct(
    leftovers: list[ClauseView], items: list[UpdateItem], n_clauses: list[ClauseView], language: str
) -> list[tuple[ClauseView, int]]:
    """Clauses of T that its source lacks, paired with untranslated clauses of N when their
    content agrees (numbers, symbols, references, termbase). Candidates share the clause's
    label or parent rule (or, for glossary entries, are entries too): a clause is never
    matched across the whole edition on content alone."""
    open_items = [k for k, i in enumerate(items) if i.translation is None]
    if not leftovers or not open_items:
        return []
    from ..align.features import featurize, similarity

    by_key: dict[tuple[str, str | None], list[int]] = defaultdict(list)
    for k in open_items:
        n = n_clauses[k]
        by_key[(n.kind, n.label or n.parent)].append(k)
        if n.kind == "glossary":
            by_key[("glossary", None)].append(k)
    english_features: dict[int, Any] = {}
    scored = []
    for t in leftovers:
        key = ("glossary", None) if t.kind == "glossary" else (t.kind, t.label or t.parent)
        candidates = by_key.get(key, [])
        if not candidates:
            continue
        ft = featurize(t.norm, language)
        for k in candidates:
            if k not in english_features:
                english_features[k] = featurize(n_clauses[k].norm, "en")
            score, _evidence = similarity(english_features[k], ft)
            if score >= DIRECT_MIN_SCORE:
                scored.append((score, t.id, k, t))
    scored.sort(key=lambda x: -x[0])
    used_t: set[int] = set()
    used_k: set[int] = set()
    out = []
    for _score, tid, k, t in scored:
        if tid in used_t or k in used_k:
            continue
        used_t.add(tid)
        used_k.add(k)
        out.append((t, k))
    return out


def _defects(
    origin: SourceChoice,
    s_clauses: list[ClauseView],
    t_clauses: list[ClauseView],
    s_to_t: dict[int, list[ClauseView]],
    t_to_s: dict[int, list[ClauseView]],
    duplicates_placed: set[int],
) -> Defects:
    rule_labels = Counter(t.label for t in t_clauses if t.kind == "rule" and t.label)
    duplicates = sorted((lab for lab, n in rule_labels.items() if n > 1), key=label_sort_key)
    mislabels = []
    # Labels are compared only with an English of the same date (across dates they move),
    # except for a label printed twice: the copy paired with a rule of another label (by the
    # aligner, or by its place) is that rule, mislabelled (the Korean second 101.4d, 101.4e).
    same_numbering = origin.how != "best-fit"
    for t in t_clauses:
        if t.kind != "rule" or not t.label:
            continue
        twice = rule_labels[t.label] > 1 or t.id in duplicates_placed
        if not same_numbering and not twice:
            continue
        partners = [s for s in t_to_s.get(t.id, []) if s.label]
        if partners and all(s.label != t.label for s in partners):
            mislabels.append(
                {"label": t.label, "expected": partners[0].label, "kind": t.kind, "text": t.text}
            )
    gaps = [
        {"label": s.label, "kind": s.kind, "term": s.term, "english": s.norm}
        for s in s_clauses
        if s.kind in ("rule", "glossary") and not s_to_t.get(s.id)
    ]
    return Defects(mislabels, duplicates, gaps, [])


def _checks(
    target: EditionInfo,
    reference: EditionInfo,
    items: list[UpdateItem],
    st: list[tuple[ClauseView, ClauseView, float]],
    s_to_n: dict[int, list[ClauseView]],
) -> list[qa.Finding]:
    """The QA checks: each clause of T on its own, and against the English it translates."""
    out: list[qa.Finding] = []
    for s, t, _score in st:
        n_side = s_to_n.get(s.id, [])
        key = n_side[0].label if n_side and n_side[0].label else s.label
        for sev, name, msg in qa.check_clause(t.norm, t.flags, t.kind):
            out.append(qa.Finding(target.id, key, sev, name, msg, t.label))
        if s.kind == t.kind == "rule":
            for sev, name, msg in qa.check_pair(
                s.norm,
                t.norm,
                source_lang="en",
                target_lang=target.language,
                source_label=s.label,
                target_label=t.label,
                target_flags=t.flags,
            ):
                out.append(qa.Finding(target.id, key, sev, name, msg, t.label))
    out.sort(key=lambda f: label_sort_key(f.key or ""))
    return out
