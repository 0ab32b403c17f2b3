"""Citations of the rules inside other texts: "CR 702.19b", "see rules 601.2f–h", "规则702.19b".

The grammar `mtgrules cite` reads source code, articles and translations with. It finds the
rule numbers a text cites, the way a reader would: after a word about rules in any of the
languages the rules are translated into ("rule", "règle", "Regel", "правило", "规则",
"ルール", "규칙"...), after "CR" or "§", inside parentheses next to such a word, and in lists
and ranges ("rules 614 and 615", "601.2f–h", "119.7–8", "702.109, “Dash,” and 702.152").
A number alone is never a citation: version numbers (1.2.3), prices ($702.19), dates
(2023.11.17), percentages and plain counts have no rule word before them, or do not have the
shape of a rule label.

It also finds what a citation is said to say: a quotation beside it (a title,
"rule 611, “Continuous Effects”"; a sentence in quotation marks, before or after it) or rule
text after it in a comment ("// CR 702.19b: The controller of an attacking creature...").

Pure text in, offsets out: nothing here knows files or the store. Labels are those of
text/labels.py (three-digit sections, rules, subrules), plus the nine chapters
("section 7").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

# --- the pieces of the grammar ---------------------------------------------------------------

# A label as cited: a three-digit section, a rule, a subrule. Rule numbers after the dot never
# start with 0 (so "rule 100.000" is no label). What follows must not continue the number: a
# letter or digit ("702.19bx", "1002"), another dotted number (version 702.19.1, a decimal
# 702.19,5), a percent sign.
_LABEL = (
    r"(?P<sec>[1-9][0-9]{2})(?:\.(?P<num>[1-9][0-9]{0,3})(?P<sub>[a-z])?)?"
    r"(?![A-Za-z0-9_%]|[.,][0-9])"
)
# "section 7": a chapter, only after the word "section".
_CHAPTER = r"(?P<chap>[1-9])(?![A-Za-z0-9_%]|[.,][0-9])"
# A closing quote, bracket... after which a label is still glued to its keyword ("CR702.19b"),
# and the markup a label may be wrapped in: HTML tags, Markdown emphasis and links, entities.
_SPACE = r"(?:[^\S\n]|&nbsp;|&#160;|&#xa0;)"
_MARKUP = r"(?:<[^<>\n]{0,300}>|[*_`\[]{1,3}|\]\([^()\s]{0,300}\))"
_GAP = rf"(?:{_SPACE}|{_MARKUP}|[:：#]|n[°º.](?=\s*[0-9])|nos?\.(?=\s*[0-9])|第)*"

# Words about rules, in the languages of the rules' translations. Latin-script words stand
# alone (not inside another word: "ferules 100" is not a citation); the CJK ones may touch
# their number ("规则702.19b", "ルール702.19b").
_LATIN_RULE_WORDS = (
    r"comp(?:rehensive)?\.?[ \t\u00a0]*rules?",
    r"(?:sub)?rules?",
    r"r[eè]gles?",
    r"reglas?",
    r"regras?",
    r"regeln?",
    r"regol[ae]",
    r"правил[а-я]{0,3}",
    r"пункт[а-я]{0,2}",
)
_CJK_RULE_WORDS = ("规则", "規則", "条款", "條款", "ルール", "규칙", "규정")
# "CR" is an abbreviation only in capitals ("cr" is a carriage return, "Cr" chromium).
_CR = r"(?-i:C\.?R\.?)"
_SIGNS = r"§{1,2}|¶|&sect;|&#167;"
_SECTION = r"sections?|sezion[ei]|secci[oó]n|se[cç][aã]o|abschnitt|раздел[а-я]{0,2}"

_LETTER_BEFORE = r"(?<![^\W\d_])"  # not preceded by a letter
_KEYWORD = (
    rf"(?:{_LETTER_BEFORE}(?:{_CR}|(?P<section>{_SECTION})|{'|'.join(_LATIN_RULE_WORDS)})"
    rf"(?![^\W\d_])|{_SIGNS}|{'|'.join(_CJK_RULE_WORDS)})"
)
# A keyword, a gap, and the first label (or, after "section", a chapter). After "CR" or
# "rules" a "section" may come too: "CR section 7".
_LEAD = re.compile(
    rf"{_KEYWORD}{_GAP}(?:(?P<section2>{_SECTION}){_GAP})?(?:{_LABEL}|{_CHAPTER})",
    re.I,
)
_LABEL_AT = re.compile(rf"{_GAP}{_LABEL}", re.I)
_AGAIN = re.compile(rf"{_SPACE}*(?:and{_SPACE}+|or{_SPACE}+)?{_KEYWORD}{_GAP}{_LABEL}", re.I)

# What may join two labels of one citation: a list or a range, in any of the languages.
_DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2212~\u301c\uff5e"
_RANGE_WORDS = r"through|thru|to|bis|à|a|al|ao|até|до|по"
_RANGE_CJK = "至|到|から|부터|～"
_LIST_WORDS = r"and|or|und|oder|et|ou|y|o|e|i|и|или|ni"
_LIST_CJK = "、|，|和|与|與|及|或|および|及び|と|や|및|와|과|또는"
_RANGE = re.compile(
    rf"{_SPACE}*(?:[{_DASHES}]|(?<![^\W\d_])(?:{_RANGE_WORDS})(?![^\W\d_])|{_RANGE_CJK}){_SPACE}*",
    re.I,
)
_LIST = re.compile(
    rf"{_SPACE}*(?:[,;]{_SPACE}*(?:(?<![^\W\d_])(?:{_LIST_WORDS})(?![^\W\d_]))?|"
    rf"(?<![^\W\d_])(?:{_LIST_WORDS})(?![^\W\d_])|{_LIST_CJK}|&){_SPACE}*"
    # "rules 702.19b and rule 702.19c", "规则702.19b与规则702.19c": the word again.
    rf"(?:{_KEYWORD}{_GAP})?",
    re.I,
)
# The end of a range written short: "601.2f–h" (a letter), "119.7–8" (a rule number).
_RANGE_LETTER = re.compile(r"(?P<sub>[a-z])(?![A-Za-z0-9_])")
_RANGE_NUMBER = re.compile(r"(?P<num>[1-9][0-9]{0,3})(?![A-Za-z0-9_%]|[.,][0-9])")

# Quotation marks: opening -> its closing marks. Single quotes are left out: ’ is also the
# apostrophe of "d’une" and "player’s".
_QUOTES = {
    "\u201c": "\u201d",  # “ ”
    "\u201e": "\u201c\u201d",  # „ “ (German) or „ ” (Polish)
    "\u00ab": "\u00bb",  # « »
    "\u300c": "\u300d",  # 「 」
    "\u300e": "\u300f",  # 『 』
    '"': '"',
}
_CLOSERS = "".join(sorted(set("".join(_QUOTES.values()))))
# A title right after a label: 'rule 611, “Continuous Effects”', '702.109, "Dash,"'.
_TITLE = re.compile(
    "|".join(
        rf"{_SPACE}*[,，、:]?{_SPACE}*{re.escape(o)}{_SPACE}*"
        rf"(?P<t{i}>[^\n{re.escape(c)}]{{1,80}}?){_SPACE}*[{re.escape(c)}]"
        for i, (o, c) in enumerate(_QUOTES.items())
    )
)

# A parenthesized number needs a rule word near it: "Trample (702.19b) in the rules".
_BARE = re.compile(
    rf"(?<![A-Za-z0-9_])[(\[]{_SPACE}*(?:(?:see|cf\.|voir|ver|véase|siehe|vgl\.)\s+)?{_LABEL}",
    re.I,
)
_RULE_WORD = re.compile(
    rf"{_LETTER_BEFORE}(?:{_CR}|{'|'.join(_LATIN_RULE_WORDS)})(?![^\W\d_])|"
    rf"{'|'.join(_CJK_RULE_WORDS)}|§",
    re.I,
)
_NEAR = 80  # characters either side of a parenthesized number, for its rule word
# A subrule label alone ("702.19b"): a citation where nothing else reads that way, as a range
# ("702.19b-d") or at the head of a comment line ("// 702.19b The controller..."). Elsewhere
# it may be a float literal of C or Java ("100.5f").
_LONE_SUBRULE = re.compile(
    r"(?<![A-Za-z0-9_.$\u00a3\u20ac\u00a5])(?P<sec>[1-9][0-9]{2})\.(?P<num>[1-9][0-9]{0,3})"
    r"(?P<sub>[a-z])(?![A-Za-z0-9_%]|[.,][0-9])"
)
_COMMENT_HEAD = re.compile(r"(?:^|\n)[ \t]*(?://+!?|#+|/?\*+|--|;+)[ \t]*(?:[*_`\[]{1,3})?$")

# Line-comment markers a quotation may run on behind, over several lines.
_COMMENT_CONTINUATION = re.compile(
    r"[ \t]*(?:\r\n|\r|\n)[ \t]*(?://+!?|#+|\*+(?!/)|--|;+|>+|%+)?[ \t]*"
)
_SAYS = re.compile(
    r"[ \t]*(?:[,:]?[ \t]*(?:says|states|reads|dit|dice|diz|sagt|recita|гласит|规定|に)?[ \t]*[:：,]?)[ \t]*",
    re.I,
)
_MAX_QUOTE = 600
# Rule text after a citation in a comment: "CR 702.19b: The controller..." or "702.19b. The...".
_TEXT_AFTER = re.compile(r"[ \t]*(?:[:：]|\.(?=[ \t]+\S)|[ \t][-\u2013\u2014][ \t])[ \t]*(?=\S)")

# A range longer than this is read as its two ends only (a typo such as "100-999").
MAX_RANGE = 40
# Subrule letters: the rules skip l and o (they look like 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"


@dataclass(frozen=True, slots=True)
class Quote:
    """What a text says a citation says: a quotation beside it, or rule text after it."""

    text: str
    start: int
    end: int
    kind: str  # "title" (right after the label), "quoted" (in quotation marks), "text" (after ":")


@dataclass(frozen=True, slots=True)
class Found:
    """One cited label. ``start``/``end`` are where it is written in the text (for a range's
    inside, such as 702.19c of "702.19b-d", where the range starts and ``written`` is None)."""

    label: str
    start: int
    end: int
    written: str | None  # the text at start:end ("702.19b", "d" in "702.19b-d", "8" in "119.7–8")
    citation_start: int  # the whole citation, keyword included
    citation_end: int
    range_text: str | None = None  # "601.2f–h" when the label is part of a range
    quote: Quote | None = None
    members: int = 1  # the labels of its citation ("rules 614 and 615": 2)


def _label(m: re.Match[str]) -> str:
    if m.groupdict().get("sec") is None:
        return m.group("chap")
    out = m.group("sec")
    if m.group("num"):
        out += "." + m.group("num")
        if m.group("sub"):
            out += m.group("sub").lower()
    return out


def _span(m: re.Match[str]) -> tuple[int, int]:
    start = m.start("sec") if m.groupdict().get("sec") is not None else m.start("chap")
    return start, m.end()


def _expand(first: str, last: str) -> list[str] | None:
    """The labels from ``first`` to ``last`` inclusive, both ends of one kind ("601.2f"..."601.2h",
    "119.7"..."119.10", "614"..."616"); None when they cannot make a range."""
    if first.count(".") != last.count("."):
        return None
    if "." not in first:
        a, b = int(first), int(last)
        return [str(n) for n in range(a, b + 1)] if 0 < b - a <= MAX_RANGE else None
    (sa, ra), (sb, rb) = first.split("."), last.split(".")
    if sa != sb:
        return None
    la = ra[-1] if ra[-1].isalpha() else ""
    lb = rb[-1] if rb[-1].isalpha() else ""
    na, nb = ra.rstrip(SUBRULE_LETTERS + "lo"), rb.rstrip(SUBRULE_LETTERS + "lo")
    if bool(la) != bool(lb):
        return None
    if la:
        if na != nb or la not in SUBRULE_LETTERS or lb not in SUBRULE_LETTERS:
            return None
        i, j = SUBRULE_LETTERS.index(la), SUBRULE_LETTERS.index(lb)
        return [f"{sa}.{na}{x}" for x in SUBRULE_LETTERS[i : j + 1]] if 0 < j - i else None
    a, b = int(na), int(nb)
    return [f"{sa}.{n}" for n in range(a, b + 1)] if 0 < b - a <= MAX_RANGE else None


def _short_end(prev: str, m: re.Match[str], kind: str) -> str:
    """The full label of a range written short: "601.2f" + "h" -> "601.2h"; "119.7" + "8" ->
    "119.8"."""
    if kind == "letter":
        return prev.rstrip(SUBRULE_LETTERS + "lo") + m.group("sub")
    return prev.split(".")[0] + "." + m.group("num")


# --- quotations beside a citation ------------------------------------------------------------


def _clean(body: str) -> str:
    """A quotation as one line: the comment markers of the lines it runs over removed."""
    return _COMMENT_CONTINUATION.sub(" ", body).strip()


def _quoted_after(text: str, pos: int) -> Quote | None:
    """A quotation starting right after a citation ("CR 702.19b says: “...”")."""
    m = _SAYS.match(text, pos)
    at = m.end() if m else pos
    if at >= len(text) or text[at] not in _QUOTES:
        return None
    closers = _QUOTES[text[at]]
    end = at + 1
    limit = min(len(text), at + 1 + _MAX_QUOTE)
    while end < limit and text[end] not in closers:
        end += 1
    if end >= limit:
        return None
    body = _clean(text[at + 1 : end])
    return Quote(body, at + 1, end, "quoted") if body else None


_TITLE_OWNER = re.compile(r"[0-9][a-z]?[ \t]*[,，、:]?[ \t]*$")
# What may stand between a quotation and the citation after it: spaces and an opening
# parenthesis or bracket, half- or full-width (a Japanese or Chinese text writes （ ） and
# the ideographic space as often as ( ) and a space).
_BEFORE_CITATION = " \t\u3000([（［"
_CLOSE_PARENS = ")]）］"
# A parenthesis that points elsewhere: "(see rule 717)", "(rule 717 参照)", "（参见规则717）".
_POINTER = re.compile(
    r"(?<![^\W\d_])(?:see|cf\.|voir|ver|véase|siehe|vgl\.|см\.)(?![^\W\d_])|参照|参见|參見|참조",
    re.I,
)


def _points_to(text: str, open_at: int, pos: int) -> bool:
    """Is the parenthesis opened at ``open_at`` (around the citation at ``pos``) a pointer,
    "(see rule 717)", "(rule 717 参照)"? It says where what stands before it (a term, a name)
    is explained; it does not say that the rule holds those words."""
    close = min(
        (k for k in (text.find(c, pos, pos + _NEAR) for c in _CLOSE_PARENS) if k != -1),
        default=-1,
    )
    if close == -1:
        return False
    return bool(_POINTER.search(text, open_at + 1, close))


def _quoted_before(text: str, pos: int) -> Quote | None:
    """A quotation ending right before a citation: '“... blocking it.” (CR 702.19b)'. Not a
    term before a parenthesis that points to the rule: '「アトラクション／Attraction」(rule 717
    参照)', '“Attraction” (see rule 717)' (each bracket and space read alike half- or
    full-width)."""
    i = pos
    opened = -1
    while i > 0 and text[i - 1] in _BEFORE_CITATION:
        i -= 1
        if text[i] in "([（［" and opened == -1:
            opened = i
    if i == 0 or text[i - 1] not in _CLOSERS:
        return None
    if opened != -1 and _points_to(text, opened, pos):
        return None
    close = i - 1
    floor = max(0, close - _MAX_QUOTE)
    j = close - 1
    while j >= floor:
        ch = text[j]
        if ch in _QUOTES and text[close] in _QUOTES[ch]:
            break
        if ch == "\n" and text[j - 1 : j] == "\n":
            return None  # a blank line: the quotation is not in this paragraph
        j -= 1
    if j < floor:
        return None
    if _TITLE_OWNER.search(text, max(0, j - 40), j):
        return (
            None  # the title of the label before it: 'rule 104, “Winning and Losing,” rule 806.8'
        )
    body = _clean(text[j + 1 : close])
    return Quote(body, j + 1, close, "quoted") if body else None


# A citation that starts its line (behind a comment marker or a list bullet) and is followed
# by ":", ". " or " - ": what follows is the rule's text, as engines write it in comments.
_LINE_HEAD = re.compile(
    r"[ \t]*(?:(?://+!?|#+|/?\*+|--|;+|<!--|[-+>]|\(\*)[ \t]*)?(?:[*_`\[]{1,3})?$"
)
_AFTER_SEPARATOR = re.compile(
    r"(?:[*_`\]]{1,3})?[ \t]*(?:[:：]|\.(?=[ \t])|[ \t][-\u2013\u2014](?=[ \t]))[ \t]*(?=\S)"
)
_COMMENT_LINE = re.compile(r"[ \t]*(?://+!?|#+|\*+(?!/)|--|;+)[ \t]*(?P<rest>\S.*)$")
_SENTENCE_END = (".", "。", "!", "?", ":")


def _text_after(text: str, citation_start: int, pos: int) -> Quote | None:
    """Rule text after a citation that opens a comment line: "// CR 702.19b: The controller
    of an attacking creature ...", over the comment lines that continue it."""
    line_start = text.rfind("\n", 0, citation_start) + 1
    if not _LINE_HEAD.match(text[line_start:citation_start]):
        return None
    m = _AFTER_SEPARATOR.match(text, pos)
    if not m:
        return None
    parts: list[str] = []
    at = m.start() + len(m.group())
    end = at
    while at < len(text) and sum(map(len, parts)) < _MAX_QUOTE:
        nl = text.find("\n", at)
        line_end = len(text) if nl == -1 else nl
        segment = text[at:line_end].rstrip("\r")
        parts.append(segment.strip())
        end = at + len(segment)
        if nl == -1 or segment.rstrip(" */").endswith(_SENTENCE_END):
            break
        following = text[
            nl + 1 : text.find("\n", nl + 1) if text.find("\n", nl + 1) != -1 else len(text)
        ]
        cont = _COMMENT_LINE.match(following.rstrip("\r"))
        # A wrapped sentence goes on in lower case ("...with trample / first assigns...");
        # a capital starts another note.
        if not cont or not cont.group("rest")[0].islower() or _LEAD.match(cont.group("rest")):
            break
        at = nl + 1 + cont.start("rest")
    body = " ".join(p for p in parts if p).rstrip(" */-").strip()
    return Quote(body, m.end(), end, "text") if body else None


