"""Read side of the store: editions alive at a revision, rules with their subrules, history."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import and_, func, or_, select
from sqlalchemy.orm import Session

from ..errors import NotFoundError
from ..record import INTERNAL, Record
from ..text.labels import in_rule
from .models import Clause, Document, Edition, EditionSource, Revision

DAMAGE_FLAGS = ("lost-symbol", "html-entity", "obfuscated-email", "replacement-char")


@dataclass
class EditionInfo:
    id: int
    slug: str
    language: str
    kind: str
    date: str | None
    source: str
    sources: list[str]
    clauses: int
    rules: int
    revision: int

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "slug": self.slug,
            "language": self.language,
            "kind": self.kind,
            "date": self.date,
            "source": self.source,
            "sources": self.sources,
            "clauses": self.clauses,
            "rules": self.rules,
            "revision": self.revision,
        }

    def header_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("id", "slug", "language", "kind", "date", "source")}


def latest_revision(session: Session) -> int | None:
    return session.scalar(select(func.max(Revision.id)))


def alive_at(as_of: int | None):
    """The filter for editions alive at revision ``as_of`` (None: now)."""
    if as_of is None:
        return Edition.superseded_in.is_(None)
    return and_(
        Edition.revision_id <= as_of,
        or_(Edition.superseded_in.is_(None), Edition.superseded_in > as_of),
    )


def check_revision(session: Session, as_of: int | None) -> None:
    if as_of is None:
        return
    latest = latest_revision(session)
    if latest is None or as_of < 1 or as_of > latest:
        raise NotFoundError(
            f"no revision {as_of} in the store (it has 1 to {latest or 0}); see: mtgrules history"
        )


def list_editions(session: Session, as_of: int | None = None) -> list[EditionInfo]:
    check_revision(session, as_of)
    rows = session.execute(
        select(Edition, Document.name)
        .join(Document, Edition.document_id == Document.id)
        .where(alive_at(as_of))
        .order_by(Edition.date.is_(None), Edition.date, Edition.language, Edition.id)
    ).all()
    extra: dict[int, list[str]] = {}
    for edition_id, name in session.execute(
        select(EditionSource.edition_id, Document.name).join(
            Document, EditionSource.document_id == Document.id
        )
    ):
        extra.setdefault(edition_id, []).append(name)
    infos = []
    slugs: dict[str, int] = {}
    for edition, name in rows:
        base = f"{edition.language}-{edition.date.isoformat() if edition.date else name.removesuffix('.txt')}"
        if edition.kind == "glossary":
            base += "-glossary"
        slugs[base] = slugs.get(base, 0) + 1
        infos.append(
            EditionInfo(
                id=edition.id,
                slug=base if slugs[base] == 1 else f"{base}-{edition.id}",
                language=edition.language,
                kind=edition.kind,
                date=edition.date.isoformat() if edition.date else None,
                source=name,
                sources=[name, *extra.get(edition.id, [])],
                clauses=edition.clause_count,
                rules=edition.rule_count,
                revision=edition.revision_id,
            )
        )
    return infos


def find_edition(infos: list[EditionInfo], key: str) -> EditionInfo:
    """An edition by id, slug, source file name, or date (the English one when several)."""
    key = key.strip()
    for test in (
        lambda e: str(e.id) == key,
        lambda e: e.slug == key,
        lambda e: key in e.sources,
        lambda e: e.date == key and e.language == "en",
        lambda e: e.date == key,
    ):
        hits = [e for e in infos if test(e)]
        if hits:
            return hits[0]
    raise NotFoundError(f"no edition '{key}' in the store; list them with: mtgrules editions")


def filter_editions(
    infos: list[EditionInfo], *, language: str | None = None, edition: str | None = None
) -> list[EditionInfo]:
    if edition:
        infos = [find_edition(infos, edition)]
    if language:
        lang = language.lower()
        infos = [
            e
            for e in infos
            if e.language.lower() == lang or e.language.lower().startswith(lang + "-")
        ]
        if not infos:
            raise NotFoundError(
                f"no {language} edition in the store; run: mtgrules ingest PATH (see mtgrules editions)"
            )
    return infos


@dataclass
class ClauseView:
    id: int
    position: int
    label: str | None
    label_inferred: bool
    kind: str
    text: str
    norm: str
    parent: str | None
    term: str | None
    flags: list[str]

    def as_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "text": self.text,
            "kind": self.kind,
            "label_inferred": self.label_inferred,
            "parent": self.parent,
            "term": self.term,
            "flags": self.flags,
        }


def _view(c: Clause) -> ClauseView:
    return ClauseView(
        c.id,
        c.position,
        c.label,
        c.label_inferred,
        c.kind,
        c.raw,
        c.norm,
        c.parent,
        c.term,
        list(c.flags or []),
    )


def rule_clauses(session: Session, edition_id: int, rule: str) -> list[ClauseView]:
    """The rule, its subrules, and what sits under them (examples, notes, unlabelled
    subrules), in document order."""
    if "." in rule:
        base = rule
        like = select(Clause).where(
            Clause.edition_id == edition_id,
            or_(Clause.label.like(base + "%"), Clause.parent.like(base + "%")),
        )
    else:
        like = select(Clause).where(
            Clause.edition_id == edition_id,
            or_(
                Clause.label == rule,
                Clause.label.like(rule + ".%"),
                Clause.parent.like(rule + ".%"),
            ),
        )
    rows = session.scalars(like.order_by(Clause.position)).all()
    labels = {c.label for c in rows if c.kind in ("rule", "heading") and in_rule(c.label, rule)}
    keep = [
        c
        for c in rows
        if (c.kind in ("rule", "heading") and in_rule(c.label, rule))
        or (c.label is None and (c.parent in labels or c.parent == rule))
    ]
    return [_view(c) for c in keep]


_VIEW_COLUMNS = (
    Clause.id,
    Clause.position,
    Clause.label,
    Clause.label_inferred,
    Clause.kind,
    Clause.raw,
    Clause.norm,
    Clause.parent,
    Clause.term,
    Clause.flags,
)


def edition_clauses(session: Session, edition_id: int) -> list[ClauseView]:
    # Plain rows, not ORM objects: a whole edition is 4,000 clauses and the aligner reads two
    # per pair of editions at ingest (five times faster this way).
    rows = session.execute(
        select(*_VIEW_COLUMNS).where(Clause.edition_id == edition_id).order_by(Clause.position)
    )
    return [
        ClauseView(
            cid, pos, label, bool(inferred), kind, raw, norm, parent, term, list(flags or [])
        )
        for cid, pos, label, inferred, kind, raw, norm, parent, term, flags in rows
    ]


@dataclass
class ShownEdition(Record):
    edition: EditionInfo
    clauses: list[ClauseView]

    def as_json(self) -> dict[str, Any]:
        return {**self.edition.header_json(), "clauses": [c.as_json() for c in self.clauses]}


@dataclass
class RuleShown(Record):
    """A rule with its subrules (and what sits under them) in every edition that has it."""

    rule: str
    editions: list[ShownEdition]


def show_rule(
    session: Session,
    rule: str,
    *,
    language: str | None = None,
    edition: str | None = None,
    as_of: int | None = None,
) -> RuleShown:
    infos = filter_editions(list_editions(session, as_of), language=language, edition=edition)
    found = []
    for info in infos:
        clauses = rule_clauses(session, info.id, rule)
        if clauses:
            found.append((info, clauses))
    if not found:
        where = f" in {edition or language}" if (edition or language) else ""
        raise NotFoundError(
            f"rule {rule} is in no edition{where}; rules before July 2009 used other numbers "
            "(the X rule was 104.3c), try: mtgrules search WORDS"
        )
    return RuleShown(rule, [ShownEdition(info, clauses) for info, clauses in found])


@dataclass
class RevisionInfo(Record):
    """One ingest: when, by which version, which files (with sha256), what changed."""

    id: int
    created_at: str  # ISO 8601, UTC
    tool_version: str
    files: list[dict[str, Any]]
    summary: dict[str, Any]
    when: dt.datetime = field(metadata=INTERNAL)


def list_revisions(session: Session) -> list[RevisionInfo]:
    return [
        RevisionInfo(
            rev.id,
            rev.created_at.isoformat(),
            rev.tool_version,
            list(rev.files or []),
            dict(rev.summary or {}),
            rev.created_at,
        )
        for rev in session.scalars(select(Revision).order_by(Revision.id))
    ]


def store_is_empty(session: Session) -> bool:
    return session.scalar(select(func.count()).select_from(Edition)) == 0
