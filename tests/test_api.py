"""The Python API (mtgrules.api): the objects a historian gets in a notebook, on the real corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

import mtgrules.api as mr
from mtgrules.reports.diff import DiffReport
from mtgrules.reports.drift import EditionDrift, RuleDrift
from mtgrules.reports.trace import Trace
from mtgrules.search.results import SearchResult


@pytest.fixture
def store(corpus_db):
    with mr.open_store(corpus_db) as s:
        yield s


def test_editions_and_one_edition(store: mr.Store) -> None:
    editions = store.editions()
    slugs = [e.slug for e in editions]
    assert "en-2026-01-16" in slugs and "zh-Hans-2022-06-10" in slugs
    newest = store.edition("en-2026-01-16")
    assert newest.language == "en" and newest.date == "2026-01-16" and newest.rules > 3000


def test_trace_gives_the_x_clause_line_as_objects(store: mr.Store) -> None:
    trace = store.trace("107.3g")
    assert isinstance(trace, Trace)
    # Today's 107.3g ("If a card in any zone other than the stack has an {X} in its mana
    # cost...") was 107.3f in 2009-07-11 (checked by hand in corpus-extra).
    labels = [s.label for s in trace.english if s.track == "rule"]
    assert "107.3g" in labels and "107.3f" in labels
    assert trace.as_json()["clause"] == "107.3g"


def test_diff_lists_changes_with_word_diffs(store: mr.Store) -> None:
    report = store.diff("en-2019-10-04", "en-2020-09-25", rule="107.3")
    assert isinstance(report, DiffReport)
    moved = {(c.from_label, c.to_label) for c in report.changes if c.kind == "renumbered"}
    # 2020 inserted a subrule in 107.3, so the later ones moved one letter (checked by hand
    # in corpus-extra: 2019's 107.3m "Some objects use the letter Y..." is 2020's 107.3n).
    assert ("107.3m", "107.3n") in moved
    assert report.as_json()["renumbered"] == [
        {"from": c.from_label, "to": c.to_label} for c in report.changes if c.kind == "renumbered"
    ]
    assert report.as_json()["renumbering"]["renumbered"] == len(moved)


def test_drift_of_a_rule_and_of_an_edition(store: mr.Store) -> None:
    rule = store.drift("107.3")
    assert isinstance(rule, RuleDrift) and rule.rows[0].key.startswith("107.3")
    whole = store.drift(edition="fr-forum-fr-107.3")
    assert isinstance(whole, EditionDrift)
    assert whole.edition.slug == "fr-forum-fr-107.3" and whole.reference.language == "en"


def test_search_returns_hits_with_their_translations(store: mr.Store) -> None:
    result = store.search("mana cost", limit=5)
    assert isinstance(result, SearchResult) and result.hits
    assert all(
        "mana" in (h.text + (h.term or "")).lower() for h in result.hits if h.language == "en"
    )


def test_errors_are_mtgrules_errors(store: mr.Store) -> None:
    with pytest.raises(mr.NotFoundError, match="mtgrules editions"):
        store.edition("en-1999-01-01")
    with pytest.raises(mr.QueryError):
        store.trace("not a rule")


def test_update_of_a_translation(store: mr.Store) -> None:
    from mtgrules.reports.update import UpdateReport

    report = store.update("zh-Hans-2025-11-14", to="en-2026-01-16")
    assert isinstance(report, UpdateReport)
    assert report.source.edition.slug == "en-2025-11-14"
    assert {i.status for i in report.clauses} >= {"unchanged", "changed", "new", "renumbered"}


def test_cite_checks_the_numbers_files_cite(store: mr.Store) -> None:
    fixtures = Path(__file__).parent / "fixtures" / "cite"
    report = store.cite(fixtures / "partner.rs")
    assert report.written_for.edition.slug == "en-2025-11-14" and report.written_for.inferred
    assert [(c.cited, c.status, c.now) for c in report.citations][:3] == [
        ("702.124m", "renumbered", "702.124k"),
        ("702.124n", "renumbered", "702.124m"),
        ("702.124p", "renumbered", "702.124n"),
    ]
    assert report.summary.statuses["removed"] == 1 and report.has_differences()
    assert report.as_json()["target"]["slug"] == report.target.slug
