"""What `mtgrules fetch` downloaded (the ``download`` table): read back for the next
conditional request, written with the revision that ingested it, listed by `history`."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select

from .models import Document, Download

if TYPE_CHECKING:
    from sqlalchemy.orm import Session


@dataclass
class DownloadRecord:
    """One download by `mtgrules fetch` (a row of ``download``): the rules page or a rules document,
    its validators for the next conditional request, and a page's rules links."""

    url: str
    final_url: str
    kind: str  # page | file
    etag: str | None
    last_modified: str | None
    sha256: str
    size: int
    fetched_at: dt.datetime
    links: list[Any] | None = None
    revision_id: int | None = None
    document_id: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "url": self.url,
            "final_url": self.final_url,
            "kind": self.kind,
            "fetched_at": self.fetched_at.isoformat(),
            "sha256": self.sha256,
            "size": self.size,
            "etag": self.etag,
            "last_modified": self.last_modified,
        }


def last_download(session: Session, url: str) -> DownloadRecord | None:
    """The newest download of ``url``, or None; None too when the document it became is no
    longer in the store (`mtgrules remove` took its edition out): then it is asked for
    again unconditionally, not answered "not modified"."""
    row = session.scalars(
        select(Download).where(Download.url == url).order_by(Download.id.desc()).limit(1)
    ).first()
    if row is None:
        return None
    if row.document_id is not None:
        gone = session.scalar(select(Document.superseded_in).where(Document.id == row.document_id))
        if gone is not None:
            return None
    return _record(row)


def known_urls(session: Session) -> set[str]:
    return set(session.scalars(select(Download.url).where(Download.kind == "file")))


def save_downloads(session: Session, records: list[DownloadRecord]) -> None:
    """Record downloads; a file's document is found by the sha256 of its bytes."""
    for r in records:
        if r.kind == "file" and r.document_id is None:
            r.document_id = session.scalar(select(Document.id).where(Document.sha256 == r.sha256))
        session.add(
            Download(
                url=r.url,
                final_url=r.final_url,
                kind=r.kind,
                etag=r.etag,
                last_modified=r.last_modified,
                sha256=r.sha256,
                size=r.size,
                fetched_at=r.fetched_at,
                links=r.links,
                revision_id=r.revision_id,
                document_id=r.document_id,
            )
        )
    session.flush()


def downloads_by_revision(session: Session) -> dict[int, list[DownloadRecord]]:
    """The files downloaded into each revision, for `history`."""
    out: dict[int, list[DownloadRecord]] = {}
    for row in session.scalars(
        select(Download).where(Download.revision_id.is_not(None)).order_by(Download.id)
    ):
        out.setdefault(row.revision_id, []).append(_record(row))
    return out


def _record(row: Download) -> DownloadRecord:
    return DownloadRecord(
        row.url,
        row.final_url,
        row.kind,
        row.etag,
        row.last_modified,
        row.sha256,
        row.size,
        row.fetched_at,
        list(row.links) if row.links is not None else None,
        row.revision_id,
        row.document_id,
    )
