"""Identical text is never mispaired (issue 18): real edition pairs of the bundled corpus, each
row naming its two editions and the pair a historian reads in the raw files.

Every expected pair was checked by reading both files (corpus/corpus-extra/cr-en-*.txt):
- 2009: Reach, Shadow and Horsemanship moved from 502 to 702 with their "b" subrules word for
  word, only their rule references rewritten ("rule 309" -> "rule 509"). 505.6's first
  paragraph is 708.6a word for word (its other two became 708.6b and 708.6c), and 606.7a's
  first three sentences are 806.7a.
- 2018: "The Monarch" was inserted as 717, so "Restarting the Game" 717 became 718 and
  "Subgames" 718 became 719; their x.3 rules differ from each other by three words and each
  kept its text but for "his or her" -> "their".
- 2016: Transform's 701.25a ("Only permanents represented by double-faced cards can
  transform...") moved out of Transform, unchanged, to 711.5 under Double-Faced Cards.
- 2025: Transform 701.28a became 701.27a, and Convert 701.50a became 701.28a (its text the
  same but for the rules it cites). Their d rules ("...and the face that permanent would
  transform [convert] into is ... an instant or sorcery ... face, nothing happens") moved
  with them, 701.28d to 701.27d and 701.50d to 701.28d; each also reads like 712.10
  ("...transform or convert a permanent..."), which is 2023's 712.10 reworded.
- 2023: 2022-11-18's 712.15 ("...the player may name either face of a double-faced card but
  not both.") and 713.12 ("...may choose the name of a front face of a meld card or the
  combined back face of a meld pair.") are the two sentences of 2023's 712.19, when the meld
  rules (713) joined the double-faced cards' (712). 2023's 701.19j ("...search outside the
  game for a card...") is a new rule.
The aligner is run in memory (nothing stored), as ingest runs it.
"""

from __future__ import annotations

import pytest

from mtgrules.align.edition import compute_edition_alignment
from mtgrules.store.queries import find_edition, list_editions

PAIRS = [
    ("en-2009-05-01", "en-2009-07-11", "502.70b", "702.15b"),
    ("en-2009-05-01", "en-2009-07-11", "502.8b", "702.25b"),
    ("en-2009-05-01", "en-2009-07-11", "502.17b", "702.28b"),
    ("en-2009-05-01", "en-2009-07-11", "505.6", "708.6a"),
    ("en-2009-05-01", "en-2009-07-11", "606.7a", "806.7a"),
    ("en-2016-09-30", "en-2018-10-05", "717.3", "718.3"),
    ("en-2016-09-30", "en-2018-10-05", "718.3", "719.3"),
    ("en-2015-01-23", "en-2016-09-30", "701.25a", "711.5"),
    ("en-2023-11-17", "en-2025-11-14", "701.28a", "701.27a"),
    ("en-2023-11-17", "en-2025-11-14", "701.50a", "701.28a"),
    ("en-2023-11-17", "en-2025-11-14", "701.28d", "701.27d"),
    ("en-2023-11-17", "en-2025-11-14", "701.50d", "701.28d"),
    ("en-2022-11-18", "en-2023-11-17", "713.12", "712.19"),
    ("en-2022-11-18", "en-2023-11-17", "712.15", "712.19"),
]
# Labels the same clauses must not be paired with: where the old aligner sent them.
NOT_PAIRED = [
    ("en-2009-05-01", "en-2009-07-11", "606.7a", "806.7b"),
    ("en-2009-05-01", "en-2009-07-11", "502.70b", "702.11b"),  # Intimidate, new in M10
    ("en-2023-11-17", "en-2025-11-14", "701.28a", "701.28a"),  # Transform is not Convert
    ("en-2023-11-17", "en-2025-11-14", "701.28d", "701.28d"),
    ("en-2023-11-17", "en-2025-11-14", "701.50d", "701.27d"),
    ("en-2022-11-18", "en-2023-11-17", "713.12", "701.19j"),  # searching outside the game
]

_cache: dict[tuple[str, str], object] = {}


def _aligned(session, a: str, b: str):
    if (a, b) not in _cache:
        infos = list_editions(session)
        _cache[(a, b)] = compute_edition_alignment(
            session, find_edition(infos, a), find_edition(infos, b)
        )
    return _cache[(a, b)]


def _partners(result, label: str) -> list[tuple[str | None, str]]:
    return [
        (p.b.label, p.kind)
        for p in result.pairs
        if p.a is not None and p.b is not None and p.a.label == label and p.a.kind == "rule"
    ]


@pytest.mark.parametrize(("a", "b", "old", "new"), PAIRS)
def test_the_same_text_is_paired(corpus_session, a: str, b: str, old: str, new: str) -> None:
    partners = _partners(_aligned(corpus_session, a, b), old)
    assert new in [label for label, _ in partners], f"{a} {old} went to {partners}"
    # The continuation comes first: a split names its opening part before the others.
    assert partners[0][0] == new


@pytest.mark.parametrize(("a", "b", "old", "wrong"), NOT_PAIRED)
def test_a_neighbour_is_not_taken_for_it(corpus_session, a, b, old, wrong) -> None:
    partners = [label for label, _ in _partners(_aligned(corpus_session, a, b), old)]
    assert wrong not in partners


# (older, newer, clause, the clauses it was split into, the continuation first)
SPLITS = [
    ("en-2009-05-01", "en-2009-07-11", "505.6", ["708.6a", "708.6b", "708.6c"]),
]


@pytest.mark.parametrize(("a", "b", "old", "parts"), SPLITS)
def test_a_split_names_all_its_parts(corpus_session, a, b, old, parts) -> None:
    partners = _partners(_aligned(corpus_session, a, b), old)
    assert partners == [(label, "split") for label in parts]


def test_a_merge_of_rules_far_apart_names_both(corpus_session) -> None:
    result = _aligned(corpus_session, "en-2022-11-18", "en-2023-11-17")
    merged = sorted(
        p.a.label
        for p in result.pairs
        if p.a and p.b and p.b.label == "712.19" and p.b.kind == "rule"
    )
    assert merged == ["712.15", "713.12"]
