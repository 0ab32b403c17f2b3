"""Coverage drift: which clauses each edition has, lacks, renumbered, and what looks wrong.

``rule_drift`` reads the alignment of one rule across every edition (align_rule) and lays
it out as a matrix against a reference edition; ``edition_drift`` compares a whole
translation with the English edition it follows (align_editions). Both return typed results
whose JSON is described by mtgrules/schemas/drift-rule.schema.json and
drift-edition.schema.json.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import NotFoundError, QueryError
from ..record import OPTIONAL, Record, key
from ..store.queries import EditionInfo, find_edition, list_editions, rule_not_found
from ..text.labels import label_sort_key, rule_scope
from ..text.language import is_chinese, is_english, matches_language, same_language
from . import checks as qa
from .common import (
    RULE_KINDS,
    clause_flags,
    followed_english,
    is_translation,
    newest_english,
)
from .worddiff import summarize, word_diff

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass
class DriftRow(Record):
    """One clause of the reference, and what each edition has for it (its label, or None)."""

    key: str
    today: str | None  # the label of the clause in the newest edition that has it
    text: str
    cells: dict[str, str | None]  # edition id -> label(s), or None when missing
    texts: dict[str, str]  # edition id -> that edition's wording
    # Edition ids whose label in this row the aligner inferred (the page has none): 107.3a*.
    inferred: list[str] | None = field(default=None, metadata=OPTIONAL)


@dataclass
class ExtraRow(Record):
    """A clause that some editions have and the reference does not."""

    key: str | None
    text: str
    cells: dict[str, str | None]
    texts: dict[str, str]
    inferred: list[str] | None = field(default=None, metadata=OPTIONAL)


@dataclass
class Renumbering(Record):
    """A rule ``edition`` numbers otherwise than the reference: its label there (``from``) and the
    reference's (``to``; for a rule the reference lacks, the newest edition's)."""

    edition: int
    from_label: str = field(metadata=key("from"))
    to_label: str = field(metadata=key("to"))
    inferred: bool | None = field(default=None, metadata=OPTIONAL)  # an inferred label moved
    pair: str | None = field(default=None, metadata=OPTIONAL)  # the aligner's pair kind


@dataclass
class RuleDrift(Record):
    """Coverage of one rule in every edition, against a reference edition."""

    rule: str
    reference: int
    editions: list[EditionInfo]
    rows: list[DriftRow]
    extra_rows: list[ExtraRow]
    missing: dict[str, list[str]]  # edition id -> keys of the rows it lacks
    renumbered: list[Renumbering]
    checks: list[qa.Finding]
    follows: dict[str, int | None]  # translation id -> the English edition it follows
    summary: dict[str, Any]
    # What a reader must know to weigh the result (a language the termbase does not cover).
    notes: list[str] | None = field(default=None, metadata=OPTIONAL)

    def has_differences(self) -> bool:
        return bool(any(self.missing.values()) or self.renumbered or _has_errors(self.checks))


@dataclass
class DriftClause(Record):
    """A clause one side has and the other lacks."""

    label: str | None
    parent: str | None
    kind: str
    text: str
    term: str | None = None  # a glossary entry's term


@dataclass
class EditionDrift(Record):
    """Every clause a whole edition lacks or adds against its reference."""

    edition: EditionInfo
    reference: EditionInfo
    missing: list[DriftClause]
    added: list[DriftClause]
    renumbered: list[Renumbering]
    checks: list[qa.Finding]
    summary: dict[str, Any]
    notes: list[str] | None = field(default=None, metadata=OPTIONAL)
    # A translation read through the English it was made from (update.py) also carries its
    # own defects (a mislabel: zh-Hans-2022-06-10's second 701.42a is its 701.42b) and the
    # renumbering of its English since (align.renumbering).
    defects: Any = field(default=None, metadata=OPTIONAL)
    renumbering: Any = field(default=None, metadata=OPTIONAL)

    # Rules and subrules only: a section heading ("123. Stickers") has a number too, but it
    # is not a rule, and the site and update count rules (zh-Hans-2022-06-10 against
    # en-2026-01-16 lacks 470 rules, and 9 section headings besides).
    @property
    def missing_rules(self) -> list[str]:
        return sorted(
            {m.label for m in self.missing if m.label and m.kind == "rule"}, key=label_sort_key
        )

    @property
    def added_rules(self) -> list[str]:
        return sorted(
            {m.label for m in self.added if m.label and m.kind == "rule"}, key=label_sort_key
        )

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        keys = ("renumbered", "renumbering", "checks", "defects", "summary", "notes")
        tail = {k: out.pop(k) for k in keys if k in out}
        return {**out, "missing_rules": self.missing_rules, "added_rules": self.added_rules, **tail}

    def has_differences(self) -> bool:
        return bool(self.missing or self.added or self.renumbered or _has_errors(self.checks))


def _has_errors(findings: list[qa.Finding]) -> bool:
    return any(f.severity == qa.ERROR for f in findings)


def _cell(members: list[Any]) -> str | None:
    """What an edition's cell shows: its label(s) for the clause, or None when missing."""
    labels: list[str] = []
    for m in members:
        if m.kind not in RULE_KINDS:
            continue
        if m.kind == "glossary":
            text = f"glossary: {m.term}" if m.term else "glossary"
        else:
            text = m.label or "unlabelled"
        if text not in labels:
            labels.append(text)
    return " + ".join(labels) if labels else None


