"""`mtgrules search` on the real ingested corpus: folding, Chinese scripts, typos,
cross-language hits, rule numbers, options, bad queries, and the index's place in the schema.
"""

from __future__ import annotations

import json
import string
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import text

from mtgrules.errors import MtgRulesError, NotFoundError, QueryError
from mtgrules.search import search
from mtgrules.search.highlight import highlight_spans
from mtgrules.search.query import asks_permission, fts_match, parse_query, pg_tsquery
from mtgrules.search.render import render_search
from mtgrules.store import open_store, session_scope
from mtgrules.text.fold import (
    fold,
    fold_words,
    index_form,
    index_words,
    pattern,
    spell_power_toughness,
)
from mtgrules.text.labels import match_rule_query, rules_in_query
from mtgrules.text.lemmas import guessed_bases

from .conftest import ON_PG, run_cli

# (query, options, a string some hit's text must contain, why)
FINDS = [
    ("cout", {"language": "fr"}, "coût", "accents do not matter"),
    ("COÛT", {"language": "fr"}, "coût", "nor case"),
    ("mana", {"language": "es"}, "maná", "mana finds maná"),
    ("堆叠", {"language": "zh-Hant"}, "堆疊", "Simplified finds Traditional"),
    ("堆疊", {"language": "zh-Hans"}, "堆叠", "Traditional finds Simplified"),
    ("叠", {"language": "zh-Hans"}, "堆叠", "a one-character Chinese substring"),
    ("法术力费用", {"language": "zh-Hans"}, "法术力费用", "a Chinese phrase"),
    ("combat damage", {"language": "en"}, "combat damage", "several words"),
    ("Stack", {"kind": "glossary"}, "stack", "glossary entries"),
]

# (query, options, predicate over the JSON result, why)
SHAPES = [
    (
        "stack",
        {"language": "fr"},
        lambda r: r["hits"] and all(h["language"] == "fr" for h in r["hits"]),
        "--lang",
    ),
    (
        "stack",
        {"edition": "en-2026-01-16"},
        lambda r: r["hits"] and all(h["edition"] == "en-2026-01-16" for h in r["hits"]),
        "--edition",
    ),
    (
        "stack",
        {"kind": "glossary"},
        lambda r: r["hits"] and all(h["kind"] == "glossary" for h in r["hits"]),
        "--kind",
    ),
    (
        "stack",
        {"kind": "rules"},
        lambda r: r["hits"] and all(h["kind"] != "glossary" for h in r["hits"]),
        "--kind",
    ),
    ("mana", {"limit": 3}, lambda r: len(r["hits"]) == 3, "--limit"),
    (
        "pile",
        {"language": "en"},
        lambda r: (
            r["hits"] and all("pile" in (h["text"] + (h["term"] or "")).lower() for h in r["hits"])
        ),
        "an English word as typed first: not translated to 'stack'",
    ),
    (
        "stack",
        {"language": "fr"},
        lambda r: r["hits"] and all("pile" in h["text"] for h in r["hits"]),
        "nothing as typed in French: the termbase's French form",
    ),
    (
        "stack",
        {"language": "fr"},
        lambda r: r["searched_as"] == {"fr": ["pile"]},
        "the reader is told which form was searched",
    ),
    (
        "スタック",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["stack"]}
            and r["hits"][0]["kind"] == "glossary"
            and r["hits"][0]["term"] == "Stack"
        ),
        "no Japanese text in the store: the termbase's English form, not nothing",
    ),
    (
        "스택",
        {},
        lambda r: r["searched_as"] == {"en": ["stack"]} and r["hits"][0]["term"] == "Stack",
        "no Korean text either",
    ),
    (
        "堆叠",
        {},
        lambda r: r["searched_as"] == {} and r["hits"][0]["language"] == "zh-Hans",
        "Chinese texts in the store: searched as typed",
    ),
    (
        "墓地",
        {},
        lambda r: (
            r["languages"] == ["ja"]
            and r["searched_as"] == {"en": ["graveyard"]}
            and r["hits"][0]["term"] == "Graveyard"
        ),
        "kanji the termbase knows as Japanese and not as Chinese (Chinese says 坟墓场): the "
        "Graveyard entry, not the Chinese texts naming the card 墓地鼠群",
    ),
    (
        "Friedhof",
        {},
        lambda r: r["searched_as"] == {"en": ["graveyard"]} and r["hits"][0]["term"] == "Graveyard",
        "a German term (the termbase's de column) on a store without German: its English",
    ),
    (
        "campo di battaglia",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["battlefield"]} and r["hits"][0]["term"] == "Battlefield"
        ),
        "an Italian term whole, not the Spanish texts that hold 'campo'",
    ),
    (
        "Stapel verrechnen",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["stack resolves"]}
            and r["hits"][0]["label"] == "608.1"
            and r["languages"] == ["de"]
        ),
        "the German terms of a phrase as English: 608.1, the top of the stack resolves",
    ),
    (
        "was ist Zauberspruch",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["spell"]}
            and r["hits"][0]["term"] == "Spell"
            and r["languages"] == ["de"]
        ),
        "a German question whose asking word is English too ('was'): its term, in no text of "
        "the store, is searched as English (before: English texts holding 'was', the 2006 "
        "glossary's Creature Type first)",
    ),
    (
        "кладбище и библиотека",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["graveyard library"]}
            and r["hits"][0]["label"] in ("400.3", "400.1")
        ),
        "Russian terms in a phrase: the rules naming both zones",
    ),
    (
        "was passiert mit Spielsteinen",
        {},
        lambda r: (
            r["searched_as"] == {"en": ["token"]}
            and r["hits"][0]["term"] == "Token"
            and r["languages"] == ["de"]
        ),
        "a German term in the dative plural, a form the termbase does not list (Spielstein, "
        "Spielsteine): before, 206.3b and 205.3m at 27% and 24%",
    ),
    (
        "что происходит с фишкой",
        {},
        lambda r: r["searched_as"] == {"en": ["token"]} and r["hits"][0]["term"] == "Token",
        "a Russian term in the instrumental (фишка, фишку listed)",
    ),
    (
        "토큰이 전장을 떠나면",
        {},
        lambda r: r["searched_as"] == {"en": ["token battlefield"]} and r["languages"] == ["ko"],
        "Korean terms with their particles (토큰이, 전장을) on a store without Korean: before, "
        "nothing matched",
    ),
    (
        "Kampfschaden zuweisen",
        {},
        lambda r: r["searched_as"] == {"en": ["damage"]} and r["hits"][0]["term"] == "Damage",
        "a German compound whose head is a term (Schaden): before, nothing matched",
    ),
    (
        "qué pasa con las fichas",
        {},
        lambda r: r["searched_as"] == {"en": ["token"]} and r["hits"][0]["term"] == "Token",
        "a Spanish term no text of the store holds (its Spanish is one page on 107.3), when "
        "the words as typed find nothing: before, nothing matched",
    ),
    (
        "警戒",
        {},
        lambda r: r["searched_as"] == {} and r["hits"][0]["language"] == "zh-Hans",
        "a term both Chinese and Japanese write alike: Chinese texts in the store, as typed",
    ),
    ("stack", {"as_of": 1}, lambda r: len(r["hits"]) > 0, "--as-of"),
    (
        "the stack",
        {},
        lambda r: r["hits"] and r["words"] == ["the", "stack"],
        "stop words kept in words",
    ),
]

