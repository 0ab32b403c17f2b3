"""English game words written in Hangul or katakana, as Korean and Japanese players write
them: 데스터치 for deathtouch, 캐스케이드 for cascade, 퍼머넌트 for permanent, 트램플 for
trample; ディスカード for discard, ビジランス for vigilance. A translation of the rules
translates many of them (치명타, 연쇄, 지속물; 捨てる, 警戒), so such a word matches nothing in
it; here it is matched to the English name by its sound, then searched as the translation's
own word for that name.

The sound is compared as a skeleton of consonant classes, as Korean borrows English words:
vowels and h dropped, voiced and voiceless alike (b/p/f/v, d/t, g/k), s, z, j, ch, sh and
th alike (death -> 데스), r kept only before a vowel (permanent -> 퍼머넌트, trample ->
트램플), a doubled class said once. 데스터치 and deathtouch are both T S T S; 퍼머넌트 and
permanent P M N T. A skeleton of fewer than MIN_CLASSES classes says too little to match on.

Katakana is read the same way (デスタッチ: T S T S), with the vowels Japanese adds after a
consonant (ス, ト, ク) left out of the skeleton as Korean's ㅡ is, ー and ッ saying nothing.

Which translated word an English name is comes from the store and the termbase, never from a
list here (engine._loanwords): the titles a Korean text prints in both languages (the
kormtgcr keyword rules: "702.2. 치명타 Deathtouch"), the headings of a Japanese glossary
("警戒（けいかい）／Vigilance"; backend.bilingual_names), and the termbase's Korean and
Japanese columns (permanent: 지속물, パーマネント).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..text.fold import is_hangul

MIN_CLASSES = 3
# A skeleton of only MIN_CLASSES classes is shared by many words (tapping and defining are
# T P N): its English name must also be this near in vowels (SequenceMatcher ratio of the
# two sounds: 플래시 and flash 0.89, 태핑 and defining 0.67, シャッフル and spell 0.75, which
# a store whose only S P L name is spell read as 呪文 at a bound of 0.75).
SHORT_NEAR = 0.8
# The most translated words a loanword is searched as, when several English names sound alike.
MAX_FORMS = 3

_HANGUL_BASE = 0xAC00
# The consonant classes of Hangul's 19 initial consonants (ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ
# ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ: an initial ㅇ is silent, ㅎ dropped as English h is) and 28 finals (none,
# ㄱ ㄲ ㄳ ㄴ ㄵ ㄶ ㄷ ㄹ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅁ ㅂ ㅄ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ: a final ㅇ is ng, said
# as n is here).
_INITIALS = (
    "K",
    "K",
    "N",
    "T",
    "T",
    "L",
    "M",
    "P",
    "P",
    "S",
    "S",
    "",
    "S",
    "S",
    "S",
    "K",
    "T",
    "P",
    "",
)
_FINALS = (
    "", "K", "K", "KS", "N", "NS", "N", "T", "L", "LK", "LM", "LP", "LS", "LT", "LP", "L",
    "M", "P", "PS", "S", "S", "N", "S", "S", "K", "T", "P", "",
)  # fmt: skip
# Hangul's 21 vowels as the English vowel letters they most often write (ㅐ for the a of
# flash and trample, ㅓ for the u of touch and shuffle; ㅡ, the vowel Korean adds between
# consonants, as none): lower case, to tell apart English names whose consonants are alike
# (deathtouch, targets).
_MEDIALS = (
    "a", "a", "a", "a", "u", "e", "u", "e", "o", "a", "a", "e", "o", "u", "o", "e", "i", "u",
    "", "i", "i",
)  # fmt: skip
_VOWELS = frozenset("aeiouy")
# English spellings of one sound, longest first: each gives its class ("" drops it).
_SPELLINGS = (
    ("tion", "SN"),
    ("alk", "K"),  # walk, talk: the l is silent (planeswalker, 플레인즈워커)
    ("sion", "SN"),
    ("ture", "S"),
    ("ph", "P"),
    ("th", "S"),
    ("ch", "S"),
    ("sh", "S"),
    ("ck", "K"),
    ("qu", "K"),
    ("gh", ""),
    ("ng", "N"),
    ("x", "KS"),
)
_LETTERS = {
    **dict.fromkeys("bpfv", "P"),
    **dict.fromkeys("dt", "T"),
    **dict.fromkeys("kq", "K"),
    **dict.fromkeys("sjz", "S"),
    "m": "M",
    "n": "N",
    "l": "L",
}


def _collapse(classes: Iterable[str]) -> str:
    """The classes with a repeated one said once (퍼머넌트's ㄴㄴ, trample's double l)."""
    out: list[str] = []
    for c in classes:
        if c and (not out or out[-1] != c or c.islower()):
            out.append(c)
    return "".join(out)


def _skeleton(sound: str) -> str:
    """A sound's consonant classes only (upper case), a repeated one said once."""
    return _collapse(c for c in sound if c.isupper())


