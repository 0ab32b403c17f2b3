"""Rule labels ("107.3", "107.3a", the old "104.3c"), the lines that carry them, and their scope.

The one home of what a label is: how it is written at the start of a line, how a user types
it, how labels sort, and which clauses belong to a rule. Everything else imports from here.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from ..errors import QueryError
from .terminal import INVISIBLE

# A label at the start of a line. After it may come "." and text, a space and text, or, in the
# community Chinese files, the text glued straight on ("100.6b牌手"). Some official files
# also glue the text after the dot ("901.4.All").
# ASCII digits only, and bounded: "١٠٧.٣" or a 40-digit number is no rule label (and would not
# fit the store's label column).
_LINE_LABEL = re.compile(
    r"^(?P<label>[0-9]{3}\.[0-9]{1,4}[a-z]?)(?P<dot>\.)?(?P<rest>.*)$", re.S | re.ASCII
)
# A section heading inside the rules: "1. Game Concepts", "107. Numbers and Symbols". A
# space may stand before the dot: the mtgwiki Japanese of 2026-01-16 writes "720 . 前兆カード",
# and without it rule 720's heading would be glued onto 719.3c.
SECTION_HEADING = re.compile(r"^(?P<label>[0-9]{1,3}) ?\.\s+(?P<title>\S.*)$")
# References to rules inside a text: "rule 601", "107.3i", "规则107.3".
RULE_REF = re.compile(r"(?<![0-9.])([0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?)(?![0-9])")
# A reference to one of the nine sections by its number alone: "section 8" (en), "第8章"
# (zh), "8절" (ko; not 장, which counts cards), "rule 9〔…〕" (the mtgwiki Japanese). Its
# number is a reference, not a free number a translation must carry, and each translation
# writes it its own way. As text: compiled by the update checks (reports/checks.py), its one
# user, rather than by every command that reads a label (~0.8 ms: case-insensitive Cyrillic).
SECTION_REF_PATTERN = (
    r"(?i:\b(?:sections?|rules?|secci[oó]n|r[eè]gles?|reglas?|abschnitte?|sezion[ei]|"
    r"se[cç][aã]o|раздел[аеу]?)\s*)[1-9](?![0-9]|\.[0-9])|第\s*[1-9]\s*[章节節]|(?<![0-9])[1-9]\s*절"
)
# A text whose last sentence only points to one rule: "... These actions happen immediately.
# See rule 800.4a." The rules' own cross-reference to where the matter is set out in full.
# English (the Korean translation keeps it too), "参见规则800.4a。" (Chinese), "rule 800.4a
# 参照。" (the mtgwiki Japanese), and the usual wording of the other translations. A
# reference in brackets or inside a sentence ("(see rule 514.3)", "see rule 704.6b
# instead") is an aside, not this.
_REF = r"[0-9]{3}(?:\.[0-9]{1,4}[a-z]?)?"
# The word "rule" in the languages of the rules' translations (the termbase's row "rule"),
# as a citation or a closing reference writes it.
_RULE_WORDS = r"rules?|règles?|reglas?|regras?|regeln?|regol[ae]|правил[оа]"
_CJK_RULE_WORDS = r"规则|規則|ルール|규칙"
# The patterns below are kept as text and compiled by `re` on first use (its cache keeps
# them): compiling them costs ~1.5 ms (case-insensitive, with Cyrillic and accented letters),
# which a search for words, the commonest query, never needs (start-up, issue 22).
_CLOSING_REFERENCE = (
    r"(?:^|[.。!?！？][\u201d\u2019')\"]?\s*)(?:"
    rf"(?:See|Voir|V[eé]ase|Ver|Siehe|Vedi|Veja|См\.)\s+(?:la\s+|a\s+)?"
    rf"(?i:{_RULE_WORDS})\s+({_REF})\."
    rf"|(?:参见|參見)(?:规则|規則)\s*({_REF})。"
    rf"|(?:rule|ルール|規則)\s*({_REF})\s*参照。"
    r")\s*$"
)
_DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212"
_QUERY_LABEL = re.compile(r"^(?:[0-9]{1,3}|[0-9]{3}\.[0-9]{1,4}[a-z]?)$")
# A search query that is a rule number: the line labels' shape, any case, an optional dot,
# after the words a citation opens with ("rule 702.19b", "CR 702.19b", "see rules 104.3",
# "§ 601.2", "règle 107.3", "Regel 702.19b", "规则 107.3", "規則107.3", "규칙 702.19b").
# Typed alone, a number may also carry a decimal comma (702,19b, on a French or German
# keyboard) or a space before its letter (702.19 b): nothing else has that shape.
_RULE_QUERY = (
    r"^\s*(?:(?:see\s+)?(?:(?:comprehensive\s+)?(?:"
    + _RULE_WORDS
    + r")|cr|r\.|§|"
    + _CJK_RULE_WORDS
    + r")\s*)?"
    r"([0-9]{3}(?:[.,][0-9]{1,4}(?: ?[a-z])?)?)\.?\s*$"
)


def closing_reference(text: str) -> str | None:
    """The rule a text's last sentence only points to ("See rule 800.4a."), or None."""
    if not text or not text.rstrip().endswith((".", "。")):
        return None
    m = re.search(_CLOSING_REFERENCE, text)
    return next((g for g in m.groups() if g), None) if m else None


