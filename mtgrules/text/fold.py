"""The one fold: how text is compared when case, accents and Chinese script must not matter.

Search (index and queries), the aligner's same-language comparison, the termbase and the QA
checks all fold through here, so "coût" finds "cout" and 堆疊 finds 堆叠 everywhere alike.
Folding is done in Python rather than by a database tokenizer: SQLite's trigram tokenizer
has no ``remove_diacritics``, PostgreSQL's ``unaccent`` is an extension that may be missing,
and the search highlighter must fold exactly as the index did to find the words again.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache, lru_cache

# Han ideographs: CJK Unified (basic block, extension A, extensions B and beyond) and the
# compatibility block. The one definition of "a Chinese character" in mtgrules.
HAN_RANGES = (("\u3400", "\u4dbf"), ("\u4e00", "\u9fff"), ("\uf900", "\ufaff"))
HAN_RANGES += (("\U00020000", "\U0002ffff"),)
# The letters of the scripts the index stores one character per token, as it does Han:
# Japanese writes no spaces (a word sits inside a kana run: ライブラリーのカードを), and a
# Korean word carries its particles and endings (생물이, 공격하는), so a word must be found
# inside a run, as consecutive characters. Hiragana and katakana apart (a change of script
# is where Japanese words meet), without the middle dot ・ and the double hyphen ゠
# (punctuation); the prolonged sound mark ー is a katakana letter.
HIRAGANA_RANGES = (("\u3041", "\u3096"), ("\u309d", "\u309f"))
KATAKANA_RANGES = (("\u30a1", "\u30fa"), ("\u30fc", "\u30ff"), ("\u31f0", "\u31ff"))
HANGUL_RANGES = (("\uac00", "\ud7a3"),)
CHARWISE_RANGES = HAN_RANGES + HIRAGANA_RANGES + KATAKANA_RANGES + HANGUL_RANGES


def _class(ranges: tuple[tuple[str, str], ...]) -> str:
    return "".join(f"{lo}-{hi}" for lo, hi in ranges)


HAN_CLASS = _class(HAN_RANGES)
HIRAGANA_CLASS = _class(HIRAGANA_RANGES)
KATAKANA_CLASS = _class(KATAKANA_RANGES)
HANGUL_CLASS = _class(HANGUL_RANGES)
CHARWISE_CLASS = _class(CHARWISE_RANGES)
# The first code point of any charwise script (hiragana): a word starting below it is not
# charwise, and an ASCII text holds none of them.
_FIRST_CHARWISE = "\u3041"
# The first code point of the CJK blocks (radicals); see is_wide.
WIDE_FROM = "\u2e80"

# The patterns over those scripts, compiled on first use: a character class spanning the
# Han blocks costs re 8-13 ms to compile (it walks every code point of the ranges), 40 ms
# for all of them, which every command paid at import though an ASCII query or text (most
# of the corpus) needs none of them. ``from .fold import HAN`` still works (module
# __getattr__, PEP 562) and compiles that one pattern then.
_SOURCES = {
    "HAN": f"[{HAN_CLASS}]",
    "HAN_RUN": f"[{HAN_CLASS}]+",
    # Kana (hiragana, katakana, their extensions and half-width forms) and Hangul (syllables
    # and jamo): a text holding them is Japanese or Korean, whatever Han it also holds.
    "KANA": "[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]",
    "HANGUL": "[\uac00-\ud7a3\u1100-\u11ff\u3130-\u318f]",
    "CHARWISE": f"[{CHARWISE_CLASS}]",
    "CHARWISE_RUN": f"[{CHARWISE_CLASS}]+",
    # What the FTS tokenizers (unicode61, PostgreSQL 'simple') treat as a word: letters and
    # digits; a run of one charwise script is kept whole here (the search makes it a phrase).
    "WORD": rf"[^\W_{CHARWISE_CLASS}]+|[{HAN_CLASS}]+|[{HIRAGANA_CLASS}]+|[{KATAKANA_CLASS}]+"
    rf"|[{HANGUL_CLASS}]+",
    # A token of index_form's output: a word, or one charwise character (index_form spaces
    # them).
    "TOKEN": rf"[^\W_{CHARWISE_CLASS}]+|[{CHARWISE_CLASS}]",
    "HIRAGANA_WORD": f"[{HIRAGANA_CLASS}]+",
    "HANGUL_WORD": f"[{HANGUL_CLASS}]+",
}
# In ASCII text (folded: lower case) a word of _SOURCES["WORD"] and a token of "TOKEN" are
# both this: letters and digits.
_ASCII_WORD = re.compile("[a-z0-9]+")
# ...and in text without a charwise character (French, Spanish, Russian), any run of
# letters and digits: no Han-block class to compile for it.
_PLAIN_WORD = re.compile(r"[^\W_]+")


def _in_ranges(ch: str, ranges: tuple[tuple[str, str], ...]) -> bool:
    # Comparisons rather than the compiled class: one character is asked about (the first
    # of a folded word, which is all of one script), and the class costs milliseconds.
    return any(lo <= ch <= hi for lo, hi in ranges)


def _may_be_charwise(text: str) -> bool:
    """False when ``text`` holds no character of a charwise script, told without a regex:
    every one of them is at or above hiragana."""
    return not text.isascii() and max(text) >= _FIRST_CHARWISE


# Up to this length a text is scanned character by character rather than by the compiled
# class: a query, a term or a title (most of what a search folds) costs less to scan than
# the class costs to compile; a clause of a Chinese edition is searched by the regex.
_SCAN_AT_MOST = 200


def _holds(text: str, name: str, ranges: tuple[tuple[str, str], ...]) -> bool:
    """Does ``text`` hold a character of ``ranges`` (the class of pattern ``name``)?"""
    if not _may_be_charwise(text):
        return False
    if len(text) <= _SCAN_AT_MOST:
        return any(_in_ranges(ch, ranges) for ch in text if ch >= _FIRST_CHARWISE)
    return pattern(name).search(text) is not None


def _script(ch: str) -> int:
    """Which run of fold_words a letter belongs to: 0 Latin and the rest, 1 Han,
    2 hiragana, 3 katakana, 4 Hangul."""
    if ch < _FIRST_CHARWISE:
        return 0
    for k, ranges in enumerate(_SCRIPTS, start=1):
        if _in_ranges(ch, ranges):
            return k
    return 0


_SCRIPTS = (HAN_RANGES, HIRAGANA_RANGES, KATAKANA_RANGES, HANGUL_RANGES)


def _script_runs(word: str) -> list[str]:
    """A run of letters and digits cut where its script changes (ライブラリーの: ライブラリー,
    の), as _SOURCES["WORD"] cuts it; in Python, for a short text (see _SCAN_AT_MOST)."""
    if max(word) < _FIRST_CHARWISE:
        return [word]
    out: list[str] = []
    start, current = 0, _script(word[0])
    for i in range(1, len(word)):
        k = _script(word[i])
        if k != current:
            out.append(word[start:i])
            start, current = i, k
    out.append(word[start:])
    return out


@cache
def pattern(name: str) -> re.Pattern[str]:
    """One of the script patterns above, compiled once, on first use."""
    return re.compile(_SOURCES[name])


_PUBLIC = {"HAN", "HAN_RUN", "KANA", "HANGUL", "CHARWISE"}


def __getattr__(name: str) -> re.Pattern[str]:
    if name in _PUBLIC:
        return pattern(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# The combining marks NFKD leaves on Latin, Greek and Cyrillic letters. Kana voicing marks
# are not accents (か and が are two syllables), so they stay. One regex pass rather than a
# Python test per character: the Chinese editions alone are 16,000 non-ASCII clauses.
_MARKS = re.compile(
    "[\u0300-\u036f\u0483-\u0489\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
)
# NFKD splits Hangul syllables into conjoining jamo, and kana into the base syllable and the
# combining voicing mark (が: か + U+3099, プ: フ + U+309A); both are put back together
# after, or が would fold as か and the mark, a non-letter, would cut プレイヤー in two.
_RECOMPOSE = re.compile("[\u1100-\u11ff\u3099\u309a]")


def is_han(word: str) -> bool:
    """True if ``word`` starts with a Han character (a folded query word is all or none)."""
    # Most words asked about are Latin: below hiragana, no range needs scanning.
    return bool(word) and word[0] >= _FIRST_CHARWISE and _in_ranges(word[0], HAN_RANGES)


def is_charwise(word: str) -> bool:
    """True if ``word`` is written in a script the index stores one character per token
    (Han, kana, Hangul): it is searched as a phrase of its characters."""
    return bool(word) and word[0] >= _FIRST_CHARWISE and _in_ranges(word[0], CHARWISE_RANGES)


def is_hiragana(word: str) -> bool:
    """True if ``word`` (a folded word of fold_words) is a hiragana run: in a Japanese
    question mostly particles and endings (の, を, られる, ですか)."""
    return not word.isascii() and bool(pattern("HIRAGANA_WORD").fullmatch(word))


def is_hangul(word: str) -> bool:
    return not word.isascii() and bool(pattern("HANGUL_WORD").fullmatch(word))


def has_han(text: str) -> bool:
    return _holds(text, "HAN", HAN_RANGES)


def han_ratio(text: str) -> float:
    """The share of Han characters among the letters of ``text``."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    han = pattern("HAN")
    return sum(1 for ch in letters if han.match(ch)) / len(letters)


