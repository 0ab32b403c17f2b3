"""Which English edition another edition is read against: the one a translation was made
from (its source), and the newest official English. Shared by the aligner (the links stored
at ingest) and the reports (update, drift, trace, export), so that all answer the same.

A translation is compared with the English it was translated from, never straight with an
English edition of another date: across language and time in one step the aligner blames the
translation for every change the English made since.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..errors import NotFoundError
from ..record import Record
from ..store.queries import EditionInfo, edition_clauses
from ..text.language import is_english
from .choice import (
    BEST_FIT,
    NONE,
    SAME_DATE,
    SAME_DOCUMENT,
    StoredChoice,
    choice_basis,
    stored_choice,
    stored_dating,
)
from .english import EnglishEdition, is_official_english, store_english

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

    from .dating import Dating


def newest_english(infos: Sequence[EditionInfo], exclude: int | None = None) -> EditionInfo | None:
    dated = [e for e in infos if is_official_english(e) and e.id != exclude]
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


@dataclass
class SourceChoice(Record):
    """The English edition a translation follows: ``how`` is same-document (a bilingual
    page's own English), same-date (the official English of its date) or best-fit (no
    English of its date: the edition whose text it matches best, by dating)."""

    edition: EditionInfo
    how: str
    why: str
    fit: float | None = None
    # A best fit whose labels agree this well with the translation's (dating's "labels"):
    # the two number alike, and the aligner may take a shared label as evidence.
    labels: float | None = None

    @property
    def numbered_alike(self) -> bool:
        return self.labels is not None and self.labels >= NUMBERED_ALIKE


# A translation read against an English of another date numbers its rules like it when this
# share of their labels (in the part it covers) agree: the English of 2026-01-16 and the
# Chinese of 2026-02-27 agree on 99.8%, the six rules inserted between aside.
NUMBERED_ALIKE = 0.95


def _chosen_labels(dating: dict | None) -> float | None:
    """The label agreement of the English a dating chose (its candidate row)."""
    if not dating or not dating.get("source"):
        return None
    source = dating["source"]
    for row in dating.get("candidates", []):
        if row.get("date") == source.get("date") and (
            row.get("file") == source.get("file") or row.get("edition") == source.get("edition")
        ):
            return row.get("labels")
    return None


@dataclass
class Choice:
    """A source chosen at ingest: the English (in the store, or a file of the packed
    archive to take), how and why, and the dating behind a choice by content."""

    how: str
    english: EnglishEdition | None
    why: str
    fit: float | None = None
    dating: Dating | None = None


def find_source(
    session: Session, translation: EditionInfo, infos: list[EditionInfo]
) -> SourceChoice:
    """The English ``translation`` was made from: the choice stored at ingest, else (a store
    that has none yet, or a read --as-of an earlier revision) worked out now from the
    store's English editions, writing nothing."""
    english = [e for e in infos if is_english(e.language) and e.id != translation.id]
    if not english:
        raise NotFoundError(
            "no English edition in the store to compare the translation with; "
            "run: mtgrules ingest corpus/ (or the English edition it was made from)"
        )
    by_id = {e.id: e for e in infos}
    stored = stored_choice(session, translation)
    if (
        stored is not None
        and stored.english_id in by_id
        and _still_holds(stored, translation, infos)
    ):
        return SourceChoice(
            by_id[stored.english_id],
            stored.how,
            stored.why,
            stored.fit,
            _chosen_labels(stored.dating) if stored.how == BEST_FIT else None,
        )
    choice = choose_source(session, translation, infos, None)
    if choice.english is None or choice.english.edition is None:
        raise NotFoundError(
            f"no English edition in the store fits {translation.slug}; ingest the English "
            "edition it was made from, or give one: --source E"
        )
    labels = _chosen_labels(choice.dating.as_json()) if choice.dating is not None else None
    return SourceChoice(choice.english.edition, choice.how, choice.why, choice.fit, labels)


