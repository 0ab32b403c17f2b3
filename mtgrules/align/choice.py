"""The English each translation was made from, chosen once at ingest and stored.

Choosing is the plan's job (plan.py, inside the ingest's transaction): by the translation's
own document (a bilingual page), by its date (the English of that date, from the store or
the packed archive), else by its content (dating.py, over every English edition there is).
Every reader (update, drift, export, align --date) reads the stored choice here; a store
without one (made before choices were stored, or read --as-of an earlier revision) has the
choice worked out on the spot by reference.find_source, and written by the next ingest.

A stored choice holds while its basis does: the method and, for a choice by content, the
dates of every English edition there was to choose from. A new English edition of another
date (one the archive does not hold) makes the next ingest choose again.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..store.queries import EditionInfo
from ..store.sql import fetch

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from .dating import Dating

SAME_DOCUMENT = "same-document"
SAME_DATE = "same-date"
BEST_FIT = "best-fit"
NONE = "none"


@dataclass
class StoredChoice:
    """The English a translation was made from, as ingest stored it (a row of source_choice): how
    and why it was chosen, the fit of a choice by content, and the basis it holds on."""

    edition_id: int
    english_id: int | None
    how: str
    why: str
    fit: float | None
    basis: str
    dating: dict[str, Any] | None
    revision_id: int


def choice_basis(how: str, infos: list[EditionInfo]) -> str:
    """What a choice depends on: the method, and for one by content, every English date."""
    # Lazy: the dating and the English editions are the aligner's; a reader that finds the
    # choice stored (update, on the fast path of store/sql.py) never needs them.
    from .dating import METHOD
    from .english import english_dates

    if how in (SAME_DOCUMENT, SAME_DATE):
        return METHOD
    digest = hashlib.sha256(",".join(english_dates(infos)).encode()).hexdigest()[:24]
    return f"{METHOD};english={digest}"


def stored_choices(session: Session) -> dict[int, StoredChoice]:
    rows = fetch(
        session,
        "SELECT edition_id, english_id, how, why, fit, basis, dating, revision_id "
        "FROM source_choice",
        plain=True,
    )
    out = {}
    for r in rows:
        dating = r[6]
        if isinstance(dating, str):  # JSON as text (SQLite through its driver)
            dating = json.loads(dating)
        out[r[0]] = StoredChoice(r[0], r[1], r[2], r[3], r[4], r[5], dating, r[7])
    return out


def stored_choice(session: Session, translation: EditionInfo) -> StoredChoice | None:
    return stored_choices(session).get(translation.id)


def stored_dating(session: Session, translation: EditionInfo) -> Dating | None:
    """The dating ingest stored for a translation, as ``align --date`` prints it."""
    stored = stored_choice(session, translation)
    if stored is None or not stored.dating:
        return None
    from .dating import Dating

    return Dating.from_json(stored.dating, translation, stored.revision_id)


def save_choice(
    session: Session,
    translation: EditionInfo,
    english_id: int | None,
    how: str,
    why: str,
    fit: float | None,
    basis: str,
    dating: Dating | None,
    revision_id: int,
) -> None:
    from sqlalchemy import delete

    from ..store.models import SourceChoice as SourceChoiceRow

    session.execute(delete(SourceChoiceRow).where(SourceChoiceRow.edition_id == translation.id))
    session.add(
        SourceChoiceRow(
            edition_id=translation.id,
            english_id=english_id,
            how=how,
            why=why,
            fit=fit,
            basis=basis,
            dating=dating.as_json() if dating is not None else None,
            revision_id=revision_id,
        )
    )
    session.flush()