def fold_char(ch: str) -> str:
    """One character folded (for the highlighter, which maps positions back)."""
    if ch.isascii():
        return ch.lower()
    folded = _MARKS.sub("", unicodedata.normalize("NFKD", ch.casefold()))
    return unicodedata.normalize("NFC", folded) if _RECOMPOSE.search(folded) else folded


def fold(text: str) -> str:
    """Lower case, no accents, Simplified Chinese. ASCII (most of the corpus) takes a fast path."""
    if text.isascii():
        return text.lower()
    folded = _MARKS.sub("", unicodedata.normalize("NFKD", text.casefold()))
    if _RECOMPOSE.search(folded):
        folded = unicodedata.normalize("NFC", folded)
    # Accented Latin folds to ASCII ("coût": "cout"): no Han to convert, and no need to
    # compile the Han pattern for it.
    if _holds(folded, "HAN", HAN_RANGES):
        from .chinese import to_simplified  # OpenCC's tables load on first use only

        folded = to_simplified(folded)
    return folded


def folds_wide(text: str) -> bool:
    """True if ``fold(text)`` holds a character of the CJK blocks or above (Han, kana,
    Hangul), told without folding (no OpenCC, no Han pattern): NFKC keeps those wide, as
    fold does, and turns full-width Latin (Ｘ) to ASCII, as fold does."""
    return not text.isascii() and max(unicodedata.normalize("NFKC", text)) >= WIDE_FROM