def _still_holds(stored: StoredChoice, translation: EditionInfo, infos: list[EditionInfo]) -> bool:
    """Is a stored choice still what choosing now would give? The English of the document or
    the date, when the store has it, always wins; a choice by content holds while every
    English edition it was chosen among is still all there is."""
    known = followed_english(translation, infos, None)
    if known is not None:
        return stored.how in (SAME_DOCUMENT, SAME_DATE) and stored.english_id == known.id
    return stored.how not in (SAME_DOCUMENT, SAME_DATE) and stored.basis == choice_basis(
        stored.how, infos
    )


def choice_is_current(
    session: Session,
    translation: EditionInfo,
    infos: list[EditionInfo],
    stored: StoredChoice | None,
) -> bool:
    by_id = {e.id for e in infos}
    return (
        stored is not None
        and (stored.english_id is None or stored.english_id in by_id)
        and _still_holds(stored, translation, infos)
    )


def choose_source(
    session: Session,
    translation: EditionInfo,
    infos: list[EditionInfo],
    english: list[EnglishEdition] | None,
) -> Choice:
    """Choose the English ``translation`` was made from. ``english``: every English edition
    there is to choose from (english.english_editions: the store's and the packed archive's);
    None for the store's alone (a reader, which cannot take a file from the archive)."""
    known = followed_english(translation, infos, None)
    if known is not None:
        held = EnglishEdition(known.slug, known.date, edition=known)
        if set(known.sources) & set(translation.sources):
            return Choice(
                SAME_DOCUMENT, held, f"{known.slug} is printed beside it in the same file"
            )
        return Choice(SAME_DATE, held, f"{known.slug} is the official English of the same date")
    if english is not None and translation.date:
        same = [e for e in english if e.date == translation.date and e.file is not None]
        if same:
            return Choice(
                SAME_DATE,
                same[0],
                f"en-{translation.date} is the official English of the same date (from the "
                "English archive packed inside mtgrules)",
            )
    pool = english if english is not None else store_english(session, infos)
    pool = [e for e in pool if e.edition is None or e.edition.id != translation.id]
    from .dating import date_text  # the aligner: only when no stored choice holds

    dating = date_text(session, translation, edition_clauses(session, translation.id), pool, infos)
    if dating.chosen is None:
        return Choice(NONE, None, f"no English edition fits {translation.slug}", None, dating)
    chosen = dating.chosen
    best = next(
        (
            c
            for c in dating.candidates
            if c.matches
            and (c.file == (chosen.file.name if chosen.file else None))
            and c.date == chosen.date
        ),
        None,
    )
    fit = best.fit if best else None
    span = (
        f"{dating.range[0]} to {dating.range[1]}"
        if dating.range and dating.range[0] != dating.range[1]
        else chosen.date
    )
    where = "" if chosen.in_store else " (from the English archive packed inside mtgrules)"
    if translation.date:
        reason = f"no English edition of {translation.date} in the store or the archive; "
        if english is None:
            reason = f"no English edition of {translation.date} in the store; "
    else:
        reason = "it has no date; "
    scope = dating.scope
    covers = f"in {scope.describe()}, " if scope is not None and not scope.whole else ""
    name = chosen.edition.slug if chosen.edition else f"en-{chosen.date}"
    why = (
        f"{reason}{covers}its text fits English {span} best"
        + (f" (fit {fit:.3f})" if fit is not None else "")
        + f"; {name}{where} is used."
    )
    return Choice(BEST_FIT, chosen, why, fit, dating)


def date_edition(session: Session, edition_id: int, *, as_of: int | None = None) -> Dating:
    """Which English editions an edition follows (``align --date``): the dating stored at
    ingest when there is one (a translation dated by its content), else worked out now
    against every English edition there is (the store's, and the packed archive's for the
    dates the store lacks), without writing anything."""
    from ..store.queries import list_editions
    from .english import english_editions

    infos = list_editions(session, as_of)
    target = next(e for e in infos if e.id == edition_id)
    if as_of is None:
        stored = stored_dating(session, target)
        if stored is not None:
            return stored
    pool = [
        e
        for e in english_editions(session, infos)
        if e.edition is None or e.edition.id != target.id
    ]
    from .dating import date_text

    return date_text(session, target, edition_clauses(session, target.id), pool, infos)
