"""Rules text scraped from web pages: forum quotes, bilingual pages, unlabelled paragraphs.

Every non-blank line is a paragraph. Each is classified (rule, heading, glossary entry,
commentary, noise) and given a language; editions are then formed per language, so a page
quoting the French rules and then the English ones yields two editions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Clause, ParsedEdition
from ..text.language import detect_language, han_ratio
from .damage import find_damage
from .dates import find_effective_date
from .labels import RULE_REF, parent_of, split_labelled_line
from .official import glossary_entry

# "Regla 107.3 · Números y símbolos": a page about one rule names it in a heading.
RULE_HEADING = re.compile(
    r"^(?:Rule|Regla|Règle|Regel|Regola|规则|規則)\s*(\d{3}\.\d+[a-z]?)\b", re.I
)
SUBRULES_HEADING = {"subrules", "subreglas", "sous-règles", "sottoregole", "子规则", "子規則"}
TITLE = re.compile(r"Comprehensive Rules|Règles complètes|Reglas completas|完整规则|完整規則", re.I)
CREDITS_START = re.compile(r"^(?:Credits|Crédits|Créditos|版权信息)\b")
BOILERPLATE = re.compile(
    r"^(?:Published by|Questions\?|Contact the office|Visit our website|Thanks to all|Tel:|"
    r"Email:|P\.?\s?O\.? Box)|trademarks? of|www\.\w|U\.S\. Pat\.",
    re.I,
)
DATE_LINE = re.compile(r"(?:current|effective) as of|此规则于.*起生效", re.I)
USERNAME = re.compile(r"^[\w.\-]{2,32}$")


@dataclass
class _Item:
    clause: Clause
    language: str | None
    edition: int | None = None


_REFERENCE = re.compile(r"^(?:See|Voir|Véase|参见|參見)\b")


def _is_term(text: str) -> bool:
    words = text.split()
    return (
        not _REFERENCE.match(text)
        and 0 < len(words) <= 5
        and len(text) <= 40
        and text[0].isalpha()
        and text[0].isupper()
        and not any(ch.isdigit() for ch in text)
        and text[-1] not in ":?!,;"
    )


def _looks_like_glossary(texts: list[str]) -> bool:
    pairs = sum(
        1
        for a, b in zip(texts, texts[1:], strict=False)
        if _is_term(a) and len(b.split()) >= 6 and not _is_term(b)
    )
    return pairs >= 2


def _cjk(text: str) -> bool:
    return han_ratio(text) > 0.3


def parse_scraped(lines: list[str]) -> list[ParsedEdition]:
    rows = [(n + 1, ln.strip()) for n, ln in enumerate(lines) if ln.strip()]
    texts = [t for _, t in rows]
    labelled = [i for i, t in enumerate(texts) if split_labelled_line(t)]
    # A bilingual page puts each labelled line right before its translation.
    interleaved = bool(labelled) and sum(
        1
        for i in labelled
        if i + 1 < len(texts)
        and not split_labelled_line(texts[i + 1])
        and _cjk(texts[i + 1]) != _cjk(split_labelled_line(texts[i])[1])
    ) >= 0.5 * len(labelled)
    glossary_mode = (
        not labelled
        and not any(RULE_HEADING.match(t) for t in texts)
        and (_looks_like_glossary(texts))
    )

    items: list[_Item] = []
    last_label: str | None = None
    context_rule: str | None = None
    expect_rule_body = False
    in_subrules = False
    pending_translation: tuple[str, bool] | None = None  # (label, its text is CJK)
    in_credits = False
    entry: _Item | None = None  # the glossary entry that paragraphs are added to

    for idx, (line, text) in enumerate(rows):
        flags = find_damage(text)
        if DATE_LINE.search(text) and len(text.split()) <= 12:
            items.append(_Item(Clause("noise", text, flags=["date", *flags], line=line), None))
            continue
        if in_credits or CREDITS_START.match(text):
            in_credits = True
            items.append(_Item(Clause("noise", text, flags=["credits", *flags], line=line), None))
            continue
        if BOILERPLATE.search(text):
            items.append(
                _Item(Clause("noise", text, flags=["boilerplate", *flags], line=line), None)
            )
            continue
        if TITLE.search(text) and len(text.split()) <= 10:
            items.append(_Item(Clause("heading", text, line=line), None))
            continue

        labelled_line = split_labelled_line(text)
        if labelled_line:
            label, rest = labelled_line
            last_label = label
            entry = None
            pending_translation = (label, _cjk(rest)) if interleaved else None
            clause = Clause(
                "rule",
                rest,
                label=label,
                parent=parent_of(label),
                refs=sorted(set(RULE_REF.findall(rest))),
                flags=find_damage(rest),
                line=line,
            )
            items.append(_Item(clause, detect_language(rest)))
            continue
        if (m := RULE_HEADING.match(text)) is not None:
            context_rule, expect_rule_body, in_subrules = m[1], True, False
            items.append(_Item(Clause("heading", text, label=m[1], line=line), None))
            continue
        if text.lower().strip(" :·") in SUBRULES_HEADING:
            in_subrules, expect_rule_body = context_rule is not None, False
            items.append(_Item(Clause("heading", text, line=line), None))
            continue

        language = detect_language(text)
        refs = sorted(set(RULE_REF.findall(text)))
        if pending_translation and _cjk(text) != pending_translation[1]:
            label = pending_translation[0]
            pending_translation = None
            # Its label comes from the line it translates, not from its own text.
            clause = Clause(
                "rule",
                text,
                label=label,
                parent=parent_of(label),
                label_inferred=True,
                refs=refs,
                flags=flags,
                line=line,
            )
            items.append(_Item(clause, language))
            continue
        pending_translation = None
        if expect_rule_body:
            expect_rule_body = False
            last_label = context_rule
            clause = Clause(
                "rule",
                text,
                label=context_rule,
                parent=parent_of(context_rule or ""),
                refs=refs,
                flags=flags,
                line=line,
            )
            items.append(_Item(clause, language))
            continue
        if in_subrules:
            clause = Clause("rule", text, parent=context_rule, refs=refs, flags=flags, line=line)
            items.append(_Item(clause, language))
            continue
        if glossary_mode:
            nxt = texts[idx + 1] if idx + 1 < len(texts) else ""
            if _is_term(text) and nxt and not _is_term(nxt):
                entry = _Item(glossary_entry(text, "", line + 1), "en")
                entry.clause.raw = ""
                items.append(entry)
                continue
            if entry is not None:
                c = entry.clause
                c.raw = f"{c.raw}\n{text}" if c.raw else text
                updated = glossary_entry(c.term or "", c.raw, c.line)
                c.refs, c.flags = updated.refs, updated.flags
                entry.language = detect_language(c.raw) or entry.language
                continue
        if text.endswith(":") and len(text.split()) <= 15:
            items.append(_Item(Clause("heading", text, line=line), None))
            continue
        if language is None and USERNAME.match(text):
            items.append(_Item(Clause("noise", text, flags=["username", *flags], line=line), None))
            continue
        if language is None:
            items.append(_Item(Clause("heading", text, line=line), None))
            continue
        clause = Clause("commentary", text, parent=last_label, refs=refs, flags=flags, line=line)
        items.append(_Item(clause, language))

    return _group_editions(items)


def _smooth_rule_languages(items: list[_Item]) -> None:
    """A rule whose detected language disagrees with both neighbouring rules takes theirs."""
    rules = [it for it in items if it.clause.kind == "rule"]
    for prev, cur, nxt in zip(rules, rules[1:], rules[2:], strict=False):
        if prev.language == nxt.language and cur.language != prev.language:
            if (cur.language or "").startswith("zh") == (prev.language or "").startswith("zh"):
                cur.language = prev.language
    for it in rules:
        if it.language is None:
            it.language = next((r.language for r in rules if r.language), "en")


def _group_editions(items: list[_Item]) -> list[ParsedEdition]:
    _smooth_rule_languages(items)
    editions: list[tuple[str, list[str]]] = []  # (language, labels seen)
    current: dict[str, int] = {}
    for it in items:
        if it.clause.kind not in ("rule", "glossary"):
            continue
        lang = it.language or "en"
        label = it.clause.label
        idx = current.get(lang)
        if idx is not None and label is not None:
            seen = editions[idx][1]
            # A label seen before (and not a plain repeat) starts the next edition.
            if label in seen and seen[-1] != label:
                idx = None
        if idx is None:
            editions.append((lang, []))
            idx = current[lang] = len(editions) - 1
        if label is not None:
            editions[idx][1].append(label)
        it.edition = idx
    if not editions:
        return []

    anchored = [i for i, it in enumerate(items) if it.edition is not None]
    for i, it in enumerate(items):
        if it.edition is not None:
            continue
        before = [j for j in anchored if j < i]
        after = [j for j in anchored if j > i]
        if it.clause.kind == "commentary":
            same = [j for j in before[::-1] + after if items[j].language == it.language]
            pick = same[0] if same else (before[-1] if before else after[0])
        elif it.clause.kind == "heading":
            pick = after[0] if after else before[-1]
        else:
            pick = before[-1] if before else after[0]
        it.edition = items[pick].edition

    result: list[ParsedEdition] = []
    for idx, (lang, _labels) in enumerate(editions):
        clauses = [it.clause for it in items if it.edition == idx]
        kinds = {c.kind for c in clauses}
        date = next(
            (d for c in clauses if "date" in c.flags and (d := find_effective_date(c.raw))), None
        )
        title = next((c.raw for c in clauses if c.kind == "heading"), None)
        result.append(
            ParsedEdition(
                language=lang,
                kind="rules" if "rule" in kinds else "glossary",
                clauses=clauses,
                date=date,
                title=title,
                layout="scraped",
            )
        )
    return result