def _space_han(match: re.Match[str]) -> str:
    return " " + " ".join(match.group()) + " "


# Power and toughness as cards print them and the rules quote them: "+1/+1 counter", "a 2/2
# black Zombie creature token", "gets -X/-0", "*/*", "得+3/+0" in the Chinese rules. Cut at
# its slash and signs, "-1/-1" was the words 1 and 1: it found every text holding a 1 (the
# limited range of influence "1 seat" first) and "+1/+1", "-1/-1" and "1/1" were one query.
# Search reads each as one word of letters and digits (unicode61 and PostgreSQL's 'simple'
# keep such a word whole), spelled from its parts: +1/+1 is "ptplus1byplus1", -X/-0
# "ptminusxbyminus0", 2/2 "pt2by2", */* "ptstarbystar". Not inside a word, a rule number or a
# mana symbol ({W/U}, 2/2/2026, 107.3/4): no letter, digit, slash or brace on either side,
# nor a point before it (Han may touch it: Chinese has no spaces). Full-width signs are
# folded to these by fold's NFKD; the minus sign and the en dash count as a minus.
_PT_MINUS = "[\\-\u2212\u2013]"
_PT_BEFORE, _PT_AFTER = "(?<![a-z0-9/{.])", "(?![a-z0-9/}])"
_PT = re.compile(
    rf"{_PT_BEFORE}([+]|{_PT_MINUS})?(\d+|[xn*])/([+]|{_PT_MINUS})?(\d+|[xn*]){_PT_AFTER}"
)
# How each sign and value of _PT is spelled in the word (a digit or x and n as they are).
_PT_PART = {"+": "plus", "-": "minus", "\u2212": "minus", "\u2013": "minus", "*": "star"}
_PT_TOKEN = re.compile(r"pt(plus|minus)?(\d+|x|n|star)by(plus|minus)?(\d+|x|n|star)")
_PT_SIGN_PATTERN = {"plus": "[+]", "minus": _PT_MINUS, None: ""}


