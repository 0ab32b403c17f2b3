"""The full Comprehensive Rules text as Wizards publishes it, and its translations.

Layout: title, effective date, introduction, a table of contents (which repeats "Glossary"
and "Credits"), the numbered rules, the glossary, then credits and contact boilerplate. A
translation keeps that layout in its own words (parts.py), may print its dates at the end
(the Japanese file's last line), may leave its glossary out ("용어사전" then "<생략>"), and
keeps some English inside: keyword headings ("701.22. Fateseal"), "Example:", card names.
All of that is one edition: its English lines are untranslated clauses of it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..model import Clause, ParsedEdition
from ..text.identify import script_of_text
from ..text.labels import RULE_REF, SECTION_HEADING, parent_of, split_labelled_line
from .clauses import EXAMPLE, glossary_entry
from .damage import find_damage
from .dates import find_dates
from .parts import is_contents, is_credits, is_glossary, is_omitted

BROKEN_LABEL = re.compile(r"^([0-9]{3})\.\s+([0-9]{1,4}[a-z])\s+(\S.*)$")
_HAS_DIGITS = re.compile(r"\d{3}")
# Where no credits heading marks the end matter, its last lines are searched for a date.
END_LINES = 60


# A full text with no contents heading parts.py knows (a language not listed there, or a
# file that dropped it) is still recognised by its rules: this many labelled rules, from at
# least this many of the nine chapters. The smallest English edition has 2,133 rules in 9
# chapters; a page of rules on one topic has a few dozen from one chapter.
FULL_TEXT_RULES = 500
FULL_TEXT_CHAPTERS = 6
# An interleaved bilingual text (each rule, then its translation on the next line) is two
# editions, whatever its headings: the scraped-page parser splits it.
_INTERLEAVE_SAMPLE = 200


def looks_official(lines: list[str]) -> bool:
    """A full edition: a table of contents, then many labelled rules, one language."""
    head = [ln.strip() for ln in lines[:400]]
    contents = any(is_contents(h) for h in head if h)
    labelled = 0
    chapters: set[str] = set()
    following: list[tuple[str, str]] = []  # (a rule's text, the next line) for the first rules
    for i, ln in enumerate(lines):
        found = split_labelled_line(ln.strip())
        if not found:
            continue
        labelled += 1
        chapters.add(found[0][0])
        if len(following) < _INTERLEAVE_SAMPLE and i + 1 < len(lines):
            following.append((found[1], lines[i + 1].strip()))
        if contents and labelled >= 50 and len(following) >= min(labelled, _INTERLEAVE_SAMPLE):
            break
    enough = (
        labelled >= 50
        if contents
        else (labelled >= FULL_TEXT_RULES and len(chapters) >= FULL_TEXT_CHAPTERS)
    )
    return enough and not _interleaved(following)


def _interleaved(following: list[tuple[str, str]]) -> bool:
    """Is most rules' next line their translation, in another writing system?"""
    if not following:
        return False
    other = sum(
        1
        for text, nxt in following
        if nxt
        and not split_labelled_line(nxt)
        and (a := script_of_text(text)) is not None
        and (b := script_of_text(nxt)) is not None
        and a != b
    )
    return other >= 0.5 * len(following)


def _refs(text: str) -> list[str]:
    return list(_ref_set(text))


@lru_cache(maxsize=65536)  # texts repeat across editions (see text.normalize)
def _ref_set(text: str) -> tuple[str, ...]:
    return tuple(sorted(set(RULE_REF.findall(text)))) if _HAS_DIGITS.search(text) else ()


