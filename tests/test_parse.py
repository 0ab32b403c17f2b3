"""The parser on the real corpus: each seed's editions and clauses, every full edition's rules.

Expected values were read off the source files by hand (see the comments), not taken
from the parser's output.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from pathlib import Path

import pytest

from mtgrules.sources.pipeline import parse_document
from mtgrules.text.labels import split_labelled_line

from .conftest import EXTRA, SEEDS, SHARED

FULL_EDITIONS = sorted(EXTRA.glob("*.txt"))

# file -> (language, in-text effective date), as printed on the file's third line.
FULL_EDITION_FACTS = {
    "cr-en-2006-02-01.txt": ("en", "2006-02-01"),
    "cr-en-2009-05-01.txt": ("en", "2009-05-01"),
    "cr-en-2009-07-11.txt": ("en", "2009-07-11"),
    "cr-en-2013-05-01.txt": ("en", "2013-05-01"),  # file name said 2013-04-29 upstream
    "cr-en-2014-09-25.txt": ("en", "2014-09-25"),  # Windows-1252
    "cr-en-2016-09-30.txt": ("en", "2016-09-30"),  # UTF-16 LE
    "cr-en-2020-09-25.txt": ("en", "2020-09-25"),  # bare CR line endings
    "cr-en-2022-11-18.txt": ("en", "2022-11-18"),  # UTF-16 BE + bare CR
    "cr-en-2023-11-17.zh-repo-resave.txt": ("en", "2023-11-17"),
    "cr-zh-2022-06-10.txt": ("zh-Hans", "2022-06-10"),
    "cr-zh-2026-01-16.txt": ("zh-Hans", "2026-01-16"),
}

# 107.3's subrules per edition, from SOURCES.md's scan of the files and checked by eye.
SUBRULES_107_3 = {
    "cr-en-2009-07-11.txt": "abcdefgh",
    "cr-en-2014-09-25.txt": "abcdefgh",
    "cr-en-2015-01-23.txt": "abcdefghi",
    "cr-en-2018-10-05.txt": "abcdefghijk",
    "cr-en-2019-10-04.txt": "abcdefghijkm",
    "cr-en-2020-09-25.txt": "abcdefghijkmn",
    "cr-en-2026-01-16.txt": "abcdefghijkmnp",
    "cr-zh-2026-01-16.txt": "abcdefghijkmnp",
}


def independent_decode(data: bytes) -> str:
    """Decoding written apart from mtgrules.sources.decode, so the two check each other."""
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            return data.decode(codec)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("cp1252")


# A rule line: a label at the start, then a dot, a space or glued non-ASCII text. Three
# lines in the 2006 and 2009 files split the label with a stray space ("606. 8b Players").
RULE_LINE = re.compile(r"^\s*(?:\d{3}\.\d+[a-z]?(?:\.|\s|[^\x00-\x7f])|\d{3}\. \d+[a-z] )")


def count_rule_lines(path: Path) -> int:
    return sum(
        1 for ln in independent_decode(path.read_bytes()).splitlines() if RULE_LINE.match(ln)
    )


def parse(path: Path):
    return parse_document(path, path.read_bytes())


@pytest.mark.parametrize("path", FULL_EDITIONS, ids=lambda p: p.name)
def test_every_rule_line_becomes_one_rule(path: Path):
    doc = parse(path)
    assert len(doc.editions) == 1
    assert doc.editions[0].rule_count == count_rule_lines(path)


@pytest.mark.parametrize("name,facts", FULL_EDITION_FACTS.items())
def test_full_edition_language_and_date(name, facts):
    (edition,) = parse(EXTRA / name).editions
    assert (edition.language, edition.date.isoformat()) == facts
    assert edition.kind == "rules"


@pytest.mark.parametrize("path", FULL_EDITIONS, ids=lambda p: p.name)
def test_table_of_contents_gives_no_rules_and_glossary_is_parsed(path: Path):
    (edition,) = parse(path).editions
    toc = [c for c in edition.clauses if "table-of-contents" in c.flags]
    assert toc, "the contents were not recognised"
    assert all(c.kind == "noise" for c in toc)
    first_rule = next(c for c in edition.clauses if c.kind == "rule")
    assert first_rule.label == "100.1"
    assert all(c.line < first_rule.line for c in toc)
    glossary = [c for c in edition.clauses if c.kind == "glossary"]
    assert len(glossary) > 300
    # No glossary entry may swallow the credits.
    assert not any("Richard Garfield" in c.raw for c in glossary)


@pytest.mark.parametrize("name,letters", SUBRULES_107_3.items())
def test_subrules_of_107_3(name, letters):
    (edition,) = parse(EXTRA / name).editions
    got = [
        c.label
        for c in edition.clauses
        if c.kind == "rule" and c.label and c.label.startswith("107.3") and len(c.label) == 6
    ]
    assert got == [f"107.3{ch}" for ch in letters]


@pytest.mark.parametrize(
    "line,expected",
    [
        ("107.3a If a spell", ("107.3a", "If a spell")),
        ("107.3. Many objects", ("107.3", "Many objects")),
        ("901.4.All plane and phenomenon cards", ("901.4", "All plane and phenomenon cards")),
        ("100.6b牌手可以使用", ("100.6b", "牌手可以使用")),
        ("609.6 In the Teams variant", ("609.6", "In the Teams variant")),
        ("104.3c The symbols {X}", ("104.3c", "The symbols {X}")),
        ("107. Numbers and Symbols", None),  # a section heading, not a rule
        ("2006.10 was a year", None),
        ("107.3", None),
    ],
)
def test_split_labelled_line(line, expected):
    assert split_labelled_line(line) == expected


def test_old_numbering_has_104_3c_as_the_x_rule():
    (edition,) = parse(EXTRA / "cr-en-2006-10-01.txt").editions
    rule = next(c for c in edition.clauses if c.label == "104.3c")
    assert "{X}" in rule.raw
    assert not any(c.label == "107.3" for c in edition.clauses)


def test_examples_belong_to_their_rule():
    (edition,) = parse(EXTRA / "cr-en-2026-01-16.txt").editions
    clauses = edition.clauses
    for i, c in enumerate(clauses):
        if c.kind == "example":
            owner = next(p for p in reversed(clauses[:i]) if p.kind == "rule")
            assert c.parent == owner.label
            assert c.raw.startswith("Example")


def test_label_split_by_a_stray_space_is_a_flagged_rule():
    (edition,) = parse(EXTRA / "cr-en-2009-07-11.txt").editions
    storm = next(c for c in edition.clauses if c.label == "702.37a")
    assert storm.kind == "rule" and "broken-label" in storm.flags
    assert storm.raw.startswith("Storm is a triggered ability")
    assert not any(c.kind == "heading" and c.raw.startswith("37a") for c in edition.clauses)


def test_community_chinese_duplicate_label_is_kept_twice():
    """zh-Hans 2022-06-10 labels its 701.42b (surveil: looking at additional cards) as a second
    701.42a; both are kept, in order, with the label as written."""
    (edition,) = parse(EXTRA / "cr-zh-2022-06-10.txt").editions
    labels = [c.label for c in edition.clauses if c.kind == "rule"]
    duplicates = sorted({lab for lab in labels if labels.count(lab) > 1})
    assert duplicates == ["701.42a"]
    first, second = (c for c in edition.clauses if c.label == "701.42a")
    assert first.raw.startswith("“刺探N”意指") and second.raw.startswith("如果某效应允许你在刺探时")
    assert "701.42b" not in labels


# --- the seeds -----------------------------------------------------------------------------

SEED_FR = SEEDS / "000_0b7a9445b617ebdb.txt"
SEED_ES = SEEDS / "001_6b17ef9efd2fae21.txt"
SEED_BILINGUAL = SEEDS / "002_459ebb4253cf071c.txt"
SEED_GLOSSARY = SEEDS / "003_d4b01747a11831e4.txt"
A_TO_H = ["107.3"] + [f"107.3{ch}" for ch in "abcdefgh"]


def rules_of(edition):
    return [c for c in edition.clauses if c.kind == "rule"]


def test_forum_post_holds_a_french_and_an_english_edition():
    fr, en = parse(SEED_FR).editions
    assert (fr.language, en.language) == ("fr", "en")
    assert [c.label for c in rules_of(fr)] == A_TO_H
    assert [c.label for c in rules_of(en)] == A_TO_H
    # The poster's own explanation: six paragraphs of prose before the quote, never rules.
    commentary = [c for c in fr.clauses if c.kind == "commentary"]
    assert len(commentary) == 6
    assert commentary[0].raw.startswith("Il s'agit d'une variable")
    assert not any("Brasier" in c.raw for c in rules_of(fr))
    assert fr.date is None and en.date is None


def test_forum_post_flags_lost_mana_symbols_without_repairing_them():
    fr, en = parse(SEED_FR).editions
    en_a = next(c for c in en.clauses if c.label == "107.3a")
    assert "with an or an X in it" in en_a.raw
    assert "lost-symbol" in en_a.flags
    fr_a = next(c for c in fr.clauses if c.label == "107.3a")
    assert "un ou un X" in fr_a.raw and "lost-symbol" in fr_a.flags
    en_g = next(c for c in en.clauses if c.label == "107.3g")
    assert "lost-symbol" not in en_g.flags  # "All instances of X ..." lost nothing


def test_spanish_page_keeps_fourteen_unlabelled_subrules_in_order():
    (es,) = parse(SEED_ES).editions
    assert es.language == "es"
    rules = rules_of(es)
    assert rules[0].label == "107.3" and rules[0].raw.startswith("Muchos objetos")
    subrules = rules[1:]
    assert len(subrules) == 14
    assert all(c.label is None and c.parent == "107.3" for c in subrules)
    assert subrules[0].raw.startswith("Si un hechizo o una habilidad activada tiene un coste")
    assert subrules[-1].raw.startswith("Algunos objetos usan la letra Y")
    headings = [c.raw for c in es.clauses if c.kind == "heading"]
    assert headings == ["Regla 107.3 · Números y símbolos", "Subreglas"]


def test_bilingual_page_splits_english_and_traditional_chinese():
    en, zh = parse(SEED_BILINGUAL).editions
    assert (en.language, zh.language) == ("en", "zh-Hant")
    assert [c.label for c in rules_of(en)] == A_TO_H
    assert [c.label for c in rules_of(zh)] == A_TO_H
    assert all(c.label_inferred for c in rules_of(zh))
    assert rules_of(zh)[0].raw.startswith("許多物件會使用字母X")
    notes = [c for c in zh.clauses if c.kind == "commentary"]
    # The page author's notes after 107.3b, 107.3e and 107.3f.
    assert [n.parent for n in notes] == ["107.3b", "107.3e", "107.3f"]
    usernames = [c.raw for c in zh.clauses + en.clauses if "username" in c.flags]
    assert usernames == [
        "izzy806",
        "andulkaphoto",
        "amandla",
        "titsay",
        "stormborns",
        "blakekathryn",
        "ellievsbear",
    ]
    assert not any(u in c.raw for c in rules_of(en) + rules_of(zh) for u in usernames)


def test_2006_glossary_page():
    (gl,) = parse(SEED_GLOSSARY).editions
    assert (gl.language, gl.kind, gl.date) == ("en", "glossary", dt.date(2006, 10, 1))
    entries = [c for c in gl.clauses if c.kind == "glossary"]
    assert [e.term for e in entries] == ["X", "Y, Z", "You, Your", "Zone", "Zone-Change Triggers"]
    x = entries[0]
    assert x.raw.count("\n") == 2  # three definition paragraphs
    assert "409" in x.refs
    assert entries[1].raw == "See X." and "see:X" in entries[1].refs
    noise = [c for c in gl.clauses if c.kind == "noise"]
    assert any("obfuscated-email" in c.flags for c in noise)
    assert any("html-entity" in c.flags for c in noise)
    assert not any("Garfield" in e.raw or "Wizards" in e.raw for e in entries)


# The 2021-06-09 archive text prints 11 glossary terms glued to their first sense
# ("Archenemy1. A casual variant ...", then "2. A player in an Archenemy game ..."): read in
# cr-archive/txt/2021-06-09.txt, lines 5862-5863. Unglued, each is its term, as on the
# other editions.
GLUED_TERMS = [
    "Ability", "Ante", "Archenemy", "Draw", "Exile", "Face Down", "Face Up", "Graveyard",
    "Hand", "Library", "Loyalty",
]  # fmt: skip


def test_a_term_glued_to_its_first_sense_is_unglued():
    path = SHARED / "cr-archive" / "txt" / "2021-06-09.txt"
    if not path.exists():
        pytest.skip(f"{path} is not on this machine")
    (edition,) = parse(path).editions
    entries = {c.term: c for c in edition.clauses if c.kind == "glossary"}
    assert set(GLUED_TERMS) <= set(entries)
    assert not [t for t in entries if re.search(r"\d\.", t)]
    archenemy = entries["Archenemy"].raw.split("\n")
    assert archenemy[0].startswith("1. A casual variant in which a team of players")
    assert archenemy[1].startswith("2. A player in an Archenemy game")
