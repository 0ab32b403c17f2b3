"""Game terms typed in a form the termbase does not list: in another case or number
("mit Spielsteinen" for Spielstein, "с фишкой" for фишка), or in a German compound
("Kampfschaden": Schaden, damage).

For queries only: what a query's words may be, before the engine looks them up in the
termbase (engine._terms_in_other_language). Apart from text/ and termbase.py, whose source
signs every stored alignment (align/signature.py): a change here leaves them current.
"""

from __future__ import annotations

from ..termbase import Termbase
from ..text.fold import fold
from ..text.language import base_language

# The case and number endings of nouns, by base language, as fold() writes them (й is и):
# "Kreaturen" for Kreatur, "cimiteri" for cimitero, "кладбищем" for кладбище. An ending may
# replace the form's last vowel (pedina -> pedine, фишка -> фишкой), so it is stripped from
# the word and the rest compared with the form, with or without that vowel. English and the
# languages of whole words per character (zh, ja, ko) have none here: English words are
# lemmatised from spaCy's tables, and the others do not inflect this way.
NOUN_ENDINGS = {
    "de": ("ern", "en", "er", "es", "e", "n", "s"),
    "fr": ("s", "x"),
    "es": ("es", "s"),
    "pt": ("es", "s"),
    "it": ("i", "e", "a", "o"),
    "ru": (
        "ами", "ями", "ах", "ях", "ам", "ям", "ов", "ев", "еи", "ои", "ом", "ем",
        "ы", "и", "а", "я", "у", "ю", "е", "о",
    ),
}  # fmt: skip
# The shortest stem an ending leaves, or a compound's part, that is compared: "Karten" ->
# karte, not "ka".
STEM_AT_LEAST = 4
# Languages that write a compound noun as one word, its head last, and the letters that may
# join its parts: German "Kampfschaden" is a Schaden (damage) of Kampf, "Kreaturenkarte" a
# Karte (card) of Kreaturen, "Friedhofskarten" Friedhof + s + Karten.
COMPOUND_LINKS = {"de": ("s", "es", "n", "en", "e", "")}
_VOWELS = "aeiouyаеиоуыэюя"
# English verbs in -ie take -ying (die: dying, lie: lying, tie: tying): text/lemmas.py's
# guessed_bases reads -ing off the stem, which leaves "dy"; spaCy's table says dying is dye.
_IE_VERB_ENDING = ("ying", "ie")

Pairs = set[tuple[str, str]]  # (concept, language)


def noun_stems(word: str, language: str) -> list[str]:
    """What a folded ``word`` may be, before a noun ending of ``language`` was added: its
    stems, longest first ("spielsteinen" -> spielsteine, spielstein). Empty for a language
    without NOUN_ENDINGS."""
    out = []
    for ending in NOUN_ENDINGS.get(base_language(language), ()):
        stem = word[: -len(ending)]
        if word.endswith(ending) and len(stem) >= STEM_AT_LEAST:
            out.append(stem)
    return sorted(dict.fromkeys(out), key=len, reverse=True)


class _Stems:
    """The termbase's one-word forms of the languages with noun endings, folded, each also
    without its last vowel: what an ending may have been added to."""

    def __init__(self, termbase: Termbase) -> None:
        self.termbase = termbase
        self.listed: dict[str, Pairs] = {}
        self.stems: dict[str, Pairs] = {}
        for concept, language, form in termbase.rows():
            if base_language(language) not in NOUN_ENDINGS:
                continue
            key = fold(form)
            self.listed.setdefault(key, set()).add((concept, language))
            if " " not in key:
                self.stems.setdefault(key, set()).add((concept, language))
                if key[-1] in _VOWELS:
                    self.stems.setdefault(key[:-1], set()).add((concept, language))


_CACHE: list[_Stems] = []


