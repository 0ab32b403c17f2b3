"""Unit tests of the aligner's parts: features, termbase, the DP. No store needed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mtgrules.align.dp import align_monotonic
from mtgrules.align.features import featurize, similarity
from mtgrules.termbase import find_terms

# (text, language, symbols expected, refs expected)
SYMBOLS = [
    ("has an {X}, [-X], or X in it", "en", {"{X}": 1, "[-X]": 1}, {}),
    ("包括了｛Ｘ｝，[-X]、或是X", "zh-Hant", {"{X}": 1, "[-X]": 1}, {}),
    ("the only legal choice for X is 0. See rule 601", "en", {"#0": 1}, {"601": 1}),
    ("Esto es una excepción a la regla 107.3i.", "es", {}, {"107.3i": 1}),
]
# (text, language, concepts that must be found)
TERMS = [
    (
        "If a spell or activated ability has a mana cost",
        "en",
        {"spell", "activated ability", "mana cost"},
    ),
    (
        "Si un sort ou une capacité activée a un coût de mana",
        "fr",
        {"spell", "activated ability", "mana cost"},
    ),
    (
        "Si un hechizo o una habilidad activada tiene un coste de maná",
        "es",
        {"spell", "activated ability", "mana cost"},
    ),
    (
        "如果一个咒语或起动式异能所具有的法术力费用",
        "zh-Hans",
        {"spell", "activated ability", "mana cost"},
    ),
    (
        "如果一個咒語或起動式異能，其魔法力費用",
        "zh-Hant",
        {"spell", "activated ability", "mana cost"},
    ),
]
# pairs that state the same rule score above pairs that do not
RANKED = [
    (
        ("Toutes les occurrences de X sur un objet ont la même valeur à un instant donné.", "fr"),
        ("All instances of X on an object have the same value at any given time.", "en"),
        ("Some objects use the letter Y in addition to the letter X. Y follows the same rules as X.", "en"),
    ),
    (
        ("有些物件除了字只X外還會使用字母Y。Y的定義規則與X相同。", "zh-Hant"),
        ("一些物件上除了会使用字母X以外还会额外使用字母Y。Y遵循于X相同的规则。", "zh-Hans"),
        ("通常而言，物件上所有X的数值在任何时间均相等。", "zh-Hans"),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("text", "language", "symbols", "refs"), SYMBOLS)
def test_symbols_and_rule_references(text, language, symbols, refs):
    f = featurize(text, language)
    assert dict(f.symbols) == symbols
    assert dict(f.refs) == refs


@pytest.mark.parametrize(("text", "language", "concepts"), TERMS)
def test_termbase_finds_the_same_concepts_in_every_language(text, language, concepts):
    found = set(find_terms(text, language))
    assert concepts <= found
    # longest form first: "mana cost" is not also counted as "mana"
    assert "mana" not in found


@pytest.mark.parametrize(("source", "same", "other"), RANKED)
def test_the_translation_scores_above_a_neighbour(source, same, other):
    a = featurize(*source)
    right, _ = similarity(a, featurize(*same))
    wrong, _ = similarity(a, featurize(*other))
    assert right > wrong


def test_every_score_comes_with_evidence():
    a = featurize("Si une carte dans n'importe quelle autre zone que la pile a un {X}", "fr")
    b = featurize("If a card in any zone other than the stack has an {X} in its mana cost", "en")
    score, evidence = similarity(a, b)
    assert 0 < score <= 1
    assert {e["feature"] for e in evidence} >= {"symbols", "terms", "cognates", "length"}


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 7),
    st.integers(0, 7),
    st.lists(st.floats(0, 1), min_size=64, max_size=64),
)
def test_dp_uses_every_item_once_and_keeps_order(n, m, values):
    def score(ia, ib):
        return values[(ia[0] * 8 + ib[0]) % 64], []

    steps = align_monotonic(n, m, score)
    assert sorted(i for s in steps for i in s.a) == list(range(n))
    assert sorted(j for s in steps for j in s.b) == list(range(m))
    paired = [s for s in steps if s.a and s.b and not s.crossing]
    for x, y in zip(paired, paired[1:], strict=False):
        assert max(x.a) < min(y.a) and max(x.b) < min(y.b)


def test_dp_pairs_identical_sequences_one_to_one():
    steps = align_monotonic(5, 5, lambda ia, ib: (1.0 if ia == ib else 0.1, []))
    assert [(s.a, s.b) for s in steps] == [((k,), (k,)) for k in range(5)]


def test_dp_finds_a_split():
    # b1 and b2 each read half of a0; together they read all of it
    def score(ia, ib):
        return (0.95 if ib == (0, 1) else 0.5), []

    steps = align_monotonic(1, 2, score)
    assert [(s.a, s.b) for s in steps] == [((0,), (0, 1))]
