"""Japanese and Korean search on the real translations (shared/translations: the judge
program's Japanese of 2026-01-16, the kormtgcr Korean of 2020-09-25): the index stores kana
and Hangul one character per token, as it does Han, so a word is found inside a kana run or
an eojeol; a question's particles, endings and asking words are not searched. Then the
pieces as tables (folding, tokens, Korean stems, Japanese glossary keys) and migration 0011.

The expected rules were read in the translations' own lines (the ko file is numbered as of
2020: its 103.7a is today's 103.8a).
"""

from __future__ import annotations

import pytest

from mtgrules.align.plan import ingest_and_align
from mtgrules.search import search
from mtgrules.search.fuzzy import katakana_correction
from mtgrules.search.query import japanese_compared, korean_compared, korean_stem, parse_query
from mtgrules.search.render import render_search
from mtgrules.store import open_store, session_scope
from mtgrules.store.search_index import has_charwise_text, term_key, term_keys
from mtgrules.text.fold import fold, fold_words, index_words
from mtgrules.text.width import columns

from .conftest import EXTRA, ON_PG, SEEDS, TRANSLATIONS, drop_store, pg_create_database

JA = TRANSLATIONS / "ja-2026-01-16.mtgwiki-lines.txt"
KO = TRANSLATIONS / "ko-2020-09-25.kormtgcr.txt"
needs_translations = pytest.mark.skipif(
    not (JA.is_file() and KO.is_file()), reason=f"{TRANSLATIONS} not present (the shared data)"
)

# (text, folded): the kana voicing marks stay on their syllable (NFKD splits them off)
FOLD = [
    ("プレイヤー", "プレイヤー"),  # プ = フ + U+309A: one letter, not two
    ("が", "が"),  # not か and a loose mark
    ("ｶｰﾄﾞ", "カード"),  # half-width katakana, composed again
    ("생물이", "생물이"),  # Hangul syllables, not jamo
    ("Coût", "cout"),  # Latin accents still go
]

# (text, the index's tokens): Han, kana and Hangul one character each
TOKENS = [
    ("トークンを生成した", ("ト", "ー", "ク", "ン", "を", "生", "成", "し", "た")),
    ("ドロー・ステップ", ("ド", "ロ", "ー", "ス", "テ", "ッ", "プ")),  # ・ is punctuation
    ("생물이 공격", ("생", "물", "이", "공", "격")),
    ("the stack 堆叠", ("the", "stack", "堆", "叠")),
]

# (text, words): a run of one script is one word (a phrase of its characters)
WORDS = [
    ("トークンのオーナー", ["トークン", "の", "オーナー"]),
    ("手札の上限", ["手札", "の", "上限"]),
    ("+1/+1カウンター", ["ptplus1byplus1", "カウンター"]),  # a power and toughness is one word
    ("독 카운터를", ["독", "카운터를"]),
]

# (word, stem): a Korean word without its particle or ending
KOREAN_STEMS = [
    ("생물이", "생물"),
    ("생물들은", "생물"),  # the plural 들 with its particle
    ("공격하는", "공격"),
    ("탭된", "탭"),  # a 되다 ending leaves one syllable
    ("이하가", "이하"),  # the 이 of 이하 is no particle
    ("카운터", "카운터"),
    ("손", "손"),
    # Any verb's polite endings: a question's 뒤집어요 and the rules' 뒤집습니다 (904.9).
    ("뒤집어요", "뒤집"),
    ("뒤집습니다", "뒤집"),
    ("단계랑", "단계"),  # 랑, "and" as players say it
    ("있어요", "있어요"),  # a stem of one syllable is too little to search
    ("끝나면", "끝나"),  # 면, "if", after a vowel (before: searched as typed)
    # 으면 after a consonant would leave one syllable: 면 alone is cut, and the stem keeps
    # the vowel that joins it (뽑으 finds the rules' 뽑으려 as well as a question's 뽑으면)
    ("받으면", "받으"),
    ("회복돼", "회복"),  # 돼, the casual 되다 (before: its beginning 회, in 일회성 and 회피)
    ("앞면", "앞면"),  # a face: one syllable before 면
]