# Queries a user may type by mistake: each must be one clear line on stderr, exit code 2.
BAD_QUERIES = [
    ("", "empty"),
    ("   ", "blank"),
    ("...", "only punctuation"),
    ("«»!?", "only punctuation, not ASCII"),
    ('"', "a lone quote"),
    ('"combat damage', "an unbalanced quote"),
    ("NEAR(stack", "FTS NEAR("),
    ("near (a b)", "FTS NEAR( in lower case"),
    ("sta*", "FTS prefix star"),
    ("^stack", "FTS initial token"),
    ("x" * 10_000, "10 kB of text"),
    ("stack " * 40, "too many words"),
]


@pytest.fixture(scope="module")
def engine(corpus_db):
    eng = open_store(str(corpus_db))
    yield eng
    eng.dispose()


def _search(engine, query: str, **opts):
    with session_scope(engine) as s:
        return search(s, query, **opts)


@pytest.mark.parametrize(("query", "opts", "needle", "why"), FINDS)
def test_finds(engine, query, opts, needle, why):
    result = _search(engine, query, **opts)
    texts = [fold(h.text) for h in result.hits] + [fold(h.term or "") for h in result.hits]
    assert any(fold(needle) in t for t in texts), why


@pytest.mark.parametrize(("query", "opts", "check", "why"), SHAPES)
def test_options(engine, query, opts, check, why):
    assert check(_search(engine, query, **opts).as_json()), why


def test_exact_hits_are_not_fuzzy(engine):
    result = _search(engine, "announced")
    assert result.hits and not any(h.fuzzy for h in result.hits)
    assert result.fuzzy_words == {}


def test_typo_falls_back_to_fuzzy(engine):
    result = _search(engine, "annouced")
    assert result.hits and all(h.fuzzy for h in result.hits)
    assert "announced" in result.fuzzy_words["annouced"]
    assert any("announced" in h.text for h in result.hits)


def test_stack_shows_other_languages_beside_english(engine):
    # The 107.3 subrules, the only English clauses the French and the Traditional Chinese
    # pages translate, mention the stack once each: far down a page about the stack.
    result = _search(engine, "stack", limit=100)
    assert result.hits[0].language == "en"
    beside = {a.language for h in result.hits for a in h.aligned}
    assert {"fr", "zh-Hans", "zh-Hant"} <= beside
    # The termbase tells what "stack" is called elsewhere.
    assert result.translations["fr"] == ["pile"]
    # An English rule beside its French: the French says "pile".
    fr = [a for h in result.hits for a in h.aligned if a.language == "fr"]
    assert any("pile" in a.text for a in fr)


def test_pile_shows_french_first_beside_english(engine):
    result = _search(engine, "pile", limit=5)
    assert result.hits[0].language == "fr"
    assert "pile" in result.hits[0].text
    assert any(a.language == "en" and "stack" in a.text for a in result.hits[0].aligned)