def parse_official(lines: list[str], language: str) -> ParsedEdition:
    stripped = [ln.strip() for ln in lines]
    first_rule = next(i for i, s in enumerate(stripped) if split_labelled_line(s))
    contents = next((i for i, s in enumerate(stripped[:first_rule]) if is_contents(s)), None)
    # The rules start at the section headings right before the first rule; everything
    # between "Contents" and there is the table of contents, never rules.
    body_start = first_rule
    i = first_rule - 1
    while i >= 0 and (not stripped[i] or SECTION_HEADING.match(stripped[i])):
        if stripped[i]:
            body_start = i
        i -= 1
    glossary = next(
        (i for i in range(first_rule, len(stripped)) if is_glossary(stripped[i])),
        len(stripped),
    )
    credits = next(
        (i for i in range(len(stripped) - 1, glossary, -1) if is_credits(stripped[i])),
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
    last_rule = body_start
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
            last_rule = n
        elif (m := SECTION_HEADING.match(text)) is not None:
            current = None
            clauses.append(Clause("heading", m["title"], label=m["label"], line=n + 1))
        elif EXAMPLE.match(text) and current is not None:
            clauses.append(
                Clause("example", text, parent=current.label, refs=_refs(text), line=n + 1)
            )
            last_rule = n
        elif current is not None:
            # A rule that runs on over several paragraphs (a list, "Of that list, ...").
            current.raw += "\n" + text
            current.refs = _refs(current.raw)
            last_rule = n
        else:
            clauses.append(Clause("noise", text, flags=["unplaced"], line=n + 1))

    glossary_omitted = False
    if glossary < len(stripped):
        clauses.append(Clause("heading", stripped[glossary], line=glossary + 1))
        marker = next((n for n in range(glossary + 1, credits) if stripped[n]), None)
        if marker is not None and is_omitted(stripped[marker]):
            # "용어사전" then "<생략>": the translation leaves its glossary out. What follows
            # is the end matter (the publisher's lines), not glossary entries.
            glossary_omitted = True
            clauses.append(
                Clause("noise", stripped[marker], flags=["glossary-omitted"], line=marker + 1)
            )
            noise(marker + 1, credits, "credits")
        else:
            clauses.extend(parse_glossary_blocks(lines, glossary + 1, credits))
    noise(credits, len(stripped), "credits")
    # Dates are printed in the front matter (under the title) or at the very end (the
    # Japanese file's last line), never in the rules or the glossary's entries.
    if credits < len(stripped):
        end = credits
    elif glossary < len(stripped) and not glossary_omitted:
        end = max(glossary, len(stripped) - END_LINES)
    else:
        end = max(last_rule + 1, len(stripped) - END_LINES)
    dates = find_dates(stripped[:body_start], stripped[end:])
    return ParsedEdition(
        language=language,
        kind="rules",
        clauses=clauses,
        date=dates.effective,
        title=title,
        layout="official",
        translated=dates.translated,
        glossary_omitted=glossary_omitted,
        date_unreadable=dates.unreadable,
    )


# A blank-line block this long is no glossary entry (the longest English one has 12
# paragraphs): it is a glossary written one paragraph a line, without blank lines.
LONG_BLOCK = 20
# A term in such a glossary: a line that ends no sentence, not longer than this (the longest
# Japanese heading, with its reading and its English term, has 115 characters).
TERM_CHARS = 150
_SENTENCE_END = (".", "。", "．")
WRAPPED_SHARE = 0.1
MIN_TERM_SHARE = 0.25


def parse_glossary_blocks(lines: list[str], start: int, end: int) -> list[Clause]:
    """Blank-line separated entries: the term, then its definition paragraphs (the older
    English files indent the paragraphs after the first). A glossary written one paragraph a
    line with no blank lines (the Japanese translation, which indents its definitions) is one
    long block, cut into entries at its terms."""
    entries: list[Clause] = []
    block: list[tuple[int, str]] = []
    indented: list[bool] = []

    def add(term_line: int, term: str, body: list[str]) -> None:
        term, body = _unglue_first_sense(term, body)
        if body:
            entries.append(glossary_entry(term, "\n".join(body), term_line + 1))
        elif entries:
            # A lone paragraph after an entry continues it.
            entries[-1].raw += "\n" + term
        else:
            entries.append(Clause("noise", term, flags=["unplaced"], line=term_line + 1))

    def flush() -> None:
        if not block:
            return
        starts = [0]
        # Lines that start in lower case continue a sentence: a hard-wrapped text (the
        # 2003 editions wrap at 110 columns: 65% of such a block's lines), whose long
        # blocks are long entries.
        wrapped = sum(1 for _, t in block if t[:1].islower()) > WRAPPED_SHARE * len(block)
        if len(block) > LONG_BLOCK and not wrapped:
            # A term is never indented, and is followed by its definition: an indented
            # line, or one that is no term ("1. ...", "(廃語)..." start some unindented).
            terms = [
                k
                for k in range(len(block) - 1)
                if not indented[k]
                and _term_like(block[k][1])
                and (indented[k + 1] or not _term_like(block[k + 1][1]))
            ]
            # Entries of a term and a paragraph or two: a long list inside one entry (the
            # creature types, one a line) has few such lines.
            if terms and terms[0] == 0 and len(terms) >= MIN_TERM_SHARE * len(block):
                starts = terms
        for a, b in zip(starts, [*starts[1:], len(block)], strict=True):
            add(block[a][0], block[a][1], [t for _, t in block[a + 1 : b]])
        block.clear()
        indented.clear()

    for n in range(start, end):
        text = lines[n].strip()
        if text:
            block.append((n, text))
            indented.append(lines[n][:1].isspace())
        else:
            flush()
    flush()
    return entries


# A term with its first numbered sense on the same line ("Archenemy1. A casual variant ...",
# then "2. A player in an Archenemy game ..."): the line break after the term is lost in
# one archive edition (2021-06-09: 11 entries). The term ends in a letter or a bracket.
_GLUED_SENSE = re.compile(r"^(.*[^\W\d_\s)\]])1\.\s+(\S.*)$")


def _unglue_first_sense(term: str, body: list[str]) -> tuple[str, list[str]]:
    """The term and its definition when the first sense of a numbered definition is glued
    to the term; only when the next paragraph is the second sense."""
    m = _GLUED_SENSE.match(term)
    if m is None or not body or not body[0].startswith("2."):
        return term, body
    return m.group(1).strip(), [f"1. {m.group(2)}", *body]


def _term_like(text: str) -> bool:
    return len(text) <= TERM_CHARS and not text.endswith(_SENTENCE_END)