# (query, the terms searched): particles, endings and asking words go
TERMS = [
    ("トークンのオーナー", ["トークン", "オーナー"]),
    ("手札の上限は何枚ですか", ["手札", "上限"]),  # 何枚: how many
    ("탭된 생물로 방어할 수 있나요", ["탭", "생물", "방어"]),
    ("생명점이 0 이하가 되면 어떻게 되나요", ["생명점", "0", "이하"]),
    ("ひきわけ", ["ひきわけ"]),  # all hiragana: nothing else to search
    # Casual Korean: this (time), right away, can't, do, all, what, become are talk, and a
    # syllable such as 해 or 다 is inside a thousand words of the translation (피해, 해결)
    ("이번 턴에 바로 공격 못 해?", ["턴에", "공격"]),
    ("대지 다 탭하면 뭐가 돼?", ["대지", "탭"]),
    ("카드가 없으면 짐?", ["카드", "없으", "패배"]),  # 짐: lost, the rules' 패배
    ("새 카드 취급이야?", ["새", "카드", "취급"]),  # 이야: casual "is it"
    ("추가 비용이 얼마나 돼?", ["추가", "비용"]),  # 얼마나: how much
    # Players' loanwords for the translation's native terms (data/player_words.tsv), read
    # through their particles: creature, damage; surrender for 패배를 인정 (104.3a)
    ("크리쳐가 데미지를 받으면", ["생물", "피해", "받으"]),
    ("언제든지 항복할 수 있나요", ["언제든지", "패배", "인정"]),
    ("山札の一番上", ["ライブラリー", "一番上"]),  # 山札: the library
    ("묘지에 있는 카드", ["무덤", "카드"]),  # 묘지: the graveyard, 무덤 in the translation
]

# (query, the forms searched for its kanji): a lone kanji followed by kana is a verb or an
# adjective, searched with the kana its ending may start with (数えられる finds 数える, not
# every 枚数); one followed by a particle is a noun, searched alone
OKURIGANA = [
    ("枚数を数えられる", "数え", "数"),  # ichidan: 数える
    ("どこに置く", "置か", "置"),  # godan: 置かれる, the rules' passive
    ("引けるか", "引く", "引"),
    ("色が違う", None, "色"),  # 色 + the particle が: a noun
]

# (glossary heading, its key): a Japanese heading is looked up by its term alone
KEYS = [
    ("トランプル（とらんぷる）／Trample", "トランプル"),
    ("手札の上限（てふだのじょうげん）／Maximum Hand Size", "手札 の 上限"),
    ("Converted Mana Cost (Obsolete)", "converted mana cost"),
]

