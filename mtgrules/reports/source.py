"""Which English edition a translation was made from, and how that is known.

A translation is compared with the English it was translated from (its source), never
straight with an English edition of another date: across language and time in one step the
aligner blames the translation for every change the English made since.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..record import Record
from ..store.queries import EditionInfo
from ..text.language import is_english
from .common import followed_english


@dataclass
class SourceChoice(Record):
    """The English edition a translation follows: ``how`` is same-document (a bilingual
    page's own English), same-date (the official English of its date) or best-fit (no
    English of its date in the store: the edition whose text it matches best, by dating)."""

    edition: EditionInfo
    how: str
    why: str
    fit: float | None = None


def find_source(
    session: Session, translation: EditionInfo, infos: list[EditionInfo]
) -> SourceChoice:
    english = [e for e in infos if is_english(e.language) and e.id != translation.id]
    if not english:
        raise NotFoundError(
            "no English edition in the store to compare the translation with; "
            "run: mtgrules ingest corpus/ (or the English edition it was made from)"
        )
    known = followed_english(translation, infos, None)
    if known is not None:
        if set(known.sources) & set(translation.sources):
            return SourceChoice(
                known, "same-document", f"{known.slug} is printed beside it in the same file"
            )
        return SourceChoice(
            known, "same-date", f"{known.slug} is the official English of the same date"
        )
    from ..align.dating import date_edition

    dating = date_edition(session, translation.id)
    by_id = {e.id: e for e in english}
    matching = [c for c in dating.candidates if c.matches and c.edition in by_id]
    if not matching:
        raise NotFoundError(
            f"no English edition in the store fits {translation.slug}; ingest the English "
            "edition it was made from, or give one: --source E"
        )
    if translation.date:
        # Of the editions it fits equally well, the one nearest its own date: a translation
        # follows the English of its time, not a later edition that happens to read alike.
        best = min(
            matching,
            key=lambda c: (abs(_days(c.date) - _days(translation.date)), -(c.fit or 0.0)),
        )
        reason = f"no English edition of {translation.date} in the store; "
    else:
        best = max(matching, key=lambda c: (c.fit, c.date or ""))
        reason = "it has no date; "
    chosen = by_id[best.edition]
    span = (
        f"{dating.range[0]} to {dating.range[1]}"
        if dating.range and dating.range[0] != dating.range[1]
        else chosen.date
    )
    return SourceChoice(
        chosen,
        "best-fit",
        f"{reason}its text fits English {span} best (fit {best.fit:.3f}); "
        f"{chosen.slug} is used. Ingest the English it was made from for a sharper report.",
        best.fit,
    )


def _days(date: str | None) -> int:
    return dt.date.fromisoformat(date).toordinal() if date else 0