def hangul_sound(word: str) -> str | None:
    """A Hangul word as consonant classes (upper case) and vowels (lower case), or None if
    it is not all Hangul syllables."""
    if not is_hangul(word):
        return None
    out: list[str] = []
    for ch in word:
        n = ord(ch) - _HANGUL_BASE
        if not 0 <= n < 11172:  # a lone jamo: not a syllable
            return None
        initial, rest = divmod(n, 21 * 28)
        out += [_INITIALS[initial], _MEDIALS[rest // 28], _FINALS[rest % 28]]
    return _collapse("".join(out))


# Katakana as (consonant class, vowel), as _INITIALS and _MEDIALS read Hangul: h dropped
# (ハ, ヒ, ヘ, ホ) but フ, English f; シ and チ the sh and ch of English, S; ン n; ヴ v.
_KATAKANA = {
    **{k: ("", v) for k, v in zip("アイウエオヤユヨワヲハヒヘホ", "aiueoauoaoaieo", strict=True)},
    **{k: ("K", v) for k, v in zip("カキクケコガギグゲゴ", "aiueo" * 2, strict=True)},
    **{
        k: ("S", v)
        for k, v in zip("サシスセソザジズゼゾチツヂヅ", "aiueo" * 2 + "iuiu", strict=True)
    },
    **{k: ("T", v) for k, v in zip("タテトダデド", "aeoaeo", strict=True)},
    **{k: ("N", v) for k, v in zip("ナニヌネノ", "aiueo", strict=True)},
    **{k: ("P", v) for k, v in zip("バビブベボパピプペポフヴ", "aiueo" * 2 + "uu", strict=True)},
    **{k: ("M", v) for k, v in zip("マミムメモ", "aiueo", strict=True)},
    **{k: ("L", v) for k, v in zip("ラリルレロ", "aiueo", strict=True)},
    "ン": ("N", ""),
}
# The vowel Japanese adds after a consonant English ends a syllable with: the u of ク, ス,
# ブ, フ, ル (デスタッチ, ブロック) and the o of ト, ド; it is said only before ー (ルール).
_ADDED_VOWELS = {
    **dict.fromkeys("クグスズツヅヌブプフムル", "u"),
    **dict.fromkeys("トド", "o"),
}
# Small kana that give the syllable before them their vowel (ディ di, キャ kya, フォ fo).
_SMALL_VOWELS = dict(zip("ァィゥェォャュョ", "aiueoauo", strict=True))
# What says no sound of its own: the long vowel mark, a doubled consonant, the middle dot.
_SILENT_KANA = frozenset("ーッ・")


def katakana_sound(word: str) -> str | None:
    """A katakana word as consonant classes (upper case) and vowels (lower case), or None if
    it is not all katakana: the vowel a syllable adds after a final consonant (the u of ス,
    the o of ト) is kept, and weighs only where names share a skeleton."""
    out: list[str] = []
    for i, ch in enumerate(word):
        if ch in _SILENT_KANA or (ch == "グ" and word[i - 1 : i] == "ン"):
            continue  # ング is English ng, one class (flying: フライング)
        if ch in _SMALL_VOWELS:
            if out and out[-1].islower():
                out[-1] = _SMALL_VOWELS[ch]
            else:
                out.append(_SMALL_VOWELS[ch])
            continue
        if ch not in _KATAKANA:
            return None
        cls, vowel = _KATAKANA[ch]
        if _ADDED_VOWELS.get(ch) == vowel and word[i + 1 : i + 2] not in ("ー", *_SMALL_VOWELS):
            vowel = ""
        out += [c for c in (cls, vowel) if c]
    # ライ is the English i of flying and lifelink (y and i: latin_sounds).
    return _collapse(out).replace("ai", "i") if out else None


def loanword_sound(word: str) -> str | None:
    """A Hangul or katakana word's sound (hangul_sound, katakana_sound), or None."""
    return hangul_sound(word) if is_hangul(word) else katakana_sound(word)


def loanword_key(word: str) -> str | None:
    """The consonant skeleton of a Hangul or katakana word, or None if it is neither."""
    sound = loanword_sound(word)
    return None if sound is None else _skeleton(sound)


def latin_keys(word: str) -> set[str]:
    """The consonant skeletons an English word may be borrowed as: soft and hard c and g
    both where English spells them alike (gi, ge: vigilance is 비질런스, gift 기프트)."""
    return {k for k in (_skeleton(s) for s in latin_sounds(word)) if k}


def latin_sounds(word: str) -> set[str]:
    """An English word as consonant classes (upper case) and vowels (lower case, y as i),
    in each of the readings latin_keys takes."""
    word = "".join(c for c in word.lower() if c.isascii() and c.isalpha())
    keys = [""]
    i = 0
    while i < len(word):
        for spelling, cls in _SPELLINGS:
            if word.startswith(spelling, i):
                keys = [k + cls for k in keys]
                i += len(spelling)
                break
        else:
            c = word[i]
            following = word[i + 1] if i + 1 < len(word) else ""
            if c == "c":
                options = ["S"] if following in ("e", "i", "y") else ["K"]
            elif c == "g":
                options = ["S", "K"] if following in ("e", "i", "y") else ["K"]
            elif c == "r":
                options = ["L"] if following in _VOWELS else [""]
            elif c in _VOWELS:
                options = ["i" if c == "y" else c]
            else:
                options = [_LETTERS.get(c, "")]
            keys = [k + o for k in keys for o in options]
            i += 1
    return {_collapse(k) for k in keys}


# Skeleton -> (the English name's sound, the translation's word), for each name.
LoanwordTable = dict[str, list[tuple[str, str]]]


def loanword_table(pairs: Iterable[tuple[str, str]]) -> LoanwordTable:
    """The translated words by the skeleton of their English name (each pair: English name,
    the translation's word); a name of several words by its words together (first strike:
    퍼스트스트라이크)."""
    table: LoanwordTable = {}
    for english, native in pairs:
        for sound in latin_sounds(english):
            key = _skeleton(sound)
            if len(key) >= MIN_CLASSES and (sound, native) not in table.setdefault(key, []):
                table[key].append((sound, native))
    return table


def loanword_forms(word: str, table: LoanwordTable) -> list[str]:
    """The translated words a Hangul or katakana loanword stands for (데스터치 -> 치명타,
    ディスカード -> 捨てる), or none.
    Where English names of the same consonants differ (deathtouch and the soft-g reading of
    targets: T S T S both), the one whose vowels are nearest the loanword's."""
    sound = loanword_sound(word)
    if sound is None or len(_skeleton(sound)) < MIN_CLASSES:
        return []
    found = table.get(_skeleton(sound), [])
    if not found:
        return []
    from difflib import SequenceMatcher  # only for a Hangul word the index lacks

    # Katakana writes the u of English cut, run and shuffle (the vowel of but) as ア: シャッフル
    # is shuffle, not spell (S P L both). Hangul writes it ㅓ, read as u (_MEDIALS).
    readings = (False, True) if katakana_sound(word) is not None else (False,)
    near = {native: 0.0 for _s, native in found}
    for english, native in found:
        for as_a in readings:
            heard = english.replace("u", "a") if as_a else english
            near[native] = max(near[native], SequenceMatcher(None, sound, heard).ratio())
    best = max(near.values())
    if len(_skeleton(sound)) == MIN_CLASSES and best < SHORT_NEAR:
        return []
    return [n for n, r in near.items() if r == best][:MAX_FORMS]
