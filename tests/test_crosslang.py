"""Alignment evidence across any pair of languages (issue 16 item 4): the English a
translation keeps, glossary entries paired by term in any script, the termbase's Japanese
and Korean columns, and the term pairs a translation states beside the English it keeps.

Excerpts are real lines of ../shared/translations and the bundled corpus, copied verbatim.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from mtgrules.align.features import featurize, similarity
from mtgrules.align.learning import heading_terms
from mtgrules.align.terms import kept_english, pair_by_kept_terms, term_forms, term_key
from mtgrules.termbase import find_terms
from mtgrules.text.language import writing_of


@pytest.mark.parametrize(
    ("heading", "kept"),
    [
        ("相棒（あいぼう）／Companion", "Companion"),
        ("あなた、あなたの（あなた、あなたの）／You/Your", "You/Your"),
        ("打ち消す（うちけす）／Counter(v)", "Counter"),  # the verb, told apart from the noun
        ("（へや）／Room", "Room"),  # the heading the Japanese file prints without its term
        ("Fateseal", "Fateseal"),  # a Korean keyword heading left in English
        ("생물", None),
        ("咒语", None),
    ],
)
def test_the_english_a_translated_heading_keeps(heading, kept) -> None:
    assert kept_english(heading) == kept


@pytest.mark.parametrize(
    ("term", "forms"),
    [
        ('Banding, "Bands with Other"', {"banding"}),
        ("Interrupt (Obsolete)", {"interrupt"}),
        ("You, Your", {"you"}),
        ("The City’s Blessing", {"city's blessing"}),
        ("Turn-Based Actions", {"turn based action"}),
    ],
)
def test_an_english_term_is_known_by_its_first_form(term, forms) -> None:
    assert forms <= term_forms(term)


def test_quotes_do_not_matter_in_a_term() -> None:
    assert term_key("Doctor’s Companion") == term_key("Doctor's Companion")


@dataclass
class Entry:
    """A glossary clause as the aligner reads it."""

    id: int
    term: str
    norm: str
    kind: str = "glossary"
    label: str | None = None


ENGLISH = [
    Entry(1, "Counter", "1. To cancel a spell or ability so it doesn't resolve. See rule 701.6, \"Counter.\""),
    Entry(2, "Counter", "A marker placed on an object or player. See rule 122, \"Counters.\""),
    Entry(3, "Companion", "A keyword ability that allows a player to choose a creature card. See rule 702.139."),
]  # fmt: skip
JAPANESE = [
    Entry(11, "カウンター（かうんたー）／Counter(n)", "オブジェクトやプレイヤーの上に置かれる目印。rule 122〔カウンター〕参照。"),
    Entry(12, "相棒（あいぼう）／Companion", "キーワード能力。rule 702.139〔相棒〕参照。"),
    Entry(13, "打ち消す（うちけす）／Counter(v)", "呪文や能力を解決されないようにすること。rule 701.6〔打ち消す〕参照。"),
]  # fmt: skip


def test_glossary_entries_pair_by_the_english_term_they_keep() -> None:
    """Japanese sorts its glossary in kana order: the entries pair by the English term in
    their headings, never by place; of the two "Counter" entries, each goes with the one
    citing the same rule (122 the noun, 701.6 the verb)."""
    pairs = {(en.id, tr.id) for en, tr, _ in pair_by_kept_terms(ENGLISH, JAPANESE)}
    assert pairs == {(2, 11), (3, 12), (1, 13)}


@pytest.mark.parametrize(
    ("english", "translation", "language"),
    [
        # Korean keeps keyword headings and some terms in English (ko-2020-09-25).
        ("Flying", "비행 Flying", "ko"),
        (
            "If an effect has each player choose a card in a hidden zone, such as their hand or library, those cards may remain face down as they're chosen.",
            "어떤 효과가 플레이어의 손이나 서고 같은 감춰진 구역(hidden zone)에서 카드를 선택한다면, 이 카드들은 선택되는 동안 뒷면일 수 있습니다.",
            "ko",
        ),
        # The Japanese keyword heading keeps its English after a slash (ja-2026-01-16).
        ("Vigilance", "警戒／Vigilance", "ja"),
    ],
)
def test_kept_english_is_evidence_across_alphabets(english, translation, language) -> None:
    score, evidence = similarity(featurize(english, "en"), featurize(translation, language))
    kept = next(e for e in evidence if e["feature"] == "kept-english")
    assert kept["value"] == 1.0
    assert score > 0.5


def test_words_of_another_alphabet_are_not_compared_as_cognates() -> None:
    """A Korean clause's words never look like English ones: they are no evidence either way
    (they pulled every Korean pair to 0.09 when they were counted)."""
    en = "Damage dealt by a source with lifelink causes that source's controller to gain that much life."
    ko = "생명연결을 가진 원천이 입힌 피해는 그 원천의 조종자가 그만큼의 생명점을 얻게 합니다."
    _, evidence = similarity(featurize(en, "en"), featurize(ko, "ko"))
    assert "cognates" not in {e["feature"] for e in evidence}
    assert (writing_of("ko"), writing_of("ru"), writing_of("pt-BR"), writing_of("sr-Latn")) == (
        "hangul",
        "cyrillic",
        "latin",
        "latin",
    )


# 107.3a of each language, from the English and translations of ../shared and the corpus.
ROW_107_3A = {
    "en": "If a spell or activated ability has a mana cost, alternative cost, additional cost, and/or activation cost with an {X}, [-X], or X in it",
    "ja": "呪文や起動型能力がマナ・コスト、代替コスト、追加コスト、起動コストに{X}、[-X]、あるいはXを含み",
    "ko": "주문이나 활성화 능력이 마나 비용, 대체비용, 추가비용, 그리고/또는 활성화 비용에 {X}, [-X], X가 들어가 있고",
}  # fmt: skip


def test_the_termbase_finds_the_same_concepts_in_japanese_and_korean() -> None:
    found = {lang: find_terms(text, lang) for lang, text in ROW_107_3A.items()}
    assert found["en"] == found["ja"] == found["ko"]
    assert set(found["en"]) == {
        "spell",
        "activated ability",
        "mana cost",
        "alternative cost",
        "additional cost",
        "activation cost",
    }


@dataclass
class Clause:
    kind: str
    label: str | None
    norm: str
    term: str | None = None


def test_a_translation_states_its_terms_beside_the_english_it_keeps() -> None:
    english = [
        Clause("rule", "702.2", "Deathtouch"),
        Clause("rule", "702.20", "Vigilance"),
        Clause("rule", "702.2a", "Deathtouch is a static ability."),
        Clause("glossary", None, "A keyword ability...", "Companion"),
    ]
    translated = [
        Clause("rule", "702.2", "치명타 Deathtouch"),
        Clause("rule", "702.20", "警戒／Vigilance"),
        Clause("rule", "702.2a", "치명타는 지속력 능력입니다."),  # not a heading
        Clause("glossary", None, "キーワード能力。", "相棒（あいぼう）／Companion"),
    ]
    learned = {(t.english, t.form) for t in heading_terms(english, translated, "xx")}
    assert learned == {("Deathtouch", "치명타"), ("Vigilance", "警戒"), ("Companion", "相棒")}