def _pick_reference(
    session: Session,
    infos: list[EditionInfo],
    reference: str | None,
    rule: str,
    as_of: int | None,
) -> EditionInfo:
    """The edition the matrix is read against: asked for, else the newest English."""
    if reference:
        # Any edition in the store may be named; it must then have the rule.
        wanted = find_edition(list_editions(session, as_of), reference)
        hit = next((e for e in infos if e.id == wanted.id), None)
        if hit is None:
            having = ", ".join(e.slug for e in infos if e.language == "en" and e.date)
            raise NotFoundError(
                f"{wanted.slug} has no rule {rule}; choose a reference that has it: {having}"
            )
        return hit
    ref = newest_english(infos)
    if ref is None:
        raise NotFoundError(
            f"no dated English edition has rule {rule}; pick a reference with --reference E "
            "(see: mtgrules editions)"
        )
    return ref


def rule_drift(
    session: Session,
    rule: str,
    *,
    reference: str | None = None,
    language: str | None = None,
    as_of: int | None = None,
) -> RuleDrift:
    from ..align import align_rule

    ra = align_rule(session, rule, as_of=as_of)
    if not ra.editions or not ra.groups:
        raise rule_not_found(session, rule, as_of=as_of)
    infos = lineage_editions(session, ra, as_of)
    ref = _pick_reference(session, infos, reference, rule, as_of)
    columns = [
        e
        for e in infos
        if language is None or matches_language(e.language, language) or e.id == ref.id
    ]
    if language and len(columns) == 1 and not matches_language(ref.language, language):
        raise NotFoundError(
            f"no {language} edition has rule {rule}; languages that do: "
            + ", ".join(sorted({e.language for e in infos}))
        )
    col_ids = [e.id for e in columns]

    # Each group's members per edition.
    grouped: list[tuple[Any, dict[int, list[Any]]]] = []
    for g in ra.groups:
        per: dict[int, list[Any]] = defaultdict(list)
        for m in g.members:
            per[m.edition].append(m)
        grouped.append((g, per))

    grouped = _today_s_rule(grouped, rule, ref.id, [e.id for e in infos])

    rows: list[DriftRow] = []
    extra: list[ExtraRow] = []
    renumbered: list[Renumbering] = []
    row_of_group: dict[int, str] = {}
    for gi, (g, per) in enumerate(grouped):
        ref_members = [m for m in per.get(ref.id, []) if m.kind in RULE_KINDS and m.label]
        cells = {str(eid): _cell(per.get(eid, [])) for eid in col_ids}
        # Each edition's own wording, for side-by-side views (HTML) and for translators.
        texts = {
            str(eid): " ".join(m.text for m in per.get(eid, []) if m.kind in RULE_KINDS)
            for eid in col_ids
            if cells[str(eid)] is not None
        }
        inferred = [
            str(eid)
            for eid in col_ids
            if any(m.kind == "rule" and m.label and m.label_inferred for m in per.get(eid, []))
        ] or None
        if ref_members:
            key = ref_members[0].label
            row_of_group[gi] = key
            rows.append(
                DriftRow(key, g.key, " ".join(m.text for m in ref_members), cells, texts, inferred)
            )
        elif any(cells.values()):
            newest = next(
                (m for eid in reversed(col_ids) for m in per.get(eid, []) if m.kind in RULE_KINDS),
                None,
            )
            extra.append(ExtraRow(g.key, newest.text if newest else "", cells, texts, inferred))
        to = row_of_group.get(gi) or g.key
        for eid in col_ids:
            if eid == ref.id:
                continue
            for m in per.get(eid, []):
                if m.kind == "rule" and m.label and to and m.label != to:
                    item = Renumbering(eid, m.label, to, True if m.label_inferred else None)
                    if item not in renumbered:
                        renumbered.append(item)

    rows.sort(key=lambda r: label_sort_key(r.key))
    missing: dict[str, list[str]] = {}
    for eid in col_ids:
        if eid == ref.id:
            continue
        missing[str(eid)] = [r.key for r in rows if r.cells[str(eid)] is None]

    findings = _rule_checks(session, grouped, row_of_group, ref, columns, infos)
    follows = {
        str(e.id): (
            f.id if (f := followed_english(e, infos, newest_english(infos) or ref)) else None
        )
        for e in columns
        if is_translation(e)
    }
    return RuleDrift(
        rule,
        ref.id,
        list(columns),
        rows,
        extra,
        missing,
        renumbered,
        findings,
        follows,
        _summary(missing, renumbered, findings),
        language_notes([e.language for e in columns]),
    )