# (query, rule, within, why): the rule among the first hits
ANSWERS = [
    ("トークン", "111.1", 5, "トークン inside the run トークンは…"),
    ("マナ能力はスタックに積まれない", "605.3b", 1, "katakana words inside kana runs"),
    ("ライフが0以下", "704.5a", 1, ""),
    ("警戒を持つクリーチャーは攻撃するとタップするのか", "702.20b", 1, "a question"),
    ("生け贄に捧げる", "701.21", 3, "after its glossary entry"),
    ("생명점이 0 이하가 되면 어떻게 되나요", "704.5a", 1, "생명점 in 생명점이"),
    ("경계를 가진 생물은 공격할 때 탭되나요", "702.20b", 1, "stems of every word"),
    ("한 개의 대지만 플레이", "305.2", 1, ""),
    ("相手の手札の枚数を数えられる", "402.3", 3, "数えられる is 数える of 402.3, not 枚数"),
    ("희생", "701.17", 1, "the 2020 number of sacrifice"),
    # Players' words: before, the Korean two were not in the first three (100.2c, 402.2 came
    # first)
    ("언제든지 항복할 수 있나요", "104.3a", 1, "104.3a '패배를 인정할 수 있습니다' (concede)"),
    ("크리쳐가 블록하면", "509.1g", 3, "크리쳐 블록: 생물 방어, the translation's words"),
    ("공방이 *인 생물은 어떻게 계산함?", "208.2", 1, "208.2 '별표(*)': the star as its word"),
    # A Japanese question's kana count too, as two-character runs: the rule saying it in the
    # question's words comes first (before: 615.5, 707.12 and 704.6a)
    (
        "ダメージが軽減されたら、そのダメージは起こったことにならないのか",
        "615.6",
        1,
        "615.6 '受けるダメージが軽減された場合、それは決して起こったことにならない'",
    ),
    ("呪文のコピーは唱えたことにならない", "707.10", 1, "707.10: a copy of a spell is not cast"),
    (
        "チームのライフはいくつから始まる",
        "810.4",
        1,
        "810.4 'チームごとに合算され、30点から始まる'",
    ),
    # A word with its particle names its section as the bare word does (before: 무덤에 opened
    # with 107.9, 비행이란 with 702.17b)
    ("무덤에", "404", 1, "404 '무덤', the graveyard: 에 is a particle"),
    ("비행이란", "702.9", 1, "702.9 '비행', flying: 이란 asks what it is"),
    (
        "서고에 카드가 없으면 짐?",
        "704.5b",
        1,
        "704.5b '서고에 카드가 없을 경우 ... 패배합니다': 짐 is the rules' 패배 (before: 401.7 "
        "first)",
    ),
    (
        "트리거 동시에 터지면 누가 먼저 스택에 올려?",
        "603.3b",
        3,
        "603.3b: triggered abilities (격발 능력) in APNAP order; 트리거 is the players' "
        "word (before: not in the first ten)",
    ),
    (
        "召喚酔いのクリーチャーで殴れる",
        "302.6",
        2,
        "302.6 (summoning sickness) 'そのクリーチャーでは攻撃できない', after the entry "
        "Summoning Sickness: 殴る is players' 攻撃する (before: third, after the entry Haste)",
    ),
    # A title with its kind word (714 '서사시 카드', Saga Cards) or a word with its particle
    # names the section's heading, as English "saga" names 714 (before: 704.5s first, and
    # 512 before 513)
    (
        "バウンスされたトークン",
        "111.8",
        1,
        "バウンス (a bounce) is the rules' 手札に戻す; 111.8: a token that has left the "
        "battlefield can't move to another zone (before: バウンス was searched as バンド, "
        "banding, and 111.13 came first)",
    ),
    ("서사시는", "714", 1, "714 '서사시 카드': the term and a kind word"),
    ("종료단에", "513", 1, "513 '종료단', the end step, with the particle 에"),
    (
        "쌍두거인전에서 팀 생명점은 몇으로 시작해요",
        "810.4",
        3,
        "810.4 '각 팀은 생명점을 공유합니다. 생명점은 30으로 시작합니다.' never says 쌍두거인전: "
        "the section's rule by where it stands (sixth before)",
    ),
]


@pytest.mark.parametrize(("text", "folded"), FOLD)
def test_folding_keeps_kana_and_hangul_letters_whole(text, folded):
    assert fold(text) == folded


@pytest.mark.parametrize(("text", "tokens"), TOKENS)
def test_the_index_stores_cjk_one_character_per_token(text, tokens):
    assert index_words(text) == tokens


@pytest.mark.parametrize(("text", "words"), WORDS)
def test_a_run_of_one_script_is_one_word(text, words):
    assert fold_words(text) == words


@pytest.mark.parametrize(("word", "stem"), KOREAN_STEMS)
def test_korean_particles_and_endings_are_cut(word, stem):
    assert korean_stem(word) == stem


@pytest.mark.parametrize(("query", "terms"), TERMS)
def test_a_questions_particles_and_asking_words_are_not_searched(query, terms):
    assert [t.alts[0] for t in parse_query(query).terms] == terms


@pytest.mark.parametrize(("query", "form", "kanji"), OKURIGANA)
def test_a_lone_kanji_before_kana_is_searched_with_its_ending(query, form, kanji):
    (alts,) = [t.alts for t in parse_query(query).terms if t.alts[0].startswith(fold(kanji))]
    if form is None:
        assert alts == (fold(kanji),)
    else:
        assert fold(form) in alts and fold(kanji) not in alts
        assert all(a.startswith(fold(kanji)) and len(a) == 2 for a in alts)


