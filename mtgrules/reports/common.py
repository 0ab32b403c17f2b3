"""Helpers shared by the reports: which edition a translation follows, clause flags."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

# One answer for "which English does this edition follow", shared with the aligner.
from ..align.reference import followed_english, newest_english
from ..store.queries import EditionInfo
from ..store.sql import fetch_in, json_list
from ..text.language import is_english

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

__all__ = [
    "RULE_KINDS",
    "clause_flags",
    "edition_gaps",
    "followed_english",
    "is_translation",
    "newest_english",
]

# Kinds of clause that carry rule text; the others (headings, commentary, noise) are shown
# but never counted as a clause a translation lacks.
RULE_KINDS = ("rule", "glossary")


def is_translation(info: EditionInfo) -> bool:
    return not is_english(info.language)


def clause_flags(session: Session, ids: Iterable[int]) -> dict[int, tuple[list[str], str | None]]:
    """Damage flags and parent rule of clauses by id (alignment members carry neither)."""
    rows = fetch_in(
        session, "SELECT id, flags, parent FROM clause WHERE id IN ({ids})", ids, plain=True
    )
    return {cid: (json_list(flags), parent) for cid, flags, parent in rows}


def edition_gaps(report: dict[str, Any], editions: dict[str, Any], reference: str):
    """For each edition of a drift report that lacks or renumbers something: (key, edition,
    labels it lacks, its renumberings, reference texts by key). Shared by every renderer."""
    texts = {r["key"]: r["text"] for r in report["rows"]}
    renumbered: dict[str, list[dict[str, Any]]] = {}
    for item in report["renumbered"]:
        renumbered.setdefault(str(item["edition"]), []).append(item)
    for key, edition in editions.items():
        lacks = report["missing"].get(key, [])
        moved = renumbered.get(key, [])
        if key != reference and (lacks or moved):
            yield key, edition, lacks, moved, texts


def defect_lines(defects: dict[str, Any] | None) -> list[str]:
    """A translation's own defects (update's, or drift's read through update), one line each:
    every renderer says them alike."""
    if not defects:
        return []
    out = [
        f"its {m['label']} is {m['expected']} (a mislabel): {m['text'][:80]}"
        for m in defects["mislabels"]
    ]
    if defects["duplicate_labels"]:
        out.append("labels it uses twice: " + ", ".join(defects["duplicate_labels"]))
    return out


def update_sections(report: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """The clauses of an update report grouped as every renderer shows them: new (translate),
    changed (review), renumbered, removed (delete), unchanged."""
    out: dict[str, list[dict[str, Any]]] = {
        "new": [],
        "changed": [],
        "renumbered": [],
        "unchanged": [],
    }
    for item in report["clauses"]:
        out[item["status"]].append(item)
    out["removed"] = list(report["removed"])
    return out


def clause_name(
    label: str | None,
    kind: str | None,
    *,
    term: str | None = None,
    parent: str | None = None,
    inferred: bool = False,
) -> str:
    """How every report names a clause: its label (107.3a, 107.3a* when inferred), a
    glossary entry by its term, else what it sits under. Never "None" nor an empty name."""
    if kind == "glossary" or (term and not label):
        return f"glossary: {term}" if term else "a glossary entry"
    if label:
        return label + ("*" if inferred else "")
    what = kind or "clause"
    return f"({what} under {parent})" if parent else f"(an unnumbered {what})"


def shown_label(label: str | None) -> str:
    """A label as printed in a renumbering ("its 107.3e is 107.3f"): a clause without one
    (a glossary entry, an unnumbered paragraph) reads "(unnumbered)", never "None"."""
    return label or "(unnumbered)"


def came_from(change: dict[str, Any], older: str) -> str | None:
    """Where an added clause of a diff was written from, in edition ``older`` ("from
    en-2009-05-01's glossary: X"), when the stored lineage says (diff.Change.came_from)."""
    sources = change.get("came_from")
    if not sources:
        return None
    names = [clause_name(x["label"], x["kind"], term=x["term"]) for x in sources]
    return f"from {older}'s {', '.join(names)}"


def change_sides(change: dict[str, Any]) -> tuple[str, str]:
    """The names of a diff change's old and new clause (a glossary entry by its term)."""
    kind = change.get("clause_kind")
    term = change.get("term")
    a = clause_name(
        change.get("from"),
        "glossary" if change.get("from_term") else kind,
        term=change.get("from_term") or (term if kind == "glossary" else None),
        parent=change.get("parent"),
    )
    b = clause_name(
        change.get("to"),
        "glossary" if change.get("to_term") else kind,
        term=change.get("to_term") or (term if kind == "glossary" else None),
        parent=change.get("parent"),
    )
    return a, b


def change_name(change: dict[str, Any]) -> str:
    """One name for a diff change: the old clause's for a removal, else the new one's."""
    a, b = change_sides(change)
    return a if change["kind"] == "removed" else b


def update_item_name(item: dict[str, Any]) -> str:
    """How a clause of an update report is named: its label, a glossary entry's term (with
    the translation's term), or what it sits under."""
    if item["kind"] == "glossary":
        name = clause_name(None, "glossary", term=item.get("term"))
        if item.get("translated_term"):
            name += f" ({item['translated_term']})"
        return name
    return clause_name(item["label"], item["kind"], parent=item.get("parent"))


def update_from_name(item: dict[str, Any]) -> str:
    """The name an update report's clause had in the English the translation was made
    from (a glossary entry keeps its term)."""
    if item["kind"] == "glossary":
        return update_item_name(item)
    return clause_name(item.get("from_label"), item["kind"], parent=item.get("parent"))


def older_alignments(session: Session) -> bool:
    """Whether an edition alignment the ingest stored was made by another version of the
    aligner (align/signature.py): readers then align in memory until an ingest redoes it."""
    from ..align.storage import edition_alignment_rows

    return any(r.origin == "ingest" and not r.current for r in edition_alignment_rows(session))
