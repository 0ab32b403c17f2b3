"""Files on disk into the store: one revision per ingest, written in one transaction."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import tomllib
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from . import __version__, archive
from .errors import InputError, NotRulesError
from .model import ParsedDocument, ParsedEdition
from .pool import Workers, worker_count
from .record import OPTIONAL, Record
from .sources.detect import detect_container
from .sources.formats import TEXT
from .sources.pipeline import detect_format, parse_document, prepare
from .sources.read import read_bytes
from .store.clauses import insert_clauses
from .store.models import Clause as StoredClause
from .store.models import Document, Edition, EditionSource, Revision
from .store.queries import DAMAGE_FLAGS
from .text.normalize import fold_notation

# The package mtgrules.corpus: the top-level corpus/ folder of a checkout, shipped in the wheel.
BUNDLED_CORPUS = Path(str(resources.files("mtgrules.corpus")))
MANIFEST = "manifest.toml"
# Extensions of the files a folder is expected to hold rules in. The format itself is read
# from the content (sources/detect.py); a file with another extension is taken only when
# its first bytes look like rules (a PDF, a Word file, or text with rule labels).
SOURCE_SUFFIXES = {
    ".txt", ".text", ".pdf", ".docx", ".doc", ".rtf", ".htm", ".html", ".xhtml",
    ".md", ".markdown", ".wiki", ".mediawiki", ".dokuwiki",
}  # fmt: skip
_SNIFF_BYTES = 65536
# A line that starts with a rule label once markup is gone ("**107.3a**", "<b>107.3a</b>",
# "<BOOKMARK:x>107.3a"), for sniffing files whose extension says nothing.
_SNIFF_LABEL = re.compile(rb"^(?:[^0-9\n]{0,40}?)[0-9]{3}\.[0-9]{1,4}[a-z]?\b", re.M)


@dataclass
class FileOutcome(Record):
    """What an ingest did with one file: added, unchanged, same-edition (its editions were all
    stored already) or new-version (it replaces a stored file or edition), with the editions and
    clauses it added."""

    path: str
    sha256: str
    status: str  # added | unchanged | same-edition | new-version
    editions: int = 0
    clauses: int = 0
    format: str = "text"
    # For a file in another format than the stored edition of its date: which edition it
    # matched, and how to see the differences.
    note: str | None = field(default=None, metadata=OPTIONAL)


@dataclass
class Skipped(Record):
    """A file found in a folder and left out: it holds no rules."""

    path: str
    reason: str


@dataclass
class IngestReport(Record):
    """What one ingest did: the revision it wrote (None when nothing changed), each file's outcome,
    the files left out, the editions and clauses added, and what was aligned."""

    revision_id: int | None
    files: list[FileOutcome] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    editions_added: int = 0
    clauses_added: int = 0
    flags: Counter = field(default_factory=Counter)
    # What the aligner stored for the new editions (align.plan.AlignmentUpdate), when the
    # ingest was asked to align (the command line and the Python API do).
    alignments: Any = None
    # Files of the packed English archive this ingest took because translations needed
    # them: {"file", "date", "for": [translation slugs]}.
    from_archive: list[dict[str, Any]] = field(default_factory=list)
    # The English each new translation was found to be made from (align.plan.choose_sources):
    # {"edition", "how", "why"}.
    sources: list[dict[str, Any]] = field(default_factory=list)
    # Where the time went, by phase (align.plan.ingest_and_align: "files", "sources",
    # "alignments", "lineages", "total"): what a slow ingest is read by.
    seconds: dict[str, float] = field(default_factory=dict)

    def merge(self, more: IngestReport) -> None:
        """Add what a second pass of the same ingest (into the same revision) did."""
        if more.revision_id is not None:
            self.revision_id = more.revision_id
        self.files += more.files
        self.skipped += more.skipped
        self.editions_added += more.editions_added
        self.clauses_added += more.clauses_added
        self.flags.update(more.flags)

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
            "skipped": [f.as_json() for f in self.skipped],
            **({"alignments": self.alignments.as_json()} if self.alignments is not None else {}),
            **({"from_archive": self.from_archive} if self.from_archive else {}),
            **({"sources": self.sources} if self.sources else {}),
            **({"seconds": self.seconds} if self.seconds else {}),
        }


@dataclass
class Source:
    """A file to ingest: named by the user (``named``) or found in a folder; or, with
    ``data``, bytes that come from no file on disk (a file of the packed English archive,
    mtgrules/archive.py), ``path`` then saying where they were read from."""

    path: Path
    meta: dict
    named: bool
    data: bytes | None = None

    @property
    def shown(self) -> Path:
        """The path as text that can be stored and printed (see ``shown_path``)."""
        return shown_path(self.path)


def shown_path(path: Path) -> Path:
    """A path whose name can be stored and printed. A file name that is not valid UTF-8
    (r\\xe8gles.txt, written on a Latin-1 system) reaches Python as lone surrogates, which
    no UTF-8 database or output accepts: its odd bytes are written as \\xe8 escapes
    instead, so the file is ingested under a name that still tells its bytes."""
    text = str(path)
    try:
        text.encode("utf-8")
        return path
    except UnicodeEncodeError:
        pass
    try:
        raw = os.fsencode(text)
    except UnicodeEncodeError:  # surrogates that no file system produced (an API caller's)
        raw = text.encode("utf-8", "surrogatepass")
    return Path(raw.decode("utf-8", "backslashreplace"))


def collect_sources(paths: Iterable[Path]) -> tuple[list[Source], list[Skipped]]:
    """The files to ingest, each with its manifest entry (name, origin), and the files of the
    folders given that are skipped as not rules (with the reason). A file named on the
    command line is always taken: if it holds no rules, that is an error, not a skip."""
    found: list[Source] = []
    skipped: list[Skipped] = []
    for given in paths:
        path = Path(given)
        if not path.exists():
            raise InputError(f"{path}: no such file or folder.")
        if not path.is_dir():
            found.append(Source(path, {}, named=True))
            continue
        manifest = _read_manifest(path)
        taken = 0
        for f in sorted(path.rglob("*")):
            rel = f.relative_to(path)
            if not f.is_file() or any(part.startswith((".", "__pycache__")) for part in rel.parts):
                continue
            if f.name == MANIFEST and f.parent == path:
                continue  # the folder's own description, read above
            reason = _not_a_source(f)
            if reason:
                skipped.append(Skipped(str(shown_path(f)), reason))
                continue
            found.append(Source(f, manifest.get(rel.as_posix(), {}), named=False))
            taken += 1
        if not taken:
            raise NotRulesError(
                f"{path}: this folder holds no rules files to ingest (text, PDF, DOCX, .doc, "
                "RTF, web or wiki pages)."
            )
    return found, skipped


def archive_sources(files: Iterable[archive.ArchiveFile]) -> list[Source]:
    """Files of the packed English archive as sources to ingest, their bytes checked against
    the manifest. Each is named ``cr-archive/NAME`` in the store, so that a user's own file of
    the same name (another text) is never taken for a new version of it."""
    files = list(files)
    data = archive.read_files(f.name for f in files)
    return [
        Source(
            f.path,
            {"name": f.document_name, "origin": archive.ORIGIN},
            named=True,
            data=data[f.name],
        )
        for f in files
    ]


def _not_a_source(path: Path) -> str | None:
    """Why a file found in a folder is no source, from its extension and first bytes."""
    if path.suffix.lower() in SOURCE_SUFFIXES:
        return None
    try:
        with path.open("rb") as fh:
            head = fh.read(_SNIFF_BYTES)
    except OSError as exc:
        return f"cannot be read ({exc.strerror})"
    if head.startswith(b"PK\x03\x04"):
        return None  # a zip (a DOCX?) is read whole: its directory is at its end
    try:
        if detect_container(head, str(path)) != TEXT:
            return None  # a PDF, Word or RTF file, whatever its name
    except NotRulesError as err:
        return _reason(err, path)  # "this is a PNG image, not rules text; ..."
    except InputError:
        return None  # a damaged rules format: reading it says what is wrong
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head.decode("utf-16", "replace").encode("utf-8")
    if len(_SNIFF_LABEL.findall(head)) >= 3:
        return None
    kind = path.suffix.lower() or "no extension"
    return f"not rules ({kind}, no rule labels in its first {_SNIFF_BYTES // 1024} KiB)"


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
    language: str | None = None,
    extra: Iterable[Source] = (),
    revision_id: int | None = None,
    workers: Workers | None = None,
    on_written: Callable[[], None] | None = None,
) -> IngestReport:
    """Parse each file and write it, all in one revision. The caller's transaction makes the
    write all or nothing: bad input raises, and what was written before it is rolled back.
    ``language`` (a user's --lang, checked with text.language.language_tag) replaces
    language detection. ``extra``: sources given as bytes (files of the packed English
    archive), ingested after ``paths``; ``revision_id``: add to that revision of this
    transaction instead of a new one (the English a translation needs, taken from the
    archive by the same ingest). ``workers``: the ingest's pool (mtgrules/pool.py), to parse
    the files of a large ingest on the other cores while this process writes. ``on_written``:
    called after each file is written (align.workers.Ahead sends the pairs it completes to
    the workers, which would otherwise wait for the whole ingest)."""
    sources, skipped = collect_sources(paths) if paths else ([], [])
    sources += list(extra)
    if not sources:
        return IngestReport(revision_id=None)
    # A removed file (mtgrules remove took all its editions out) is not in the store: given
    # again, it is read and its editions come back.
    known = set(session.scalars(select(Document.sha256).where(Document.superseded_in.is_(None))))
    report = IngestReport(revision_id=None, skipped=skipped)
    outcomes: dict[int, FileOutcome] = {}
    revision: Revision | None = None
    live: _LiveEditions | None = None
    # Each file is written as soon as it is parsed, and dropped (the archive's 110 parsed
    # files held at once were most of an ingest's memory), in the order of _write_order.
    order = _write_order(sources)
    for done, src, sha256, data, got in _read_and_parse(order, known, language, workers):
        if not sha256 and got is not None:
            got()  # the file could not be read: raises why
        try:
            if on_file:
                on_file(src.path, done, len(sources))
            shown = src.shown  # the path as text, for the store, messages and reports
            if data is not None:  # already in the store, or in this ingest
                outcomes[done] = FileOutcome(
                    str(shown), sha256, "unchanged", format=detect_format(data, str(shown))
                )
                continue
            assert got is not None
            doc, hashes = got()
        except NotRulesError as err:
            if src.named:
                raise
            report.skipped.append(Skipped(str(src.shown), _reason(err, src.shown)))
            continue
        date_from_name(doc, src.path)
        known.add(sha256)
        if revision is None:
            revision = session.get(Revision, revision_id) if revision_id is not None else None
            if revision is None:
                revision = Revision(
                    created_at=dt.datetime.now(dt.UTC),
                    tool_version=__version__,
                    files=[],
                    summary={},
                )
                session.add(revision)
                session.flush()
            report.revision_id = revision.id
            live = _LiveEditions(session)
        assert live is not None
        outcomes[done] = _write_document(session, revision, doc, hashes, live, report)
        del doc
        if on_written:
            on_written()
    if revision is None and not outcomes:
        first = report.skipped[0]
        others = len(report.skipped) - 1
        more = f" and {others} other file{'s' if others > 1 else ''}" if others else ""
        raise NotRulesError(
            f"no rules files to ingest: {first.path} ({first.reason}){more} skipped."
        )
    report.files = [outcomes[k] for k in sorted(outcomes)]
    if revision is None:
        return report

    # A revision this ingest already wrote (revision_id) gains these files and counts.
    before = revision.summary or {}
    revision.files = [
        *(revision.files or []),
        *({"path": f.path, "sha256": f.sha256, "status": f.status} for f in report.files),
    ]
    revision.summary = {
        "editions_added": before.get("editions_added", 0) + report.editions_added,
        "clauses_added": before.get("clauses_added", 0) + report.clauses_added,
        "flags": dict(Counter(before.get("flags", {})) + report.flags),
        "files_changed": before.get("files_changed", 0)
        + sum(1 for f in report.files if f.status != "unchanged"),
    }
    return report


def parse_source(
    data: bytes, shown: Path, sha256: str, meta: dict, language: str | None
) -> tuple[ParsedDocument, list[str]]:
    """A file's bytes parsed, with its editions' content hashes: all that ingest computes
    of a file before it writes, a function of its arguments alone (it runs in a worker
    process for a large ingest). The decoded text is dropped: nothing after the parse
    reads it, and the ingest holds every parsed file until it writes."""
    decoded = prepare(data, str(shown), sha256=sha256)
    doc = parse_document(
        shown, decoded, name=meta.get("name"), origin=meta.get("origin"), language=language
    )
    doc.decoded.text = ""
    doc.decoded.source_lines = None
    # Hashing reads each clause's normalized text (Clause.norm): normalized once, here.
    return doc, [edition_content_hash(e) for e in doc.editions]


# Unset MTGRULES_WORKERS, files are parsed in worker processes from this many bytes in all
# (the archive has 71 MB, the bundled corpus 18 MB): parsing runs at about 10 MB a second,
# and starting a worker costs half a second of CPU.
PARSE_MIN_BYTES = 10_000_000
# Files read ahead of the one the ingest waits for, per worker: their bytes and parsed
# editions are held until their turn.
_AHEAD = 3

Parsed = Callable[[], tuple[ParsedDocument, list[str]]]


def _write_order(sources: list[Source]) -> list[tuple[int, Source]]:
    """The sources numbered from 1, in the order they are written: one edition in several
    formats in one ingest has its plain-text and markup files written last, so that the
    reference text is the live version and the PDF, Word or RTF copies that differ from it
    are its earlier versions (see _write_document). A file's container is read from its
    bytes here (detect_container), and the bytes dropped: each is read again in its turn."""
    numbered = list(enumerate(sources, start=1))
    last: dict[int, bool] = {}
    for done, src in numbered:
        try:
            data = src.data if src.data is not None else read_bytes(src.path)
            last[done] = detect_container(data, str(src.shown)) == TEXT
        except InputError:
            last[done] = True  # reading or parsing it in its turn says what is wrong
    return sorted(numbered, key=lambda n: last[n[0]])


def _read_and_parse(
    sources: list[tuple[int, Source]],
    known: set[str],
    language: str | None,
    workers: Workers | None,
) -> Iterator[tuple[int, Source, str, bytes | None, Parsed | None]]:
    """Each (number, source) in the order given, read: (its number, the source, its sha256,
    then either its bytes when it is already in the store or earlier in this ingest
    (``known``, which the caller extends as files parse), or a call that returns it parsed
    (parse_source) or raises what parsing raised). Files are parsed ahead in the ingest's
    worker processes when there are many bytes to parse; errors come out in the order of
    the files, as when each is parsed in turn."""
    digests = _digests(sources)
    n = 0
    if workers is not None:
        # Only the files the store lacks are parsed: a re-ingest of unchanged files (with a
        # README beside them that is never stored, as corpus/ has) started the workers for
        # one small file, 0.3 s of its 0.7 s.
        new = {sha: size for sha, size in digests.values() if sha not in known}
        n = worker_count(len(new), sum(new.values()) >= PARSE_MIN_BYTES)
    executor = workers.get(n) if workers is not None and n else None
    sent: set[str] = set()
    ahead: deque[tuple[int, Source, str, bytes | None, Parsed | None]] = deque()
    for done, src in sources:
        try:
            data = src.data if src.data is not None else read_bytes(src.path)
        except InputError as err:
            ahead.append((done, src, "", None, _raises(err)))
        else:
            # Hashed again: the bytes stored are these, whatever the file held at the count.
            sha256 = hashlib.sha256(data).hexdigest()
            if executor is None or sha256 in known or sha256 in sent:
                # In turn: when its turn comes, ``known`` says whether an earlier copy parsed.
                ahead.append((done, src, sha256, data, None))
            else:
                assert workers is not None
                sent.add(sha256)
                future = executor.submit(parse_source, data, src.shown, sha256, src.meta, language)
                ahead.append((done, src, sha256, None, future.result))
        while ahead and (executor is None or len(ahead) > _AHEAD * workers.size):
            yield _in_turn(ahead.popleft(), known, language)
    while ahead:
        yield _in_turn(ahead.popleft(), known, language)


def _digests(sources: list[tuple[int, Source]]) -> dict[int, tuple[str, int]]:
    """Each readable source's sha256 and size, its bytes dropped at once (read again, from
    the page cache, when its turn comes): what decides whether the workers are worth
    starting, without holding every file. One that cannot be read is left out: its error
    comes out at its turn. (The archive's 110 files: about 0.2 s of CPU.)"""
    out: dict[int, tuple[str, int]] = {}
    for done, src in sources:
        try:
            data = src.data if src.data is not None else read_bytes(src.path)
        except InputError:
            continue
        out[done] = (hashlib.sha256(data).hexdigest(), len(data))
    return out


def _in_turn(
    item: tuple[int, Source, str, bytes | None, Parsed | None],
    known: set[str],
    language: str | None,
) -> tuple[int, Source, str, bytes | None, Parsed | None]:
    """A file read ahead, at its turn: one with no parse in flight is looked up in ``known``
    now (an earlier copy in this ingest may have parsed), else parsed here."""
    done, src, sha256, data, got = item
    if got is not None or data is None or sha256 in known:
        return item
    return (
        done,
        src,
        sha256,
        None,
        lambda: parse_source(data, src.shown, sha256, src.meta, language),
    )


def _raises(err: Exception) -> Parsed:
    def again() -> tuple[ParsedDocument, list[str]]:
        raise err

    return again


# "2024-08-02.txt", "cr-en-2026-01-16.pdf": the archive's names are publication dates.
_NAME_DATE = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")


def date_from_name(doc: ParsedDocument, path: Path) -> None:
    """An edition carries the effective date its text prints ("These rules are effective as
    of July 30, 2024"): it is what the rules say of themselves, what every copy of the edition
    in any format shares, and what the corpus names editions by. The archive's file names are
    publication dates, which may differ (2024-08-02.txt is effective July 30, 2024;
    2006-06-01.txt is the text of June 1, 2004). Only a full edition whose text prints no
    date takes the one in its file name; one whose date line cannot be read stays undated
    (the summary says so)."""
    m = _NAME_DATE.search(path.name)
    if m is None:
        return
    for edition in doc.editions:
        if edition.date is None and edition.layout == "official" and not edition.date_unreadable:
            try:
                edition.date = dt.date(int(m[1]), int(m[2]), int(m[3]))
            except ValueError:
                return


def _reason(err: NotRulesError, path: Path) -> str:
    message = str(err)
    for prefix in (f"{path}: ", f"{shown_path(path)}: "):
        if message.startswith(prefix):
            return message[len(prefix) :]
    return message


class _LiveEditions:
    """The live editions, by content hash and by what names an edition (language, kind and
    date), kept up to date while a revision is written."""

    def __init__(self, session: Session) -> None:
        self.by_hash: dict[str, Edition] = {}
        self.by_date: dict[tuple[str, str, dt.date], list[Edition]] = {}
        for e in session.scalars(select(Edition).where(Edition.superseded_in.is_(None))):
            self.add(e)

    def add(self, edition: Edition) -> None:
        self.by_hash[edition.content_hash] = edition
        if edition.date is not None:
            key = (edition.language, edition.kind, edition.date)
            self.by_date.setdefault(key, []).append(edition)

    def drop(self, edition: Edition) -> None:
        self.by_hash.pop(edition.content_hash, None)
        if edition.date is not None:
            same = self.by_date.get((edition.language, edition.kind, edition.date), [])
            if edition in same:
                same.remove(edition)


def _write_document(
    session: Session,
    revision: Revision,
    doc: ParsedDocument,
    hashes: list[str],
    live: _LiveEditions,
    report: IngestReport,
) -> FileOutcome:
    """Write one parsed file; ``hashes``: its editions' edition_content_hash."""
    outcome = FileOutcome(doc.path, doc.decoded.sha256, "added", format=doc.decoded.format)
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
                live.drop(edition)

    # What extraction did (a PDF's page headers removed, an RTF's binary data skipped) first.
    notes: list[str] = list(doc.decoded.notes)
    document = session.scalars(
        select(Document).where(Document.sha256 == doc.decoded.sha256)
    ).first()
    if document is not None:
        # These very bytes were removed (or replaced by a newer version of the file) in an
        # earlier revision: the file is back, with new editions (the removed ones stay in
        # the history, readable with --as-of).
        notes.append(
            f"back in the store: its editions were taken out in revision {document.superseded_in}"
        )
        document.superseded_in = None
        document.name, document.path, document.origin = doc.name, doc.path, doc.origin
    else:
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
    # Editions of other files this file is recorded as a source of: a revived document keeps
    # the links of its first ingest, so they are not written twice.
    linked: set[int] = set(
        session.scalars(
            select(EditionSource.edition_id).where(EditionSource.document_id == document.id)
        )
    )
    seen: set[int] = set()  # editions this file has given so far
    repeats: dict[int, int] = {}  # edition id -> times this file holds it, when more than once
    for position, (edition, content_hash) in enumerate(zip(doc.editions, hashes, strict=True)):
        if edition.date is None and edition.date_unreadable:
            # Never guessed from the file name: the text says it has a date, unreadably.
            notes.append(
                f"its date line {edition.date_unreadable[:80]!r} cannot be read, so the "
                f"{edition.language} edition is undated; give the date as the text prints it "
                "in its language (e.g. 'effective as of January 16, 2026')"
            )
        existing = live.by_hash.get(content_hash)
        version_of: Edition | None = None
        if existing is None:
            # The same edition in another file or format (the PDF of a date whose .txt is
            # in the store) that the strict hash does not recognise.
            counterpart = same_edition_in_store(session, edition, live)
            if counterpart is not None:
                if same_text(session, counterpart, edition):
                    existing = counterpart
                    notes.append(f"the same text as edition {counterpart.id}")
                else:
                    version_of = counterpart
        if existing is not None:
            if existing.id in seen:
                # The same edition again in this very file (a page quoting it twice): one
                # edition, one link to this file.
                repeats[existing.id] = repeats.get(existing.id, 1) + 1
                continue
            seen.add(existing.id)
            if existing.document_id != document.id and existing.id not in linked:
                session.add(EditionSource(edition_id=existing.id, document_id=document.id))
                linked.add(existing.id)
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
            translated_on=edition.translated,
            glossary_omitted=edition.glossary_omitted,
            clause_count=len(edition.clauses),
            rule_count=edition.rule_count,
            revision_id=revision.id,
        )
        session.add(row)
        session.flush()
        if version_of is not None:
            # Another version of that edition: it becomes the live one; the earlier stays
            # in the store, readable with --as-of, and diff compares the two by id.
            version_of.superseded_in = revision.id
            live.drop(version_of)
            outcome.status = "new-version"
            notes.append(
                f"a version of edition {version_of.id} ({version_of.language} "
                f"{version_of.date}) whose text differs; see: mtgrules diff {version_of.id} {row.id}"
            )
        live.add(row)
        seen.add(row.id)
        insert_clauses(session, row.id, edition.clauses)
        outcome.editions += 1
        outcome.clauses += len(edition.clauses)
        report.editions_added += 1
        report.clauses_added += len(edition.clauses)
        for c in edition.clauses:
            report.flags.update(c.flags)
    if reused and not outcome.editions and outcome.status == "added":
        outcome.status = "same-edition"
    for edition_id, times in repeats.items():
        notes.append(f"holds edition {edition_id} {times} times; it is stored once")
    if notes:
        outcome.note = "; ".join(notes)
    return outcome