@pytest.mark.parametrize(("term", "key"), KEYS)
def test_a_japanese_glossary_heading_is_looked_up_by_its_term(term, key):
    assert term_key(term) == key


# (glossary heading, its variants): a Japanese heading lists them with 、 as English does
# with a comma, and each finds the entry
VARIANT_KEYS = [
    ("統率、統率領域（とうそつ、とうそつりょういき）／Command", ["統率", "統率領域"]),
    ("ライフ、ライフ総量（らいふ、らいふそうりょう）／Life/Life Total", ["ライフ", "ライフ総量"]),
    ("Kicker, Kicked", ["kicker", "kicked"]),
    ("トランプル（とらんぷる）／Trample", []),
]


@pytest.mark.parametrize(("heading", "variants"), VARIANT_KEYS)
def test_a_glossary_heading_is_looked_up_by_each_of_its_variants(heading, variants):
    assert term_keys(heading)[1:] == [term_key(v) for v in variants]


@pytest.fixture(scope="module")
def cjk_store(tmp_path_factory):
    """The Japanese and Korean translations alone, ingested as `mtgrules ingest` does."""
    if not (JA.is_file() and KO.is_file()):
        pytest.skip(f"{TRANSLATIONS} not present (the shared data)")
    ref = pg_create_database() if ON_PG else tmp_path_factory.mktemp("cjk") / "cjk.sqlite"
    engine = open_store(str(ref))
    with session_scope(engine) as s:
        ingest_and_align(s, [JA], language="ja")
    with session_scope(engine) as s:
        ingest_and_align(s, [KO])
    yield engine
    engine.dispose()
    drop_store(ref)


def _labels(engine, query: str, limit: int = 10) -> list[str | None]:
    with session_scope(engine, write=False) as s:
        return [h.label for h in search(s, query, limit=limit).hits]


@needs_translations
@pytest.mark.parametrize(("query", "rule", "within", "why"), ANSWERS)
def test_japanese_and_korean_queries_find_their_rule(cjk_store, query, rule, within, why):
    assert rule in _labels(cjk_store, query, limit=max(within, 5))[:within], why


@needs_translations
@pytest.mark.parametrize("width", [80, 60])
def test_an_aligned_japanese_heading_is_wrapped_to_the_width(cjk_store, width):
    """Under the English Double Strike entry, its Japanese entry's line (二段攻撃（にだんこうげ
    き）／Double Strike  ja-2026-01-16  (by link)) took 85 columns of 80: it was not wrapped."""
    with session_scope(cjk_store, write=False) as s:
        result = search(s, "double strike", limit=3)
    assert any(a.language == "ja" for h in result.hits for a in h.aligned)
    text = render_search(result, width=width)
    assert max(columns(line) for line in text.splitlines()) <= width


# (katakana word, the store's katakana words, its correction): a loanword spelled as players
# say it is the translation's spelling, compared without long-vowel marks (ja-2026-01-16
# writes クリンナップ・ステップ); the fewest edits win, then the nearest length.
KATAKANA_FIXES = [
    ("クリーンアップ", {"クリンナップ", "クリーチャー", "ステップ"}, "クリンナップ"),
    ("プレーヤー", {"プレイ", "プレイヤー"}, "プレイヤー"),
    ("トランプルー", {"トランプル", "ランプ"}, "トランプル"),
    ("ステップ", {"スタック"}, None),  # two edits in four kana: too far
    ("クリー", {"クリーチャー"}, None),  # too short to guess from
    ("りんご", {"りんご"}, None),  # hiragana: not a loanword
    ("ーーーー", {"ー", "ア"}, None),  # nothing left without the marks
]


@pytest.mark.parametrize(("word", "known", "fix"), KATAKANA_FIXES)
def test_a_katakana_word_is_corrected_to_the_translations_spelling(word, known, fix):
    assert katakana_correction(word, known) == fix