def _stems_of(termbase: Termbase) -> _Stems:
    # One termbase a process, in practice (the shipped one, or the store's): built once.
    if not _CACHE or _CACHE[0].termbase is not termbase:
        _CACHE[:] = [_Stems(termbase)]
    return _CACHE[0]


def inflected_terms(termbase: Termbase, word: str) -> Pairs:
    """The (concept, language) pairs of which one folded ``word`` is an inflected form: a
    noun ending of the form's language added to it, or put in place of its last vowel
    ("spielsteinen": the German Spielstein; "кладбищем": the Russian кладбище)."""
    stems = _stems_of(termbase).stems
    return {
        (concept, language)
        for base in NOUN_ENDINGS
        for stem in noun_stems(word, base)
        for concept, language in stems.get(stem, ())
        if base_language(language) == base
    }


def compound_terms(termbase: Termbase, word: str) -> list[tuple[str, str]]:
    """The game terms one folded ``word`` is compounded of, in a language that writes
    compounds as one word (COMPOUND_LINKS): its head, the longest ending of it that is a
    form (or an inflected one) of that language, after the term its first part is, when
    that is one too. "kreaturenkarte" -> creature, card; "kampfschaden" -> damage (Kampf,
    combat, is no term here); [] when no ending of the word is a term."""
    for k in range(STEM_AT_LEAST, len(word) - STEM_AT_LEAST + 1):
        head, first = word[k:], word[:k]
        for base, links in COMPOUND_LINKS.items():
            heads = _in_language(termbase, head, base)
            if not heads:
                continue
            firsts: Pairs = set()
            for link in links:
                if first.endswith(link) and len(first) - len(link) >= STEM_AT_LEAST:
                    firsts = _in_language(termbase, first[: len(first) - len(link)], base)
                    if firsts:
                        break
            return sorted(firsts) + sorted(heads)
    return []


def _in_language(termbase: Termbase, word: str, base: str) -> Pairs:
    """The terms of language ``base`` that one folded ``word`` is a form of, as listed or
    inflected."""
    listed = _stems_of(termbase).listed.get(word) or inflected_terms(termbase, word)
    return {(c, lang) for c, lang in listed if base_language(lang) == base}


def ie_verb_bases(word: str) -> list[str]:
    """The English verb in -ie a folded ``word`` in -ying may be a form of ("dying" -> die),
    for a caller that keeps only the bases its texts hold; else none."""
    ending, base = _IE_VERB_ENDING
    stem = word[: -len(ending)]
    # After a vowel, -ying is -y + -ing (playing, obeying).
    if not word.endswith(ending) or not stem.isalpha() or stem[-1:] in ("", *_VOWELS):
        return []
    return [stem + base]


# English verbs and the nouns made from them, as (the verb's ending, the noun's ending),
# the likelier first: "resolves" finds the rule of an instant's resolution (608.2n), "save
# it by regenerating" the regeneration shield. One way only: a player asks with the verb, the
# rules often name the act; the other way (prevention: prevent) widened questions that
# already use the rules' noun, and lost more than it found (measured on 1,437 queries).
_DERIVATIONS = (
    ("e", "ion"),  # activate: activation, regenerate: regeneration
    ("", "ion"),  # prevent: prevention
    ("", "ment"),  # assign: assignment, replace: replacement
    ("e", "ation"),  # declare: declaration
    ("ve", "ution"),  # resolve: resolution
    ("oy", "uction"),  # destroy: destruction
)
# The shortest verb derived from: shorter ones meet unrelated nouns (state: station).
DERIVED_AT_LEAST = 6


def derived_nouns(lemma: str) -> list[str]:
    """The English nouns a folded verb ``lemma`` may be made into ("resolve" -> resolution),
    the likelier first, for a caller that keeps the first its texts hold."""
    if not lemma.isalpha() or len(lemma) < DERIVED_AT_LEAST:
        return []
    return [
        lemma[: len(lemma) - len(verb_end)] + noun_end
        for verb_end, noun_end in _DERIVATIONS
        if lemma.endswith(verb_end)
    ]