def test_aligned_clause_is_never_another_rule(store_copy):
    """A label is aligned only to an edition of the same date or the same page: 2009's
    703.4h is not 2022's 703.4h. On a store without stored links (ingest stores them, and a
    link comes before a label), so that labels do the work."""
    from mtgrules.store.queries import list_editions

    eng = open_store(str(store_copy))
    with session_scope(eng) as s:
        s.execute(text("DELETE FROM link"))
        s.execute(text("DELETE FROM alignment"))
    result = _search(eng, "stack", limit=60)
    with session_scope(eng) as s:
        infos = list_editions(s)
    eng.dispose()
    by_label = [(h, a) for h in result.hits for a in h.aligned if a.via == "label"]
    assert len(by_label) >= 5, "stack has rule hits aligned by label in other languages"
    # A hit is a lineage (newest number shown): the clause beside it carries one of the
    # numbers the lineage had, and the very one it had at that date.
    dates = {e.slug: e.date for e in infos}
    for h, a in by_label:
        assert a.label in h.labels
        if dates[a.edition] is not None:
            assert any(
                dates[slug] == dates[a.edition] and a.label in h.edition_labels.get(eid, [])
                for slug, eid in zip(h.editions, h.edition_ids, strict=True)
            )


def test_english_query_reaches_chinese_through_termbase(engine):
    result = _search(engine, "stack", language="zh-Hans", limit=5)
    assert result.hits and all(h.language == "zh-Hans" for h in result.hits)
    assert all("堆叠" in h.text or "堆叠" in (h.term or "") for h in result.hits)


def test_rule_number_goes_to_that_clause_in_every_edition(engine):
    result = _search(engine, "107.3g", limit=100)
    assert result.mode == "rule"
    # Today's 107.3g in every language first; then what 107.3g used to say, shown as the
    # rule it is today, 107.3g among the numbers it had (2015's 107.3g is 107.3h today).
    assert all("107.3g" in h.labels for h in result.hits)
    today = [h for h in result.hits if h.label == "107.3g"]
    assert result.hits[: len(today)] == today
    assert {h.label for h in result.hits[len(today) :]} == {"107.3h", "107.3i"}
    with session_scope(engine) as s:
        labelled = {
            cid
            for (cid,) in s.execute(
                text("SELECT id FROM clause WHERE label = '107.3g' AND kind IN ('rule', 'heading')")
            )
        }
    found = {cid for h in result.hits for cid in h.clause_ids}
    # Every clause labelled 107.3g, in every edition (the bilingual page's Chinese takes its
    # label from its English line: shown 107.3g*)...
    assert labelled <= found
    assert {"en", "fr", "zh-Hans", "zh-Hant"} <= {h.language for h in result.hits}
    # ...and the Spanish page's paragraph, which prints no label: the aligner labelled it
    # 107.3g at ingest (107.3g*).
    (spanish,) = [h for h in result.hits if h.language == "es"]
    assert spanish.edition == "es-page-es-107.3" and spanish.label_inferred
    assert spanish.label == "107.3g" and not set(spanish.clause_ids) & labelled


# (query, the rule number it names, or None for words): a citation as people type it.
RULE_QUERIES = [
    ("107.3", "107.3"),
    ("107.3G.", "107.3g"),
    ("rule 702.19b", "702.19b"),
    ("CR 702.19b", "702.19b"),
    ("see rules 104.3", "104.3"),
    ("§ 601.2", "601.2"),
    ("Comprehensive Rules 100.1", "100.1"),
    ("règle 107.3", "107.3"),
    ("regla 107.3a", "107.3a"),
    ("规则107.3", "107.3"),
    # "rule" in the other languages of the termbase (before: searched as words, and "Regel"
    # opened with the glossary's Tournament Rules after the rule).
    ("Regel 702.19b", "702.19b"),
    ("regola 107.3", "107.3"),
    ("правило 107.3", "107.3"),
    ("ルール702.19b", "702.19b"),
    ("규칙 702.19b", "702.19b"),
    # A decimal comma (a French or German keyboard) and a space before the letter: before,
    # "702,19b" opened with 702.19c and "702.19 b" with 702.19, then 107.4.
    ("702,19b", "702.19b"),
    ("règle 702,19", "702.19"),
    ("702.19 b", "702.19b"),
    ("702.19 B.", "702.19b"),
    # Typed with a Japanese or Chinese input method, or pasted with an invisible character:
    # before, each was searched as words (１０７．３ａ found 405.6g first).
    ("１０７．３ａ", "107.3a"),
    ("規則１０７．３", "107.3"),
    ("107\u200b.3", "107.3"),
    ("\ufeff107.3", "107.3"),
    ("107.3\u00ad", "107.3"),
    ("١٠٧.٣", None),  # Arabic-Indic digits: no rule number is written so
    ("rule", None),
    ("rule 2", None),
    ("702.19b trample", None),
    ("rules lawyer 107", None),
]


@pytest.mark.parametrize(("query", "label"), RULE_QUERIES)
def test_a_cited_rule_number_is_a_rule_query(query, label):
    assert match_rule_query(query) == label


# (query, the mode, the first hit's label, another label among the first five): a rule
# number inside a question is that rule; beside other words, that rule first, then what the
# words find. Before, each was searched as words: "what is rule 100.6" opened with 104.4i,
# "702.19b trample" with 702.19c.
NUMBER_IN_QUESTION = [
    ("what is rule 100.6", "rule", "100.6", None),
    ("what does rule 702.19b say?", "rule", "702.19b", None),
    ("explain CR 509.1a", "rule", "509.1a", None),
    ("702.19b trample", "text", "702.19b", "702.19"),
    ("does 509.1a let a tapped creature block", "text", "509.1a", None),
    ("difference between 702.19b and 702.19c", "rule", "702.19b", "702.19c"),
    ("702.19b 702.19c 702.19d 702.19e 702.19f", "rule", "702.19b", "702.19f"),
]