# --- the citations of a text ------------------------------------------------------------------


def find_citations(text: str) -> list[Found]:
    """Every rule label ``text`` cites, in the order written, each with where it is.

    Source code is full of numbers and words, and rarely cites a rule: the words about rules
    are found first with ``str.find`` in the lower-cased text (Python's regex engine tries an
    alternation of 25 keywords at every position, ten times slower), and the citation
    grammar runs only where one is. Parenthesized numbers and lone subrules ("(702.19b)",
    "// 702.19b", "601.2f-h") have a dot and a digit, found by one small pattern."""
    found: list[Found] = []
    covered_until = -1
    for at in _keyword_starts(text):
        if at < covered_until:
            continue
        m = _LEAD.match(text, at)
        if m is None:
            continue
        if m.group("chap") is not None and not (m.group("section") or m.group("section2")):
            continue  # "rule 7" is no chapter: only "section 7" is
        labels, end = _read_citation(text, m)
        found.extend(labels)
        covered_until = end
    taken = {f.start for f in found}
    spans = sorted((f.citation_start, f.citation_end) for f in found)
    covered_until = -1
    for c in _DOTTED.finditer(text):
        s = c.start()
        if s < covered_until or s in taken or (s and text[s - 1] in _NOT_BEFORE):
            continue
        if _inside(spans, s):
            continue
        labels = None
        if (b := _bare_before(text, s)) is not None:
            labels, end = _read_citation(text, b, first_at=b.start() + 1)
            # "(702.19 USD)", "(702.19, 3)": the parenthesis says something else.
            if not _CLOSE.match(text, end) or not _rule_word_near(text, b.start()):
                labels = None
        elif (lone := _LONE_SUBRULE.match(text, s)) is not None:
            head = _COMMENT_HEAD.search(text, max(0, s - 12), s)
            entries: list[tuple[str, int, int, str | None]] = [(_label(lone), *_span(lone), None)]
            if (
                (head and head.end() == s)
                or _see_before(text, s)
                or _join_range(text, lone.end(), entries) is not None
            ):
                labels, end = _read_citation(text, lone)
        if labels:
            found.extend(labels)
            covered_until = end
    found.sort(key=lambda f: (f.start, f.label))
    return found


