"""Rules text scraped from web pages: forum quotes, bilingual pages, unlabelled paragraphs.

Every non-blank line is a paragraph. Each is classified (rule, heading, glossary entry,
commentary, noise) and given a language; editions are then formed per language, so a page
quoting the French rules and then the English ones yields two editions.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..model import Clause, ParsedEdition
from ..text.identify import identify_language, script_of_text
from ..text.labels import RULE_REF, SECTION_HEADING, parent_of, split_labelled_line
from ..text.language import UNDETERMINED
from .clauses import EXAMPLE, glossary_entry
from .damage import find_damage
from .dates import read_date_line

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
USERNAME = re.compile(r"^[\w.\-]{2,32}$")


@dataclass
class _Item:
    """One paragraph of the page as classified: its clause, its language when one was identified,
    and the edition (an index) it is put in."""

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


def _other_language(text: str, than: str) -> bool:
    """Is ``text`` in another language than ``than``? Another writing system (Korean after
    English) says so for certain; within one script (French after English), both must be
    identified, and differ."""
    a, b = script_of_text(text), script_of_text(than)
    if a is None or b is None:
        return False
    if a != b:
        return True
    la, lb = _identify(text), _identify(than)
    return la is not None and lb is not None and la != lb


def _identify(text: str) -> str | None:
    return identify_language(text)


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
        and _other_language(texts[i + 1], split_labelled_line(texts[i])[1])
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
    pending_translation: tuple[str, str] | None = None  # (label, its text)
    in_credits = False
    entry: _Item | None = None  # the glossary entry that paragraphs are added to

    for idx, (line, text) in enumerate(rows):
        flags = find_damage(text)
        if not split_labelled_line(text) and (dated := read_date_line(text)) is not None:
            flag = "date" if dated.kind == "effective" else "translated-date"
            items.append(_Item(Clause("noise", text, flags=[flag, *flags], line=line), None))
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
            pending_translation = (label, rest) if interleaved else None
            clause = Clause(
                "rule",
                rest,
                label=label,
                parent=parent_of(label),
                refs=sorted(set(RULE_REF.findall(rest))),
                flags=find_damage(rest),
                line=line,
            )
            items.append(_Item(clause, _identify(rest)))
            continue
        if (m := RULE_HEADING.match(text)) is not None:
            context_rule, expect_rule_body, in_subrules = m[1], True, False
            items.append(_Item(Clause("heading", text, label=m[1], line=line), None))
            continue
        if (m := SECTION_HEADING.match(text)) is not None and len(text) <= 80:
            # "100. 原則", "107. Numbers and Symbols": a section of the rules, as in the
            # official files (a table of contents on a page, or the section's title).
            items.append(_Item(Clause("heading", m["title"], label=m["label"], line=line), None))
            continue
        if text.lower().strip(" :·") in SUBRULES_HEADING:
            in_subrules, expect_rule_body = context_rule is not None, False
            items.append(_Item(Clause("heading", text, line=line), None))
            continue

        language = _identify(text)
        refs = sorted(set(RULE_REF.findall(text)))
        if pending_translation and _other_language(text, pending_translation[1]):
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
                entry = _Item(glossary_entry(text, "", line + 1), None)
                entry.clause.raw = ""
                items.append(entry)
                continue
            if entry is not None:
                c = entry.clause
                c.raw = f"{c.raw}\n{text}" if c.raw else text
                updated = glossary_entry(c.term or "", c.raw, c.line)
                c.refs, c.flags = updated.refs, updated.flags
                entry.language = _identify(c.raw) or entry.language
                continue
        if last_label is not None and EXAMPLE.match(text):
            # "Example: ..." after a rule belongs to it, as in the official files.
            clause = Clause("example", text, parent=last_label, refs=refs, flags=flags, line=line)
            items.append(_Item(clause, language))
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
    """A rule whose detected language disagrees with both neighbouring rules takes theirs
    (when it is written in their script); a rule, or glossary entry, whose language could not
    be told takes the language most rules in its script have. What is still unknown stays
    None: the caller asks for --lang rather than guess."""
    rules = [it for it in items if it.clause.kind == "rule"]
    for prev, cur, nxt in zip(rules, rules[1:], rules[2:], strict=False):
        if prev.language == nxt.language and cur.language != prev.language:
            if script_of_text(cur.clause.raw) == script_of_text(prev.clause.raw):
                cur.language = prev.language
    anchored = [it for it in items if it.clause.kind in ("rule", "glossary")]
    groups: dict[str | None, list[_Item]] = {}
    for it in anchored:
        groups.setdefault(script_of_text(it.clause.raw), []).append(it)
    for members in groups.values():
        votes = Counter(it.language for it in members if it.language)
        if sum(votes.values()) * 2 < len(members):
            # Most lines could not be told apart (short lines, or a language outside the
            # identifier's set, whose few lines it names at random): the page's text in this
            # script, taken together, decides for all of them, or nothing does.
            whole = identify_language(" ".join(it.clause.raw for it in members)[:20000])
            for it in members:
                it.language = whole
            continue
        best = votes.most_common(1)[0][0]
        for it in members:
            if it.language is None:
                it.language = best


def _script_decides(items: list[_Item]) -> None:
    """Han characters alone are Chinese only on a page that is not Japanese or Korean: on a
    page written mostly in kana (or Hangul), a heading or rule in kanji (hanja) alone, such
    as "原則", is Japanese (Korean) too."""
    anchored = [it for it in items if it.clause.kind in ("rule", "glossary")]
    scripts = Counter(script_of_text(it.clause.raw) for it in anchored)
    for script, language in (("kana", "ja"), ("hangul", "ko")):
        if scripts[script] and scripts[script] >= scripts["han"]:
            for it in anchored:
                if script_of_text(it.clause.raw) == "han":
                    it.language = language
            return


def _keep_untranslated(items: list[_Item]) -> None:
    """A translation leaves some clauses in English: keyword headings ("701.22. Fateseal" in
    Korean), card names. Such a clause has no counterpart on the page (its label is nowhere
    else), and the rules around it are in the page's language: it is an untranslated clause
    of that edition, not an edition of its own. A page that quotes the rules in two
    languages (a forum post, a bilingual page) gives every label twice."""
    rules = [it for it in items if it.clause.kind == "rule"]
    labels = Counter(it.clause.label for it in rules if it.clause.label)
    majority = Counter(it.language for it in rules if it.language).most_common(1)
    if not majority:
        return
    main = majority[0][0]
    lone = [
        it.language != main and it.clause.label is not None and labels[it.clause.label] == 1
        for it in rules
    ]
    # The language of the nearest rule before (after) each rule that is not such a clause.
    before: list[str | None] = []
    last: str | None = None
    for it, alone in zip(rules, lone, strict=True):
        before.append(last)
        if not alone:
            last = it.language
    after: list[str | None] = [None] * len(rules)
    last = None
    for i in range(len(rules) - 1, -1, -1):
        after[i] = last
        if not lone[i]:
            last = rules[i].language
    for i, it in enumerate(rules):
        if lone[i] and before[i] == main and after[i] == main:
            it.language = main


# A label seen before starts another edition of the same language (a page quoting two
# editions of a rule) only when the labels after it repeat too; a label that is repeated
# alone ("101.4d" twice, the second meaning 101.4e) is a mislabel inside one edition.
RESTART_LOOKAHEAD = 3


def _restarts(items: list[_Item]) -> set[int]:
    """Positions (in ``items``) of the labelled clauses that start a repeat of the labels
    seen before them in their language."""
    by_language: dict[str | None, list[tuple[int, str]]] = {}
    for pos, it in enumerate(items):
        if it.clause.kind in ("rule", "glossary") and it.clause.label is not None:
            by_language.setdefault(it.language, []).append((pos, it.clause.label))
    out: set[int] = set()
    for sequence in by_language.values():
        seen: set[str] = set()
        for k, (pos, label) in enumerate(sequence):
            if label in seen and sequence[k - 1][1] != label:
                ahead = [lab for _, lab in sequence[k + 1 : k + 1 + RESTART_LOOKAHEAD]]
                if not ahead or sum(lab in seen for lab in ahead) * 2 > len(ahead):
                    out.add(pos)
                    seen = set()
            seen.add(label)
    return out


def _group_editions(items: list[_Item]) -> list[ParsedEdition]:
    _smooth_rule_languages(items)
    _script_decides(items)
    _keep_untranslated(items)
    restarts = _restarts(items)
    # Linear in the number of paragraphs: a hostile file may hold hundreds of thousands.
    editions: list[str] = []  # each edition's language
    current: dict[str, int] = {}
    for pos, it in enumerate(items):
        if it.clause.kind not in ("rule", "glossary"):
            continue
        lang = it.language or UNDETERMINED
        idx = current.get(lang)
        if idx is None or pos in restarts:
            editions.append(lang)
            idx = current[lang] = len(editions) - 1
        it.edition = idx
    if not editions:
        return []

    # Nearest anchored paragraph (one with an edition) before and after each paragraph, in
    # any language and in the paragraph's own language.
    n = len(items)
    anchored = [it.edition is not None for it in items]
    prev_any: list[int | None] = [None] * n
    next_any: list[int | None] = [None] * n
    prev_same: list[int | None] = [None] * n
    next_same: list[int | None] = [None] * n
    last_any: int | None = None
    last_by_lang: dict[str | None, int] = {}
    for i, it in enumerate(items):
        prev_any[i], prev_same[i] = last_any, last_by_lang.get(it.language)
        if anchored[i]:
            last_any = last_by_lang[it.language] = i
    last_any, last_by_lang = None, {}
    for i in range(n - 1, -1, -1):
        it = items[i]
        next_any[i], next_same[i] = last_any, last_by_lang.get(it.language)
        if anchored[i]:
            last_any = last_by_lang[it.language] = i

    for i, it in enumerate(items):
        if anchored[i]:
            continue
        before, after = prev_any[i], next_any[i]
        if it.clause.kind in ("commentary", "example"):
            same = prev_same[i] if prev_same[i] is not None else next_same[i]
            pick = same if same is not None else (before if before is not None else after)
        elif it.clause.kind == "heading":
            pick = after if after is not None else before
        else:
            pick = before if before is not None else after
        it.edition = items[pick].edition

    buckets: list[list[Clause]] = [[] for _ in editions]
    for it in items:
        buckets[it.edition].append(it.clause)

    result: list[ParsedEdition] = []
    for lang, clauses in zip(editions, buckets, strict=True):
        kinds = {c.kind for c in clauses}
        dated = [(c, read_date_line(c.raw)) for c in clauses if c.kind == "noise"]
        said = [d for _, d in dated if d is not None]
        date = next((d.date for d in said if d.kind == "effective" and d.date), None)
        translated = next((d.date for d in said if d.kind == "translated" and d.date), None)
        unreadable = next((d.text for d in said if d.kind == "effective" and not d.date), None)
        title = next((c.raw for c in clauses if c.kind == "heading"), None)
        result.append(
            ParsedEdition(
                language=lang,
                kind="rules" if "rule" in kinds else "glossary",
                clauses=clauses,
                date=date,
                title=title,
                layout="scraped",
                translated=translated,
                date_unreadable=None if date else unreadable,
            )
        )
    return result
