"""The words around a citation, and how well they fit a rule's text.

A number that exists in the edition a text was written for may still be stale: kept from an
older edition, where it was another rule (the Chinese 2022 translation's "参见规则508.5" in
a sentence about creatures declared as attackers: that was 508.5 in 2016, and is 508.8
since 2018; 2022's 508.5 is about the defending player). The sentence around the citation
says which rule it means. Words are compared as content tokens, weighted by how rare they
are in the rules (IDF): Latin-script words folded and cut to a stem, CJK text as character
pairs (there are no spaces to split on).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from ..text.fold import fold

_LATIN_WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7a3]+")
_STEM = 6
# Words that say nothing about which rule is meant.
_STOP = frozenset(
    "the and that this with from for are its has have any can may rule rules see also "
    "which when then than into each other their them they not but all one two would "
    "that those these such only must player players game card cards".split()
)
# "See" in the languages of the rules: said of any rule, it tells none apart.
_SEE_WORDS = re.compile(
    r"(?:请|請)?(?:参[见阅照]|參[見閱照])|を参照|참조|\b(?:see|voir|véase|siehe|vedi|veja|cf)\b|см\.",
    re.I,
)
# How much of the text around a citation is read, either side of it (characters), within
# its paragraph or comment line.
REACH = 160


@lru_cache(maxsize=65536)
def tokens(text: str) -> frozenset[str]:
    """Content tokens of a text: stems of Latin-script words, pairs of CJK characters."""
    folded = fold(text)
    out: set[str] = set()
    for w in _LATIN_WORD.findall(folded):
        if w not in _STOP:
            out.add(w[:_STEM])
    for run in _CJK_RUN.findall(folded):
        out.update(run[i : i + 2] for i in range(len(run) - 1))
    return frozenset(out)


_SENTENCES = re.compile(r"(?<=[.!?;])\s+|(?<=[。；！？])")
_REFERENCE = re.compile(r"(?<![0-9])[1-9][0-9]{2}(?:\.[0-9]+[a-z]?)?(?![0-9])")


def without_references(text: str) -> str:
    """A rule's text without its sentences that cite other rules ("This is an exception to
    rule 107.3i.", "See rule 601.2."): they say where to look, not what the rule is about,
    and they would make every rule citing X look like X to the words around a citation."""
    if not _REFERENCE.search(text):
        return text
    return " ".join(s for s in _SENTENCES.split(text) if not _REFERENCE.search(s))


class Weights:
    """IDF of tokens over a set of texts (the clauses of an edition)."""

    def __init__(self, texts: Iterable[str]):
        df: Counter[str] = Counter()
        n = 0
        for t in texts:
            n += 1
            df.update(tokens(t))
        self._n = max(n, 1)
        self._df = df
        self._top = math.log(self._n + 1)

    def __call__(self, token: str) -> float:
        return math.log((self._n + 1) / (1 + self._df.get(token, 0)))


def fit(context: frozenset[str], rule: frozenset[str], weight: Weights) -> float:
    """The weighted share of the context's tokens that the rule's text has (0 to 1)."""
    total = sum(weight(t) for t in context)
    if total <= 0:
        return 0.0
    return sum(weight(t) for t in context & rule) / total


_SENTENCE_END = re.compile(r"[.!?;](?=\s)|[。；！？]")
_OPEN, _CLOSE = "(（[", ")）]"


def _unmatched(text: str, at: int, stop: int, step: int, nest: str, close: str) -> int:
    """The first bracket of ``close`` from ``at`` towards ``stop`` (excluded) that no bracket
    of ``nest`` met on the way balances; ``stop`` when there is none."""
    depth = 0
    while at != stop:
        ch = text[at]
        if ch in nest:
            depth += 1
        elif ch in close:
            if depth == 0:
                return at
            depth -= 1
        at += step
    return stop


def around(text: str, start: int, end: int, *, least: int = 6) -> str:
    """The words a citation (at start:end) stands in, without the citation: the parentheses
    around it when they say enough ("(unless it is a token; see rule 111.2)"), else its
    sentence, within its line, at most REACH characters either side."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    if line_end == -1:
        line_end = len(text)
    lo, hi = max(line_start, start - REACH), min(line_end, end + REACH)
    i = _unmatched(text, start - 1, lo - 1, -1, _CLOSE, _OPEN)
    if i > lo - 1:
        j = _unmatched(text, end, hi, 1, _OPEN, _CLOSE)
        if j < hi:
            inner = _SEE_WORDS.sub(" ", text[i + 1 : start] + " " + text[end:j])
            if len(tokens(inner)) >= least:
                return inner
    before = _SEE_WORDS.sub(" ", text[lo:start])
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(before)]
    after = _SEE_WORDS.sub(" ", text[end:hi])
    m = _SENTENCE_END.search(after)
    if m:
        after = after[: m.start()]
    # Its own sentence; "See rule 613.3." alone in its sentence is about the one before.
    cut = starts[-1]
    if len(tokens(before[cut:] + " " + after)) < least and len(starts) > 1:
        cut = starts[-2]
    return before[cut:] + " " + after


def paragraph(text: str, found) -> str:
    """The line a citation stands in, without the citation."""
    start, end = found.citation_start, found.citation_end
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    return text[line_start:start] + " " + text[end : line_end if line_end != -1 else len(text)]