def split_labelled_line(line: str) -> tuple[str, str] | None:
    """Return (label, text) when ``line`` starts with a rule label, else None."""
    # Most lines of a rules file are not labelled (wrapped text, examples, the glossary): a
    # label starts with three ASCII digits and a dot, checked before the regex runs.
    if len(line) < 6 or line[3] != "." or not line[:3].isdigit() or not line[:3].isascii():
        return None
    m = _LINE_LABEL.match(line)
    if not m:
        return None
    label, rest = m["label"], m["rest"]
    if not rest.strip():
        return None
    first = rest[0]
    # Chinese text glued to the label. Not a dash, nor a Latin letter: "409.1f–h." (and its
    # mis-decoded "409.1fÐh.") is a wrapped reference to rules 409.1f to 409.1h in the
    # 2003-2004 editions, not rule 409.1f.
    glued_ok = ord(first) >= 0x0370 and first not in _DASHES
    if m["dot"]:
        # "100.1. Text" or "901.4.All": anything may follow the dot except another digit.
        if first.isdigit():
            return None
    elif not (first.isspace() or glued_ok):
        return None
    return label, rest.strip()


# A label alone on its line, its text on the next (a wiki heading "==100.1==", a table cell,
# the Japanese file's "500.10a"): the label, with or without its final period.
_LONE_LABEL = re.compile(r"^([0-9]{3}\.[0-9]{1,4}[a-z]?)\.?$", re.ASCII)
_LONE_SECTION = re.compile(r"^([1-9][0-9]{2})\.?$", re.ASCII)


def lone_label(line: str) -> str | None:
    """The rule label that is all of ``line`` ("100.1", "100.1a."), else None."""
    m = _LONE_LABEL.match(line) if len(line) <= 11 else None
    return m[1] if m else None


def lone_section(line: str) -> str | None:
    """The section number that is all of ``line`` ("100", "100."), else None."""
    m = _LONE_SECTION.match(line) if len(line) <= 4 else None
    return m[1] if m else None


def parent_of(label: str) -> str | None:
    """'107.3a' -> '107.3'; '107.3' -> '107'; '107' -> None."""
    if label[-1].isalpha():
        return label[:-1]
    if "." in label:
        return label.split(".")[0]
    return None


def rule_of(label: str) -> str:
    """The rule a subrule belongs to: '107.3a' -> '107.3'; '107.3' and '107' stay."""
    return label[:-1] if label and label[-1].isalpha() else label


def as_typed(text: str) -> str:
    """A rule number as a person meant it: full-width digits, dot and letters as ASCII
    ("１０７．３ａ", typed with a Japanese or Chinese input method, is 107.3a) and invisible
    characters dropped. Only compatibility forms change (NFKC): Arabic-Indic or Devanagari
    digits stay what they are, no rule number."""
    import unicodedata

    return INVISIBLE.sub("", unicodedata.normalize("NFKC", text))


def parse_rule_label(text: str) -> str:
    """Validate a rule label typed by a user ("107.3", "107.3g", "107.3." or "104", also in
    full-width digits)."""
    label = as_typed(text).strip().rstrip(".").lower()
    if not _QUERY_LABEL.match(label):
        raise QueryError(
            f"'{text}' is not a rule label; give one such as 107.3, 107.3g or 107 (a section)."
        )
    return label


# A rule or subrule number standing among other words of a query ("what is rule 100.6",
# "702.19b trample"): the dotted shape only, so that "100 cards" or "turn 2" name no section.
# A letter typed after a space is the subrule's only where nothing follows it but a stop
# ("what does 702.19 b say" is 702.19 and the word b; "explain 702.19 b" is 702.19b): "107.3
# a creature" is 107.3 and the article.
# Chinese, Japanese and Korean text may touch the number ("规则702.19b是什么意思",
# "ルール702.19bの説明"): only a Latin letter, a digit or a dot beside it continues it.
_LABEL_IN_QUERY = (
    r"(?<![0-9A-Za-z_.])([0-9]{3}\.[0-9]{1,4}(?:[a-z]| [a-z](?=\s*(?:$|[?!,;)])))?)\.?"
    r"(?![0-9A-Za-z_.])"
)


