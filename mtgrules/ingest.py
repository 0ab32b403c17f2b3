"""Files on disk into the store: one revision per ingest, written in one transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import tomllib
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from . import __version__
from .errors import InputError
from .model import ParsedDocument, ParsedEdition
from .record import Record
from .sources.decode import read_source
from .sources.segment import parse_document
from .store.clauses import insert_clauses
from .store.models import Document, Edition, EditionSource, Revision
from .store.queries import DAMAGE_FLAGS

# The package mtgrules.corpus: the top-level corpus/ folder of a checkout, shipped in the wheel.
BUNDLED_CORPUS = Path(str(resources.files("mtgrules.corpus")))
MANIFEST = "manifest.toml"
SOURCE_SUFFIXES = {".txt"}


@dataclass
class FileOutcome(Record):
    path: str
    sha256: str
    status: str  # added | unchanged | same-edition | new-version
    editions: int = 0
    clauses: int = 0


@dataclass
class IngestReport(Record):
    revision_id: int | None
    files: list[FileOutcome] = field(default_factory=list)
    editions_added: int = 0
    clauses_added: int = 0
    flags: Counter = field(default_factory=Counter)
    # What the aligner stored for the new editions (align.plan.AlignmentUpdate), when the
    # ingest was asked to align (the command line and the Python API do).
    alignments: Any = None

    @property
    def changed(self) -> bool:
        return self.revision_id is not None

    @property
    def damage(self) -> dict[str, int]:
        """The damage flags raised (lost symbols, HTML entities...), by name."""
        return {k: v for k, v in self.flags.items() if k in DAMAGE_FLAGS}

    def as_json(self) -> dict[str, Any]:
        return {
            "revision": self.revision_id,
            "editions_added": self.editions_added,
            "clauses_added": self.clauses_added,
            "flags": self.damage,
            "files": [f.as_json() for f in self.files],
            **({"alignments": self.alignments.as_json()} if self.alignments is not None else {}),
        }


def collect_sources(paths: Iterable[Path]) -> list[tuple[Path, dict]]:
    """Expand folders to their .txt files, each with its manifest entry (name, origin)."""
    found: list[tuple[Path, dict]] = []
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise InputError(f"{path}: no such file or folder.")
        if path.is_dir():
            manifest = _read_manifest(path)
            files = sorted(
                p for p in path.rglob("*") if p.is_file() and p.suffix in SOURCE_SUFFIXES
            )
            if not files:
                raise InputError(f"{path}: this folder holds no .txt files to ingest.")
            for f in files:
                found.append((f, manifest.get(f.relative_to(path).as_posix(), {})))
        else:
            found.append((path, {}))
    return found


def _read_manifest(folder: Path) -> dict[str, dict]:
    manifest = folder / MANIFEST
    if not manifest.exists():
        return {}
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise InputError(f"{manifest}: not a valid manifest ({exc}); fix or remove it.") from None
    return {str(k): v for k, v in data.get("files", {}).items()}


def edition_content_hash(edition: ParsedEdition) -> str:
    """Identity of an edition: its parsed, normalized clauses. The same edition saved in
    another encoding or line ending, or with "119.1d." for "119.1d", hashes the same."""
    h = hashlib.sha256()
    h.update(f"{edition.language}\x1e{edition.kind}\x1e".encode())
    for c in edition.clauses:
        if c.kind == "noise":
            continue
        h.update(f"{c.kind}\x1f{c.label or ''}\x1f{c.term or ''}\x1f{c.norm}\x1e".encode())
    return h.hexdigest()


def ingest_paths(
    session: Session,
    paths: Iterable[Path],
    *,
    on_file: Callable[[Path, int, int], None] | None = None,
) -> IngestReport:
    """Parse every file first (bad input raises before anything is written), then write one
    revision. The caller's transaction makes the write all or nothing."""
    sources = collect_sources(paths)
    known = set(session.scalars(select(Document.sha256)))
    report = IngestReport(revision_id=None)
    parsed: list[ParsedDocument] = []
    for done, (path, meta) in enumerate(sources, start=1):
        decoded = read_source(path)
        if on_file:
            on_file(path, done, len(sources))
        if decoded.sha256 in known:
            report.files.append(FileOutcome(str(path), decoded.sha256, "unchanged"))
            continue
        known.add(decoded.sha256)
        parsed.append(
            parse_document(path, decoded, name=meta.get("name"), origin=meta.get("origin"))
        )
    if not parsed:
        return report

    revision = Revision(
        created_at=dt.datetime.now(dt.UTC), tool_version=__version__, files=[], summary={}
    )
    session.add(revision)
    session.flush()
    report.revision_id = revision.id
    live_by_hash = {
        e.content_hash: e
        for e in session.scalars(select(Edition).where(Edition.superseded_in.is_(None)))
    }
    for doc in parsed:
        report.files.append(_write_document(session, revision, doc, live_by_hash, report))
    revision.files = [
        {"path": f.path, "sha256": f.sha256, "status": f.status} for f in report.files
    ]
    revision.summary = {
        "editions_added": report.editions_added,
        "clauses_added": report.clauses_added,
        "flags": dict(report.flags),
        "files_changed": sum(1 for f in report.files if f.status != "unchanged"),
    }
    return report


def _write_document(
    session: Session,
    revision: Revision,
    doc: ParsedDocument,
    live_by_hash: dict[str, Edition],
    report: IngestReport,
) -> FileOutcome:
    outcome = FileOutcome(doc.path, doc.decoded.sha256, "added")
    hashes = [edition_content_hash(e) for e in doc.editions]
    # A changed file (same name, other text) replaces the editions of its older version;
    # those stay in the store, readable with --as-of.
    for old in session.scalars(
        select(Document).where(Document.name == doc.name, Document.superseded_in.is_(None))
    ):
        old.superseded_in = revision.id
        outcome.status = "new-version"
        for edition in session.scalars(
            select(Edition).where(Edition.document_id == old.id, Edition.superseded_in.is_(None))
        ):
            if edition.content_hash not in hashes:
                edition.superseded_in = revision.id
                live_by_hash.pop(edition.content_hash, None)

    document = Document(
        name=doc.name,
        path=doc.path,
        origin=doc.origin,
        sha256=doc.decoded.sha256,
        encoding=doc.decoded.encoding,
        newline=doc.decoded.newline,
        size=doc.decoded.size,
        revision_id=revision.id,
    )
    session.add(document)
    session.flush()

    reused = 0
    for position, (edition, content_hash) in enumerate(zip(doc.editions, hashes, strict=True)):
        existing = live_by_hash.get(content_hash)
        if existing is not None:
            session.add(EditionSource(edition_id=existing.id, document_id=document.id))
            reused += 1
            continue
        row = Edition(
            document_id=document.id,
            position=position,
            content_hash=content_hash,
            language=edition.language,
            kind=edition.kind,
            date=edition.date,
            title=edition.title,
            layout=edition.layout,
            clause_count=len(edition.clauses),
            rule_count=edition.rule_count,
            revision_id=revision.id,
        )
        session.add(row)
        session.flush()
        live_by_hash[content_hash] = row
        insert_clauses(session, row.id, edition.clauses)
        outcome.editions += 1
        outcome.clauses += len(edition.clauses)
        report.editions_added += 1
        report.clauses_added += len(edition.clauses)
        for c in edition.clauses:
            report.flags.update(c.flags)
    if reused and not outcome.editions and outcome.status == "added":
        outcome.status = "same-edition"
    return outcome
