"""What changed between two editions of one language, word by word.

Reads align_editions: a clause whose label changed is renumbered (with its wording change, if
any), not a deletion plus an insertion; clauses only in A are removed, only in B added. The
renumbering is counted and summarised by section as every reader does (align.renumbering).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..align.composition import ANCESTORS
from ..align.renumbering import Renumbering, is_renumbered, renumbering
from ..errors import NotFoundError, QueryError
from ..record import OPTIONAL, Record, key
from ..store.queries import EditionInfo, find_edition_or_version, list_editions
from ..text.labels import label_sort_key, rule_scope
from ..text.language import is_english, same_language
from ..text.normalize import fold_notation
from ..text.notation import lost_characters
from .worddiff import changed, summarize, word_diff

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from ..align import EditionAlignment

# Clause kinds a historian compares; page noise and commentary are not rules text.
_COMPARED = ("rule", "example", "glossary", "heading")


@dataclass
class Change(Record):
    """One clause that differs: added, removed, renumbered or changed (reworded)."""

    kind: str  # added | removed | renumbered | changed | notation
    pair: str  # the aligner's pair kind (match, renumbered, split...)
    from_label: str | None = field(metadata=key("from"))
    to_label: str | None = field(metadata=key("to"))
    clause_kind: str | None
    parent: str | None
    a_text: str | None
    b_text: str | None
    score: float
    # Only when the clause is in both editions: the word diff and its one-line gist.
    words: list[dict[str, Any]] | None = field(default=None, metadata=OPTIONAL)
    wording_changed: bool | None = field(default=None, metadata=OPTIONAL)
    gist: str | None = field(default=None, metadata=OPTIONAL)
    term: str | None = field(default=None, metadata=OPTIONAL)  # a glossary entry's term
    # Each side's term when that side is a glossary entry (which has no label): a glossary
    # entry that became a rule (the 2009 renumbering) is named by its term, not "None".
    from_term: str | None = field(default=None, metadata=OPTIONAL)
    to_term: str | None = field(default=None, metadata=OPTIONAL)
    # An added clause written from clauses of A (a rule rewritten under another number, a
    # glossary entry that became rules), as the stored lineage of a step between the two
    # editions says and trace shows: each as {"kind", "label", "term"}, in A's order.
    came_from: list[dict[str, str | None]] | None = field(default=None, metadata=OPTIONAL)


@dataclass
class DiffReport(Record):
    """What changed from edition ``a`` to edition ``b`` (of one language)."""

    a: EditionInfo
    b: EditionInfo
    rule: str | None
    changes: list[Change]
    summary: dict[str, int]
    # The renumbering of the pair (of the rule, with --rule): its count and its sections.
    renumbering: Renumbering

    @property
    def added(self) -> list[str]:
        return [c.to_label for c in self.changes if c.kind == "added" and c.to_label]

    @property
    def removed(self) -> list[str]:
        return [c.from_label for c in self.changes if c.kind == "removed" and c.from_label]

    @property
    def renumbered(self) -> list[dict[str, str | None]]:
        return [
            {"from": c.from_label, "to": c.to_label} for c in self.changes if c.kind == "renumbered"
        ]

    def as_json(self) -> dict[str, Any]:
        out = super().as_json()
        summary = out.pop("summary")
        numbering = out.pop("renumbering")
        return {
            **out,
            "added": self.added,
            "removed": self.removed,
            "renumbered": self.renumbered,
            "renumbering": numbering,
            "summary": summary,
        }

    def has_differences(self) -> bool:
        """Any change in the rules; notation alone ({oW} for {W}, "--" for an em dash) is
        the same rules written otherwise, so ``diff --exit-code`` does not count it."""
        return any(c.kind != "notation" for c in self.changes)


def _spaced(text: str) -> str:
    return " ".join(text.split())


def same_wording(a: str, b: str) -> bool:
    """Do two printed texts say the same words, once notation is folded? The old mana
    symbols ({oW}, folded by normalize_text) and the plain-text editions' ASCII typography
    ("--" for an em dash, "(TM)" for the trademark sign, folded by
    text/notation.fold_ascii_typography): 4 rules between the 2012-07-01 and 2013-04-29 .txt
    files differ only so, and 16 between 2004-10-01 and 2005-02-01 ({oX} -> {X}). Also the
    same words where one file lost a character and wrote "?" (text/notation.lost_characters):
    every one of the 1,173 clauses the two copies of 2008-05-01 differ in."""
    fa, fb = fold_notation(a), fold_notation(b)
    return fa == fb or lost_characters(fa, fb)


def damaged(a: str, b: str) -> bool:
    """Is the one difference of two printings a character the file lost ("?" for a dash)?"""
    return lost_characters(fold_notation(a), fold_notation(b))


def edition_diff(
    session: Session, a: str, b: str, *, rule: str | None = None, as_of: int | None = None
) -> DiffReport:
    """``session``: a SQLAlchemy session, or the standard library's connection of a current
    SQLite store (store/sql.py: diff reads only what the store holds, like drift and trace;
    a pair to align in memory declines that path and is read again on the usual session)."""
    from ..align import align_editions

    infos = list_editions(session, as_of)
    # An earlier version of an edition (superseded, so not in the list) by its id, as
    # ingest names it when a PDF or Word copy of a date differs from its .txt.
    ea_info, eb_info = (
        find_edition_or_version(session, infos, a),
        find_edition_or_version(session, infos, b),
    )
    if not same_language(ea_info.language, eb_info.language):
        # drift's edition is the translation, its reference the English, whichever came first.
        english, other = (ea_info, eb_info) if is_english(ea_info.language) else (eb_info, ea_info)
        raise QueryError(
            f"diff compares two editions of one language, but {ea_info.slug} is "
            f"{ea_info.language} and {eb_info.slug} is {eb_info.language}; to compare a "
            f"translation with its English run: mtgrules drift --edition {other.slug} "
            f"--reference {english.slug}"
        )
    if ea_info.id == eb_info.id:
        raise QueryError(f"{a} and {b} are the same edition ({ea_info.slug}); give two editions")
    # Editions further apart (en-2009-07-11 and en-2026-01-16) are read through the stored
    # steps between them, and an English copy through its official English too, even where
    # the two were also stored as a pair for update: the one map of the pair, as every reader
    # reads it (align/composition.py edition_map).
    ea = align_editions(session, ea_info.id, eb_info.id)
    report = alignment_diff(ea, rule=rule)
    if rule and not report.changes and report.summary["unchanged"] == 0:
        raise NotFoundError(
            f"rule {rule} is in neither {ea_info.slug} nor {eb_info.slug}; "
            "see: mtgrules show " + rule
        )
    return report


def _words(a: str, b: str) -> list[dict[str, str]]:
    # Most clauses of two consecutive editions are identical: skip difflib for them (the
    # same operations word_diff gives for equal texts).
    if a == b:
        return [{"op": "equal", "a": a, "b": b}] if a else []
    return word_diff(a, b)


def _ancestors(evidence: list[dict]) -> list[dict[str, str | None]] | None:
    found = next((e["value"] for e in evidence if e.get("feature") == ANCESTORS), None)
    if not found:
        return None
    return [{"kind": x["kind"], "label": x["label"], "term": x["term"]} for x in found]


def alignment_diff(ea: EditionAlignment, *, rule: str | None = None) -> DiffReport:
    """The DiffReport of an alignment already in hand (the site reads each stored
    alignment once and builds both its changelog and the rules' history from it)."""
    ea_info, eb_info = ea.a, ea.b
    changes: list[Change] = []
    counts = {
        "unchanged": 0,
        "changed": 0,
        "renumbered": 0,
        "added": 0,
        "removed": 0,
        "notation": 0,
    }
    for p in ea.pairs:
        ca, cb = p.a, p.b
        if rule and not (
            (ca is not None and rule_scope(ca.label, ca.parent, rule))
            or (cb is not None and rule_scope(cb.label, cb.parent, rule))
        ):
            continue
        if (ca is None or ca.kind not in _COMPARED) and (cb is None or cb.kind not in _COMPARED):
            continue
        if ca is not None and cb is None:
            kind = "removed"
        elif cb is not None and ca is None:
            kind = "added"
        else:
            assert ca is not None and cb is not None
            words = _words(ca.norm, cb.norm)
            if is_renumbered(ca, cb):
                kind = "renumbered"
            elif changed(words):
                kind = "notation" if same_wording(ca.text, cb.text) else "changed"
            elif _spaced(ca.text) != _spaced(cb.text):
                kind = "notation"  # norm folds the notation: only the printed text differs
            else:
                counts["unchanged"] += 1
                continue
        counts[kind] += 1
        either = cb or ca
        entry = Change(
            kind=kind,
            pair=p.kind,
            from_label=ca.label if ca else None,
            to_label=cb.label if cb else None,
            clause_kind=either.kind if either else None,
            parent=either.parent if either else None,
            a_text=ca.norm if ca else None,
            b_text=cb.norm if cb else None,
            score=round(p.score, 4),
            term=either.term if either else None,
            from_term=ca.term if ca is not None and ca.kind == "glossary" else None,
            to_term=cb.term if cb is not None and cb.kind == "glossary" else None,
        )
        if kind == "added":
            entry.came_from = _ancestors(p.evidence)
        if kind == "notation":
            # The printed texts, so that a reader sees "{oW}" -> "{W}" or "--" -> an em dash.
            assert ca is not None and cb is not None
            printed = word_diff(_spaced(ca.text), _spaced(cb.text))
            entry.a_text, entry.b_text = _spaced(ca.text), _spaced(cb.text)
            entry.words = printed
            entry.wording_changed = False
            lost = damaged(ca.text, cb.text)
            entry.gist = ("damage: " if lost else "notation: ") + summarize(printed)
        elif ca is not None and cb is not None:
            words = _words(ca.norm, cb.norm)
            entry.words = words
            entry.wording_changed = changed(words) and not same_wording(ca.text, cb.text)
            entry.gist = summarize(words)
        changes.append(entry)

    def order(c: Change) -> tuple:
        lab = c.to_label or c.from_label or c.parent or ""
        return label_sort_key(lab.rstrip(".")) if lab else (10**9,)

    changes.sort(key=order)
    moves = [(c.from_label or "", c.to_label or "") for c in changes if c.kind == "renumbered"]
    return DiffReport(ea_info, eb_info, rule, changes, counts, renumbering(moves))