# A rule label with a dot: what a parenthesized or lone citation starts with.
_DOTTED = re.compile(r"[1-9][0-9]{2}\.[1-9]")
_NOT_BEFORE = frozenset("0123456789_.")
# The keywords as str.find looks for them: in the lower-cased text, then the grammar checks
# the whole word at each (so "rule" finds "rules", "subrule" and "Comprehensive Rules").
_FIND_ASCII = (
    "rule",
    "reg",
    "section",
    "sezion",
    "secci",
    "secao",
    "abschnitt",
    "&sect;",
    "&#167;",
)
_FIND_CASED = ("CR", "C.R")  # "CR" only in capitals: "cr" is a carriage return
_FIND_OTHER = (
    "règle", "правил", "пункт", "раздел", "seção", "secció", "§", "¶",
    "规则", "規則", "条款", "條款", "ルール", "규칙", "규정",
)  # fmt: skip
# Lower-casing that keeps every offset (str.lower turns "İ" into two characters): ASCII,
# Latin-1 and Cyrillic capitals, one for one.
_LOWER = str.maketrans(
    {chr(c): chr(c).lower() for c in (*range(0xC0, 0xDF), *range(0x410, 0x430), 0x401)}
    | {chr(c): chr(c + 32) for c in range(0x41, 0x5B)}
)


