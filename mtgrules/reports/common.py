"""Helpers shared by the reports: which edition a translation follows, clause flags."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from ..store.models import Clause
from ..store.queries import EditionInfo
from ..text.language import is_english

# Kinds of clause that carry rule text; the others (headings, commentary, noise) are shown
# but never counted as a clause a translation lacks.
RULE_KINDS = ("rule", "glossary")


def is_translation(info: EditionInfo) -> bool:
    return not is_english(info.language)


def newest_english(infos: Sequence[EditionInfo], exclude: int | None = None) -> EditionInfo | None:
    dated = [
        e for e in infos if e.language == "en" and e.kind == "rules" and e.date and e.id != exclude
    ]
    return max(dated, key=lambda e: e.date or "") if dated else None


def followed_english(
    info: EditionInfo, infos: Sequence[EditionInfo], fallback: EditionInfo | None
) -> EditionInfo | None:
    """The English edition a translation was made from, as far as the store knows.

    A bilingual page's own English comes first (the translator had it in front of them),
    then the official English of the same date, then ``fallback`` (usually the newest).
    """
    english = [e for e in infos if e.language == "en" and e.id != info.id]
    own = [e for e in english if set(e.sources) & set(info.sources)]
    if own:
        return own[0]
    if info.date:
        same = [e for e in english if e.date == info.date and e.kind == info.kind]
        if same:
            return same[0]
    return fallback


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