@needs_translations
@pytest.mark.parametrize(
    ("query", "fix", "term"),
    [
        (
            "クリーンアップ",
            "クリンナップ",
            "クリンナップ・ステップ（くりんなっぷすてっぷ）／Cleanup Step",
        ),
        ("プレーヤー", "プレイヤー", "プレイヤー（ぷれいやー）／Player"),
    ],
)
def test_a_loanword_spelled_otherwise_finds_its_entry(cjk_store, query, fix, term):
    """Before, クリーンアップ was searched as its longest beginning the index holds, クリー
    (of クリーチャー), and found no cleanup step; the correction is reported, as a typo's."""
    with session_scope(cjk_store, write=False) as s:
        result = search(s, query, limit=3)
    assert result.fuzzy_words == {query: [fix]}
    assert (result.hits[0].kind, result.hits[0].term) == ("glossary", term)


@needs_translations
@pytest.mark.parametrize(
    ("query", "word", "rule"),
    [
        # The keyword rules print the English name beside the Korean (702.19. 돌진 Trample).
        ("트램플", "돌진", "702.19"),
        ("플래시", "섬광", "702.8"),
        ("라이프링크 있는 생물이 피해를 입히면", "생명연결", "120.3f"),
        # The termbase's Korean column (permanent: 지속물); 110's heading has no English.
        ("퍼머넌트", "지속물", "110"),
    ],
)
def test_a_korean_players_loanword_is_the_translations_word(cjk_store, query, word, rule):
    """Before, a loanword the translation never writes was searched as its longest beginning
    the index holds (트램 of 트램플) and found nothing about its keyword."""
    with session_scope(cjk_store, write=False) as s:
        result = search(s, query, limit=3)
    loanword = query.split()[0]
    assert result.fuzzy_words == {loanword: [word]}
    assert rule in [h.label for h in result.hits[:3]]


@needs_translations
@pytest.mark.parametrize(
    "query", ["페이징", "카드", "トランプル", "マリガンのやり方", "フラッシュバック"]
)
def test_the_translations_own_words_are_not_loanwords(cjk_store, query):
    """페이징 is kormtgcr's word for phasing (702.25. 페이징 Phasing), 카드 its word for card;
    the Japanese glossary writes トランプル, マリガン and フラッシュバック in katakana."""
    with session_scope(cjk_store, write=False) as s:
        result = search(s, query, limit=3)
    assert not result.fuzzy_words and not result.read_as


# (query, the two terms it compares): と or a Korean "and" particle before a comparing word.
COMPARISONS = [
    ("追放と墓地の違い", ["追放", "墓地"]),
    ("呪文と能力って何が違うの", ["呪文", "能力"]),
    (
        "攻撃クリーチャーとブロック・クリーチャーはどう違う？",
        ["攻撃クリーチャー", "ブロック・クリーチャー"],
    ),
    ("生け贄に捧げると破壊の差", ["生け贄に捧げる", "破壊"]),
    ("クリーチャーと戦う", []),  # と without a comparing word: no comparison
    ("違いは何", []),
    ("장비하고 마법진은 뭐가 달라요", ["장비", "마법진"]),
    ("격발 능력과 정적 능력은 뭐가 달라요?", ["격발 능력", "정적 능력"]),
    ("순간마법과 집중마법의 차이", ["순간마법", "집중마법"]),
    ("생물과 전투", []),  # 과 without a comparing word: no comparison
    ("차이가 뭐예요", []),
]


@pytest.mark.parametrize(("query", "compared"), COMPARISONS)
def test_the_terms_a_comparison_joins(query, compared):
    """Each language's reading finds its own comparisons and none of the other's."""
    assert (japanese_compared(query) or korean_compared(query)) == compared
    assert not (japanese_compared(query) and korean_compared(query))


@needs_translations
@pytest.mark.parametrize(
    ("query", "entries"),
    [
        ("追放と墓地の違い", {"追放（ついほう）／Exile", "墓地（ぼち）／Graveyard"}),
        ("呪文と能力って何が違うの", {"呪文（じゅもん）／Spell", "能力（のうりょく）／Ability"}),
    ],
)
def test_a_japanese_comparison_opens_with_both_entries(cjk_store, query, entries):
    """As "exile vs graveyard" does in English. Before: 704.6d, 122.1h, 400.1 and an entry
    neither names (作製／Craft) for the first; 704.4 and three rules for the second."""
    with session_scope(cjk_store, write=False) as s:
        hits = search(s, query, limit=4).hits
    assert {h.term for h in hits[:2]} == entries


