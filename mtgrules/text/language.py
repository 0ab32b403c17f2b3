"""Language tags (BCP 47: en, fr, zh-Hans...), how they compare, and the order they are shown in.

The one home of "is this the same language?": Simplified and Traditional Chinese are two
editions' scripts but one language for pairing a translation with its English; a user's
``--lang zh`` covers both, ``--lang zh-Hant`` only one.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..errors import InputError

# The order languages are listed in, beside each other, in every report and search result.
# Languages not listed come after these, alphabetically.
DISPLAY_ORDER = ("en", "fr", "es", "de", "it", "pt", "ru", "ja", "ko", "zh-Hans", "zh-Hant")
SOURCE_LANGUAGE = "en"  # the Comprehensive Rules are written in English, then translated
# BCP 47's tag for "language not determined": an edition whose language could not be told.
UNDETERMINED = "und"

# BCP 47, as users type it: a language (2-3 letters), then an optional script (4 letters)
# and region (2 letters or 3 digits): "de", "pt-BR", "zh-Hant", "sr-Latn-RS".
_TAG = re.compile(r"^([A-Za-z]{2,3})(?:[-_]([A-Za-z]{4}))?(?:[-_]([A-Za-z]{2}|[0-9]{3}))?$")


def language_tag(text: str) -> str:
    """A user's --lang, checked and written the BCP 47 way ("PT_br" -> "pt-BR"), or InputError."""
    m = _TAG.match(text.strip())
    if m is None or m[1].lower() == UNDETERMINED:
        raise InputError(
            f"--lang {text!r} is not a language tag; give a BCP 47 tag such as de, it, pt-BR, "
            "ko or zh-Hant."
        )
    parts = [m[1].lower()]
    if m[2]:
        parts.append(m[2].title())
    if m[3]:
        parts.append(m[3].upper())
    tag = "-".join(parts)
    if not _registered(tag):
        raise InputError(
            f"--lang {text!r} is not a registered language (IANA language subtag registry); "
            "give a BCP 47 tag such as de, it, pt-BR, ko or zh-Hant."
        )
    return tag


def _registered(tag: str) -> bool:
    """Is every subtag in the IANA registry? 'xx' and 'en-ZZ' have the shape of a tag but
    name nothing: an edition stored under them could never be found or paired again."""
    if tag in DISPLAY_ORDER:
        return True  # the usual languages, answered without loading the registry
    # langcodes ships the IANA registry (30 ms to load, only for other tags); a list written
    # by hand would miss three-letter codes such as fil or yue, and go stale.
    import langcodes

    return bool(langcodes.tag_is_valid(tag))


def base_language(tag: str) -> str:
    """'zh-Hans' -> 'zh': the language without its script or region."""
    return tag.split("-")[0].lower()


@lru_cache(maxsize=1024)  # a handful of tags, compared thousands of times per search
def matches_language(tag: str, wanted: str) -> bool:
    """Does an edition in ``tag`` answer a user's ``--lang wanted``? 'zh' matches zh-Hans and
    zh-Hant; 'zh-Hant' only itself; case does not matter."""
    tag, wanted = tag.lower(), wanted.lower()
    return tag == wanted or tag.startswith(wanted + "-")


def same_tag(a: str, b: str) -> bool:
    """Either tag covers the other: 'zh' and 'zh-Hans' agree, 'zh-Hans' and 'zh-Hant' do not."""
    return matches_language(a, b) or matches_language(b, a)


@lru_cache(maxsize=1024)
def same_language(a: str, b: str) -> bool:
    """One language whatever the script: zh-Hans and zh-Hant are the same language."""
    return base_language(a) == base_language(b)


def is_chinese(tag: str) -> bool:
    return base_language(tag) == "zh"


def is_english(tag: str) -> bool:
    return base_language(tag) == SOURCE_LANGUAGE


def is_traditional_tag(tag: str) -> bool:
    return is_chinese(tag) and tag.lower().endswith("hant")


def script_of(tag: str) -> str:
    """'zh' for Chinese (no spaces between words, compared in Simplified), else 'latin'."""
    return "zh" if is_chinese(tag) else "latin"


# Languages written in another alphabet than the Latin one, by their base tag (the script
# subtag, when a tag has one, decides first: sr-Latn is Latin, uz-Cyrl Cyrillic).
_WRITING = {
    "zh": "han", "ja": "japanese", "ko": "hangul",
    "ru": "cyrillic", "uk": "cyrillic", "bg": "cyrillic", "be": "cyrillic", "mk": "cyrillic",
    "sr": "cyrillic", "kk": "cyrillic", "mn": "cyrillic",
    "el": "greek", "ar": "arabic", "fa": "arabic", "he": "hebrew", "th": "thai", "hi": "devanagari",
}  # fmt: skip
_SCRIPT_SUBTAGS = {
    "latn": "latin", "cyrl": "cyrillic", "grek": "greek", "arab": "arabic", "hebr": "hebrew",
    "hans": "han", "hant": "han", "jpan": "japanese", "kore": "hangul", "hang": "hangul",
}  # fmt: skip


@lru_cache(maxsize=256)
def writing_of(tag: str) -> str:
    """The alphabet a language is written in: 'latin' (en, fr, de, pt-BR...), 'cyrillic'
    (ru), 'greek', 'han' (Chinese), 'japanese' (kana with kanji), 'hangul' (ko)... Words can
    be compared as look-alikes (valeur/value) only between two languages of one alphabet."""
    parts = tag.lower().split("-")
    for part in parts[1:]:
        if part in _SCRIPT_SUBTAGS:
            return _SCRIPT_SUBTAGS[part]
    return _WRITING.get(parts[0], "latin")


def language_order(tag: str) -> tuple[int, str]:
    """Sort key: the display order, then unknown languages alphabetically."""
    for i, known in enumerate(DISPLAY_ORDER):
        if tag.lower() == known.lower():
            return (i, tag)
    return (len(DISPLAY_ORDER), tag)
