"""Read side of the store: editions alive at a revision, rules with their subrules, history.

Written in plain SQL through store/sql.py, so that they run on a SQLAlchemy Session and on the
standard library's sqlite3 alike: `show` and `search` read through them without importing
SQLAlchemy (see store/sql.py for why). Only list_revisions, off that path, uses the models.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import NotFoundError
from ..record import INTERNAL, OPTIONAL, Record
from ..text.labels import in_rule, nearest_labels
from .sql import fetch, fetch_in, in_list, iso_date, json_list, scalar

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

DAMAGE_FLAGS = ("lost-symbol", "html-entity", "obfuscated-email", "replacement-char")


@dataclass
class EditionInfo:
    """One stored edition's header: its slug, language, date, sources and counts."""

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
    return scalar(session, "SELECT max(id) FROM revision")


def _alive_sql(as_of: int | None) -> str:
    """The filter for editions alive at revision ``as_of`` (None: now)."""
    if as_of is None:
        return "e.superseded_in IS NULL"
    n = int(as_of)
    return f"e.revision_id <= {n} AND (e.superseded_in IS NULL OR e.superseded_in > {n})"


def check_revision(session: Session, as_of: int | None) -> None:
    if as_of is None:
        return
    latest = latest_revision(session)
    if latest is None or as_of < 1 or as_of > latest:
        raise NotFoundError(
            f"no revision {as_of} in the store (it has 1 to {latest or 0}); see: mtgrules history"
        )


def edition_slug(language: str, date: str | None, name: str) -> str:
    """An edition's name: LANGUAGE-DATE ("ko-2021-11-19"), or for an undated one
    LANGUAGE-SOURCE, the source's name without its ".txt" and without the language it may
    already start with ("ko-2021-11-19.kormtgcr.txt" gives "ko-2021-11-19.kormtgcr", never
    "ko-ko-...")."""
    if date:
        return f"{language}-{date}"
    source = name.removesuffix(".txt")
    for prefix in (language, language.split("-")[0]):
        if len(source) > len(prefix) + 1 and source[: len(prefix)].lower() == prefix.lower():
            if source[len(prefix)] in "-_.":
                source = source[len(prefix) + 1 :]
                break
    return f"{language}-{source}"


