"""Helpers shared by the reports: which edition a translation follows, clause flags."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

# One answer for "which English does this edition follow", shared with the aligner.
from ..align.reference import followed_english, newest_english
from ..store.models import Clause
from ..store.queries import EditionInfo
from ..text.language import is_english

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
    wanted = sorted(set(ids))
    out: dict[int, tuple[list[str], str | None]] = {}
    # SQLite caps bound parameters; 500 at a time stays far below every limit.
    for i in range(0, len(wanted), 500):
        chunk = wanted[i : i + 500]
        for cid, flags, parent in session.execute(
            select(Clause.id, Clause.flags, Clause.parent).where(Clause.id.in_(chunk))
        ):
            out[cid] = (list(flags or []), parent)
    return out


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


def update_item_name(item: dict[str, Any]) -> str:
    """How a clause of an update report is named: its label, a glossary entry's term (with
    the translation's term), or what it sits under."""
    if item["kind"] == "glossary":
        name = f"glossary: {item['term']}"
        if item.get("translated_term"):
            name += f" ({item['translated_term']})"
        return name
    return item["label"] or f"{item['kind']} of {item['parent']}"
