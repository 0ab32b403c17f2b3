"""Plain dataclasses passed between stages. Parsers produce them; the store persists them."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property

from .text.normalize import normalize_text

CLAUSE_KINDS = ("rule", "example", "heading", "glossary", "commentary", "noise")
EDITION_KINDS = ("rules", "glossary")


@dataclass
class Clause:
    """One paragraph of a parsed text: a rule, an example, a heading, a glossary entry, commentary
    or noise (CLAUSE_KINDS), with its label, the rules it refers to and the parser's flags."""

    kind: str
    raw: str
    label: str | None = None
    # The rule a clause sits under: "107.3" for "107.3a", for an unlabelled Spanish subrule,
    # for an example of 107.3a ("107.3a") and for a note written after it.
    parent: str | None = None
    term: str | None = None
    flags: list[str] = field(default_factory=list)
    refs: list[str] = field(default_factory=list)
    label_inferred: bool = False
    line: int = 0

    @cached_property
    def norm(self) -> str:
        # Read only once parsing is done (a rule's wrapped paragraphs are added to raw first).
        return normalize_text(self.raw)


@dataclass
class ParsedEdition:
    """One edition found in a source file: the rules or a glossary (EDITION_KINDS) in one language,
    its clauses in the text's order, and what the text says of its date."""

    language: str
    kind: str
    clauses: list[Clause]
    date: dt.date | None = None
    title: str | None = None
    layout: str = "scraped"
    # What the text says of itself beyond its effective date: when it was translated
    # ("2026-01-16 に翻訳"), that it leaves its glossary out ("용어사전" then "<생략>"), and a
    # date line that could not be read (the edition then stays undated; ingest says so).
    translated: dt.date | None = None
    glossary_omitted: bool = False
    date_unreadable: str | None = None

    @property
    def rule_count(self) -> int:
        return sum(1 for c in self.clauses if c.kind == "rule")


@dataclass
class DecodedText:
    """A source file as the parser reads it. ``text`` is the plain rules text: the decoded file
    itself for plain text; the markup-free lines of a web or wiki page; the paragraphs of a
    PDF, DOCX, RTF or .doc. ``sha256`` and ``size`` are always those of the file's bytes."""

    text: str
    encoding: str
    newline: str
    sha256: str
    size: int
    format: str = "text"  # text, pdf, docx, doc, rtf, html, markdown, dokuwiki, mediawiki
    # Markup only: for parse line i + 1, the 1-based line of the file it came from (so that
    # Clause.line points into the original page). None where parse lines are file lines.
    source_lines: list[int] | None = None
    # What extraction did that a user may want to know ("4 repeated page headers removed").
    notes: list[str] = field(default_factory=list)

    def file_line(self, line: int) -> int:
        """The line of the original file behind parse line ``line`` (1-based)."""
        if self.source_lines is None or not 0 < line <= len(self.source_lines):
            return line
        return self.source_lines[line - 1]


@dataclass
class ParsedDocument:
    """A source file parsed: its path and name, the decoded text, the editions it holds, and where
    it came from (``origin``)."""

    path: str
    name: str
    decoded: DecodedText
    editions: list[ParsedEdition]
    origin: str | None = None
