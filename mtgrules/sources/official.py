"""The full Comprehensive Rules text as Wizards (and the Chinese community) publish it.

Layout: title, effective date, introduction, a table of contents (which repeats "Glossary"
and "Credits"), the numbered rules, the glossary, then credits and contact boilerplate.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Clause, ParsedEdition
from ..text.labels import RULE_REF, SECTION_HEADING, parent_of, split_labelled_line
from .clauses import EXAMPLE, glossary_entry
from .damage import find_damage
from .dates import find_effective_date

CONTENTS = {"contents", "目录", "目錄", "table des matières", "índice", "contenido"}
GLOSSARY = {"glossary", "词汇表", "詞彙表", "glossaire", "glosario"}
CREDITS = {"credits", "版权信息", "致谢", "crédits", "créditos"}
BROKEN_LABEL = re.compile(r"^([0-9]{3})\.\s+([0-9]{1,4}[a-z])\s+(\S.*)$")
_HAS_DIGITS = re.compile(r"\d{3}")


def looks_official(lines: list[str]) -> bool:
    """A full edition: a table of contents, then many labelled rules."""
    head = [ln.strip().lower() for ln in lines[:400]]
    if not any(h in CONTENTS for h in head):
        return False
    labelled = 0
    for ln in lines:
        if split_labelled_line(ln.strip()):
            labelled += 1
            if labelled >= 50:
                return True
    return False


def _refs(text: str) -> list[str]:
    return list(_ref_set(text))


@lru_cache(maxsize=65536)  # texts repeat across editions (see text.normalize)
def _ref_set(text: str) -> tuple[str, ...]:
    return tuple(sorted(set(RULE_REF.findall(text)))) if _HAS_DIGITS.search(text) else ()


def parse_official(lines: list[str], language: str) -> ParsedEdition:
    stripped = [ln.strip() for ln in lines]
    first_rule = next(i for i, s in enumerate(stripped) if split_labelled_line(s))
    contents = next((i for i, s in enumerate(stripped[:first_rule]) if s.lower() in CONTENTS), None)
    # The rules start at the section headings right before the first rule; everything
    # between "Contents" and there is the table of contents, never rules.
    body_start = first_rule
    i = first_rule - 1
    while i >= 0 and (not stripped[i] or SECTION_HEADING.match(stripped[i])):
        if stripped[i]:
            body_start = i
        i -= 1
    glossary = next(
        (i for i in range(first_rule, len(stripped)) if stripped[i].lower() in GLOSSARY),
        len(stripped),
    )
    credits = next(
        (i for i in range(len(stripped) - 1, glossary, -1) if stripped[i].lower() in CREDITS),
        len(stripped),
    )

    clauses: list[Clause] = []

    def noise(start: int, end: int, flag: str) -> None:
        for n in range(start, end):
            if stripped[n]:
                clauses.append(
                    Clause(
                        "noise", stripped[n], flags=[flag, *find_damage(stripped[n])], line=n + 1
                    )
                )

    title = next((s for s in stripped if s), None)
    noise(0, contents if contents is not None else body_start, "front-matter")
    if contents is not None:
        noise(contents, body_start, "table-of-contents")

    current: Clause | None = None  # the rule that examples and wrapped paragraphs belong to
    for n in range(body_start, glossary):
        text = stripped[n]
        if not text:
            continue
        labelled = split_labelled_line(text)
        flags: list[str] = []
        if not labelled and (m := BROKEN_LABEL.match(text)) is not None:
            # "606. 8b Players win..." (2006) and "702. 37a Storm..." (2009): a label split by
            # a stray space. It is rule 606.8b, not a section heading; flagged, text kept.
            labelled, flags = (f"{m[1]}.{m[2]}", m[3]), ["broken-label"]
        if labelled:
            label, rest = labelled
            current = Clause(
                "rule",
                rest,
                label=label,
                parent=parent_of(label),
                refs=_refs(rest),
                flags=flags + find_damage(rest),
                line=n + 1,
            )
            clauses.append(current)
        elif (m := SECTION_HEADING.match(text)) is not None:
            current = None
            clauses.append(Clause("heading", m["title"], label=m["label"], line=n + 1))
        elif EXAMPLE.match(text) and current is not None:
            clauses.append(
                Clause("example", text, parent=current.label, refs=_refs(text), line=n + 1)
            )
        elif current is not None:
            # A rule that runs on over several paragraphs (a list, "Of that list, ...").
            current.raw += "\n" + text
            current.refs = _refs(current.raw)
        else:
            clauses.append(Clause("noise", text, flags=["unplaced"], line=n + 1))

    if glossary < len(stripped):
        clauses.append(Clause("heading", stripped[glossary], line=glossary + 1))
        clauses.extend(parse_glossary_blocks(stripped, glossary + 1, credits))
    noise(credits, len(stripped), "credits")
    return ParsedEdition(
        language=language,
        kind="rules",
        clauses=clauses,
        date=find_effective_date("\n".join(lines[:20])) or find_effective_date("\n".join(lines)),
        title=title,
        layout="official",
    )


def parse_glossary_blocks(stripped: list[str], start: int, end: int) -> list[Clause]:
    """Blank-line separated entries: the term, then its definition paragraphs."""
    entries: list[Clause] = []
    block: list[tuple[int, str]] = []

    def flush() -> None:
        if not block:
            return
        (line_no, term), rest = block[0], block[1:]
        if rest:
            body = "\n".join(t for _, t in rest)
            entries.append(glossary_entry(term, body, line_no + 1))
        elif entries:
            # A lone paragraph after an entry continues it.
            entries[-1].raw += "\n" + term
        else:
            entries.append(Clause("noise", term, flags=["unplaced"], line=line_no + 1))
        block.clear()

    for n in range(start, end):
        if stripped[n]:
            block.append((n, stripped[n]))
        else:
            flush()
    flush()
    return entries
