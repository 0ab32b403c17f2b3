"""Where the words of a query sit in a hit's text, for the terminal to highlight them."""

from __future__ import annotations

import re

from ..text.chinese import to_simplified
from ..text.fold import fold_char, has_han, is_charwise, power_toughness_pattern


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
        f = fold_char(ch)
        pieces.append(f)
        origin.extend([i] * len(f))
    folded = "".join(pieces)
    spans: list[tuple[int, int]] = []
    for word in sorted(set(words), key=len, reverse=True):
        if not word:
            continue
        # Latin words match at a word start (the index matches prefixes); Han anywhere; a
        # power and toughness (+1/+1) where the text prints it.
        pattern = power_toughness_pattern(word) or (
            re.escape(word) if is_charwise(word) else r"(?<![^\W_])" + re.escape(word) + r"\w*"
        )
        for m in re.finditer(pattern, folded):
            if m.end() == m.start():
                continue
            start, end = origin[m.start()], origin[m.end() - 1] + 1
            if not any(s < end and start < e for s, e in spans):
                spans.append((start, end))
    return sorted(spans)
