"""Reports without a store: word diff, QA checks, TMX writer, escaping in HTML and Markdown."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mtgrules.reports import checks as qa
from mtgrules.reports import render_html, render_md
from mtgrules.reports.tmx import TmxSide, TmxUnit, write_tmx
from mtgrules.reports.worddiff import summarize, word_diff

# (old, new, the gist a historian should read)
WORD_CHANGES = [
    (
        "the player taking the special action as he or she pays that cost.",
        "the player taking the special action immediately before they pay that cost.",
        '"as he or she pays" -> "immediately before they pay"',
    ),
    (
        "When playing a spell with {X} in its cost",
        "When casting a spell with {X} in its cost",
        '"playing" -> "casting"',
    ),
    ("with an {X} or an X in it", "with an {X}, [-X], or X in it", '+", [-X],"; -"an"'),
    ("All instances of X", "Normally, all instances of X", '"All" -> "Normally, all"'),
    ("在任意時間點下", "在任意时间点下", '"時間點" -> "时间点"'),
]

# (source, target, target language, expected check names)
PAIR_CHECKS = [
    ("has an {X} in its mana cost", "tiene un {X} en su coste de maná", "es", []),
    ("has an {X}, [-X], or X in it", "包括了｛Ｘ｝，[-X]、或是X", "zh-Hant", []),
    ("has an {X}, [-X], or X in it", "tiene un {X} o X", "es", ["symbols"]),
    ("the only legal choice for X is 0.", "le seul choix légal pour X est 0.", "fr", []),
    ("the only legal choice for X is 0.", "le seul choix légal pour X est 1.", "fr", ["numbers"]),
    ("X的唯一合法选择是0", "X的唯一合法选择是零", "zh-Hans", []),
    ("See rule 601.", "Voir règle 601.", "fr", []),
    (
        "This is an exception to rule 107.3i.",
        "Esto es una excepción a la regla 107.3h.",
        "es",
        ["rule-references"],
    ),
    (
        "If a player casts a spell",
        "If a player casts a spell with its value",
        "fr",
        ["untranslated"],
    ),
    ("If a player casts a spell", "If a player casts a spell", "zh-Hans", ["untranslated"]),
    # The Japanese quotes a term's English wording beside its own: translated (107.1c of
    # ja-2026-01-16, 701.49 of the same, 614.1e of ko-2020-09-25).
    (
        'If a rule or ability instructs a player to choose "any number," that player may choose '
        "any positive number or zero.",
        "ルールや能力がプレイヤーに「望む数／any number」を選ばせる場合、そのプレイヤーは、"
        "0以上の任意の整数を選ぶことができる。",
        "ja",
        ["numbers"],  # "zero" written 0: a warning, not "untranslated"
    ),
    ("Venture into the Dungeon", "ダンジョン探索／Venture into the Dungeon", "ja", []),
    (
        'An effect that reads "As [this permanent] is turned face up . . . ," is a replacement '
        "effect.",
        '"[이 지속물]이 앞면으로 뒤집히면서, ~"("As [this permanent] is turned face up ~")라는 '
        "효과는 대체 효과입니다.",
        "ko",
        [],
    ),
    # 702.21d, left in English in ko-2016-09-30.
    (
        "All creatures in an attacking band must attack the same player or planeswalker.",
        "All creatures in an attacking band must attack the same player or planeswalker.",
        "ko",
        ["untranslated"],
    ),
    # A section cited by its number alone is a reference, written each language's way
    # (100.1b: "section 8", 第8章, 8절, and the mtgwiki Japanese's "rule 8").
    ('See section 8, "Multiplayer Rules."', "参见第8章，“多人游戏规则”。", "zh-Hans", []),
    ('See section 8, "Multiplayer Rules."', '8절 "Multiplayer Rules."을 보세요.', "ko", []),
    ('See section 8, "Multiplayer Rules."', "rule 8〔多人数戦ルール〕参照。", "ja", []),
    # ... but "4장" counts cards, it cites no section (100.4a of ko-2020-09-25).
    (
        "The four-card limit applies.",
        "4장 룰은 덱과 사이드보드를 합쳐서 적용합니다.",
        "ko",
        ["numbers"],
    ),
]


@pytest.mark.parametrize(("old", "new", "gist"), WORD_CHANGES)
def test_word_diff_names_the_change(old: str, new: str, gist: str) -> None:
    assert summarize(word_diff(old, new)) == gist


@given(st.text(max_size=60), st.text(max_size=60))
def test_word_diff_loses_no_text(a: str, b: str) -> None:
    ops = word_diff(a, b)
    assert "".join(op["a"] for op in ops) == a
    assert "".join(op["b"] for op in ops) == b


@pytest.mark.parametrize(("source", "target", "lang", "expected"), PAIR_CHECKS)
def test_pair_checks(source: str, target: str, lang: str, expected: list[str]) -> None:
    found = [
        name for _, name, _ in qa.check_pair(source, target, source_lang="en", target_lang=lang)
    ]
    assert found == expected


@pytest.mark.parametrize(
    ("source", "target", "severity"),
    [
        ("contains two level symbols", "包含2个等级符号", "warning"),  # "two" written 2
        ("contains two level symbols", "包含3个等级符号", "error"),
        ("has an {X}, [-X], or X", "tiene un {X} o X", "error"),  # a symbol lost
        ("the value of {X} is {X}", "其{X}的值", "warning"),  # same symbols, fewer times
        # Japanese counts with digits where English has words (ja-2026-01-16; each target
        # is that file's clause, cut short).
        ("may contain no more than fifteen cards.", "最大15枚のカードを使用できる。", "warning"),
        ("Doubling a creature's power", "クリーチャーのパワーを2倍にすることは", "warning"),
        (
            "a game that begins with more than two players.",  # 100.1b: three or more
            "3人以上のプレイヤーで開始されるゲームのことである。",
            "warning",
        ),
        (
            "pay an amount of life greater than 0",  # 119.4: one or more
            "1点以上の量のライフを支払うことを認める場合",
            "warning",
        ),
        ("may contain no more than fifteen cards.", "最大14枚のカードを使用できる。", "error"),
        ("pay an amount of life greater than 0", "2点以上の量のライフを", "error"),
        # Korean (kormtgcr ko-2019-10-04 against en-2019-10-04, cut short): "sixty" and "four"
        # written 60 and 4 (100.2a), and a translator's note in brackets whose 54 is not the
        # rule's (719.3; its "seven" is 7).
        (
            "each deck must contain at least sixty cards. A constructed deck may contain "
            "no more than four of any card",
            "각각의 덱은 최소한 60장이어야 합니다. 같은 이름(영문판 기준)이 4장을 초과해서는 안됩니다.",
            "warning",
        ),
        (
            "Because each player draws seven cards when the new game begins, any player",
            "게임을 시작할 때 7장의 카드를 뽑기 때문에, 플레이어의 서고에 "
            "(번역자 주-대표적으로 카른으로 54장을 추방하고 재시작한 경우)",
            "warning",
        ),
        (  # the same number outside a note is one the rule does not have
            "Because each player draws seven cards when the new game begins, any player",
            "게임을 시작할 때 7장의 카드를 뽑기 때문에, 카른으로 54장을 추방하고",
            "error",
        ),
        # A section reference the translator added is not a number the rule lacks (100.3).
        (
            "Some casual variants require additional items, such as specially designated cards.",
            "カジュアル変種ルールには、そのためにデザインされたカードを必要とするものがある。"
            "rule 9〔カジュアル変種ルール〕参照。",
            None,
        ),
    ],
)
def test_check_severities(source: str, target: str, severity: str | None) -> None:
    lang = "zh-Hans" if any("\u4e00" <= ch <= "\u9fff" for ch in target) else "es"
    lang = "ja" if re.search("[\u3040-\u30ff]", target) else lang
    lang = "ko" if re.search("[가-힣]", target) else lang
    found = qa.check_pair(source, target, source_lang="en", target_lang=lang)
    assert [sev for sev, _, _ in found] == ([severity] if severity else [])


@pytest.mark.parametrize(
    ("text", "flags", "kind", "expected"),
    [
        ("with an or an X in it", ["lost-symbol"], "rule", "lost-text"),
        ("contenant un ou un X, et", [], "rule", "lost-text"),
        ("這時常常被問到的問題", [], "commentary", "commentary"),
        ("Si un sort (N.d.T. : traduction libre) est lancé", [], "rule", "commentary"),
        # kormtgcr and mtgwiki notes (ko-2019-10-04 117.7, ja-2026-01-16 122.3), cut short
        ("쌓입니다. (번역자 주-흔히 '스택 쌓고'라고 하지요)", [], "rule", "commentary"),
        ("置く。(訳注：両方が同数である場合、その両方を全て取り除く。)", [], "rule", "commentary"),
        ("역주행하는 것은 아니다", [], "rule", None),  # 역주 inside a word is no marker
        ("with an {X} or an X in it", [], "rule", None),
    ],
)
def test_clause_checks(text: str, flags: list[str], kind: str, expected: str | None) -> None:
    found = [name for _, name, _ in qa.check_clause(text, flags, kind)]
    assert found == ([expected] if expected else [])


def test_follows_wording_picks_the_version_with_the_cognates() -> None:
    old = "the value of X is chosen by the player taking the special action as he or she pays that cost."
    new = "the value of X is chosen by the player taking the special action immediately before they pay that cost."
    es = "el valor de X lo elige el jugador que realiza la acción especial inmediatamente antes de pagar ese coste."
    assert qa.follows_wording(es, [old, new]) == 1


def _unit(text: str) -> TmxUnit:
    return TmxUnit(
        key="107.3a",
        source=TmxSide("en", text, "107.3a", "en-2026-01-16", "2026-01-16", "cr-en-2026-01-16"),
        target=TmxSide("fr", 'Si <b> & "X"', "107.3a", "fr-forum-fr-107.3", None, "forum"),
        score=0.9,
    )


def test_tmx_is_well_formed_1_4_with_props() -> None:
    doc = write_tmx([_unit("If <script>alert(1)</script> & {X}")], "en")
    root = ET.fromstring(doc.encode("utf-8"))
    assert root.tag == "tmx" and root.get("version") == "1.4"
    assert root.find("header").get("srclang") == "en"
    tu = root.find("body/tu")
    assert tu.find("prop[@type='x-rule']").text == "107.3a"
    tuvs = tu.findall("tuv")
    lang = "{http://www.w3.org/XML/1998/namespace}lang"
    assert [t.get(lang) for t in tuvs] == ["en", "fr"]
    assert tuvs[0].find("prop[@type='x-edition-date']").text == "2026-01-16"
    assert tuvs[0].find("seg").text == "If <script>alert(1)</script> & {X}"
    # TMX 1.4: a tuv's props come before its seg
    assert [c.tag for c in tuvs[0]][-1] == "seg"
    assert "<script>" not in doc


HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _fake_drift() -> dict:
    return {
        "rule": "107.3",
        "reference": 1,
        "editions": [
            {
                "id": 1,
                "slug": "en-new",
                "language": "en",
                "kind": "rules",
                "date": "2026-01-16",
                "source": "a",
            },
            {
                "id": 2,
                "slug": "en-old",
                "language": "en",
                "kind": "rules",
                "date": "2009-07-11",
                "source": HOSTILE,
            },
        ],
        "rows": [
            {
                "key": "107.3a",
                "text": "Normally " + HOSTILE,
                "cells": {"1": "107.3a", "2": "107.3a"},
                "texts": {"1": "Normally " + HOSTILE, "2": "All " + HOSTILE},
            },
            {
                "key": "107.3b",
                "text": HOSTILE,
                "cells": {"1": "107.3b", "2": None},
                "texts": {"1": HOSTILE},
            },
        ],
        "extra_rows": [],
        "missing": {"2": ["107.3b"]},
        "renumbered": [],
        "checks": [
            {"edition": 2, "key": "107.3a", "severity": "error", "check": "x", "message": HOSTILE}
        ],
        "summary": {
            "editions_lacking": 1,
            "clauses_missing": 1,
            "renumbered": 0,
            "errors": 1,
            "warnings": 0,
        },
    }


def test_html_escapes_all_rule_text() -> None:
    page = render_html.render_rule_drift(_fake_drift())
    assert "<script" not in page and "<img" not in page
    assert "&lt;script&gt;" in page
    assert "default-src 'none'" in page  # and a CSP forbids scripts anyway
    assert "<ins>Normally</ins>" in page or "<del>All</del>" in page


def test_markdown_escapes_rule_text() -> None:
    out = render_md.render_rule_drift(_fake_drift())
    assert "<script" not in out and "&lt;script&gt;" in out