@pytest.mark.parametrize(
    ("query", "searched"),
    [
        # 차이 (difference) and 달라요 (differ) ask, as "difference" does; 랑 is "and".
        ("격발 능력이랑 정적 능력 차이", [("격발",), ("능력",), ("정적",)]),
        ("순간마법과 집중마법은 뭐가 달라요", [("순간마법",), ("집중마법",)]),
        ("피해를 받는 거랑 생명점을 잃는 거", [("피해",), ("받는",), ("생명점",), ("잃는",)]),
    ],
)
def test_a_korean_comparisons_asking_words_are_not_searched(query, searched):
    assert [t.alts for t in parse_query(query).terms] == searched


@needs_translations
@pytest.mark.parametrize(
    ("query", "names", "first"),
    [
        # The Japanese glossary prints each term's English name (先制攻撃（…）／First Strike):
        # both entries open the comparison (before: 702.4 and 702.7, no entry).
        (
            "first strikeとdouble strikeの違い",
            {"first strike": ["先制攻撃"], "double strike": ["二段攻撃"]},
            "先制攻撃（せんせいこうげき）／First Strike",
        ),
        # A player's abbreviation, read as its words (leaves the battlefield) first.
        ("LTBした時に誘発する能力", {"LTB": ["戦場を離れる"]}, "603.6c"),
        # The kormtgcr keyword rules print the name beside the word (702.2. 치명타 Deathtouch).
        ("deathtouch 있는 생물", {"deathtouch": ["치명타"]}, "702.2b"),
        # A Japanese player's loanword in katakana, which the translation does not print:
        # the glossary's word for the name it sounds like (捨てる（すてる）／Discard). Before,
        # ディスカード matched nothing, and 406.4 came first.
        ("ディスカードするカードは誰が選ぶ？", {"ディスカード": ["捨てる"]}, "701.9b"),
        # In a comparison too: both entries open it (before: ライフ's entry, for リーチ).
        ("フライングとリーチの違い", {"フライング": ["飛行"]}, "飛行（ひこう）／Flying"),
        # フラッシュ is held by the index only inside フラッシュバック (Flashback): no text
        # prints it as a word (before: 601.5a first, 702.8 fourth).
        ("フラッシュって何", {"フラッシュ": ["瞬速"]}, "瞬速（しゅんそく）／Flash"),
    ],
)
def test_an_english_name_in_a_japanese_or_korean_question(cjk_store, query, names, first):
    with session_scope(cjk_store, write=False) as s:
        result = search(s, query, limit=3)
    assert result.read_as == names and not result.fuzzy_words
    assert not any(h.fuzzy for h in result.hits)
    hit = result.hits[0]
    assert (hit.term if hit.kind == "glossary" else hit.label) == first


@needs_translations
def test_an_english_question_keeps_its_english_names(cjk_store):
    with session_scope(cjk_store, write=False) as s:
        assert not search(s, "what does deathtouch do", limit=3).read_as


@needs_translations
@pytest.mark.parametrize(
    ("query", "rules"),
    [
        # 301.5 "어떤 마법물체는 서브타입으로 '장비'를 가집니다", 303.4 the same for 마법진
        # (Aura). Before: 604.4, 613.7e, 303.4h, 704.5p, 701.3b, each naming both.
        ("장비하고 마법진은 뭐가 달라요", {"301.5", "303.4"}),
        # 304 Instants, 307 Sorceries. Before: 205.4e, 115.1a, 113.3a, 608.2, 400.4a.
        ("순간마법과 집중마법의 차이", {"304", "307"}),
    ],
)
def test_a_korean_comparison_finds_what_each_term_is(cjk_store, query, rules):
    """The Korean translation has no glossary: a text is weighed on the compared term it
    holds best, so that a rule naming both does not outweigh those saying what each is."""
    assert rules <= set(_labels(cjk_store, query, limit=5))


