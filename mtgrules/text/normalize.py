"""Normalized text for matching. The raw text is always kept beside it, untouched."""

from __future__ import annotations

import re
import unicodedata

from .notation import fold_old_mana

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
_SPACE = re.compile(r"\s+")
# Older editions mark italics with underscores (_Magic_); they are typography, not wording.
_ITALIC = re.compile(r"(?<![\w{])_([^_\n]+)_(?![\w}])")


def normalize_text(raw: str) -> str:
    """NFC, folded quotes and dashes, collapsed whitespace, no italic markers, and the
    2003-2004 mana notation {oW} written as {W} (see text/notation.py)."""
    text = fold_old_mana(unicodedata.normalize("NFC", raw).translate(_QUOTES))
    if "_" in text:
        text = _ITALIC.sub(r"\1", text)
    return _SPACE.sub(" ", text).strip()


def fold_for_search(text: str) -> str:
    """Lower case without accents: 'coût' and 'cout' fold to the same string."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))