def lineage_editions(session: Session, ra: Any, as_of: int | None) -> list[EditionInfo]:
    """The columns of a rule's drift: every edition of its lineage, in the store's order:
    those that hold the number and the older ones whose clauses are its past under other
    numbers or in the glossary (Trample was 502.9 until 2009-05-01), each cell with that
    edition's own label, as `trace` shows them."""
    if not ra.ancestors:
        return list(ra.editions)
    wanted = {e.id for e in ra.editions} | {e.id for e in ra.ancestors}
    return [e for e in list_editions(session, as_of) if e.id in wanted]


def _today_s_rule(
    grouped: list[tuple[Any, dict[int, list[Any]]]], rule: str, ref_id: int, order: list[int]
) -> list[tuple[Any, dict[int, list[Any]]]]:
    """The groups of the rule the reference numbers ``rule``, when it has one. The clauses
    that carried the number in some edition are all aligned, but a number is reused: 702.19
    was Banding in 2009 (702.22 today) and Vigilance in 2012 (702.20), and `drift 702.19`
    asks about Trample, as `trace 702.19` does. A clause the reference lacks stays when its
    last number was under the rule, or when it never had one. An old number the reference does not use (`drift
    502.70`) keeps every group: their rows are named by today's labels."""

    def under(members: list[Any]) -> bool:
        return any(m.label and rule_scope(m.label, None, rule) for m in members)

    if not any(under(per.get(ref_id, [])) for _, per in grouped):
        return grouped
    kept = []
    for g, per in grouped:
        if per.get(ref_id):
            if under(per[ref_id]):
                kept.append((g, per))
            continue
        labelled = [[m for m in per.get(eid, []) if m.label] for eid in reversed(order)]
        last = next((ms for ms in labelled if ms), None)
        if last is None or under(last):  # a reader's note (commentary) has no number
            kept.append((g, per))
    return kept


def _summary(
    missing: dict[str, list[str]], renumbered: list[Renumbering], findings: list[qa.Finding]
) -> dict[str, Any]:
    errors = sum(1 for f in findings if f.severity == qa.ERROR)
    return {
        "editions_lacking": sum(1 for v in missing.values() if v),
        "clauses_missing": sum(len(v) for v in missing.values()),
        "renumbered": len(renumbered),
        "errors": errors,
        "warnings": len(findings) - errors,
    }