def _keyword_starts(text: str) -> list[int]:
    """Where a keyword may start a citation: each hit of the words above, moved back to the
    start of its word ("Comprehensive Rules" is found at "Rules" and read from there; "rule"
    in "subrule" from "subrule")."""
    ascii_only = text.isascii()
    lower = text.lower()
    if len(lower) != len(text):  # rare: a capital that lower-cases to two characters
        lower = text.translate(_LOWER)
    starts: set[int] = set()
    for words, haystack in (
        (_FIND_ASCII, lower),
        (_FIND_CASED, text),
        (() if ascii_only else _FIND_OTHER, lower),
    ):
        for word in words:
            at = haystack.find(word)
            while at != -1:
                starts.add(at)
                i = at
                while i > 0 and at - i < 12 and text[i - 1].isalpha():
                    i -= 1
                starts.add(i)
                at = haystack.find(word, at + len(word))
    return sorted(starts)


def _inside(spans: list[tuple[int, int]], at: int) -> bool:
    i = bisect_right(spans, (at, 10**12)) - 1
    return i >= 0 and spans[i][0] <= at < spans[i][1]


_SEE = re.compile(r"(?:see|cf\.|voir|ver|véase|siehe|vgl\.)\s+$", re.I)
_CLOSE = re.compile(rf"{_SPACE}*[)\]]")


