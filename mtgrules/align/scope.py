"""What part of the rules a partial translation covers: whole chapters, whole sections, or
single rules.

A translator who publishes chapter 1 has translated chapter 1: a section the English added
to chapter 1 since (123, Stickers) is theirs to translate, as are the rules added inside its
sections (107.16-107.18). A page that quotes rule 107.3 has taken on 107.3 and its subrules,
not the rest of section 107. So coverage is read level by level against an English edition:

- a **chapter** (the hundreds: 1 is 100-199) is covered when the text has rules in at least
  half of that chapter's sections (and in two at least);
- else a **section** (107) is covered when the text has at least half of its rules (two at
  least);
- else each **rule** (107.3) the text has, with its subrules.

A text that covers every chapter is a whole translation (``whole``).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..record import Record
from ..text.labels import rule_of

COVERED_SHARE = 0.5
COVERED_AT_LEAST = 2


def section_of(label: str) -> str:
    """'107.3a' -> '107'; '107' stays."""
    return label.split(".", 1)[0]


def chapter_of(label: str) -> str:
    """'107.3a' -> '1' (chapter 1 holds sections 100-199); '702.9' -> '7'."""
    section = section_of(label)
    return section[0] if len(section) == 3 else section


@dataclass
class Scope(Record):
    """The chapters, sections and rules a text covers, read against one English edition."""

    whole: bool
    chapters: list[str] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)

    def as_json(self) -> dict:
        return {**super().as_json(), "covers": self.describe()}

    @classmethod
    def from_json(cls, data: dict) -> Scope:
        return cls(data["whole"], data["chapters"], data["sections"], data["rules"])

    def holds(self, label: str | None) -> bool:
        if not label:
            return False
        if self.whole:
            return True
        return (
            chapter_of(label) in self.chapters
            or section_of(label) in self.sections
            or rule_of(label) in self.rules
        )

    def follow(self, pairs: Iterable[tuple[str | None, str | None]]) -> Scope:
        """This scope in another edition's numbering, through the labels of aligned clause
        pairs (this edition's label, the other's): each covered section or rule is covered
        where most of its clauses went (2023's section 723 is 2026's 726). Chapters keep
        their numbers."""
        if self.whole:
            return self
        to_section: dict[str, Counter[str]] = defaultdict(Counter)
        to_rule: dict[str, Counter[str]] = defaultdict(Counter)
        for a, b in pairs:
            if not a or not b or "." not in a or "." not in b:
                continue
            if section_of(a) in self.sections:
                to_section[section_of(a)][section_of(b)] += 1
            if rule_of(a) in self.rules:
                to_rule[rule_of(a)][rule_of(b)] += 1
        sections = {
            s: to_section[s].most_common(1)[0][0] if to_section[s] else s for s in self.sections
        }
        rules = {r: to_rule[r].most_common(1)[0][0] if to_rule[r] else r for r in self.rules}
        return Scope(
            False,
            list(self.chapters),
            sorted(set(sections.values()), key=_section_key),
            sorted(set(rules.values()), key=_rule_key),
        )

    def describe(self) -> str:
        if self.whole:
            return "every chapter"
        parts = []
        if self.chapters:
            parts.append(
                ("chapter " if len(self.chapters) == 1 else "chapters ") + ", ".join(self.chapters)
            )
        if self.sections:
            parts.append(
                ("section " if len(self.sections) == 1 else "sections ") + ", ".join(self.sections)
            )
        if self.rules:
            shown = ", ".join(self.rules[:8]) + (" ..." if len(self.rules) > 8 else "")
            parts.append(("rule " if len(self.rules) == 1 else "rules ") + shown)
        return "; ".join(parts) or "nothing"


def text_rules(labels: Iterable[str | None]) -> set[str]:
    """The rules (107.3) a text's labels or parents name."""
    return {rule_of(lab) for lab in labels if lab and "." in lab}


def covered_scope(text_labels: Iterable[str | None], english_labels: Iterable[str]) -> Scope:
    """What a text with these rule labels (and parents of unlabelled paragraphs) covers,
    read against an English edition with these rule labels."""
    mine = text_rules(text_labels)
    sections: dict[str, set[str]] = defaultdict(set)  # English: section -> its rules
    chapters: dict[str, set[str]] = defaultdict(set)  # English: chapter -> its sections
    for label in english_labels:
        rule = rule_of(label)
        sections[section_of(rule)].add(rule)
        chapters[chapter_of(rule)].add(section_of(rule))
    my_sections: dict[str, set[str]] = defaultdict(set)
    for rule in mine:
        my_sections[section_of(rule)].add(rule)
    my_chapters: dict[str, set[str]] = defaultdict(set)
    for section in my_sections:
        my_chapters[chapter_of(section)].add(section)

    covered_chapters = sorted(
        k for k, theirs in chapters.items() if _covers(my_chapters.get(k, set()), theirs)
    )
    if chapters and len(covered_chapters) == len(chapters):
        return Scope(True)
    covered_sections = sorted(
        (
            s
            for s, theirs in sections.items()
            if chapter_of(s) not in covered_chapters and _covers(my_sections.get(s, set()), theirs)
        ),
        key=_section_key,
    )
    rules = sorted(
        (
            r
            for r in mine
            if chapter_of(r) not in covered_chapters and section_of(r) not in covered_sections
        ),
        key=_rule_key,
    )
    return Scope(False, covered_chapters, covered_sections, rules)


def _covers(mine: set[str], theirs: set[str]) -> bool:
    shared = len(mine & theirs)
    return shared >= COVERED_AT_LEAST and shared >= COVERED_SHARE * len(theirs)


def _section_key(section: str) -> tuple:
    return (int(section) if section.isdigit() else 10**6, section)


def _rule_key(rule: str) -> tuple:
    head, _, tail = rule.partition(".")
    return (int(head) if head.isdigit() else 10**6, int(tail) if tail.isdigit() else -1, rule)
