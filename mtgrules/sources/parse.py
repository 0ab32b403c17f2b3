"""Step 6 of intake: parse lines to editions. Picks the layout family (the official full text,
``official.py``, or a scraped page, ``scraped.py``), names each edition's language, and
refuses a text that is not the rules."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from ..errors import InputError, NotRulesError
from ..model import DecodedText, ParsedDocument, ParsedEdition
from ..text.identify import identify_language
from ..text.labels import SECTION_HEADING, lone_label, lone_section, split_labelled_line
from ..text.language import UNDETERMINED
from .official import looks_official, parse_official
from .scraped import parse_scraped

# A document holds rules when at least this many of its paragraphs are rules or glossary
# entries, and they are not lost among its other paragraphs (a README that mentions "rule
# 107.3" once, a SOURCES.md with a table row starting "107.3"). The smallest real page in the
# corpus has 9 rules in 28 paragraphs; a README has 1 in 143.
MIN_RULES = 2
MIN_RULES_SHARE = 0.05


def _unsure(where: str) -> InputError:
    return InputError(
        f"{where}: cannot tell which language its rules are in; give it with --lang "
        "(a BCP 47 tag such as de, it, pt-BR or ko)."
    )


# Enough rules text to tell a language for certain: on the archive's 110 editions and the
# corpus's 23, py3langid gives the same answer (en 129, zh-Hans 4) from 1,000, 2,000, 5,000
# or 20,000 characters; 2,000 costs 2 ms a file where 20,000 cost 17 ms.
SAMPLE_CHARS = 2000


def _rules_sample(lines: list[str]) -> str:
    """The text of the first labelled rules (not the front matter, which may be English
    boilerplate in a translation)."""
    parts: list[str] = []
    size = 0
    for ln in lines:
        labelled = split_labelled_line(ln.strip())
        if labelled:
            parts.append(labelled[1])
            size += len(labelled[1])
            if size >= SAMPLE_CHARS:
                break
    return " ".join(parts)


# A glossary with no rules (a glossary page) is the rules' glossary when its entries point
# into the rules ("See rule 409", "See Controller."): on the 2006 glossary page 5 entries of
# 5 do; in the full editions' glossaries, 55% (2003) to 96% (2010 on), 91% in the Japanese
# translation's. A short text of headings and sentences (a README: "Usage", then a
# sentence) has capitalised terms and no references.
MIN_REFERRING_SHARE = 1 / 3


def _glossary_like(edition: ParsedEdition) -> bool:
    entries = [c for c in edition.clauses if c.kind == "glossary"]
    referring = sum(1 for c in entries if c.refs)
    return bool(entries) and referring >= MIN_REFERRING_SHARE * len(entries)


# A section's title after its lone number ("=100=" then "原則" on a wiki page).
SECTION_TITLE_CHARS = 80
# A line that ends so is cut in the middle of a reference to a rule.
_REFERENCE_BEFORE = re.compile(r"(?:\brules?|\bsee|\band|\bor|,)$", re.I)


def join_lone_labels(lines: list[str]) -> list[str]:
    """Labels written on a line of their own, their text on the next line (a wiki's
    ``==100.1==`` heading, a table cell, the Japanese file's "500.10a"), joined to that
    text as "100.1 text" on the label's line; the text's line is left blank, so every line
    keeps its number. Lone section numbers ("=100=" then "原則") are joined to their title
    on pages that write two rule labels or more that way.

    A number alone on a line in the middle of a sentence is a hard-wrapped reference ("See
    rule" / "404.4" in the 2003 files), not a label; so is one followed by a blank line, or
    by a line that starts in lower case."""
    lone = [i for i, ln in enumerate(lines) if lone_label(ln.strip())]
    if not lone:
        return lines
    sections = len(lone) >= 2
    out = list(lines)
    n = len(out)
    previous = ""  # the last non-blank line before the one looked at
    for i in range(n - 1):
        text = out[i].strip()
        if not text:
            continue
        label = lone_label(text)
        section = lone_section(text) if sections and label is None else None
        wrapped = _REFERENCE_BEFORE.search(previous) is not None
        previous = text
        if (label is None and section is None) or wrapped:
            continue
        nxt = out[i + 1].strip()
        if (
            not nxt
            or nxt[:1].islower()
            or split_labelled_line(nxt)
            or lone_label(nxt)
            or lone_section(nxt)
            or SECTION_HEADING.match(nxt)
        ):
            continue
        if label is not None:
            out[i], out[i + 1] = f"{label} {nxt}", ""
        elif len(nxt) <= SECTION_TITLE_CHARS:
            out[i], out[i + 1] = f"{section}. {nxt}", ""
        previous = out[i]
    return out


def parse_text(text: str, where: str, *, language: str | None = None) -> list[ParsedEdition]:
    """The editions in ``text``. ``language`` (a user's --lang) replaces detection: every
    edition of a one-language text takes it; in a text with several languages it names the
    editions whose language could not be told."""
    lines = join_lone_labels(text.splitlines())  # not re.M: bare-CR files are one line
    if looks_official(lines):
        if language is None:
            language = identify_language(_rules_sample(lines))
            if language is None:
                raise _unsure(where)
        editions = [parse_official(lines, language)]
    else:
        editions = _tag(parse_scraped(lines), language, where)
    editions = [e for e in editions if e.rule_count or _glossary_like(e)]
    if not editions:
        raise NotRulesError(
            f"{where}: no recognisable rules (no labelled rule such as '107.3a', no glossary "
            "entry, no 'Rule 107.3' heading); is this a Comprehensive Rules text?"
        )
    found = sum(1 for e in editions for c in e.clauses if c.kind in ("rule", "glossary"))
    paragraphs = sum(1 for e in editions for c in e.clauses if c.kind != "noise")
    if found < MIN_RULES or found < MIN_RULES_SHARE * paragraphs:
        raise NotRulesError(
            f"{where}: only {found} rule{'s' if found != 1 else ''} among {paragraphs} "
            "paragraphs; this is not a Comprehensive Rules text (nor a page of rules)."
        )
    return editions


def _tag(editions: list[ParsedEdition], language: str | None, where: str) -> list[ParsedEdition]:
    known = {e.language for e in editions if e.language != UNDETERMINED}
    if language is not None:
        if len(known) <= 1:
            return [replace(e, language=language) for e in editions]
        if not any(e.language == UNDETERMINED for e in editions):
            raise InputError(
                f"{where}: holds rules in {' and '.join(sorted(known))}, each recognised; "
                "--lang names the language of a one-language file, or of the text whose "
                "language cannot be told. Ingest it without --lang."
            )
        return [
            replace(e, language=language) if e.language == UNDETERMINED else e for e in editions
        ]
    if any(
        e.language == UNDETERMINED and any(c.kind in ("rule", "glossary") for c in e.clauses)
        for e in editions
    ):
        raise _unsure(where)
    return editions


# A long document with hardly any rule labels is something else (a novel, a manual, a
# report); the parser would otherwise read its short lines as a glossary. A rules edition
# has about 3,000 labelled rules in 9,000 paragraphs; a glossary alone has about 1,500
# paragraphs, so only documents longer than that are checked.
LONG_DOCUMENT = 3000
MIN_LABELS = 20


def check_rules_like(text: str, format: str, where: str) -> None:
    """Refuse a long document in which almost no paragraph starts with a rule label."""
    paragraphs = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if len(paragraphs) < LONG_DOCUMENT:
        return
    labelled = sum(1 for p in paragraphs if split_labelled_line(p))
    if labelled < MIN_LABELS:
        raise NotRulesError(
            f"{where}: {len(paragraphs):,} paragraphs of {format.upper()} text with "
            f"{labelled} numbered rules (such as '107.3a') among them; this is not the "
            "Comprehensive Rules. Give the rules, or a glossary on its own."
        )


def parse_document(
    path: Path,
    decoded: DecodedText,
    *,
    name: str | None = None,
    origin: str | None = None,
    language: str | None = None,
) -> ParsedDocument:
    """The editions in a source file, as steps 1-5 made it (pipeline.py). Clause.line is the
    line of the original file (for a web or wiki page, the line with the markup)."""
    editions = parse_text(decoded.text, str(path), language=language)
    if decoded.source_lines is not None:
        for edition in editions:
            for clause in edition.clauses:
                clause.line = decoded.file_line(clause.line)
    return ParsedDocument(
        path=str(path), name=name or path.name, decoded=decoded, editions=editions, origin=origin
    )
