"""Which English a translation was made from, found by its content and stored at ingest
(align/dating.py, align/scope.py, align/choice.py), and the update report of a partial
translation (reports/update.py).

The real material: chapter 1 cut from each Korean translation of ../shared/translations
(2016, 2018, 2019, 2020), without its date line, ingested into a store that holds only
en-2026-01-16: the English each was made from must be found among the 110 editions of the
packed archive, taken from it, and stored with the choice.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mtgrules.align.scope import Scope, covered_scope

from .conftest import EXTRA, TRANSLATIONS, run_cli

needs_translations = pytest.mark.skipif(
    not (TRANSLATIONS / "ko-2020-09-25.kormtgcr.txt").exists(),
    reason="needs ../shared/translations",
)

# --- scope: what a partial translation covers -----------------------------------------------

ENGLISH = [
    "100.1", "100.1a", "101.1", "101.2", "102.1", "103.1", "107.1", "107.2", "107.3",
    "107.3a", "107.3b", "107.4", "107.5", "108.1", "108.2", "702.1", "702.2", "702.2a",
    "702.3", "723.1", "723.2",
]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expect"),
    [
        # A page on 107.3: that rule and its subrules, not section 107.
        (["107.3", "107.3a", None], Scope(False, [], [], ["107.3"])),
        # Most rules of section 107: the section.
        (["107.1", "107.2", "107.3", "107.4"], Scope(False, [], ["107"], [])),
        # Rules in most sections of chapter 1: the chapter (and a rule of chapter 7).
        (["100.1", "101.1", "102.1", "107.1", "702.2"], Scope(False, ["1"], [], ["702.2"])),
        # Every chapter: a whole translation.
        (["100.1", "101.1", "102.1", "107.1", "702.1", "702.2", "723.1"], Scope(True)),
    ],
)
def test_what_a_partial_translation_covers(text, expect) -> None:
    assert covered_scope(text, ENGLISH) == expect


def test_scope_holds_what_was_added_inside_it() -> None:
    chapter = Scope(False, ["1"], [], [])
    assert chapter.holds("123.1") and chapter.holds("107.16a") and not chapter.holds("702.1")
    rule = Scope(False, [], [], ["107.3"])
    assert rule.holds("107.3n") and not rule.holds("107.16") and not rule.holds("107.30")


def test_scope_follows_a_renumbered_section() -> None:
    """2023's section 723 (Restarting the Game) is 2026's 726."""
    scope = Scope(False, [], ["723"], [])
    moved = scope.follow([("723.1", "726.1"), ("723.2", "726.2"), ("723.3", "723.3")])
    assert moved.sections == ["726"]


# --- a chapter of a real translation, undated ----------------------------------------------


def cut_chapter_1(source: Path, out: Path) -> Path:
    """Chapter 1 of a Korean translation, from its heading "1. ..." after the table of
    contents to the heading of chapter 2: no title, no date line."""
    data = source.read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp949")  # the 2016 file
    lines = text.replace("\r\n", "\n").split("\n")
    first_rule = next(i for i, line in enumerate(lines) if line.startswith("100.1"))
    head = max(i for i in range(first_rule) if re.match(r"^1\. ", lines[i]))
    end = next(i for i in range(first_rule, len(lines)) if re.match(r"^2\. ", lines[i]))
    chapter = "\n".join(lines[head:end]).rstrip() + "\n"
    assert "시행됩니다" not in chapter  # the date line stays behind
    out.write_text(chapter, encoding="utf-8")
    return out


# (the Korean file, the dates of chapter 1 editions nothing in the translation tells apart,
# the English chosen). Checked by hand on the raw files: within each range chapter 1 differs
# only in wording without a number or a reference (2016-11-11: "his or her" -> "their";
# 2018-08-10: three typos; 2020-11-20: 121.8 reworded); the editions just outside add or
# drop a rule or change a reference (2016-09-30 adds 107.14 and cites 701.13 where 2016-08-26
# cites 701.12; 2019-10-04 and 2020-01-24: 111.10c Gold tokens). Of a tie, the oldest is
# chosen (every change since is then reported): right for 2016 and 2020, one edition early
# for 2018.
CHAPTERS = [
    ("ko-2016-09-30.kormtgcr.txt", ["2016-09-30", "2017-01-20"], "en-2016-09-30"),
    ("ko-2018-08-10.kormtgcr.txt", ["2018-07-13", "2018-08-10"], "en-2018-07-13"),
    ("ko-2019-10-04.kormtgcr.txt", ["2019-10-04", "2019-10-04"], "en-2019-10-04"),
    ("ko-2020-09-25.kormtgcr.txt", ["2020-09-25", "2020-11-20"], "en-2020-09-25"),
]


@pytest.fixture(scope="module")
def chapters_store(tmp_path_factory):
    """A store with en-2026-01-16 and the four chapters, ingested together."""
    folder = tmp_path_factory.mktemp("chapters")
    db = folder / "store.sqlite"
    # Named without a date: nothing but the text may date them.
    files = [
        cut_chapter_1(TRANSLATIONS / name, folder / f"chapter1-{name[3:7]}.txt")
        for name, *_ in CHAPTERS
    ]
    r = run_cli("ingest", "--json", str(EXTRA / "cr-en-2026-01-16.txt"), *map(str, files), db=db)
    assert r.returncode == 0, r.stderr
    return db, json.loads(r.stdout)


@needs_translations
@pytest.mark.parametrize(("name", "span", "english"), CHAPTERS, ids=[c[0][:13] for c in CHAPTERS])
def test_an_undated_chapter_finds_its_english_in_the_archive(chapters_store, name, span, english):
    db, ingest = chapters_store
    slug = f"ko-chapter1-{name[3:7]}"
    chosen = next(s for s in ingest["sources"] if s["edition"] == slug)
    assert chosen["how"] == "best-fit" and f"{english} (from the English archive" in chosen["why"]
    assert "in chapter 1" in chosen["why"]
    taken = {f["date"] for f in ingest["from_archive"]}
    assert english.removeprefix("en-") in taken
    dating = json.loads(run_cli("align", "--date", slug, "--json", db=db).stdout)
    assert dating["range"] == span
    assert dating["stored"] == ingest["revision"]  # read back, not worked out again
    assert dating["scope"]["chapters"] == ["1"] and not dating["scope"]["whole"]
    update = json.loads(run_cli("update", slug, "--format", "json", db=db).stdout)
    assert (update["source"]["slug"], update["source"]["how"]) == (english, "best-fit")


@needs_translations
def test_a_chapter_is_brought_up_to_date_on_all_of_chapter_1(chapters_store):
    """The 2020 chapter against en-2026-01-16: section 123 (Stickers) and rules 107.16-107.18
    were added to chapter 1 since, so they are new; nothing of chapter 7 is; the Korean
    prints 101.4d and 120.4c twice, and their second rules are 101.4e and 120.4d."""
    db, _ = chapters_store
    update = json.loads(run_cli("update", "ko-chapter1-2020", "--format", "json", db=db).stdout)
    missing = {m["label"] for m in update["missing"] if m["kind"] == "rule"}
    assert {"123.1", "123.9", "107.16", "107.16a", "107.17", "107.18"} <= missing
    assert all(label.startswith("1") for label in missing)
    assert update["scope"] == {
        "whole": False, "chapters": ["1"], "sections": [], "rules": [], "covers": "chapter 1"
    }  # fmt: skip
    mislabels = {(m["label"], m["expected"]) for m in update["defects"]["mislabels"]}
    assert mislabels == {("101.4d", "101.4e"), ("120.4c", "120.4d")}
    assert update["defects"]["duplicate_labels"] == ["101.4d", "120.4c"]
    text = run_cli("update", "ko-chapter1-2020", db=db).stdout
    assert "It covers chapter 1" in text


@needs_translations
def test_nothing_is_dated_again_by_the_next_ingest(chapters_store):
    db, _ = chapters_store
    again = json.loads(
        run_cli("ingest", "--json", str(EXTRA / "cr-en-2026-01-16.txt"), db=db).stdout
    )
    assert again["revision"] is None and "sources" not in again


@needs_translations
def test_a_best_fit_gives_way_to_the_english_of_its_date(tmp_path):
    """zh-Hans-2026-02-27 is newer than the archive: its best fit is en-2026-01-16; once
    en-2026-02-27 is ingested, the next ingest chooses it (same date) and aligns the two."""
    db = tmp_path / "s.sqlite"
    first = run_cli(
        "ingest", "--json", str(TRANSLATIONS / "zh-Hans-2026-02-27.helium.txt"),
        str(EXTRA / "cr-en-2026-01-16.txt"), db=db,
    )  # fmt: skip
    assert first.returncode == 0, first.stderr
    [chosen] = json.loads(first.stdout)["sources"]
    assert chosen["how"] == "best-fit" and "en-2026-01-16 is used" in chosen["why"]
    second = run_cli("ingest", "--json", str(TRANSLATIONS / "en-2026-02-27.android.txt"), db=db)
    assert second.returncode == 0, second.stderr
    out = json.loads(second.stdout)
    assert out["sources"] == [
        {
            "edition": "zh-Hans-2026-02-27",
            "how": "same-date",
            "why": "en-2026-02-27 is the official English of the same date",
        }
    ]
    assert ("en-2026-02-27", "zh-Hans-2026-02-27", "same-date") in {
        (p["a"], p["b"], p["why"]) for p in out["alignments"]["aligned"]
    }