@pytest.mark.parametrize(("query", "mode", "first", "also"), NUMBER_IN_QUESTION)
def test_a_rule_number_inside_a_question_comes_first(engine, query, mode, first, also):
    result = _search(engine, query, limit=5)
    assert (result.mode, result.hits[0].label) == (mode, first)
    assert result.hits[0].edition.startswith("en-2026")
    assert also is None or also in [h.label for h in result.hits]
    assert len({h.clause_id for h in result.hits}) == len(result.hits)


# (query, what is searched instead, the glossary entry first): a game term typed as one word
# that the rules write as two, or as two they write as one. Before, the first three found
# nothing at all, "life link" opened with an example and "death touch" at 41% "some words".
COMPOUNDS = [
    ("doublestrike", {"doublestrike": ["double strike"]}, "Double Strike"),
    ("splitsecond", {"splitsecond": ["split second"]}, "Split Second"),
    ("manavalue", {"manavalue": ["mana value"]}, "Mana Value"),
    ("life link", {"life link": ["lifelink"]}, "Lifelink"),
    ("death touch", {"death touch": ["deathtouch"]}, "Deathtouch"),
    ("side board", {"side board": ["sideboard"]}, "Sideboard"),
    ("first strike", {}, "First Strike"),  # written so: nothing to do
    ("lifelink", {}, "Lifelink"),
]


@pytest.mark.parametrize(("query", "fixes", "term"), COMPOUNDS)
def test_a_term_typed_joined_or_split_is_searched_as_written(engine, query, fixes, term):
    result = _search(engine, query, limit=3)
    assert result.fuzzy_words == fixes
    assert (result.hits[0].kind, result.hits[0].term) == ("glossary", term)
    assert all(h.fuzzy for h in result.hits) == bool(fixes)


@pytest.mark.parametrize(
    ("query", "found"),
    [
        ("what is rule 100.6", (["100.6"], "what is rule  ")),
        ("rules 107.3 and 107.4", (["107.3", "107.4"], "rules   and  ")),
        ("702.19B or 702.19b?", (["702.19b"], "  or  ?")),  # once each
        ("100 cards", None),  # a count, no rule number
        ("turn 2.5", None),
        ("１０７．３ａ explained", (["107.3a"], "  explained")),
        # A list of numbers alone, however long, is those rules (before: searched as words,
        # 702.19c first for 702.19b-f); beside words, more than four are a passage's
        (
            "107.3 107.3a 107.3b 107.3c 107.3d",
            (["107.3", "107.3a", "107.3b", "107.3c", "107.3d"], " " * 9),
        ),
        ("see 107.3 107.3a 107.3b 107.3c 107.3d", None),
        # A letter after a space is the subrule's only when nothing but a stop follows it.
        ("explain 702.19 b", (["702.19b"], "explain  ")),
        ("107.3 a creature", (["107.3"], "  a creature")),
        # Chinese and Japanese touch the number; a Latin letter or digit continues it.
        ("规则702.19b是什么意思", (["702.19b"], "规则 是什么意思")),
        ("ルール702.19bの説明", (["702.19b"], "ルール の説明")),
        ("x702.19b", None),
        ("702.19bx", None),
    ],
)
def test_the_rule_numbers_a_question_holds(query, found):
    assert rules_in_query(query) == found


# (query, the language of the first hit): a rule cited with the word "rule" of a language
# is shown in that language first, where the store has it (the corpus has 107.3 in French,
# Spanish and both Chinese scripts, and no German); asking and citing words in any language
# beside the number leave a rule query. Before, only English came first, and "was sagt
# Regel 702.19b", "规则702.19b是什么意思" were searched as words after the rule (or, for the
# Chinese, without it: 608.3g first).
CITED_IN_A_LANGUAGE = [
    ("règle 107.3", "fr"),
    ("que dit la règle 107.3", "fr"),
    ("regla 107.3", "es"),
    ("规则702.19b是什么意思", "zh-Hans"),
    ("rule 107.3", "en"),
    ("107.3", "en"),
    ("Regel 107.3", "en"),
    ("was sagt Regel 702.19b", "en"),
]


@pytest.mark.parametrize(("query", "language"), CITED_IN_A_LANGUAGE)
def test_a_rule_cited_in_a_language_comes_in_that_language_first(engine, query, language):
    result = _search(engine, query, limit=10)
    (label,) = rules_in_query(query)[0] if rules_in_query(query) else [match_rule_query(query)]
    assert result.mode == "rule"
    assert result.hits[0].language == language
    assert all(label in h.labels for h in result.hits)


def test_rule_prefix_goes_to_that_rule(engine):
    """'rule 702.19b' was searched as words: 702.19c, 802.3b and 608.3g came first."""
    result = _search(engine, "rule 702.19b", limit=5)
    assert result.mode == "rule"
    assert result.hits[0].label == "702.19b"