# More rule numbers than this among words are not a question about them (a pasted passage
# citing many rules is searched as words); a list of numbers alone is those rules, whatever
# its length ("107.3 107.3a 107.3b 107.3c 107.3d").
MAX_RULES_IN_QUERY = 4


def rules_in_query(query: str) -> tuple[list[str], str] | None:
    """The rule numbers a query holds among other words, each once in the order typed, with
    the query without them: (["100.6"], "what is rule "), (["702.19b", "702.19c"], " and ");
    None when it holds none, or more than MAX_RULES_IN_QUERY beside words."""
    typed = as_typed(query)
    if not _has_digit(typed):
        return None
    found = list(
        dict.fromkeys(
            label.lower().replace(" ", "") for label in re.findall(_LABEL_IN_QUERY, typed, re.I)
        )
    )
    if not found:
        return None
    rest = re.sub(_LABEL_IN_QUERY, " ", typed, flags=re.I)
    if len(found) > MAX_RULES_IN_QUERY and any(ch.isalpha() for ch in rest):
        return None
    return found, rest


def match_rule_query(query: str) -> str | None:
    """The label a search query names ("107.3g", "107.3G.", "405", "１０７．３"), or None for
    words."""
    typed = as_typed(query)
    m = re.match(_RULE_QUERY, typed, re.I) if _has_digit(typed) else None
    return m.group(1).lower().replace(",", ".").replace(" ", "") if m else None


def _has_digit(text: str) -> bool:
    return any("0" <= ch <= "9" for ch in text)


# A label's shape: a section (107), a rule (107.3) or a subrule (107.3a).
_SHAPES = (re.compile(r"\d+"), re.compile(r"\d+\.\d+"), re.compile(r"\d+\.\d+[a-z]+"))


def label_shape(label: str) -> int | None:
    return next((i for i, rx in enumerate(_SHAPES) if rx.fullmatch(label)), None)


def nearest_labels(label: str, labels: Iterable[str], n: int) -> list[str]:
    """The ``labels`` nearest a number they lack, for "did you mean": of the same shape (a
    subrule for a subrule), its neighbours in the rules' order (702.19z -> 702.19e, then
    702.20a), then those one typo away (720.19b -> 702.19b). The one choice show, trace and
    cite all make: they suggested different rules for 999.9z."""
    shape = label_shape(label)
    same = sorted(
        {lab for lab in labels if lab != label and label_shape(lab) == shape}, key=label_sort_key
    )
    i = bisect_left([label_sort_key(lab) for lab in same], label_sort_key(label))
    out = [same[j] for j in (i - 1, i) if 0 <= j < len(same)]
    if len(out) < n:
        from rapidfuzz.distance import DamerauLevenshtein  # only when a number was not found

        typos = sorted(
            (DamerauLevenshtein.distance(label, lab), label_sort_key(lab), lab)
            for lab in same
            if abs(len(lab) - len(label)) <= 1
        )
        out += [lab for dist, _key, lab in typos if dist <= 1 and lab not in out]
    return out[:n]


def label_sort_key(label: str) -> tuple:
    """Order labels as the rules do: 107.3 < 107.3a < 107.3p < 107.4 < 107.10."""
    m = re.match(r"^(\d+)(?:\.(\d+)([a-z]?))?$", label)
    if not m:
        return (10**9, label)
    return (int(m[1]), int(m[2] or -1), m[3] or "")


def in_rule(label: str | None, rule: str) -> bool:
    """True if ``label`` is ``rule`` itself or one of its subrules (107.3 holds 107.3a, not 107.30)."""
    if label is None:
        return False
    if label == rule:
        return True
    if "." not in rule:
        return label.startswith(rule + ".")
    return len(label) == len(rule) + 1 and label.startswith(rule) and label[-1].isalpha()


def rule_scope(label: str | None, parent: str | None, rule: str) -> bool:
    """True if a clause (by its label, or its parent for examples and notes) belongs to
    ``rule``: 107.3 holds 107.3a and its example; section 107 holds 107.3."""
    for lab in (label, parent):
        if lab and (in_rule(lab, rule) or lab.startswith(rule + ".")):
            return True
    return False