@needs_translations
def test_a_japanese_players_die_is_the_rules_dies(cjk_store):
    """死んだら (of 死ぬ, which ja-2026-01-16 never writes) is its 死亡（しぼう）／Die entry;
    before, 死 was searched as a verb's stem and the Creature entry came first."""
    with session_scope(cjk_store, write=False) as s:
        hits = search(s, "クリーチャーが死んだら", limit=3).hits
    assert (hits[0].kind, hits[0].term) == ("glossary", "死亡（しぼう）／Die")


@needs_translations
def test_a_variant_of_a_japanese_heading_finds_the_entry_then_its_section(cjk_store):
    # 統率、統率領域 is the entry for the command zone; before, 400.10 (the list of zones)
    # came first and 408 eighth.
    with session_scope(cjk_store, write=False) as s:
        hits = search(s, "統率領域に", limit=3).hits
    assert hits[0].kind == "glossary" and hits[0].term.startswith("統率、統率領域")
    assert hits[1].label == "408"


@needs_translations
def test_the_japanese_glossary_entry_comes_first_then_its_rule(cjk_store):
    with session_scope(cjk_store, write=False) as s:
        hits = search(s, "トランプル", limit=3).hits
    assert (hits[0].kind, hits[0].term) == ("glossary", "トランプル（とらんぷる）／Trample")
    assert hits[1].label == "702.19"


@needs_translations
def test_migration_0011_reindexes_a_store_with_kana_or_hangul(cjk_store):
    from alembic import command

    from mtgrules.store.migrate import alembic_config

    with cjk_store.connect() as conn:
        assert has_charwise_text(conn)
    cfg = alembic_config(cjk_store)
    with cjk_store.connect() as conn, conn.begin():
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0010")
        command.upgrade(cfg, "0011")
    assert "605.3b" in _labels(cjk_store, "マナ能力はスタックに積まれない", 1)


def test_a_store_without_kana_or_hangul_is_left_as_it_is(corpus_engine):
    with corpus_engine.connect() as conn:
        assert not has_charwise_text(conn)


# (query, the language of the glossary entry that comes first, why), on the corpus (Simplified
# Chinese) with the Japanese translation: read in ja-2026-01-16 and cr-zh-2026-01-16.txt.
KANJI_TERMS = [
    (
        "諜報",
        "ja",
        "the Japanese entry 諜報（ちょうほう）／Surveil; Chinese says 刺探 (谍报 is in a card name, 612.7 came first)",
    ),
    ("威迫", "ja", "the Japanese entry 威迫（いはく）／Menace alone"),
    ("警戒", "zh-Hans", "an entry of both glossaries: Chinese, as before"),
    (
        "探査",
        "ja",
        "the Japanese entry 探査（たんさ）／Delve, with the Japanese form of 查: folded, it is "
        "also the Chinese entry 探查 (investigate), which came first",
    ),
    ("探查", "zh-Hans", "the Chinese entry 探查 as Chinese writes it"),
    (
        "堆疊",
        "zh-Hans",
        "Traditional characters of the Chinese entry 堆叠 (Japanese says スタック)",
    ),
]


# A query of kanji alone that writes a character as only Japanese does is Japanese.
JAPANESE_FORMS = [
    (
        "攻撃 制限 強制 最大数",
        "ja",
        "撃 is Japanese (Chinese 擊, 击): before, the Chinese 100.5 came first",
    ),
    ("对手的威慑生物", "zh-Hans", "a guard: Simplified Chinese"),
    (
        "牌手的生命值為0時會怎樣",
        "zh-Hant",
        "a guard: 為 is Traditional Chinese, which jp2t makes 爲",
    ),
]


@pytest.mark.parametrize(("query", "language", "why"), JAPANESE_FORMS)
def test_a_kanji_query_in_japanese_forms_is_japanese(corpus_with_japanese, query, language, why):
    with session_scope(corpus_with_japanese, write=False) as s:
        first = search(s, query, limit=3).hits[0]
    assert first.language == language, why


