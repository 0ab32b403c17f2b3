"""The fuzzy fallback: a mistyped word replaced by its nearest words in the index vocabulary."""

from __future__ import annotations

import bisect

from sqlalchemy.orm import Session

from ..text.fold import is_han
from .backend import vocabulary

# Fewer exact hits than this and the fuzzy fallback runs ("little" in the issue).
FUZZY_BELOW = 3
FUZZY_CUTOFF = 75  # rapidfuzz ratio, 0-100: 'annouced' vs 'announced' is 94
FUZZY_PER_WORD = 3


def _known(vocab: tuple[str, ...], word: str) -> bool:
    """True if some indexed word starts with ``word`` (the exact search is a prefix search)."""
    i = bisect.bisect_left(vocab, word)
    return i < len(vocab) and vocab[i].startswith(word)


def fuzzy_groups(
    session: Session, words: list[str]
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Each unknown word replaced by its nearest indexed words (rapidfuzz over the index
    vocabulary, a few thousand words, not over the clauses)."""
    from rapidfuzz import fuzz, process

    vocab = vocabulary(session)
    groups: list[list[str]] = []
    replaced: dict[str, list[str]] = {}
    for word in words:
        if is_han(word) or len(word) < 4 or _known(vocab, word):
            groups.append([word])
            continue
        near = process.extract(
            word, vocab, scorer=fuzz.ratio, score_cutoff=FUZZY_CUTOFF, limit=FUZZY_PER_WORD
        )
        alts = [w for w, _score, _i in near]
        if alts:
            replaced[word] = alts
            groups.append(alts)
        else:
            groups.append([word])
    return groups, replaced

