"""The one text form that both the index and the queries go through.

Folding is done here, in Python, rather than by the tokenizer: SQLite 3.40 has no
``remove_diacritics`` for trigram, PostgreSQL's ``unaccent`` is an extension that may not be
installed, and the highlighter must fold exactly the same way to find the words again.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from ..text.chinese import to_simplified

# Han ideographs (basic block, extension A, compatibility). Each one is indexed as a word of
# its own: Chinese has no spaces, and a two-character word such as 堆叠 must still be found
# (a trigram tokenizer cannot match anything shorter than three characters).
_HAN_CLASS = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_HAN_RUN = re.compile(f"[{_HAN_CLASS}]+")
_HAN = re.compile(f"[{_HAN_CLASS}]")
# What the FTS tokenizers (unicode61, PostgreSQL 'simple') treat as a word: letters and digits.
_WORD = re.compile(rf"[^\W_{_HAN_CLASS}]+|[{_HAN_CLASS}]+", re.UNICODE)

# Combining marks left by NFKD in the corpus's languages (Latin accents, the kana voicing
# marks of full-width text). One regex pass instead of a Python test per character: the
# Chinese editions are 16,000 distinct non-ASCII clauses to fold at every ingest.
_MARKS = re.compile(
    "[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a]"
)

# Long enough to paste a rule's sentence; a 10 kB paste is a mistake, not a query.
MAX_QUERY_CHARS = 500
MAX_QUERY_WORDS = 32


def fold(text: str) -> str:
    """Lower case, no accents, Simplified Chinese. ASCII (most of the corpus) takes a fast path."""
    if text.isascii():
        return text.lower()
    # The same as text.normalize.fold_for_search (casefold, NFKD, no accents), faster.
    folded = _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))
    if _HAN.search(folded):
        folded = to_simplified(folded)
    return folded


def _space_han(match: re.Match[str]) -> str:
    return " " + " ".join(match.group()) + " "


@lru_cache(maxsize=65536)
def index_form(text: str) -> str:
    """The text as stored in the index: folded, with every Han character a word.

    Cached because most clauses repeat word for word across the twenty-odd English editions:
    the corpus has ~70,000 clauses but only ~15,000 distinct texts."""
    folded = fold(text)
    if _HAN.search(folded):
        folded = _HAN_RUN.sub(_space_han, folded)
    return folded


def query_words(query: str) -> list[str]:
    """The folded words of a query: Latin words whole, each Han run as one word (a phrase)."""
    return _WORD.findall(fold(query))


def is_han(word: str) -> bool:
    return bool(_HAN.match(word))


def has_han(text: str) -> bool:
    return bool(_HAN.search(text))


def highlight_spans(text: str, words: list[str]) -> list[tuple[int, int]]:
    """Where ``words`` (folded query words, or prefixes of words) occur in ``text``.

    Folds ``text`` one character at a time so that positions map back to the original
    ("Coût" is found by "cout" and the span covers the accented letters)."""
    if not words or not text:
        return []
    pieces: list[str] = []
    origin: list[int] = []
    simplified = to_simplified(text) if has_han(text) else text
    # OpenCC converts character for character almost always; if it did not, fold untouched.
    source = simplified if len(simplified) == len(text) else text
    for i, ch in enumerate(source):
        f = (
            ch.lower()
            if ch.isascii()
            else _MARKS.sub("", unicodedata.normalize("NFKD", ch.casefold()))
        )
        pieces.append(f)
        origin.extend([i] * len(f))
    folded = "".join(pieces)
    spans: list[tuple[int, int]] = []
    for word in sorted(set(words), key=len, reverse=True):
        if not word:
            continue
        # Latin words match at a word start (the index matches prefixes); Han anywhere.
        pattern = re.escape(word) if is_han(word) else r"(?<![^\W_])" + re.escape(word) + r"\w*"
        for m in re.finditer(pattern, folded):
            if m.end() == m.start():
                continue
            start, end = origin[m.start()], origin[m.end() - 1] + 1
            if not any(s < end and start < e for s, e in spans):
                spans.append((start, end))
    return sorted(spans)