def test_no_character_of_the_chinese_texts_is_read_as_japanese_alone():
    """Over every Han character of the corpus's Chinese texts (both scripts), none is taken
    for a Japanese form; the Japanese translation writes dozens."""
    from mtgrules.search.engine import _japanese_forms
    from mtgrules.text.fold import is_han

    chinese = {
        ch
        for path in [*EXTRA.glob("cr-zh-*.txt"), *SEEDS.glob("*")]
        for ch in path.read_text(encoding="utf-8", errors="replace")
        if is_han(ch)
    }
    assert len(chinese) > 1500
    assert not [ch for ch in chinese if _japanese_forms(ch, ["zh-Hans"])]
    if JA.is_file():
        japanese = {ch for ch in JA.read_text(encoding="utf-8") if is_han(ch)}
        assert len([ch for ch in japanese if _japanese_forms(ch, ["zh-Hans"])]) > 50


@pytest.fixture(scope="module")
def corpus_with_japanese(_corpus_template, tmp_path_factory):
    from .conftest import copy_store

    if not JA.is_file():
        pytest.skip(f"{TRANSLATIONS} not present (the shared data)")
    ref = copy_store(_corpus_template, tmp_path_factory.mktemp("corpus-ja"))
    engine = open_store(str(ref))
    with session_scope(engine) as s:
        ingest_and_align(s, [JA], language="ja")
    yield engine
    engine.dispose()
    drop_store(ref)


@pytest.mark.parametrize(("query", "language", "why"), KANJI_TERMS)
def test_a_kanji_term_of_the_japanese_glossary_alone_is_japanese(
    corpus_with_japanese, query, language, why
):
    with session_scope(corpus_with_japanese, write=False) as s:
        first = search(s, query, limit=3).hits[0]
    assert first.kind == "glossary" and first.language == language, why


# (query, the entry first): a Japanese question for the meaning of a term (Xの意味, X
# どういう意味) names its entry, as "what does X mean" does in English. Before, バトルの意味
# opened with 310.8g and 注釈文の意味 with 701.1 (the entry fifth).
MEANING_ASKED = [
    ("バトルの意味", "バトル（ばとる）／Battle"),
    ("注釈文の意味", "注釈文（ちゅうしゃくぶん）／Reminder Text"),
    ("注釈文の定義", "注釈文（ちゅうしゃくぶん）／Reminder Text"),
]


@needs_translations
@pytest.mark.parametrize(("query", "term"), MEANING_ASKED)
def test_a_japanese_question_for_a_meaning_opens_with_the_entry(cjk_store, query, term):
    with session_scope(cjk_store, write=False) as s:
        hit = search(s, query, limit=3).hits[0]
    assert (hit.kind, hit.term) == ("glossary", term)


@pytest.fixture(scope="module")
def chapter_store(tmp_path_factory):
    """The Japanese MediaWiki chapter 1 (no glossary: no Japanese word for shuffle) beside
    the Korean translation of 2016 (whose 701.18 title is "섞기 Shuffle")."""
    chapter = TRANSLATIONS / "ja-2026-01-16-chapter1.mediawiki.txt"
    korean = TRANSLATIONS / "ko-2016-09-30.kormtgcr.txt"
    if not (chapter.is_file() and korean.is_file()):
        pytest.skip(f"{TRANSLATIONS} not present (the shared data)")
    ref = pg_create_database() if ON_PG else tmp_path_factory.mktemp("ch") / "ch.sqlite"
    engine = open_store(str(ref))
    with session_scope(engine) as s:
        ingest_and_align(s, [korean])
    with session_scope(engine) as s:
        ingest_and_align(s, [chapter], language="ja")
    yield engine
    engine.dispose()
    drop_store(ref)


def test_a_katakana_loanword_without_a_japanese_word_is_read_as_english(chapter_store):
    # Before, the Korean names were its only table: シャッフル was searched as 섞기.
    with session_scope(chapter_store, write=False) as s:
        result = search(s, "ライブラリーをシャッフルする", limit=3)
    assert result.fuzzy_words["シャッフル"] == ["Shuffle"]
    assert result.hits and result.hits[0].language == "ja"
