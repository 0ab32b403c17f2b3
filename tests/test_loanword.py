"""A Korean or Japanese player's English loanword, matched to the English name by its
consonants (mtgrules/search/loanword.py). The pairs are the loanwords Korean and Japanese
players write and the names the kormtgcr translation prints beside its own words (702.2.
치명타 Deathtouch) or the Japanese glossary beside its headings (警戒（けいかい）／Vigilance)."""

import pytest

from mtgrules.search.loanword import (
    latin_keys,
    loanword_forms,
    loanword_key,
    loanword_table,
)

# (loanword, English name, the skeleton both have): each said as Korean borrows it.
SAME_SOUND = [
    ("데스터치", "deathtouch", "TSTS"),  # th and ch as s
    ("캐스케이드", "cascade", "KSKT"),  # c before a is k; the silent initial ㅇ
    ("퍼머넌트", "permanent", "PMNT"),  # r before a consonant is not said; ㄴㄴ once
    ("트램플", "trample", "TLMPL"),  # r before a vowel is l
    ("플라잉", "flying", "PLN"),  # f is p; final ㅇ and ng alike
    ("헥스프루프", "hexproof", "KSPLP"),  # h dropped; x is ks
    ("비질런스", "vigilance", "PSLNS"),  # v is b; g before i may be soft
    ("프로텍션", "protection", "PLTKSN"),  # -tion is 션
    ("퍼스트스트라이크", "first strike", "PSTSTLK"),  # a name of two words, together
    ("플레인즈워커", "planeswalker", "PLNSK"),  # the l of walk is silent
    # Katakana: the vowel added after a final consonant (ス, ド) is no class; ー, ッ nothing.
    ("ディスカード", "discard", "TSKT"),  # ディ is di; r before a consonant is not said
    ("ビジランス", "vigilance", "PSLNS"),
    ("デスタッチ", "deathtouch", "TSTS"),  # ッ doubles, says nothing
    ("フライング", "flying", "PLN"),  # ング is ng
    ("ヘックスプルーフ", "hexproof", "KSPLP"),
    ("ファーストストライク", "first strike", "PSTSTLK"),
]


@pytest.mark.parametrize(("hangul", "english", "key"), SAME_SOUND)
def test_a_loanword_and_its_english_name_sound_alike(hangul, english, key):
    assert loanword_key(hangul) == key
    assert key in latin_keys(english)


@pytest.mark.parametrize(
    ("hangul", "english"),
    [("데스터치", "lifelink"), ("트램플", "trample counter"), ("퍼머넌트", "permanence")],
)
def test_other_names_do_not_match(hangul, english):
    assert loanword_key(hangul) not in latin_keys(english)


# Half-width katakana is folded to full width before it gets here; hiragana is no
# loanword's script.
@pytest.mark.parametrize("word", ["deathtouch", "치명타 ", "ﾃﾞｽ", "です", "捨てる", ""])
def test_only_hangul_syllables_and_katakana_have_a_key(word):
    assert loanword_key(word) is None


# Names whose consonants are alike: the vowels decide, and a short skeleton must be near
# in vowels too. The pairs are titles of ko-2020-09-25, headings of the ja-2026-01-16
# glossary and termbase rows.
TABLE = loanword_table(
    [
        ("Deathtouch", "치명타"),
        ("targets", "목표"),  # T S T S in its soft-g reading
        ("Flash", "섬광"),
        ("Prowess", "기량"),
        ("players", "플레이어"),
        ("Shuffle", "섞기"),
        ("spell", "주문"),
        ("defining", "정의"),
        ("Flying", "飛行"),
        ("Plane", "次元"),  # P L N as well
        ("Discard", "捨てる"),
    ]
)


@pytest.mark.parametrize(
    ("loanword", "forms"),
    [
        ("데스터치", ["치명타"]),
        ("플래시", ["섬광"]),
        ("셔플", ["섞기"]),
        ("태핑", []),  # tapping is not in the table; defining shares T P N, not its vowels
        ("스택", []),  # no name of that sound
        ("마나", []),  # two classes say too little
        # ライ is the i of flying, and the added u of フ is no vowel: nearer flying than the
        # row whose English has P L N as well.
        ("フライング", ["飛行"]),
        ("ディスカード", ["捨てる"]),
        ("リーチ", []),  # reach: L S, two classes
    ],
)
def test_a_loanword_is_the_translations_word_for_the_nearest_name(loanword, forms):
    assert loanword_forms(loanword, TABLE) == forms


# Katakana writes the vowel of but (shuffle, cut) as ア, Hangul as ㅓ: シャッフル and スペル
# share S P L with shuffle and spell, their vowels tell them apart (a Japanese glossary's
# headings: 切り直す（きりなおす）／Shuffle).
JA_TABLE = loanword_table([("Shuffle", "切り直す"), ("spell", "呪文")])


@pytest.mark.parametrize(
    ("loanword", "forms"),
    [
        ("シャッフル", ["切り直す"]),  # before: 呪文, spell's e nearer than shuffle's u
        ("スペル", ["呪文"]),
        ("셔플", ["切り直す"]),  # Hangul's ㅓ is read as u already
    ],
)
def test_katakana_a_is_the_vowel_of_but(loanword, forms):
    assert loanword_forms(loanword, JA_TABLE) == forms


def test_a_short_skeleton_needs_near_vowels_even_alone():
    """A store whose only S P L name is spell (a Japanese chapter without its glossary: the
    termbase's 呪文): シャッフル is not read as it (ratio 0.75), スペル is."""
    alone = loanword_table([("spell", "呪文")])
    assert loanword_forms("シャッフル", alone) == []
    assert loanword_forms("スペル", alone) == ["呪文"]
