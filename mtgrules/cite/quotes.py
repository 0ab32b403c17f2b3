"""Does a quotation beside a citation match the rule cited, and which rule holds it if not?

Texts are compared folded (case, accents, Traditional/Simplified Chinese, curly quotes,
the plain-text editions' ASCII typography): a title must be in the rule's own text, a
longer quotation must be found, nearly word for word, in the rule or its subrules
(rapidfuzz's partial_ratio: the best-matching part of the longer text).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from rapidfuzz import fuzz, process

from ..text.fold import fold
from ..text.identify import script_of_text
from ..text.normalize import fold_notation
from .citations import Quote

# How close a quotation must be to count as the rule's words (partial_ratio, 0-100). A
# quotation is often trimmed or has a word changed by the quoting text; 85 lets a word or two
# differ in a sentence, and rejects another rule on the same subject (measured on the CR's
# own titled references: every title of en-2026-01-16 matches its rule at 100).
MATCH = 85
# A quotation shorter than this (folded characters) is a term, not the rule's words: "the
# “legend rule” (see rule 704.5j)" names what the rule is called.
MIN_QUOTED_CHARS = 16
MIN_QUOTED_CJK = 5
# Rule text after a citation in a comment counts as a quotation only if it is some rule's
# text: "// CR 702.19b: trample" is a note, "// CR 702.19b: The controller of an attacking
# creature with trample first assigns damage..." is the rule.
MIN_TEXT_WORDS = 6
HOLDS = 90

_PUNCT = re.compile(r"[\s.,;:!?()\[\]\"'“”«»「」『』。，、：；！？（）]+")


@lru_cache(maxsize=65536)
def comparable(text: str) -> str:
    """A text as quotations are compared: folded, and punctuation as single spaces."""
    return _PUNCT.sub(" ", fold(fold_notation(text))).strip()


def quote_language(quote: Quote) -> str:
    """The script family of a quotation: 'latin' (English and the European languages),
    'han', 'kana', 'hangul', 'cyrillic'..."""
    return script_of_text(quote.text) or "latin"


def latin_language(quote: Quote) -> str | None:
    return _latin_language(quote.kind, quote.text)


@lru_cache(maxsize=4096)
def _latin_language(kind: str, text: str) -> str | None:
    """The language of a Latin-script quotation other than English ("fr" for « Le
    contrôleur d’une créature... »), None for English or when unsure: only a sentence can
    tell (a title such as "Trample" is compared as English)."""
    if kind == "title" or len(text.split()) < 4:
        return None
    from ..text.detect import detect_language
    from ..text.identify import identify_language
    from ..text.language import base_language

    if detect_language(text) == "en":  # its function words: no model to load
        return None
    found = identify_language(text)
    if found is None or base_language(found) == "en":
        return None
    return base_language(found)


def checkable(quote: Quote) -> bool:
    """Is this quotation something to compare with a rule's text?"""
    text = comparable(quote.text)
    if not text:
        return False
    if quote.kind == "title":
        return True
    cjk = sum(1 for ch in text if ord(ch) > 0x2E80)
    if cjk:
        return cjk >= MIN_QUOTED_CJK
    if quote.kind == "text":
        return len(text.split()) >= MIN_TEXT_WORDS
    return len(text) >= MIN_QUOTED_CHARS and len(text.split()) >= 3


def matches(quote: Quote, texts: list[str]) -> bool:
    """Does the quotation match one of these texts (a rule, its subrules, its examples)?"""
    q = comparable(quote.text)
    # A quotation may run over a rule and its subrules: the whole rule is compared too.
    whole = " ".join(texts)
    for t in (*texts, whole) if len(texts) > 1 else texts:
        c = comparable(t)
        if not c:
            continue
        if q in c:
            return True
        if quote.kind == "title":
            # A title is a rule's own heading, give or take its punctuation.
            if fuzz.ratio(q, c) >= MATCH:
                return True
            continue
        # partial_ratio finds the shorter text in the longer: the rule must be the longer,
        # or a long note would "match" a one-word heading it contains.
        if len(q) > 3 and len(c) >= 0.9 * len(q) and fuzz.partial_ratio(q, c) >= MATCH:
            return True
    return False