# An edition of the same language, kind and date is another copy (or version) of the
# incoming one when at least this share of their rule labels agree; a page that quotes a
# few rules of that date is another document.
SAME_LABELS = 0.9


def same_edition_in_store(
    session: Session, edition: ParsedEdition, live: _LiveEditions
) -> Edition | None:
    """The live edition that ``edition`` is another copy or version of, if any."""
    if edition.date is None:
        return None
    candidates = live.by_date.get((edition.language, edition.kind, edition.date), [])
    labels = {c.label for c in edition.clauses if c.kind == "rule" and c.label}
    for candidate in candidates:
        theirs = set(
            session.scalars(
                select(StoredClause.label).where(
                    StoredClause.edition_id == candidate.id,
                    StoredClause.kind == "rule",
                    StoredClause.label.is_not(None),
                )
            )
        )
        union = labels | theirs
        if not union or len(labels & theirs) >= SAME_LABELS * len(union):
            return candidate
    return None


def identity_text(raw: str) -> str:
    """What must be equal for two copies of an edition to be one text (text.normalize)."""
    return fold_notation(raw)


def same_text(session: Session, stored: Edition, edition: ParsedEdition) -> bool:
    """Do a stored edition and a parsed one say the same thing, clause by clause?"""
    ours = [
        (c.kind, c.label, identity_text(c.term or ""), identity_text(c.raw))
        for c in edition.clauses
        if c.kind != "noise"
    ]
    theirs = [
        (kind, label, identity_text(term or ""), identity_text(raw))
        for kind, label, term, raw in session.execute(
            select(StoredClause.kind, StoredClause.label, StoredClause.term, StoredClause.raw)
            .where(StoredClause.edition_id == stored.id, StoredClause.kind != "noise")
            .order_by(StoredClause.position)
        )
    ]
    return ours == theirs