@pytest.mark.parametrize("query", ["の", "이", "ー", "のの"])
def test_kana_or_hangul_on_a_store_without_them_finds_nothing(engine, query):
    """The corpus store has no Japanese or Korean text. A one-character kana or Hangul word
    left no term at all, and the index was asked for an empty match: "fts5: syntax error
    near ''" reached the user."""
    assert _search(engine, query).hits == []


def test_a_japanese_term_inside_a_phrase_on_a_store_without_japanese_is_its_english(engine):
    """トークンの ("the token's") holds the termbase's Japanese トークン: searched as token, the
    Token entry first (before, nothing was found)."""
    result = _search(engine, "トークンの", limit=3)
    assert result.searched_as == {"en": ["token"]}
    assert (result.hits[0].kind, result.hits[0].term) == ("glossary", "Token")


def test_identical_texts_are_one_hit(engine):
    result = _search(engine, "stack", limit=50)
    keys = [(h.language, h.kind, h.term, h.text) for h in result.hits]
    assert len(keys) == len(set(keys))
    assert any(len(h.editions) > 5 for h in result.hits)
    # The hit shows the newest edition that holds the text.
    assert result.hits[0].edition == result.hits[0].editions[0]


def test_results_are_ranked(engine):
    scores = [h.score for h in _search(engine, "triggered ability", limit=30).hits]
    assert len(scores) == 30 and len(set(scores)) > 5
    assert scores == sorted(scores, reverse=True)


# A subrule placed after its rule, an older wording after today's: each measured apart
# from its rank. "mana value" showed 202.3b at 98% under 202.3a at 96%.
@pytest.mark.parametrize("query", ["mana value", "stack", "layers", "valeur de X", "堆叠"])
def test_the_relevance_shown_never_rises_down_the_list(engine, query):
    shown = [h["relevance"] for h in _search(engine, query, limit=30).as_json()["hits"]]
    assert len(shown) >= 10
    assert shown == sorted(shown, reverse=True)


# What a hit says of its history does not depend on how many hits were asked for: "stack"
# was "also in 14 editions" with --limit 1 and 18 with --limit 30 (the 2006-2009 wording
# of the glossary entry was found only on a longer page).
@pytest.mark.parametrize("query", ["stack", "trample", "summoning sickness", "coût de mana"])
def test_a_hits_editions_do_not_depend_on_the_limit(engine, query):
    def editions(limit: int) -> dict[tuple, list[str]]:
        hits = _search(engine, query, limit=limit).as_json()["hits"]
        return {(h["edition"], h["label"], h["term"]): h["editions"] for h in hits}

    long = editions(30)
    for limit in (1, 5):
        for key, held in editions(limit).items():
            assert key in long and held == long[key], (limit, key)


# A zone or keyword named with its kind is its glossary entry, then the section defining
# it: "command zone" found nine rules mentioning the command zone first, and no 408.
@pytest.mark.parametrize(
    "query, term, section",
    [("command zone", "Command", "408"), ("exile zone", "Exile", "406")],
)
def test_a_zone_named_with_its_kind_is_its_entry(engine, query, term, section):
    hits = _search(engine, query, limit=3, language="en").hits
    assert (hits[0].kind, hits[0].term) == ("glossary", term)
    assert hits[1].label == section


# A card type named with "cards" or "spells" is its entry, then its section (read in
# cr-en-2026-01-16.txt: 714 "Saga Cards", 310 "Battles"): before, "battle cards" opened with
# the entry Defense and "saga cards" with 714, the entry fourth. A kind of card that is an
# entry whole stays that entry (Split Cards, Prototype Card, Permanent Card).
@pytest.mark.parametrize(
    "query, term, section",
    [
        ("saga cards", "Saga", "714"),
        ("battle cards", "Battle", "310"),
        ("split cards", "Split Cards", "709"),
        ("prototype card", "Prototype Card", None),
        ("permanent card", "Permanent Card", None),
    ],
)
def test_a_card_type_named_with_cards_is_its_entry(engine, query, term, section):
    hits = _search(engine, query, limit=3, language="en").hits
    assert (hits[0].kind, hits[0].term) == ("glossary", term)
    if section:
        assert hits[1].label == section


# The game's own verbs are in no dictionary, so spaCy's tables lack their forms: a typed
# form whose regular base the texts hold goes to that base ("surveilling" found nothing,
# "scrying" ranked 615.12a first).
@pytest.mark.parametrize(
    "query, term",
    [
        ("scrying", "Scry"),
        ("surveilling", "Surveil"),
        ("amassed", "Amass"),
        ("connived", "Connive"),
    ],
)
def test_a_keyword_verbs_regular_forms_find_its_entry(engine, query, term):
    hits = _search(engine, query, limit=3).hits
    assert hits and hits[0].kind == "glossary" and hits[0].term == term
    assert not any(h.fuzzy for h in hits)


@pytest.mark.parametrize(
    "word, bases",
    [
        ("scrying", ["scry", "scrye"]),
        ("surveilling", ["surveill", "surveille", "surveil"]),
        ("scries", ["scry", "scri"]),
        ("amasses", ["amass"]),
        ("stack", []),  # no regular ending
        ("ing", []),  # too short to be a form
    ],
)
def test_guessed_bases_most_likely_first(word, bases):
    assert guessed_bases(word, "en") == bases
    assert guessed_bases(word, "fr") == []  # French: its tables list the forms