def _versions(per: dict[int, list[Any]], infos: dict[int, EditionInfo]) -> list[dict[str, Any]]:
    """The distinct official English wordings of one clause, oldest first, with their dates."""
    out: list[dict[str, Any]] = []
    dated = sorted(
        (
            (infos[eid], ms)
            for eid, ms in per.items()
            if eid in infos
            and infos[eid].language == "en"
            and infos[eid].kind == "rules"
            and infos[eid].date
        ),
        key=lambda t: t[0].date or "",
    )
    for info, ms in dated:
        text = " ".join(m.text for m in ms if m.kind == "rule")
        if not text:
            continue
        if out and out[-1]["text"] == text:
            out[-1]["to"] = info.date
            continue
        out.append({"text": text, "from": info.date, "to": info.date, "label": ms[0].label})
    return out


def _rule_checks(
    session: Session,
    grouped: list[tuple[Any, dict[int, list[Any]]]],
    row_of_group: dict[int, str],
    ref: EditionInfo,
    columns: list[EditionInfo],
    infos: list[EditionInfo],
) -> list[qa.Finding]:
    by_id = {e.id: e for e in infos}
    col_ids = {e.id for e in columns}
    flags = clause_flags(
        session, (m.clause_id for _, per in grouped for eid in col_ids for m in per.get(eid, []))
    )
    # An undated translation with no English of its own is checked against the newest
    # English, not against the chosen reference: a 2009 reference must not turn a current
    # translation's [-X] into an error.
    newest = newest_english(infos) or ref
    follows = {e.id: followed_english(e, infos, newest) for e in columns}
    out: list[qa.Finding] = []
    for gi, (g, per) in enumerate(grouped):
        key = row_of_group.get(gi) or g.key
        versions = _versions(per, by_id)
        ref_text = " ".join(m.text for m in per.get(ref.id, []) if m.kind == "rule")
        for info in columns:
            if info.id == ref.id:
                continue
            for m in per.get(info.id, []):
                m_flags, parent = flags.get(m.clause_id, ([], None))
                for sev, name, msg in qa.check_clause(m.text, m_flags, m.kind):
                    # A reader's note has no group of its own: report it under its rule.
                    out.append(
                        qa.Finding(info.id, key or parent, sev, name, msg, m.label or parent)
                    )
            if not is_translation(info):
                continue
            members = [m for m in per.get(info.id, []) if m.kind == "rule"]
            if not members:
                continue
            text = " ".join(m.text for m in members)
            src_info = follows[info.id]
            src_members = [
                m for m in per.get(src_info.id if src_info else -1, []) if m.kind == "rule"
            ]
            source = " ".join(m.text for m in src_members) or ref_text
            if source:
                for sev, name, msg in qa.check_pair(
                    source,
                    text,
                    source_lang="en",
                    target_lang=info.language,
                    source_label=(src_members[0].label if src_members else key),
                    target_label=members[0].label,
                    target_flags=[
                        f for m in members for f in flags.get(m.clause_id, ([], None))[0]
                    ],
                ):
                    out.append(qa.Finding(info.id, key, sev, name, msg, members[0].label))
            damaged = any("lost-symbol" in flags.get(m.clause_id, ([], None))[0] for m in members)
            finding = _older_wording(info, key, text, versions, ref_text, members[0].label, damaged)
            if finding:
                out.append(finding)
    order = {e.id: i for i, e in enumerate(columns)}
    out.sort(key=lambda f: (label_sort_key(f.key or ""), order.get(f.edition, 0)))
    return out


def _older_wording(
    info: EditionInfo,
    key: str | None,
    text: str,
    versions: list[dict[str, Any]],
    ref_text: str,
    label: str | None,
    damaged: bool = False,
) -> qa.Finding | None:
    """Warn when a translation matches an older English wording than the reference's."""
    if len(versions) < 2 or not ref_text:
        return None
    current = next((i for i, v in enumerate(versions) if v["text"] == ref_text), None)
    if current is None:
        return None
    latin = not is_chinese(info.language)
    best = qa.follows_wording(text, [v["text"] for v in versions], latin=latin, damaged=damaged)
    if best is None or best >= current:
        return None
    old = versions[best]
    gist = summarize(word_diff(old["text"], ref_text))
    return qa.Finding(
        info.id,
        key,
        qa.WARNING,
        "older-wording",
        f"follows the English wording of {old['from']}..{old['to']} (or older), not the "
        f"reference's; English changed since: {gist}",
        label,
    )