def _see_before(text: str, at: int) -> bool:
    """ "see 701.28a" in prose, without a parenthesis: "see" says it is a citation (no float
    literal of code follows that word)."""
    see = _SEE.search(text, max(0, at - 8), at)
    return see is not None and (see.start() == 0 or not text[see.start() - 1].isalnum())


def _bare_before(text: str, at: int) -> re.Match[str] | None:
    """A parenthesized label ("(702.19b)", "(see 702.19b)") starting at ``at``."""
    i = at
    see = _SEE.search(text, max(0, at - 8), at)
    if see:
        i = see.start()
    while i > 0 and text[i - 1] in " \t\u00a0":
        i -= 1
    if i == 0 or text[i - 1] not in "([":
        return None
    return _BARE.match(text, i - 1)


def _rule_word_near(text: str, at: int) -> bool:
    """A word about rules within _NEAR characters, in the same paragraph (a wrapped line
    of prose goes on: "Deathtouch (702.2) is in the / comprehensive rules")."""
    lo, hi = max(0, at - _NEAR), min(len(text), at + _NEAR)
    before = text.rfind("\n\n", lo, at)
    after = text.find("\n\n", at, hi)
    window = text[before + 2 if before != -1 else lo : after if after != -1 else hi]
    return bool(_RULE_WORD.search(window))


