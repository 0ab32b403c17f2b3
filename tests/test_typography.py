"""Typography is not rewording (issue 18): a "?" standing where the other copy of a text has a
dash or a quote is damage in the plain-text file, and diff shows it as notation.

The archive's 2008-05-01.txt was saved through a code page without curly quotes and dashes: it
writes "object?s", "?Fading N?" and "Artifact ? Equipment" where the corpus's copy of the same
edition (corpus-extra/cr-en-2008-05-01.txt) writes "object's", "\"Fading N\"" and keeps "?"
only for its long dashes ("Basic Land ? Mountain"). The excerpts below are those files'
lines (read with grep -n on both), folded as diff compares them (text.normalize.fold_notation).
"""

from __future__ import annotations

import json

import pytest

from mtgrules.archive import read_files
from mtgrules.text.normalize import fold_notation
from mtgrules.text.notation import lost_characters

from .conftest import EXTRA, run_cli

# (the damaged text, the other copy, is the only difference a lost character?)
LOST = [
    # 212.1b of 2008-05-01: an apostrophe
    ("When an object?s card type changes", "When an object's card type changes", True),
    # 502.20a: quotation marks on both sides of a phrase
    ("?Fading N? means ?This permanent", '"Fading N" means "This permanent', True),
    # 212.2c: the long dash, spaced, and the closing quote after a full stop
    ("dash: ?Artifact ? Equipment.? Artifact", 'dash: "Artifact -- Equipment." Artifact', True),
    # both copies lost the dash, only one the quotes (the corpus copy of 2008-05-01, 393)
    ("Example: ?Basic Land ? Mountain? means", 'Example: "Basic Land ? Mountain" means', True),
    # 100.5: the registered sign, "(R)" in one file
    ("Magic: The Gathering DCI? Floor Rules", "Magic: The Gathering DCI(R) Floor Rules", True),
    # a question mark where the other has a full stop or a word is a real difference
    ("Is it a creature?", "Is it a creature.", False),
    ("the card?s owner", "the cards owner", False),
    ("cards?even a card", "cards, even a card", False),
    # no lost mark at all: a real change, however small
    ("he or she", "they", False),
    ("same text", "same text", False),
]


@pytest.mark.parametrize(("damaged", "other", "lost"), LOST)
def test_a_lost_character_is_told_from_a_change(damaged: str, other: str, lost: bool) -> None:
    a, b = fold_notation(damaged), fold_notation(other)
    assert lost_characters(a, b) is lost
    assert lost_characters(b, a) is lost  # whichever side lost it


def test_the_two_copies_of_2008_05_01_differ_only_in_notation(tmp_path) -> None:
    """The archive's damaged .txt and the corpus's copy of the same edition: every clause
    they differ in is the same words (1,173 of them: all notation, none reworded)."""
    archive = tmp_path / "archive-2008-05-01.txt"
    archive.write_bytes(read_files(["2008-05-01.txt"])["2008-05-01.txt"])
    db = tmp_path / "s.sqlite"
    ids = []
    for path in (archive, EXTRA / "cr-en-2008-05-01.txt"):
        proc = run_cli("ingest", str(path), "--json", db=db)
        assert proc.returncode == 0, proc.stderr
        # The second file is another version of that edition, which it replaces.
        (edition,) = json.loads(run_cli("editions", "--json", db=db).stdout)
        ids.append(edition["id"])
    assert ids[0] != ids[1]
    proc = run_cli("diff", str(ids[0]), str(ids[1]), "--format", "json", db=db)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["summary"]["changed"] == 0
    assert report["summary"]["notation"] > 1000
    assert all(c["gist"].startswith("damage: ") for c in report["changes"])