# The rules state a condition by its opposite ("The chosen creatures must be untapped"):
# a participle typed also finds its un- form, and a question whether something may be done
# prefers the rules that allow, forbid or require. Both were out of the top 10 before
# (509.1a is now 2nd, 508.1a 6th on the bundled corpus).
@pytest.mark.parametrize(
    "query, label",
    [
        ("can I block with a tapped creature", "509.1a"),
        ("can tapped creatures attack", "508.1a"),
    ],
)
def test_a_participle_finds_the_rule_stating_its_opposite(engine, query, label):
    hits = _search(engine, query, limit=10, language="en").hits
    assert label in [h.label for h in hits]


@pytest.mark.parametrize(
    "query, asking",
    [
        ("can a tapped creature block", True),
        ("may I respond to my own spell", True),
        ("do I have to reveal the card", True),
        ("am I allowed to count my opponent's library", True),
        ("does deathtouch need to deal combat damage", True),
        ("do counters stay when a permanent changes zones", False),
        ("what is a tapped creature", False),
        ("the player can choose", False),  # a statement, not a question opening with can
        ("", False),
    ],
)
def test_a_question_asks_whether_it_may_be_done(query, asking):
    assert asks_permission(parse_query(query).words if query else []) is asking


def test_a_long_question_counts_the_words_that_say_something(engine):
    """A judge's question of 41 words, 22 of them besides the small ones (held-out set 29;
    before: refused, "the search query has 41 words; give at most 32"). 208.2a: a
    characteristic-defining ability works in every zone."""
    question = (
        "My creature's power is equal to the number of cards in all graveyards. While it's "
        "still in my hand, does it count as having that power for an effect that wants a "
        "creature card with power 4 or more?"
    )
    assert len(fold_words(question)) == 41  # as the query counts them (creature s)
    assert "208.2a" in [h.label for h in _search(engine, question, limit=3).hits]


def test_nothing_found_is_not_an_error(engine):
    assert _search(engine, "zzzzqqqq xxxyyy").hits == []


def test_unknown_language_and_revision(engine):
    with pytest.raises(NotFoundError):
        _search(engine, "stack", language="xx")
    with pytest.raises(NotFoundError):
        _search(engine, "stack", as_of=99)


@pytest.mark.parametrize(("query", "why"), BAD_QUERIES, ids=[w for _q, w in BAD_QUERIES])
def test_bad_query_in_process(engine, query, why):
    with pytest.raises(QueryError):
        _search(engine, query)


@pytest.mark.parametrize(
    ("query", "why"), BAD_QUERIES[:10] + BAD_QUERIES[10:11], ids=[w for _q, w in BAD_QUERIES[:11]]
)
def test_bad_query_cli(corpus_db, query, why):
    proc = run_cli("search", query, db=corpus_db)
    assert proc.returncode == 2, why
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtgrules: error:"), proc.stderr
    assert "Traceback" not in proc.stderr + proc.stdout


# A power and toughness is no full-text operator, nor a minus an option: (argv after
# "search", the first hit's label, why). Read in cr-en-2026-01-16.txt.
MINUS_AND_STAR = [
    (["-1/-1", "counters"], "704.5q", "704.5q: a +1/+1 and a -1/-1 counter on one permanent"),
    (["--limit", "2", "-1/-1"], "704.5q", "options before the query, as click allows"),
    (["*/*"], None, "the star of a characteristic-defining ability: searched, not refused"),
    (["power", "is", "*"], "208.2", "a star alone: 208.2's star (*), not a prefix operator"),
    (["P/Tが*のクリーチャーってどう数えるの？"], None, "a star beside Japanese text"),
    (["공방이 *인 생물은 어떻게 계산함?"], None, "a star before a Korean particle"),
]


@pytest.mark.parametrize(("argv", "first", "why"), MINUS_AND_STAR)
def test_a_query_may_open_with_a_minus_or_hold_a_star(corpus_db, argv, first, why):
    proc = run_cli("search", *argv, "--json", db=corpus_db)
    assert proc.returncode == 0, (why, proc.stderr)
    hits = json.loads(proc.stdout)["hits"]
    if first is not None:
        assert hits[0]["label"] == first, why


@pytest.mark.parametrize(
    "argv", [["stack", "--limt", "3"], ["-x", "stack"], ["stack", "--langue=fr"]]
)
def test_a_mistyped_option_is_still_refused(corpus_db, argv):
    proc = run_cli("search", *argv, db=corpus_db)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "No such option" in lines[0], proc.stderr
    assert lines[0].endswith("(see: mtgrules search --help)"), lines[0]


