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
    language: str
    kind: str
    clauses: list[Clause]
    date: dt.date | None = None
    title: str | None = None
    layout: str = "scraped"

    @property
    def rule_count(self) -> int:
        return sum(1 for c in self.clauses if c.kind == "rule")


@dataclass
class DecodedText:
    text: str
    encoding: str
    newline: str
    sha256: str
    size: int


@dataclass
class ParsedDocument:
    path: str
    name: str
    decoded: DecodedText
    editions: list[ParsedEdition]
    origin: str | None = None