def _pt_word(match: re.Match[str]) -> str:
    sp, p, st, t = (_PT_PART.get(g, g) for g in match.groups(""))
    return f" pt{sp}{p}by{st}{t} "


def spell_power_toughness(folded: str) -> str:
    """``folded`` (fold's output) with each power and toughness written as one word (_PT)."""
    return _PT.sub(_pt_word, folded) if "/" in folded else folded


def power_toughness_pattern(word: str) -> str | None:
    """A regular expression for where a power-and-toughness word (spell_power_toughness)
    stands in folded text, for the highlighter; None for any other word."""
    m = _PT_TOKEN.fullmatch(word)
    if m is None:
        return None
    sp, p, st, t = m.groups()
    p, t = ("[*]" if v == "star" else v for v in (p, t))
    return f"{_PT_BEFORE}{_PT_SIGN_PATTERN[sp]}{p}/{_PT_SIGN_PATTERN[st]}{t}{_PT_AFTER}"


@lru_cache(maxsize=65536)
def index_form(text: str) -> str:
    """The text as the full-text index stores it: folded, every Han, kana and Hangul
    character a word.

    Chinese and Japanese have no spaces, and a two-character word such as 堆叠 or a
    katakana word inside a kana run must still be found (a trigram tokenizer matches nothing
    shorter than three characters); a Korean word is found inside its eojeol (생물 in 생물이).
    Cached because most clauses repeat word for word across the English editions: the
    bundled corpus has ~70,000 clauses but only ~15,000 distinct texts."""
    folded = spell_power_toughness(fold(text))
    if _holds(folded, "CHARWISE", CHARWISE_RANGES):
        folded = pattern("CHARWISE_RUN").sub(_space_han, folded)
    return folded


def fold_words(text: str) -> list[str]:
    """The folded words of a text: Latin words whole, each run of Han, hiragana, katakana or
    Hangul as one word (a phrase); a power and toughness as one word (+1/+1)."""
    folded = spell_power_toughness(fold(text))
    if folded.isascii():
        return _ASCII_WORD.findall(folded)
    if not _may_be_charwise(folded):
        return _PLAIN_WORD.findall(folded)
    if len(folded) <= _SCAN_AT_MOST:
        return [run for word in _PLAIN_WORD.findall(folded) for run in _script_runs(word)]
    return pattern("WORD").findall(folded)


@lru_cache(maxsize=16384)
def index_words(text: str) -> tuple[str, ...]:
    """The tokens the full-text index holds for ``text``: folded words, one per Han, kana
    or Hangul character (the words of index_form, as unicode61 and 'simple' cut them)."""
    form = index_form(text)
    if form.isascii():
        return tuple(_ASCII_WORD.findall(form))
    return tuple((pattern("TOKEN") if _may_be_charwise(form) else _PLAIN_WORD).findall(form))