def list_editions(session: Session, as_of: int | None = None) -> list[EditionInfo]:
    check_revision(session, as_of)
    rows = fetch(
        session,
        "SELECT e.id, e.language, e.kind, e.date, e.clause_count, e.rule_count, "
        "e.revision_id, d.name FROM edition e JOIN document d ON d.id = e.document_id "
        f"WHERE {_alive_sql(as_of)} "
        "ORDER BY (e.date IS NULL), e.date, e.language, e.id",
    )
    extra: dict[int, list[str]] = {}
    for edition_id, name in fetch(
        session,
        "SELECT s.edition_id, d.name FROM edition_source s JOIN document d "
        "ON d.id = s.document_id ORDER BY s.edition_id, s.document_id",
    ):
        extra.setdefault(edition_id, []).append(name)
    infos = []
    bases = []
    for r in rows:
        base = edition_slug(r.language, iso_date(r.date), r.name)
        bases.append(base + "-glossary" if r.kind == "glossary" else base)
    # Editions sharing a name (a translation's one chapter and the whole of it, both dated
    # 2026-01-16): the fullest takes the plain name, the others add their id. Before, the
    # first ingested did, and the whole Japanese translation was ja-2026-01-16-2.
    plain: dict[str, tuple[int, int]] = {}
    for r, base in zip(rows, bases, strict=True):
        mine = (-(r.rule_count or 0), r.id)
        if base not in plain or mine < plain[base]:
            plain[base] = mine
    for r, base in zip(rows, bases, strict=True):
        date = iso_date(r.date)
        infos.append(
            EditionInfo(
                id=r.id,
                slug=base if plain[base][1] == r.id else f"{base}-{r.id}",
                language=r.language,
                kind=r.kind,
                date=date,
                source=r.name,
                sources=[r.name, *extra.get(r.id, [])],
                clauses=r.clause_count,
                rules=r.rule_count,
                revision=r.revision_id,
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
    names = [e.slug for e in infos]
    import difflib  # here: only a name that matches nothing needs it

    close = difflib.get_close_matches(key, names, n=3, cutoff=0.6)
    hint = f"did you mean {', '.join(close)}? " if close else ""
    raise NotFoundError(f"no edition '{key}' in the store; {hint}list them with: mtgrules editions")


# Row ids are SQLite INTEGERs (and PostgreSQL bigints): at most 2^63 - 1.
MAX_ROW_ID = 2**63 - 1
_ASCII_DIGITS = re.compile(r"[0-9]{1,19}")


def store_id(key: str) -> int | None:
    """``key`` as a row id, or None when it cannot be one: not ASCII digits ("²" and "١٢"
    are digits to str.isdigit), or past what the database can hold (the driver would raise
    OverflowError on 9223372036854775808)."""
    key = key.strip()
    if not _ASCII_DIGITS.fullmatch(key):
        return None
    value = int(key)
    return value if value <= MAX_ROW_ID else None


def find_edition_or_version(session: Session, infos: list[EditionInfo], key: str) -> EditionInfo:
    """``find_edition``, and also an earlier version (superseded) of an edition by its id."""
    try:
        return find_edition(infos, key)
    except NotFoundError:
        edition_id = store_id(key)
        if edition_id is None:
            raise
    rows = fetch(
        session,
        "SELECT e.id, e.language, e.kind, e.date, e.clause_count, e.rule_count, "
        "e.revision_id, d.name FROM edition e JOIN document d ON d.id = e.document_id "
        "WHERE e.id = :id",
        {"id": edition_id},
    )
    if not rows:
        raise NotFoundError(f"no edition '{key}' in the store; list them with: mtgrules editions")
    r = rows[0]
    date = iso_date(r.date)
    base = edition_slug(r.language, date, r.name)
    return EditionInfo(
        id=r.id,
        slug=f"{base}-{r.id}",
        language=r.language,
        kind=r.kind,
        date=date,
        source=r.name,
        sources=[r.name],
        clauses=r.clause_count,
        rules=r.rule_count,
        revision=r.revision_id,
    )


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
    """One stored clause as the read commands show it."""

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


_CLAUSE_COLUMNS = "id, position, label, label_inferred, kind, raw, norm, parent, term, flags"


def _view(c: Any) -> ClauseView:
    return ClauseView(
        c.id,
        c.position,
        c.label,
        bool(c.label_inferred),
        c.kind,
        c.raw,
        c.norm,
        c.parent,
        c.term,
        [str(f) for f in json_list(c.flags)],
    )


def _prefix_range(prefix: str) -> tuple[str, str]:
    """Bounds for "starts with ``prefix``" as a range the label index can seek (labels are
    ASCII digits, dots and letters, compared the same way by every database)."""
    return prefix, prefix[:-1] + chr(ord(prefix[-1]) + 1)


def rules_clauses(
    session: Session, edition_ids: list[int], rule: str
) -> dict[int, list[ClauseView]]:
    """rule_clauses for several editions in one query (by label and parent ranges, which
    the label and parent indexes seek), edition id -> clauses."""
    if not edition_ids:
        return {}
    base = rule if "." in rule else rule + "."
    lo, hi = _prefix_range(base)
    params = {"rule": rule, "lo": lo, "hi": hi}
    # "+edition_id" and "label || ''": not by the (edition, position) or label index, which
    # would read every clause of every edition (or every unlabelled one); the label and
    # parent indexes find the few rows of the rule. Both forms are valid PostgreSQL too.
    eds = in_list(edition_ids)
    rows = fetch(
        session,
        f"SELECT * FROM (SELECT edition_id, {_CLAUSE_COLUMNS} FROM clause "
        f"WHERE +edition_id IN ({eds}) AND (label = :rule OR (label >= :lo AND label < :hi)) "
        f"UNION ALL SELECT edition_id, {_CLAUSE_COLUMNS} FROM clause "
        f"WHERE +edition_id IN ({eds}) AND (label || '') IS NULL "
        "AND (parent = :rule OR (parent >= :lo AND parent < :hi))) AS found "
        "ORDER BY edition_id, position",
        params,
    )
    by_edition: dict[int, list[Any]] = {}
    for r in rows:
        by_edition.setdefault(r.edition_id, []).append(r)
    out = {}
    for eid, clauses in by_edition.items():
        labels = {
            c.label for c in clauses if c.kind in ("rule", "heading") and in_rule(c.label, rule)
        }
        out[eid] = [
            _view(c)
            for c in clauses
            if (c.kind in ("rule", "heading") and in_rule(c.label, rule))
            or (c.label is None and (c.parent in labels or c.parent == rule))
        ]
    return out


def rule_clauses(session: Session, edition_id: int, rule: str) -> list[ClauseView]:
    """The rule, its subrules, and what sits under them (examples, notes, unlabelled
    subrules), in document order."""
    return rules_clauses(session, [edition_id], rule).get(edition_id, [])


def rule_labels(session: Session, edition_id: int) -> list[str]:
    """The labels of an edition's rules (not its headings), in order."""
    rows = fetch(
        session,
        "SELECT label FROM clause WHERE edition_id = :e AND kind = 'rule' "
        "AND label IS NOT NULL ORDER BY position",
        {"e": int(edition_id)},
        plain=True,
    )
    return [label for (label,) in rows]


def glossary_terms(session: Session, edition_ids: list[int]) -> dict[int, set[str]]:
    """Edition id -> the terms of its glossary entries, for several editions in one query."""
    if not edition_ids:
        return {}
    rows = fetch(
        session,
        f"SELECT edition_id, term FROM clause WHERE edition_id IN ({in_list(edition_ids)}) "
        "AND kind = 'glossary' AND term IS NOT NULL",
        {},
        plain=True,
    )
    out: dict[int, set[str]] = {}
    for edition_id, term in rows:
        out.setdefault(edition_id, set()).add(term)
    return out


# The editions read inside reading_editions(), by id, and how many it keeps (None: all): a
# report that reads one edition several times (update reads its English for itself and
# through two stored alignments, storage.load_edition_alignment) reads it from the store once.
_EDITIONS_READ: ContextVar[tuple[dict[int, list[ClauseView]], int | None] | None] = ContextVar(
    "editions_read", default=None
)


@contextmanager
def reading_editions(keep: int | None = None) -> Iterator[None]:
    """Within it, edition_clauses reads each edition once (one read transaction: the
    clauses of an edition id never change inside it); with ``keep``, only the editions last
    read are kept (the site reads a hundred editions, mostly each beside the one before)."""
    token = _EDITIONS_READ.set(({}, keep))
    try:
        yield
    finally:
        _EDITIONS_READ.reset(token)


def edition_aligned_rows(
    session: Session, edition_id: int, kinds: Iterable[str]
) -> list[tuple[int, int, str | None, bool, str, str, str | None, str | None]]:
    """(id, position, label, label_inferred, kind, norm, parent, term) of an edition's
    clauses of ``kinds``, in order: what the aligner reads of them, without the printed
    text and flags that edition_clauses also reads (a tenth of its time)."""
    marks = ", ".join(f"'{k}'" for k in kinds)
    rows = fetch(
        session,
        "SELECT id, position, label, label_inferred, kind, norm, parent, term FROM clause "
        f"WHERE edition_id = :e AND kind IN ({marks}) ORDER BY position",
        {"e": int(edition_id)},
        plain=True,
    )
    return [
        (cid, position, label, bool(inferred), kind, norm, parent, term)
        for cid, position, label, inferred, kind, norm, parent, term in rows
    ]


def edition_clauses(session: Session, edition_id: int) -> list[ClauseView]:
    """Every clause of an edition, in order. Plain rows rather than ORM objects: an edition is
    4,000 clauses, and the aligner, the reports and the site read many editions per command."""
    reading = _EDITIONS_READ.get()
    read, keep = reading if reading is not None else (None, None)
    if read is not None and int(edition_id) in read:
        kept = read[int(edition_id)] = read.pop(int(edition_id))  # now the last read
        return list(kept)  # a list of its own; the same clauses
    rows = fetch(
        session,
        f"SELECT {_CLAUSE_COLUMNS} FROM clause WHERE edition_id = :e ORDER BY position",
        {"e": int(edition_id)},
        plain=True,  # unpacked at once: no row objects for thousands of clauses
    )
    out = [
        ClauseView(
            cid,
            pos,
            label,
            bool(inferred),
            kind,
            raw,
            norm,
            parent,
            term,
            [str(f) for f in json_list(flags)],
        )
        for cid, pos, label, inferred, kind, raw, norm, parent, term, flags in rows
    ]
    if read is not None:
        read[int(edition_id)] = out
        while keep is not None and len(read) > keep:
            del read[next(iter(read))]
        return list(out)
    return out


def clauses_by_id(session: Session, ids: Iterable[int]) -> dict[int, tuple[int, ClauseView]]:
    """Clause id -> (its edition id, the clause), for clauses of any editions (the ends of
    stored links a reader follows out of one rule)."""
    out = {}
    for r in fetch_in(
        session, f"SELECT edition_id, {_CLAUSE_COLUMNS} FROM clause WHERE id IN ({{ids}})", ids
    ):
        out[r.id] = (r.edition_id, _view(r))
    return out


@dataclass
class ShownEdition(Record):
    """An edition with its clauses (``show`` of a whole edition)."""

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
    every = rules_clauses(session, [info.id for info in infos], rule)
    found = [(info, every[info.id]) for info in infos if every.get(info.id)]
    if not found:
        where = f" in {edition or language}" if (edition or language) else ""
        raise rule_not_found(session, rule, as_of=as_of, where=where)
    return RuleShown(rule, [ShownEdition(info, clauses) for info, clauses in found])


# The first edition of today's numbering (the July 2009 renumbering).
RENUMBERING_DATE = "2009-07-11"


def _listed(items: list[str]) -> str:
    """'a', 'a and b', 'a, b and c'."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def rule_not_found(
    session: Any, rule: str, *, as_of: int | None = None, where: str = ""
) -> NotFoundError:
    """The error for a rule no edition (of those asked for) has, with the hint that fits:
    where the rule is when only the filters hide it (and, for a number of the numbering
    before July 2009, how to follow it to today's); else that the number never existed in
    the store, and the nearest numbers that did."""
    spans: dict[str, tuple[str | None, str | None]] = {}
    for label, first, last in fetch(
        session,
        "SELECT c.label, min(e.date), max(e.date) FROM clause c JOIN edition e "
        f"ON e.id = c.edition_id WHERE {_alive_sql(as_of)} AND c.label IS NOT NULL "
        "AND c.kind IN ('rule', 'heading') GROUP BY c.label",
        plain=True,
    ):
        spans[label] = (iso_date(first), iso_date(last))

    def when(label: str) -> str:
        first, last = spans[label]
        if last and last < RENUMBERING_DATE:
            return f"{label} (the numbering before July 2009, until {last})"
        return label

    if rule in spans:
        first, last = spans[rule]
        dates = f" ({first} to {last})" if first and last and first != last else ""
        message = f"rule {rule} is in no edition{where}; other editions have it{dates}"
        if last and last < RENUMBERING_DATE:
            return NotFoundError(
                f"{message}: {rule} is a number of the numbering before July 2009 (the rules "
                f"were renumbered then); see it with: mtgrules show {rule}"
            )
        return NotFoundError(f"{message}; drop --lang/--edition to see them: mtgrules show {rule}")
    near = nearest_labels(rule, spans, 3)
    if not near:
        return NotFoundError(
            f"rule {rule} has never existed in any edition in the store; "
            "find a rule by its words: mtgrules search WORDS"
        )
    return NotFoundError(
        f"rule {rule} has never existed in any edition in the store; the nearest "
        f"{'rules are' if len(near) > 1 else 'rule is'} {_listed([when(lab) for lab in near])}: "
        f"mtgrules show {near[0]}"
    )


@dataclass
class RevisionInfo(Record):
    """One ingest: when, by which version, which files (with sha256), what changed."""

    id: int
    created_at: str  # ISO 8601, UTC
    tool_version: str
    files: list[dict[str, Any]]
    summary: dict[str, Any]
    when: dt.datetime = field(metadata=INTERNAL)
    # What `mtgrules fetch` downloaded into this revision: URL, when, sha256 (absent if none).
    downloads: list[dict[str, Any]] | None = field(default=None, metadata=OPTIONAL)


def list_revisions(session: Session) -> list[RevisionInfo]:
    from sqlalchemy import select

    from .downloads import downloads_by_revision
    from .models import Revision

    fetched = downloads_by_revision(session)
    return [
        RevisionInfo(
            rev.id,
            rev.created_at.isoformat(),
            rev.tool_version,
            list(rev.files or []),
            dict(rev.summary or {}),
            rev.created_at,
            [d.as_json() for d in fetched[rev.id]] if rev.id in fetched else None,
        )
        for rev in session.scalars(select(Revision).order_by(Revision.id))
    ]


def store_is_empty(session: Session) -> bool:
    return scalar(session, "SELECT 1 FROM edition LIMIT 1") is None
