"""`mtgrules remove EDITION...`: the way out of a mistake (a README ingested as a glossary, a
file of the wrong language), as a new revision.

Nothing is deleted: the removed editions are marked superseded in the new revision, as
ingest marks the editions a changed file replaces. Every reader reads only the editions
alive at the revision it asks for, so they are gone from every command, and ``--as-of`` an
earlier revision still reads them (``mtgrules history`` lists the removal). Their stored
alignments stay too (``--as-of`` reads them); in the same transaction the alignments the
remaining editions need are brought up to date, as after an ingest: removing an English
edition between two others aligns those two with each other.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from . import __version__
from .errors import QueryError
from .record import Record
from .store.models import Document, Edition, Revision
from .store.queries import EditionInfo, find_edition, list_editions


@dataclass
class RemoveReport(Record):
    """What a removal did: the revision it made, the editions it removed, and the
    alignments it brought up to date."""

    revision_id: int
    removed: list[dict[str, object]]
    alignments: dict[str, object] = field(default_factory=dict)


def remove_editions(session: Session, keys: list[str]) -> RemoveReport:
    """Remove the editions named by ``keys`` (ids, names such as en-2026-01-16, or source
    files) as one new revision; NotFoundError when one is not in the store, and then the
    store is left as it was."""
    from .align.plan import paused_gc, update_alignments

    if not keys:
        raise QueryError(
            "name the editions to remove: mtgrules remove EDITION... (see: mtgrules editions)"
        )
    infos = list_editions(session)
    chosen: dict[int, EditionInfo] = {}
    for key in keys:
        info = find_edition(infos, key)
        chosen[info.id] = info
    revision = Revision(
        created_at=dt.datetime.now(dt.UTC), tool_version=__version__, files=[], summary={}
    )
    session.add(revision)
    session.flush()
    removed_ids = set(chosen)
    documents: set[int] = set()
    for edition in session.scalars(select(Edition).where(Edition.id.in_(removed_ids))):
        edition.superseded_in = revision.id
        documents.add(edition.document_id)
    # A document whose every edition is gone is gone too (as a replaced file's document).
    for doc in session.scalars(select(Document).where(Document.id.in_(documents))):
        alive = session.scalars(
            select(Edition.id).where(Edition.document_id == doc.id, Edition.superseded_in.is_(None))
        ).first()
        if alive is None:
            doc.superseded_in = revision.id
    removed = [
        {"id": e.id, "slug": e.slug, "language": e.language, "kind": e.kind, "date": e.date}
        for e in sorted(chosen.values(), key=lambda e: e.id)
    ]
    revision.summary = {
        "editions_added": 0,
        "clauses_added": 0,
        "files_changed": 0,
        "flags": {},
        "editions_removed": len(removed),
        "clauses_removed": sum(e.clauses for e in chosen.values()),
        "removed": [e["slug"] for e in removed],
    }
    session.flush()
    with paused_gc():
        run = update_alignments(session)
    return RemoveReport(
        revision_id=revision.id,
        removed=removed,
        alignments={
            "aligned": [f"{p.a} {p.b}" for p in run.aligned],
            "removed": run.removed,
            "kept": run.kept,
        },
    )