# --- whole editions ---


def edition_drift(
    session: Session, edition: str, *, reference: str | None = None, as_of: int | None = None
) -> EditionDrift:
    """Every rule a translation (or any edition) lacks or adds against the English it follows."""
    from ..align import align_editions

    infos = list_editions(session, as_of)
    target = find_edition(infos, edition)
    if reference:
        ref = find_edition(infos, reference)
    else:
        ref = followed_english(target, infos, newest_english(infos, exclude=target.id))
        if ref is None or ref.id == target.id:
            raise QueryError(
                f"no English edition to compare {target.slug} with; give one: --reference E"
            )
    if ref.id == target.id:
        raise QueryError("the edition and its reference are the same; give another --reference")
    if not is_english(target.language) and is_english(ref.language):
        # A translation is compared through the English it was made from (see update.py),
        # never straight with an English edition of another date.
        from .update import update_report

        return update_report(session, target.slug, to=ref.slug, as_of=as_of).as_drift()
    ea = align_editions(session, ref.id, target.id)
    missing: list[DriftClause] = []
    added: list[DriftClause] = []
    renumbered: list[Renumbering] = []
    findings: list[qa.Finding] = []
    translation = not same_language(target.language, ref.language)
    matched = 0
    for p in ea.pairs:
        a, b = p.a, p.b
        if a is not None and b is None:
            if a.kind in ("rule", "example", "glossary"):
                missing.append(DriftClause(a.label, a.parent, a.kind, a.norm, a.term))
            continue
        if b is not None and a is None:
            if b.kind in ("rule", "example", "glossary"):
                added.append(DriftClause(b.label, b.parent, b.kind, b.norm, b.term))
            for sev, name, msg in qa.check_clause(b.norm, b.flags, b.kind):
                findings.append(qa.Finding(target.id, b.label, sev, name, msg, b.label))
            continue
        if a is None or b is None:
            continue
        matched += 1
        if a.label and b.label and a.label != b.label and a.kind == "rule":
            renumbered.append(Renumbering(target.id, b.label, a.label, pair=p.kind))
        key = a.label or a.parent
        for sev, name, msg in qa.check_clause(b.norm, b.flags, b.kind):
            findings.append(qa.Finding(target.id, key, sev, name, msg, b.label))
        if translation and a.kind == b.kind == "rule":
            for sev, name, msg in qa.check_pair(
                a.norm,
                b.norm,
                source_lang=ref.language,
                target_lang=target.language,
                source_label=a.label,
                target_label=b.label,
                target_flags=b.flags,
            ):
                findings.append(qa.Finding(target.id, key, sev, name, msg, b.label))
    errors = sum(1 for f in findings if f.severity == qa.ERROR)
    summary = {
        "matched": matched,
        "missing": len(missing),
        "added": len(added),
        "renumbered": len(renumbered),
        "errors": errors,
        "warnings": len(findings) - errors,
    }
    notes = language_notes([target.language, ref.language])
    return EditionDrift(target, ref, missing, added, renumbered, findings, summary, notes)


def language_notes(languages: list[str]) -> list[str] | None:
    """A note for each language the shipped termbase has no column for: its clauses are
    paired from labels, numbers, symbols and rule references alone (no game terms, no
    cognates), which is weaker evidence for a reworded clause."""
    from ..termbase import shipped_termbase

    termbase = shipped_termbase()
    uncovered = sorted({lang for lang in languages if termbase.column(lang) is None})
    if not uncovered:
        return None
    return [
        f"{lang}: no termbase column; its clauses are aligned from labels, numbers, symbols "
        "and rule references alone."
        for lang in uncovered
    ]
