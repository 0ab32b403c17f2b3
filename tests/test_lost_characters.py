"""Typography a plain-text file lost is not rewording (issue 18, item 4), end to end: the
RTF's special characters, and the real changes seen through a copy that lost its quotes.
(The lost-character rule itself is tabled in test_typography.py.)

The archive's 2008-05-01 and 2009-05-01 .txt files were converted to ASCII with "?" for every
character the conversion could not hold: curly quotes ("can?t", "?Equip?"), em dashes
("cards?even", "Creature ? Goblin Wizard"), the registered sign ("DCI?"). Another copy of
2008-05-01 (corpus-extra, from another archive) kept ASCII quotes and dashes. A 2006 .txt
lost one letter as U+FFFD ("El-Hajj\ufffdj"), where the RTF of that date has "\u00e2".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import SHARED, run_cli

ARCHIVE = SHARED / "cr-archive"
EXTRA = SHARED / "corpus-extra"


def _diff(db, a: str, b: str) -> dict:
    proc = run_cli("--db", str(db), "diff", a, b, "--format", "json")
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _real(*paths: Path) -> list[str]:
    for path in paths:
        if not path.is_file():
            pytest.skip(f"{path} is not on this machine (the shared archive)")
    return [str(p) for p in paths]


def test_two_copies_of_2008_05_01_differ_only_in_lost_characters(new_store) -> None:
    """The archive's copy (with "?") and corpus-extra's (with ASCII quotes): 1,173 clauses
    differed as "reworded"; every one is "?" for a quote, a dash or a sign."""
    files = _real(ARCHIVE / "txt" / "2008-02-01.txt", ARCHIVE / "txt" / "2008-05-01.txt")
    files += _real(EXTRA / "cr-en-2008-05-01.txt")
    proc = run_cli("--db", str(new_store), "ingest", *files)
    assert proc.returncode == 0, proc.stderr
    # 1: 2008-02-01; 2: the archive's 2008-05-01, superseded by 3, corpus-extra's.
    copies = _diff(new_store, "1", "2"), _diff(new_store, "1", "3")
    between = _diff(new_store, "2", "3")["summary"]
    assert between["changed"] == 0 and between["notation"] > 1000, between

    # From the edition before, both copies show the same real changes: the "?" of one of
    # them changes none.
    def real_changes(report: dict) -> set:
        return {
            (c["kind"], c["from"], c["to"]) for c in report["changes"] if c["kind"] != "notation"
        }

    assert real_changes(copies[0]) == real_changes(copies[1])
    assert copies[0]["summary"]["changed"] == copies[1]["summary"]["changed"] > 0


def test_rtf_and_txt_of_2006_10_01_say_the_same_words(new_store) -> None:
    """The RTF's \\emdash, \\rquote... are the characters they name (sources/rtf.py); its
    .txt writes them in ASCII: the one clause reworded is the one where the .txt lost a
    letter ("El-Hajj\ufffdj"), flagged as damage at ingest."""
    files = _real(ARCHIVE / "rtf" / "2006-10-01.rtf", EXTRA / "cr-en-2006-10-01.txt")
    proc = run_cli("--db", str(new_store), "ingest", *files)
    assert proc.returncode == 0, proc.stderr
    report = _diff(new_store, "1", "2")
    summary = report["summary"]
    assert summary["changed"] == 1 and summary["notation"] > 1000, summary
    (changed,) = [c for c in report["changes"] if c["kind"] == "changed"]
    assert changed["clause_kind"] == "glossary"
    assert changed["a_text"].replace("\u00e2", "\ufffd") == changed["b_text"]
