"""The English editions a text may have been made from: the store's official English, and
every file of the packed English archive (mtgrules/archive.py) whose date the store lacks.

Dating a translation by its content (dating.py) compares it with all of them, 110 editions
and more, so this reads them cheaply: the store's by their rule labels first (one query
each) and their texts only when asked; the archive's straight from the decompressed tar,
whose rule lines are found by their labels in the raw bytes (official English files print
one rule a line, its label first) and decoded only when their text is asked for. Nothing is
written: a file chosen as a translation's source is ingested by the plan (plan.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .. import archive
from ..store.queries import EditionInfo, rule_labels
from ..store.sql import fetch
from ..text.normalize import normalize_text

if TYPE_CHECKING:
    from sqlalchemy.orm import Session

# A rule line of an official English file, in its raw bytes: the label at the start of a
# line, then ". " or " " (or "." glued to a letter: 901.4.All), then the text. The label's
# shape is text/labels.py's; the text is decoded later, only for the rules compared.
_RULE_LINE = re.compile(
    rb"^([0-9]{3}\.[0-9]{1,4}[a-z]?)(?:\.(?![0-9])|(?=[ \t]))[ \t]*(\S[^\n]*)$", re.M
)


def is_official_english(info: EditionInfo) -> bool:
    """A dated English edition of the rules (not a scraped copy, not the 2006 glossary)."""
    return info.language == "en" and info.kind == "rules" and info.date is not None


@dataclass(frozen=True)
class RuleText:
    """One rule of an English edition, as the aligner's items read it."""

    label: str
    norm: str
    kind: str = "rule"
    parent: str | None = None


@dataclass
class EnglishEdition:
    """One English edition a text may follow: in the store (``edition``) or a file of the
    packed archive the store lacks (``file``)."""

    key: str  # the edition's slug, or the archive file's name in the store
    date: str | None
    edition: EditionInfo | None = None
    file: archive.ArchiveFile | None = None
    _labels: list[str] | None = None  # every rule label, in order
    _texts: dict[str, str] = field(default_factory=dict)
    _raw: bytes | None = None
    _spans: dict[str, tuple[int, int]] = field(default_factory=dict)  # label -> its text
    _sections: dict[str, list[str]] = field(default_factory=dict)  # section -> its labels

    @property
    def in_store(self) -> bool:
        return self.edition is not None

    def labels(self, session: Session, sections: Iterable[str] | None = None) -> list[str]:
        """Its rule labels in order; with ``sections``, those of these sections only (an
        archive file then reads only their lines)."""
        if self._labels is None and (sections is None or self._raw is None):
            self._labels = self._all_labels(session)
        if self._labels is not None:
            if sections is None:
                return self._labels
            wanted = set(sections)
            return [lab for lab in self._labels if lab.split(".", 1)[0] in wanted]
        out: list[str] = []
        for section in sorted(set(sections or ()), key=lambda x: (len(x), x)):
            out += self._section_labels(section)
        return out

    def rules(self, session: Session, labels: Iterable[str]) -> list[RuleText]:
        """Its rules under ``labels``, in order; the first of two rules printed under one
        label."""
        wanted = list(dict.fromkeys(labels))
        if self.edition is not None:
            if not self._texts:
                for label, norm in fetch(
                    session,
                    "SELECT label, norm FROM clause WHERE edition_id = :e AND kind = 'rule' "
                    "AND label IS NOT NULL ORDER BY position",
                    {"e": self.edition.id},
                    plain=True,
                ):
                    self._texts.setdefault(label, norm)
        else:
            raw, encoding = self._raw or b"", _encoding(self._raw or b"")
            for label in wanted:
                if label not in self._texts and label in self._spans:
                    start, end = self._spans[label]
                    line = raw[start:end].decode(encoding, errors="replace").strip()
                    self._texts[label] = normalize_text(line)
        order = {
            lab: k
            for k, lab in enumerate(self.labels(session, {w.split(".", 1)[0] for w in wanted}))
        }
        return [
            RuleText(lab, self._texts[lab])
            for lab in sorted(
                (w for w in wanted if w in self._texts), key=lambda w: order.get(w, 0)
            )
        ]

    def _all_labels(self, session: Session) -> list[str]:
        if self.edition is not None:
            return rule_labels(session, self.edition.id)
        raw = self._raw or b""
        labels = []
        for m in _RULE_LINE.finditer(raw, _first_rule(raw)):
            label = m[1].decode("ascii")
            labels.append(label)
            self._spans.setdefault(label, (m.start(2), m.end(2)))
        return labels

    def _section_labels(self, section: str) -> list[str]:
        got = self._sections.get(section)
        if got is not None:
            return got
        raw = self._raw or b""
        needle = b"\n" + section.encode("ascii") + b"."
        got = []
        at = raw.find(needle, _first_rule(raw) - 1)
        while at >= 0:
            m = _RULE_LINE.match(raw, at + 1)
            if m:
                label = m[1].decode("ascii")
                got.append(label)
                self._spans.setdefault(label, (m.start(2), m.end(2)))
            at = raw.find(needle, at + 1)
        self._sections[section] = got
        return got