def _read_citation(
    text: str, m: re.Match[str], *, first_at: int | None = None
) -> tuple[list[Found], int]:
    """The labels of one citation: its first, then those that lists and ranges join on, and
    the titles or quotation beside them."""
    start = m.start() if first_at is None else first_at
    # (label, start, end, range text)
    entries: list[tuple[str, int, int, str | None]] = [(_label(m), *_span(m), None)]
    titles: dict[int, Quote] = {}
    pos = m.end()
    while True:
        t = _TITLE.match(text, pos)
        if t:
            group = next(g for g, v in t.groupdict().items() if v is not None)
            title = t.group(group).strip(" ,.;，。")
            if title:
                titles[len(entries) - 1] = Quote(title, t.start(group), t.end(group), "title")
            pos = t.end()
            # A title may be followed straight by the next label: '“Dash,” 702.152, “Blitz,”',
            # or by the word again: 'rule 104, “Winning and Losing,” rule 806.8'.
            nxt = _LABEL_AT.match(text, pos) or _AGAIN.match(text, pos)
            if nxt and not text[pos : nxt.start("sec")].strip(" \t\u00a0"):
                entries.append((_label(nxt), *_span(nxt), None))
                pos = nxt.end()
                continue
        joined = _join_range(text, pos, entries) or _join_list(text, pos, entries)
        if joined is None:
            break
        pos = joined
    quote: Quote | None = None
    if not titles:
        quote = (
            _quoted_after(text, pos) or _quoted_before(text, start) or _text_after(text, start, pos)
        )
    # A quotation beside a list speaks for no label in particular; beside one label (or one
    # range), for it.
    single = len({(r or lab) for lab, _s, _e, r in entries}) == 1
    out = [
        Found(
            label,
            s,
            e,
            text[s:e] if e > s else None,
            start,
            pos,
            range_text,
            titles.get(i) or (quote if single else None),
            len(entries),
        )
        for i, (label, s, e, range_text) in enumerate(entries)
    ]
    return out, pos


