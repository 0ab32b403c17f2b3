"""The shipped termbase's German, Italian, Portuguese and Russian columns: each form stands on
a public source quoted in mtgrules/data/termbase_sources.tsv (a rules translation, official
card text, a judges' page), and the concepts are found in those languages' sentences.

The sources were looked up, cell by cell, by helper sessions with the search tool over
stored public pages; a concept no source confirmed was left empty (German has no "zero",
none of the four has "instance" or "legal choice").
"""

from __future__ import annotations

import csv
import io

import pytest

from mtgrules.shipped import shipped_bytes
from mtgrules.termbase import find_terms, shipped_termbase
from mtgrules.text.fold import fold

SOURCED = ("de", "it", "pt", "ru")


def _sources() -> dict[tuple[str, str], tuple[str, str]]:
    rows = csv.DictReader(
        io.StringIO(shipped_bytes("termbase_sources.tsv").decode("utf-8")), delimiter="\t"
    )
    return {(r["concept"], r["language"]): (r["source"], r["quote"]) for r in rows}


def _cells() -> list[tuple[str, str, list[str]]]:
    tb = shipped_termbase()
    return [
        (concept, lang, tb.forms(concept, lang))
        for concept in tb.concepts
        for lang in SOURCED
        if tb.forms(concept, lang)
    ]


def test_every_new_column_has_most_concepts():
    tb = shipped_termbase()
    for lang in SOURCED:
        assert tb.column(lang) == lang
        filled = sum(1 for c in tb.concepts if tb.forms(c, lang))
        assert filled >= 35, f"{lang}: {filled} concepts"


@pytest.mark.parametrize(("concept", "language", "forms"), _cells())
def test_every_form_stands_on_a_quoted_source(concept, language, forms):
    source, quote = _sources()[(concept, language)]
    assert source.startswith("https://") or source.startswith("http://")
    assert 0 < len(quote) < 400
    assert any(fold(f) in fold(quote) for f in forms), (forms, quote)


def test_no_source_row_without_its_cell():
    cells = {(c, lang) for c, lang, _f in _cells()}
    assert set(_sources()) == cells


# (sentence from the quoted sources, language, concepts found): the real texts the forms were
# taken from are read as the aligner reads a clause
SENTENCES = [
    (
        "601.2 Einen Zauberspruch zu wirken bedeutet, ihn von dort zu nehmen, wo er sich "
        "befindet (normalerweise die Hand), auf den Stapel zu legen",
        "de",
        {"spell", "cast", "hand", "stack"},
    ),
    (
        "Para conjurar uma mágica deve-se pegá-la de onde quer que ela esteja (normalmente, na "
        "mão), colocá-la na pilha, e pagar seus custos",
        "pt",
        {"cast", "spell", "hand", "stack", "pay", "cost"},
    ),
    (
        "Пока это заклинание находится в стеке, игроки не могут разыгрывать заклинания",
        "ru",
        {"spell", "stack", "cast"},
    ),
    ("112.1 Una magia è una carta in pila.", "it", {"spell", "card", "stack"}),
]


@pytest.mark.parametrize(("text", "language", "concepts"), SENTENCES)
def test_the_new_columns_find_their_concepts(text, language, concepts):
    assert concepts <= set(find_terms(text, language))
