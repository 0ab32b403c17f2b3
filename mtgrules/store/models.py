"""SQLAlchemy 2 models. The schema itself changes only through migrations/ (Alembic)."""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


class Revision(Base):
    """One ingest: when, by which tool version, which files (with sha256) and what changed."""

    __tablename__ = "revision"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    tool_version: Mapped[str] = mapped_column(String(32))
    files: Mapped[list[Any]] = mapped_column(JSON)
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)


class Document(Base):
    """One distinct source file, identified by the sha256 of its bytes."""

    __tablename__ = "document"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(255), index=True)
    path: Mapped[str] = mapped_column(Text)
    origin: Mapped[str | None] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    encoding: Mapped[str] = mapped_column(String(32))
    newline: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    revision_id: Mapped[int] = mapped_column(ForeignKey("revision.id"))
    superseded_in: Mapped[int | None] = mapped_column(ForeignKey("revision.id"))


class Download(Base):
    """What `mtgrules fetch` downloaded: the rules page it read, or a rules document that page
    links. Kept for the next fetch to ask conditionally (its ETag and Last-Modified: an
    unchanged file is not downloaded again) and as the source of an edition: the URL, when
    and the sha256 of the bytes (its Document holds the same bytes, and the URL as origin)."""

    __tablename__ = "download"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    url: Mapped[str] = mapped_column(Text, index=True)
    final_url: Mapped[str] = mapped_column(Text)  # after redirects
    kind: Mapped[str] = mapped_column(String(16))  # "page" or "file"
    etag: Mapped[str | None] = mapped_column(Text)
    last_modified: Mapped[str | None] = mapped_column(String(64))
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(Integer)
    fetched_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    # The links a page held (its rules documents), for a conditional request that says it
    # has not changed.
    links: Mapped[list[Any] | None] = mapped_column(JSON)
    # The revision that ingested it (none when its bytes were already in the store).
    revision_id: Mapped[int | None] = mapped_column(ForeignKey("revision.id"))
    document_id: Mapped[int | None] = mapped_column(ForeignKey("document.id"))


class Edition(Base):
    """One edition found in a document. Its identity is the hash of its parsed, normalized text."""

    __tablename__ = "edition"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("document.id"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    content_hash: Mapped[str] = mapped_column(String(64), index=True)
    language: Mapped[str] = mapped_column(String(16))
    kind: Mapped[str] = mapped_column(String(16))
    date: Mapped[dt.date | None] = mapped_column(Date)
    title: Mapped[str | None] = mapped_column(Text)
    layout: Mapped[str] = mapped_column(String(16))
    clause_count: Mapped[int] = mapped_column(Integer)
    rule_count: Mapped[int] = mapped_column(Integer)
    revision_id: Mapped[int] = mapped_column(ForeignKey("revision.id"))
    superseded_in: Mapped[int | None] = mapped_column(ForeignKey("revision.id"))
    # What the text says of itself (migration 0008): the date it was translated on, if it
    # prints one, and whether it leaves its glossary out ("용어사전" then "<생략>").
    translated_on: Mapped[dt.date | None] = mapped_column(Date)
    glossary_omitted: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    document: Mapped[Document] = relationship()
    clauses: Mapped[list[Clause]] = relationship(
        back_populates="edition", order_by="Clause.position", viewonly=True
    )


class EditionSource(Base):
    """Another file that holds the same edition (same text, other bytes)."""

    __tablename__ = "edition_source"

    edition_id: Mapped[int] = mapped_column(ForeignKey("edition.id"), primary_key=True)
    document_id: Mapped[int] = mapped_column(ForeignKey("document.id"), primary_key=True)


class Clause(Base):
    """One block of an edition, in order. Never updated in place."""

    __tablename__ = "clause"
    __table_args__ = (Index("ix_clause_edition_position", "edition_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    edition_id: Mapped[int] = mapped_column(ForeignKey("edition.id"))
    position: Mapped[int] = mapped_column(Integer)
    line: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    label: Mapped[str | None] = mapped_column(String(32), index=True)
    parent: Mapped[str | None] = mapped_column(String(32), index=True)
    label_inferred: Mapped[bool] = mapped_column(Boolean, default=False)
    term: Mapped[str | None] = mapped_column(Text)
    raw: Mapped[str] = mapped_column(Text)
    norm: Mapped[str] = mapped_column(Text)
    flags: Mapped[list[Any]] = mapped_column(JSON)
    refs: Mapped[list[Any]] = mapped_column(JSON)

    edition: Mapped[Edition] = relationship(back_populates="clauses")


ALIGNMENT_KINDS = ("editions", "rule", "lineage")


class Alignment(Base):
    """One run of the aligner over a pair of editions (kind "editions"), or the links of one
    rule between two of the editions that have it (kind "rule", with the rule's label)."""

    __tablename__ = "alignment"
    __table_args__ = (Index("ix_alignment_kind_rule", "kind", "rule"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    rule: Mapped[str | None] = mapped_column(String(32))
    edition_a: Mapped[int] = mapped_column(ForeignKey("edition.id"), index=True)
    edition_b: Mapped[int] = mapped_column(ForeignKey("edition.id"), index=True)
    # The aligner's name, version and settings: links made by another signature are stale.
    signature: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    stats: Mapped[dict[str, Any]] = mapped_column(JSON)


class Link(Base):
    """Clause <-> clause: the same rule in another language, edition or in the glossary."""

    __tablename__ = "link"
    __table_args__ = (Index("ix_link_alignment_source", "alignment_id", "source_clause_id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    alignment_id: Mapped[int] = mapped_column(ForeignKey("alignment.id"))
    kind: Mapped[str] = mapped_column(String(24))
    source_clause_id: Mapped[int | None] = mapped_column(ForeignKey("clause.id"))
    target_clause_id: Mapped[int | None] = mapped_column(ForeignKey("clause.id"), index=True)
    score: Mapped[float] = mapped_column(Float)
    evidence: Mapped[list[Any]] = mapped_column(JSON)
    inferred_label: Mapped[str | None] = mapped_column(String(32))


class Term(Base):
    """A termbase entry: one form of a game-term concept in one language."""

    __tablename__ = "term"
    __table_args__ = (Index("ix_term_concept_language", "concept", "language"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    concept: Mapped[str] = mapped_column(String(100))
    language: Mapped[str] = mapped_column(String(16))
    form: Mapped[str] = mapped_column(String(200), index=True)
    source: Mapped[str] = mapped_column(String(32))  # "termbase" (shipped) or "learned"


class SourceChoice(Base):
    """Which English edition a translation was made from, chosen once at ingest (by its
    document, its date, or its content: align/dating.py) and read by every report."""

    __tablename__ = "source_choice"

    edition_id: Mapped[int] = mapped_column(ForeignKey("edition.id"), primary_key=True)
    english_id: Mapped[int | None] = mapped_column(ForeignKey("edition.id"), index=True)
    how: Mapped[str] = mapped_column(String(16))  # same-document | same-date | best-fit | none
    why: Mapped[str] = mapped_column(Text)
    fit: Mapped[float | None] = mapped_column(Float)
    # What the choice was made from (the method and the English dates there were): a choice
    # whose basis is no longer today's is made again by the next ingest.
    basis: Mapped[str] = mapped_column(String(200))
    # The dating with its evidence (align --date), for a choice made by content.
    dating: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    revision_id: Mapped[int] = mapped_column(ForeignKey("revision.id"))
