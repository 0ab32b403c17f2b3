"""Normalized text for matching. The raw text is always kept beside it, untouched."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from .notation import fold_ascii_typography, fold_old_mana

# Curly quotes and their cousins fold to ASCII so that a re-saved file (one 2023 copy
# has a stray closing quote where the official one has an opening quote) compares equal.
_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u00ab": '"',
        "\u00bb": '"',
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u3000": " ",
    }
)
# str.translate looks every character up in a dict; this finds whether there is any work first.
_QUOTE_CHARS = re.compile("[" + "".join(chr(k) for k in _QUOTES) + "]")
# Older editions mark italics with underscores (_Magic_); they are typography, not wording.
_ITALIC = re.compile(r"(?<![\w{])_([^_\n]+)_(?![\w}])")


# Cached: most clauses repeat word for word across the English editions (the bundled corpus
# holds ~77,000 clauses but ~15,000 distinct texts), and an ingest normalizes each of them.
@lru_cache(maxsize=65536)
def normalize_text(raw: str) -> str:
    """NFC, folded quotes and dashes, collapsed whitespace, no italic markers, and the
    2003-2004 mana notation {oW} written as {W} (see text/notation.py)."""
    # ASCII needs neither NFC nor the quote folding (every folded character is non-ASCII).
    text = raw
    if not raw.isascii():
        text = unicodedata.normalize("NFC", raw)
        if _QUOTE_CHARS.search(text):
            text = text.translate(_QUOTES)
    text = fold_old_mana(text)
    if "_" in text:
        text = _ITALIC.sub(r"\1", text)
    # str.split() splits on exactly what \s matches, several times faster than a regex.
    return " ".join(text.split())


def fold_notation(raw: str) -> str:
    """``normalize_text`` with the plain-text editions' ASCII typography folded too ("--" and
    the em dash, "(TM)" and the sign, "<url>"): what must be equal for two printings of a
    clause to say the same words. Not part of ``normalize_text`` (and so of Clause.norm, the
    edition hashes, search and alignment): measured on the archive's PDF, Word and RTF files,
    it takes the clauses that differ from the .txt of their date from 60 to 0 (2009-10-01
    PDF), 56 to 1 (2012-07-01 RTF) and 56 to 2 (2009-07-11 .doc); it is used where printings
    are compared (ingest's same-edition check, diff's "notation" changes). Normalised first
    so that "_Odyssey_(TM)" loses its italics markers and an en dash is a hyphen before
    spaced hyphens are folded."""
    return normalize_text(fold_ascii_typography(normalize_text(raw)))
