"""The fuzzy fallback: a word the index does not hold, replaced by its nearest indexed words.

Nearest by edit distance with adjacent transpositions counted once (optimal string
alignment): "trmaple" is one edit from "trample", two from "triple", which plain Levenshtein
ratio put first. Among words at the same distance, the more common one first (a typist is
likelier to have meant a word the rules use often), and only those at the least distance
are kept: "comander" is one edit from "commander", so nothing further away is searched.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..text.fold import is_charwise
from .backend import is_katakana, vocabulary

FUZZY_PER_WORD = 3
MIN_FUZZY_LENGTH = 4  # shorter words have too many neighbours to guess from


def max_edits(word: str) -> int:
    """How many edits a typo of this length may hold: one for short words, two from six."""
    return 1 if len(word) < 6 else 2


def corrections(db: Any, words: list[str]) -> dict[str, list[str]]:
    """For each of ``words`` (folded, each unknown to the index): its nearest indexed words,
    best first; words with no neighbour close enough are left out."""
    todo = [w for w in words if not is_charwise(w) and len(w) >= MIN_FUZZY_LENGTH and w.isalpha()]
    if not todo:
        return {}
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    vocab = vocabulary(db)
    out: dict[str, list[str]] = {}
    for word in todo:
        limit = max_edits(word)
        near = process.extract(
            word, vocab.keys(), scorer=OSA.distance, score_cutoff=limit, limit=None
        )
        if not near:
            continue
        best = min(d for _w, d, _i in near)
        closest = sorted((w for w, d, _i in near if d == best), key=lambda w: (-vocab[w], w))
        out[word] = closest[:FUZZY_PER_WORD]
    return out


# The rules are written in American English (color, armor, defense, center); a player may
# spell the British way. Each British ending and the American one, tried on a word the index
# lacks: "defence" is an English word, so no typo to correct (engine._resolve_terms), but
# the rules print it "defense".
_BRITISH_ENDINGS = (
    (re.compile(r"(?<=.)our(?=s?$|ed$|ing$|less$|ful$|ite$|ites$|able$)"), "or"),
    (re.compile(r"(?<=.)ence(?=s?$)"), "ense"),
    (re.compile(r"(?<=..)is(?=e$|es$|ed$|ing$|ation$|ations$)"), "iz"),
    (re.compile(r"(?<=.)ys(?=e$|es$|ed$|ing$)"), "yz"),
    (re.compile(r"(?<=..)tre(?=s?$)"), "ter"),
    (re.compile(r"(?<=..)ogue(?=s?$)"), "og"),
    (re.compile(r"(?<=[^aeiou][aeiou])ll(?=ed$|ing$|er$|ers$)"), "l"),
    (re.compile(r"^grey"), "gray"),
)


def american_spellings(word: str) -> list[str]:
    """The American spellings of a British-spelt word ("defence" -> "defense",
    "armoured" -> "armored", "randomised" -> "randomized"), nothing for any other word."""
    out = []
    for pattern, american in _BRITISH_ENDINGS:
        variant = pattern.sub(american, word)
        if variant != word and variant not in out:
            out.append(variant)
    return out


# Japanese players spell a loanword as it sounds (クリーンアップ), translators as they
# chose (ja-2026-01-16: クリンナップ・ステップ); a long vowel is written or not.
LONG_VOWEL = "\u30fc"


def katakana_correction(word: str, known: Iterable[str]) -> str | None:
    """The nearest of the store's ``known`` katakana words to a katakana ``word`` the index
    lacks, compared without long-vowel marks and at most max_edits apart; None if none is."""
    key = word.replace(LONG_VOWEL, "")
    # Three kana at least once the marks are dropped: fewer have too many neighbours.
    if len(word) < MIN_FUZZY_LENGTH or len(key) < 3 or not is_katakana(word):
        return None
    from rapidfuzz import process
    from rapidfuzz.distance import OSA

    near = process.extract(
        key,
        {w: w.replace(LONG_VOWEL, "") for w in known},
        scorer=OSA.distance,
        score_cutoff=max_edits(key),
        limit=None,
    )
    # The fewest edits, then the length nearest the word's (プレーヤー: プレイヤー, not プレイ).
    best = min(near, key=lambda n: (n[1], abs(len(n[2]) - len(word)), n[2]), default=None)
    return best[2] if best else None