class ClauseIndex:
    """The clauses of one edition as ``holder`` searches them: folded texts, one string of
    them all for ``str.find``, and the exact texts (a title is a heading's whole text)."""

    def __init__(self, clauses: list[tuple[str, str]]):
        self.labels = [label for label, _t in clauses]
        self.texts = [comparable(t) for _label, t in clauses]
        self.starts: list[int] = []
        at = 0
        for t in self.texts:
            self.starts.append(at)
            at += len(t) + 1
        self.joined = "\n".join(self.texts)
        self.exact: dict[str, int] = {}
        for i, t in enumerate(self.texts):
            self.exact.setdefault(t, i)
        self._words: dict[str, list[int]] | None = None  # word -> clauses, built when asked

    def sharing_words(self, q: str) -> list[int] | None:
        """The clauses that share at least a third of the quotation's words, the only ones
        a near-verbatim quotation (partial_ratio >= HOLDS) can be taken from; None when the
        quotation has too few words to tell (a short or CJK one: every clause is tried).

        Measured on the cite benchmark (500 files, 58 quotations held by no rule or by
        another): the fuzzy search over all 5,000 clauses of an edition took 3.2 s of 13.7,
        and over the clauses that share words, the same holders in a fraction of it."""
        words = {w for w in q.split() if len(w) >= 3}
        if len(words) < 4:
            return None
        if self._words is None:
            self._words = {}
            for i, t in enumerate(self.texts):
                for w in set(t.split()):
                    self._words.setdefault(w, []).append(i)
        shared: dict[int, int] = {}
        for w in words:
            for i in self._words.get(w, ()):
                shared[i] = shared.get(i, 0) + 1
        least = len(words) / 3
        return sorted(i for i, n in shared.items() if n >= least)

    def starting(self, q: str) -> list[int]:
        """The clauses whose text starts with the words ``q`` (a term and its definition:
        '"Choose a Background" means ...')."""
        out = []
        at = 0 if self.joined.startswith(q) else self.joined.find("\n" + q)
        while at != -1:
            start = at if at == 0 and self.joined.startswith(q) else at + 1
            i = bisect_right(self.starts, start) - 1
            after = self.texts[i][len(q) : len(q) + 1]
            if self.starts[i] == start and after in ("", " "):
                out.append(i)
            at = self.joined.find("\n" + q, start + 1)
        return out

    def containing(self, q: str) -> list[int]:
        """The clauses whose text contains ``q``."""
        out = []
        at = self.joined.find(q)
        while at != -1:
            i = bisect_right(self.starts, at) - 1
            out.append(i)
            at = self.joined.find(q, self.starts[i] + len(self.texts[i]) + 1)
        return out


def holder(quote: Quote, index: ClauseIndex) -> tuple[str, float] | None:
    """The label of the clause that holds the quotation best, with its score, or None.

    A title is held by the clause whose whole text it is (the heading "Transform"), not by
    every rule that uses the word; a sentence by the clause that contains it, else the one
    with the best partial match, the shortest among equals (a subrule before the rule that
    quotes it)."""
    q = comparable(quote.text)
    if not q:
        return None
    texts = index.texts
    if quote.kind == "title":
        # A heading that is the title, else the definition that starts with it.
        if q in index.exact:
            return index.labels[index.exact[q]], 100.0
        defining = index.starting(q)
        if defining:
            return index.labels[min(defining, key=lambda k: len(texts[k]))], 100.0
        best = process.extractOne(q, texts, scorer=fuzz.ratio, score_cutoff=MATCH)
        return (index.labels[best[2]], float(best[1])) if best else None
    containing = index.containing(q)
    if containing:
        i = min(containing, key=lambda k: len(texts[k]))
        return index.labels[i], 100.0
    # Only clauses at least about as long as the quotation can hold it (see matches), and
    # among them, for a quotation of some words, those that share enough of them.
    candidates = index.sharing_words(q)
    if candidates is None:
        candidates = range(len(texts))
    pool = {k: texts[k] for k in candidates if len(texts[k]) >= 0.9 * len(q)}
    best = process.extract(q, pool, scorer=fuzz.partial_ratio, score_cutoff=HOLDS, limit=5)
    if not best:
        return None
    # Among clauses that match as well, the shortest: the quoted clause itself, not a longer
    # one that happens to repeat it.
    top = best[0][1]
    i = min((b[2] for b in best if b[1] >= top), key=lambda k: len(texts[k]))
    return index.labels[i], float(top)


def is_paragraph_of(words: str, texts: list[str], *, least: int = 20) -> bool:
    """Is the paragraph ``words`` nearly verbatim one of ``texts``: as long, give or take
    its label and a sentence, and the same words?"""
    w = comparable(words)
    if len(w) < least:
        return False
    for t in texts:
        c = comparable(t)
        if len(c) >= 0.7 * len(w) and len(w) >= 0.7 * len(c) and fuzz.partial_ratio(w, c) >= MATCH:
            return True
    return False
