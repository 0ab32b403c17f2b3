"""Language of a block of text: en, fr, es, zh-Hans, zh-Hant (BCP 47), or None when unsure.

Small, deterministic and offline: a count of Han characters, then function words. Rules text
is formal and full of function words, so a handful of them tells the Latin languages apart.
"""

from __future__ import annotations

import re

from .chinese import is_traditional
from .fold import fold, han_ratio, pattern

_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)

# Words frequent in one language and rare in the other two. Articles shared by French and
# Spanish ("la", "de", "un") are left out on purpose.
FUNCTION_WORDS = {
    "en": {
        "the",
        "of",
        "and",
        "is",
        "to",
        "that",
        "if",
        "it",
        "its",
        "this",
        "with",
        "an",
        "or",
        "any",
        "as",
        "be",
        "by",
        "which",
        "player",
        "rules",
        "rule",
        "are",
        "has",
        "have",
        "on",
        "from",
        "their",
        "you",
        "your",
        "see",
    },
    "fr": {
        "le",
        "les",
        "des",
        "est",
        "et",
        "une",
        "du",
        "au",
        "aux",
        "qui",
        "ou",
        "dans",
        "sur",
        "son",
        "sa",
        "ses",
        "pas",
        "ne",
        "vous",
        "cette",
        "ce",
        "règle",
        "règles",
        "joueur",
        "sort",
        "être",
        "à",
        "leur",
        "il",
        "elle",
        "coût",
        "voir",
        "plus",
        "pour",
        "avec",
        "par",
        "sont",
        "peut",
        "tous",
        "toutes",
        "certains",
        "mêmes",
        "même",
        "objets",
        "lettre",
        "suit",
        "été",
        "quand",
        "lorsque",
        "chaque",
    },
    "es": {
        "el",
        "los",
        "las",
        "y",
        "es",
        "una",
        "del",
        "al",
        "o",
        "en",
        "su",
        "sus",
        "se",
        "no",
        "que",
        "este",
        "esta",
        "ese",
        "esa",
        "regla",
        "reglas",
        "jugador",
        "hechizo",
        "coste",
        "habilidad",
        "para",
        "por",
        "como",
        "véase",
        "cuando",
        "cada",
        "mismo",
        "mismas",
        "objetos",
        "letra",
        "sigue",
        "además",
    },
}


def detect_language(text: str, *, min_words: int = 3) -> str | None:
    """Best guess of the language of ``text``; None for too little evidence (a username)."""
    if han_ratio(text) > 0.3:
        return "zh-Hant" if is_traditional(text) else "zh-Hans"
    # A lone capital is a variable ("Y follows the same rules as X"), not Spanish "y".
    words = [w.casefold() for w in _WORD.findall(text) if not (len(w) == 1 and w.isupper())]
    if len(words) < min_words:
        return None
    scores = {lang: sum(1 for w in words if w in vocab) for lang, vocab in FUNCTION_WORDS.items()}
    best = max(scores, key=lambda lang: scores[lang])
    if scores[best] == 0:
        return None
    return best


# Letters that only one of the Latin languages writes (é and ü are French and Spanish alike).
_ONLY_IN = {"es": frozenset("ñ¿¡áíóú"), "fr": frozenset("àâçèêëîïôùûÿœæ")}


def spelled_languages(text: str) -> list[str]:
    """The languages a short text (a search query) shows by its spelling alone: Japanese by
    its kana, Korean by its Hangul, Chinese by its script (zh-Hant when written in
    Traditional characters), French or Spanish by a
    letter only that language writes (coût, maná, ¿...?), else by its function words (one
    is enough here, ignoring accents: "cout de mana", "que vaut X"). [] when the spelling
    says nothing ("stack", "mana", "X")."""
    # Kana and Hangul first: a Japanese query mixes Han with kana (生け贄に捧げる).
    # (An ASCII query has none of these scripts: their patterns are not even compiled.)
    if not text.isascii():
        if pattern("KANA").search(text):
            return ["ja"]
        if pattern("HANGUL").search(text):
            return ["ko"]
        if han_ratio(text) > 0.3:
            return ["zh-Hant" if is_traditional(text) else "zh-Hans"]
    lower = text.casefold()
    found = [lang for lang, letters in _ONLY_IN.items() if any(ch in letters for ch in lower)]
    if found:
        return found
    # One letter says no language: a variable (X, Y: not Spanish "y"), or a word several
    # languages write ("a" is English and Spanish, and French "à" folds to it).
    words = [fold(w) for w in _WORD.findall(text) if len(w) > 1]
    scores = {
        lang: sum(1 for w in words if w in _folded_function_words(lang)) for lang in FUNCTION_WORDS
    }
    best = max(scores.values(), default=0)
    winners = [lang for lang, n in scores.items() if n == best]
    return winners if best and len(winners) == 1 else []


def _folded_function_words(language: str) -> frozenset[str]:
    cached = _FOLDED.get(language)
    if cached is None:
        cached = _FOLDED[language] = frozenset(fold(w) for w in FUNCTION_WORDS[language])
    return cached


_FOLDED: dict[str, frozenset[str]] = {}