def _first_rule(raw: bytes) -> int:
    """Where the rules begin: the line of "100.1" (a few files list labelled lines before
    it, in a table of contents or an index of changes)."""
    m = _FIRST_RULE.search(raw)
    return m.start() + 1 if m else 0


_FIRST_RULE = re.compile(rb"\n100\.1[. ]")


def _encoding(raw: bytes) -> str:
    if raw.isascii():
        return "ascii"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return "cp1252"  # the older files of the archive
    return "utf-8"


def store_english(session: Session, infos: Sequence[EditionInfo]) -> list[EnglishEdition]:
    return [
        EnglishEdition(info.slug, info.date, edition=info)
        for info in infos
        if is_official_english(info)
    ]


def archive_english(skip_dates: Iterable[str | None] = ()) -> list[EnglishEdition]:
    """The files of the packed archive, except those of a date in ``skip_dates`` (the
    store's English editions: the same edition, already at hand)."""
    skip = {d for d in skip_dates if d}
    manifest = archive.manifest()
    wanted = {
        f.name: f
        for f in manifest.files
        if (f.effective.isoformat() if f.effective else None) not in skip
    }
    if not wanted:
        return []
    out = []
    for name, view in archive.members(archive.read_packed()):
        f = wanted.get(name)
        if f is None:
            continue
        # Read for choosing only (the file chosen is read again, checked, by ingest).
        raw = b"\n" + _utf8_if_utf16(bytes(view))
        if b"\r" in raw:
            raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
        out.append(
            EnglishEdition(
                f.document_name,
                f.effective.isoformat() if f.effective else None,
                file=f,
                _raw=raw,
            )
        )
    return out


def archive_english_of(date: str | None) -> EnglishEdition | None:
    """The archive's file of the English effective on ``date`` exactly, unread: a dated
    translation takes it without the whole archive being read for a dating by content."""
    if not date:
        return None
    files = [f for f in archive.manifest().files if f.effective and f.effective.isoformat() == date]
    return EnglishEdition(files[0].document_name, date, file=files[0]) if files else None


def _utf8_if_utf16(raw: bytes) -> bytes:
    """Four files of the archive are UTF-16 (2013-04-29, 2016-08-26, 2016-09-30, 2022-11-18):
    their labels are found in their UTF-8 form."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return raw.decode("utf-16", errors="replace").encode("utf-8")
    return raw


def english_editions(session: Session, infos: Sequence[EditionInfo]) -> list[EnglishEdition]:
    """Every English edition a translation may follow, oldest first: the store's official
    English, then the archive's files of the dates the store lacks."""
    store = store_english(session, infos)
    packed = archive_english(e.date for e in store)
    return sorted([*store, *packed], key=lambda e: (e.date or "", not e.in_store))


def english_dates(infos: Sequence[EditionInfo]) -> list[str]:
    """The dates of every English edition a translation may follow (store and archive):
    what a dating by content depends on."""
    dates = {e.date for e in infos if is_official_english(e) and e.date}
    dates |= {f.effective.isoformat() for f in archive.manifest().files if f.effective}
    return sorted(dates)
