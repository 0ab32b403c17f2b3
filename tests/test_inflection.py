"""Game terms typed in a form the termbase does not list (mtgrules/search/inflection.py):
another case or number, a German compound. The forms it lists are in
mtgrules/data/termbase.tsv; each typed form below is checked not to be one of them."""

from __future__ import annotations

import pytest

from mtgrules.search.inflection import (
    compound_terms,
    derived_nouns,
    ie_verb_bases,
    inflected_terms,
    noun_stems,
)
from mtgrules.termbase import shipped_termbase
from mtgrules.text.fold import fold

# (typed, the (concept, language) pairs it is an inflected form of, why). Each typed form is
# one the termbase does not list; the forms it lists are in mtgrules/data/termbase.tsv.
INFLECTED = [
    ("Spielsteinen", {("token", "de")}, "German dative plural: Spielstein + en"),
    ("Bibliotheken", {("library", "de")}, "German plural: Bibliothek + en"),
    ("фишкой", {("token", "ru")}, "Russian instrumental: фишка, its -а replaced"),
    ("кладбищем", {("graveyard", "ru")}, "Russian instrumental: кладбище, its -е replaced"),
    ("Stapeln", {("stack", "de")}, "German dative plural: Stapel + n"),
    ("Spielers", {("player", "de")}, "German genitive: Spieler + s"),
    ("Kartoffel", set(), "no ending of any language leaves a form"),
    ("Karren", set(), "Karr + en is no form (Karte is card)"),
    ("Kar", set(), "too short a stem to compare"),
]


@pytest.mark.parametrize(("typed", "pairs", "why"), INFLECTED)
def test_an_inflected_form_finds_its_term(typed, pairs, why):
    termbase = shipped_termbase()
    assert not termbase.lookup(typed), "a listed form: no test of the endings"
    assert inflected_terms(termbase, fold(typed)) == pairs, why


# (typed, the terms it is compounded of, in order, why): German writes a compound as one word.
COMPOUNDS = [
    ("Kreaturenkarte", [("creature", "de"), ("card", "de")], "Kreaturen + Karte"),
    ("Friedhofskarten", [("graveyard", "de"), ("card", "de")], "Friedhof + s + Karten"),
    ("Kampfschaden", [("damage", "de")], "Kampf (combat) is no term of the termbase: the head"),
    ("Kartoffel", [], "no ending is a term"),
    ("Lebenspunkte", [], "neither Leben nor Punkte is a term of the termbase"),
]


@pytest.mark.parametrize(("typed", "terms", "why"), COMPOUNDS)
def test_a_compound_finds_its_terms(typed, terms, why):
    termbase = shipped_termbase()
    assert not termbase.lookup(typed), "a listed form: no test of compounding"
    assert compound_terms(termbase, fold(typed)) == terms, why


@pytest.mark.parametrize(
    ("word", "language", "stems"),
    [
        ("spielsteinen", "de", ["spielsteine", "spielstein"]),
        ("cimiteri", "it", ["cimiter"]),
        ("karten", "de-AT", ["karte", "kart"]),
        ("stack", "en", []),
    ],
)
def test_noun_stems(word, language, stems):
    assert noun_stems(word, language) == stems


@pytest.mark.parametrize(
    ("word", "bases"),
    [("dying", ["die"]), ("lying", ["lie"]), ("tying", ["tie"]), ("playing", []), ("ying", [])],
)
def test_an_english_verb_in_ie_takes_ying(word, bases):
    assert ie_verb_bases(word) == bases


@pytest.mark.parametrize(
    ("lemma", "held"),
    [
        ("resolve", "resolution"),
        ("regenerate", "regeneration"),
        ("declare", "declaration"),
        ("assign", "assignment"),
        ("destroy", "destruction"),
        ("prevent", "prevention"),
    ],
)
def test_an_english_verb_names_its_noun(lemma, held):
    assert held in derived_nouns(lemma)


@pytest.mark.parametrize("lemma", ["state", "cast", "play", "1/1", ""])
def test_a_short_verb_names_no_noun(lemma):
    # state: station, and the like; only the texts' words are kept by the caller.
    assert derived_nouns(lemma) == []