def test_cli_json(corpus_db):
    proc = run_cli("search", "stack", "--limit", "3", "--json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["query"] == "stack"
    for hit in data["hits"]:
        assert {"edition", "language", "label", "text", "score", "fuzzy", "aligned"} <= set(hit)
        assert isinstance(hit["fuzzy"], bool)
        for a in hit["aligned"]:
            assert {"edition", "language", "label", "text"} <= set(a)


def test_cli_words_without_quotes_and_no_colour(corpus_db):
    proc = run_cli("search", "combat", "damage", "--limit", "2", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    assert "1. " in proc.stdout and "\x1b[" not in proc.stdout  # NO_COLOR (run_cli sets it)


def test_highlight_on_a_terminal(engine):
    out = render_search(_search(engine, "cout", language="fr", limit=2), colour=True)
    assert "\x1b[1;33mcoût\x1b[0m" in out
    assert "\x1b[" not in render_search(_search(engine, "cout", limit=2), colour=False)


@pytest.mark.parametrize(
    ("text_", "words", "found"),
    [
        ("Le coût total", ["cout"], ["coût"]),
        ("Stacks and stack", ["stack"], ["Stacks", "stack"]),
        ("进入堆疊的顶端", ["堆叠"], ["堆疊"]),
        ("nothing here", ["stack"], []),
    ],
)
def test_highlight_spans(text_, words, found):
    assert [text_[a:b] for a, b in highlight_spans(text_, words)] == found


def test_query_text_never_reaches_match_raw():
    words = fold_words('NEAR("a" b) OR c* 堆疊 coût')
    assert words == ["near", "a", "b", "or", "c", "堆叠", "cout"]
    match = fts_match([[w] for w in words])
    assert match.count('"') == 2 * len(words)
    assert "(" not in match and "*" not in match.replace('"*', "")
    assert "'堆' <-> '叠'" in pg_tsquery([["堆叠"]])


def test_index_form_spaces_han_and_folds():
    assert index_form("堆疊上的Coût") == " 堆 叠 上 的 cout"
    assert fold("Maná") == "mana"


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.text(max_size=60))
def test_random_queries_never_crash(engine, query):
    try:
        result = _search(engine, query, limit=5)
    except MtgRulesError as exc:  # QueryError, or NotFoundError for nothing else
        assert isinstance(exc, QueryError)
        return
    assert len(result.hits) <= 5
    render_search(result, colour=True)


@pytest.mark.sqlite_only
def test_fts_tables_are_not_schema_differences(engine):
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    from mtgrules.store.migrate import schema_differences
    from mtgrules.store.models import Base

    assert schema_differences(engine) == []
    # Without the filter, autogenerate would want to drop the index tables.
    with engine.connect() as conn:
        raw = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert any("search_" in str(d) for d in raw)


def test_old_store_gets_indexed_by_the_migration(store_copy):
    """A store made before 0003 (the index dropped by the downgrade) is indexed on upgrade."""
    from alembic import command

    from mtgrules.store.migrate import _foreign_keys_off, alembic_config

    eng = open_store(str(store_copy))
    before = _search(eng, "stack", limit=5).as_json()
    cfg = alembic_config(eng)
    # As mtgrules migrates: SQLite's batch rebuild of the alignment table (0004's downgrade)
    # needs foreign keys off while the store holds links (ingest stores them).
    with eng.connect() as conn, _foreign_keys_off(conn), conn.begin():
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0002")
    eng.dispose()
    eng = open_store(str(store_copy))  # migrates to head again
    assert _search(eng, "stack", limit=5).as_json() == before
    eng.dispose()


def test_noise_is_not_indexed(engine):
    """Every clause but noise is in the index (as a member of its text's group), and every
    group has its full-text row."""
    with session_scope(engine) as s:
        members = s.execute(text("SELECT count(*) FROM search_member")).scalar()
        noise = s.execute(
            text(
                "SELECT count(*) FROM search_member m JOIN clause c ON c.id = m.clause_id "
                "WHERE c.kind = 'noise'"
            )
        ).scalar()
        clauses = s.execute(text("SELECT count(*) FROM clause WHERE kind != 'noise'")).scalar()
        groups = s.execute(text("SELECT count(*) FROM search_group")).scalar()
        full_text = s.execute(
            text("SELECT count(*) FROM search_doc" if ON_PG else "SELECT count(*) FROM search_text")
        ).scalar()
    assert members == clauses and noise == 0
    assert full_text == groups and 0 < groups < clauses


def test_stored_aligner_links_come_first(store_copy):
    """Stored links decide what sits beside a hit: the forum's French 107.3f beside its own
    page's English (linked at ingest), and, once someone aligns it with 2026, beside 2026's
    107.3g, the same rule under its new number (the label alone would not say so)."""
    align = pytest.importorskip("mtgrules.align")
    from mtgrules.store.queries import find_edition, list_editions

    eng = open_store(str(store_copy))
    top = _search(eng, "pile", limit=3).hits[0]
    assert (top.language, top.edition) == ("fr", "fr-forum-fr-107.3")
    own = {a.edition: a for a in top.aligned}["en-forum-fr-107.3"]
    assert (own.via, own.label) == ("link", top.label)
    with session_scope(eng) as s:
        infos = list_editions(s)
        fr = find_edition(infos, "fr-forum-fr-107.3")
        en = find_edition(infos, "en-2026-01-16")
        align.align_editions(s, fr.id, en.id)
    result = _search(eng, "value of X is defined somewhere within its text", language="en")
    eng.dispose()
    hit = next(h for h in result.hits if h.edition == "en-2026-01-16")
    assert hit.label == "107.3g"
    french = next(a for a in hit.aligned if a.language == "fr")
    assert (french.label, french.via) == ("107.3f", "link")


# ASCII text takes a fast path in text/fold.py (no Unicode-class regex): the same words and
# tokens as the script patterns give, on real clause text and on query punctuation.
ASCII_TEXTS = [
    "702.19b The controller of an attacking creature with trample first assigns damage",
    "Ward [cost] means \u201cWhenever\u201d",  # not ASCII: the full patterns, as before
    "x_y {X} +1/+1 it's 107.3g",
    "",
]


@pytest.mark.parametrize("text", ASCII_TEXTS)
def test_ascii_words_are_the_script_patterns_words(text):
    folded = spell_power_toughness(fold(text))
    assert fold_words(text) == pattern("WORD").findall(folded)
    assert list(index_words(text)) == pattern("TOKEN").findall(index_form(text))


# A power and toughness is one word of the index and of a query (text/fold.py): its signs
# kept, and nothing taken for one inside a rule number, a mana symbol or a date.
POWER_TOUGHNESS = [
    ("a +1/+1 counter", ["a", "ptplus1byplus1", "counter"], "704.5q"),
    (
        "gets \u22121/\u22121 and \u20132/\u20132",
        ["gets", "ptminus1byminus1", "and", "ptminus2byminus2"],
        "the minus sign and the en dash are minus signs",
    ),
    ("a 2/2 black Zombie", ["a", "pt2by2", "black", "zombie"], "111.10d: unsigned"),
    ("a */* creature", ["a", "ptstarbystar", "creature"], "a characteristic-defining P/T"),
    ("gets +X/+0", ["gets", "ptplusxbyplus0"], "X folds to x"),
    ("\uff0b1/\uff0b1", ["ptplus1byplus1"], "full-width signs fold to ASCII"),
    (
        "\u751f\u7269\u5f97-5/-0\uff0c",
        ["\u751f\u7269\u5f97", "ptminus5byminus0"],
        "Han touching it",
    ),
    ("{W/U} hybrid", ["w", "u", "hybrid"], "a mana symbol is not one"),
    ("on 2/2/2026", ["on", "2", "2", "2026"], "nor a date"),
    ("rule 107.3/4", ["rule", "107", "3", "4"], "nor a rule number"),
    ("and/or", ["and", "or"], "words around a slash stay words"),
]


@pytest.mark.parametrize(("text", "words", "why"), POWER_TOUGHNESS)
def test_a_power_and_toughness_is_one_word(text, words, why):
    assert fold_words(text) == words, why
    assert [w for w in index_words(text) if w.startswith("pt")] == [
        w for w in words if w.startswith("pt")
    ], why


@pytest.mark.parametrize(
    ("words", "shown"),
    [
        (["ptminus1byminus1", "counter"], ["counter", "\u22121/\u22121", "counter"]),
        (["ptplus1byplus1"], ["+1/+1"]),
        (["pt1by1"], []),
    ],
)
def test_a_power_and_toughness_is_highlighted_as_printed(words, shown):
    text = "If a permanent has both a +1/+1 counter and a \u22121/\u22121 counter on it"
    assert [text[a:b] for a, b in highlight_spans(text, words)] == shown


# (query, options, the power and toughness every one of the first hits holds, how many)
POWER_TOUGHNESS_HITS = [
    ("-1/-1", {}, "-1/-1", 5),
    ("+1/+1 counter", {"language": "en"}, "+1/+1", 5),
    ("-1/-1 counters", {"language": "zh-Hans"}, "-1/-1", 3),
    ("2/2 Zombie token", {"language": "en"}, "2/2", 1),
]


@pytest.mark.parametrize(("query", "opts", "shown", "first"), POWER_TOUGHNESS_HITS)
def test_a_power_and_toughness_finds_texts_that_print_it(engine, query, opts, shown, first):
    hits = _search(engine, query, limit=first, **opts).hits
    assert len(hits) == first
    for h in hits:
        assert shown in f"{h.term or ''} {h.text}".replace("\u2212", "-"), (h.label, h.text)


def test_migration_0012_reindexes_power_and_toughness(store_copy):
    from alembic import command

    from mtgrules.store.migrate import alembic_config
    from mtgrules.store.search_index import has_power_toughness_text

    engine = open_store(str(store_copy))
    with engine.connect() as conn, conn.begin():
        assert has_power_toughness_text(conn)
        cfg = alembic_config(engine)
        cfg.attributes["connection"] = conn
        command.downgrade(cfg, "0011")
        # The index of 0011 read "-1/-1" as 1 and 1: emptied here, it must come back whole.
        conn.execute(text("DELETE FROM search_member"))
        command.upgrade(cfg, "0012")
    hits = _search(engine, "-1/-1", limit=2).hits
    engine.dispose()
    assert [h.label for h in hits] == ["704.5q", "122.3"]


@given(st.text(alphabet=string.printable, max_size=60))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_any_ascii_text_cuts_alike_on_both_paths(text):
    assert fold_words(text) == pattern("WORD").findall(spell_power_toughness(fold(text)))
    assert list(index_words(text)) == pattern("TOKEN").findall(index_form(text))


def test_the_script_patterns_compile_on_first_use():
    """Importing fold compiles none of the Han-block classes (8-13 ms each); an ASCII query's
    words need none; ``from fold import HAN`` still gives the compiled pattern."""
    code = (
        "from mtgrules.text import fold\n"
        "assert fold.pattern.cache_info().currsize == 0\n"
        "assert fold.fold_words('Stack of cards') == ['stack', 'of', 'cards']\n"
        "assert not fold.is_charwise('stack') and not fold.is_han('stack')\n"
        "assert fold.pattern.cache_info().currsize == 0\n"
        "from mtgrules.text.fold import HAN\n"
        "assert HAN.search('a\u5806') and fold.pattern.cache_info().currsize == 1\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