def _join_range(text: str, pos: int, entries: list[tuple[str, int, int, str | None]]) -> int | None:
    r = _RANGE.match(text, pos)
    if not r or r.end() == pos:
        return None
    prev, ps, pe, _rt = entries[-1]
    after = r.end()
    last: str | None = None
    full = _LABEL_AT.match(text, after)
    if full and full.start("sec") == after:
        last, ls, le = _label(full), full.start("sec"), full.end()
    elif prev[-1].isalpha() and (lm := _RANGE_LETTER.match(text, after)):
        last, ls, le = _short_end(prev, lm, "letter"), lm.start(), lm.end()
    elif "." in prev and (nm := _RANGE_NUMBER.match(text, after)):
        last, ls, le = (
            _short_end(prev.rstrip(SUBRULE_LETTERS + "lo"), nm, "number"),
            nm.start(),
            nm.end(),
        )
        if prev[-1].isalpha():
            return None  # "601.2f-3": no range
    if last is None:
        return None
    labels = _expand(prev, last)
    if labels is None:
        return None
    range_text = text[ps:le]
    entries[-1] = (prev, ps, pe, range_text)
    entries.extend((lab, ps, ps, range_text) for lab in labels[1:-1])
    entries.append((last, ls, le, range_text))
    return le


def _join_list(text: str, pos: int, entries: list[tuple[str, int, int, str | None]]) -> int | None:
    sep = _LIST.match(text, pos)
    if not sep or sep.end() == pos:
        return None
    nxt = _LABEL_AT.match(text, sep.end())
    if not nxt:
        return None
    # "rules 702.19 and 100 other rules": a bare three-digit number after a rule number is a
    # section only when its title follows ("701.42, “Meld,” and 729, “Merging...”").
    if nxt.group("num") is None and "." in entries[-1][0] and not _TITLE.match(text, nxt.end()):
        return None
    entries.append((_label(nxt), *_span(nxt), None))
    return nxt.end()
