"""What an ingest's alignments reuse instead of computing again (issue 22): the editions and
items a plan reads more than once, each label's ancestors, the serialized evidence of the
commonest links. Each must give what computing afresh gives."""

from __future__ import annotations

import json

import pytest

from mtgrules.align.edition import ClauseCache, compute_edition_alignment, edition_info
from mtgrules.align.sequence import _ancestors, _descendants
from mtgrules.align.storage import _evidence_encoder
from mtgrules.store.queries import list_editions


@pytest.mark.parametrize(
    ("label", "ancestors"),
    [
        ("107.3a", ("107.3", "107")),
        ("107.3", ("107",)),
        ("107", ()),
        ("702.19g", ("702.19", "702")),
    ],
)
def test_a_labels_ancestors(label, ancestors):
    assert _ancestors(label) == ancestors


@pytest.mark.parametrize(
    "evidence",
    [
        [],
        [{"feature": "text", "value": 1.0, "exact": True}],
        # Equal to the exact text's evidence under ==, serialized otherwise.
        [{"feature": "text", "value": 1, "exact": True}],
        [{"feature": "text", "value": 1.0, "exact": 1}],
        [
            {"feature": "text", "value": 1.0, "exact": True},
            {"feature": "order", "value": "crossing"},
        ],
        [
            {"feature": "text", "value": 0.995},
            {"feature": "identical", "value": "rule references aside"},
        ],
        [{"feature": "rule-refs", "value": ["107.3", "601.2"]}],
    ],
)
def test_link_evidence_is_serialized_as_json_dumps_does(evidence):
    assert _evidence_encoder(json.dumps)(evidence) == json.dumps(evidence)


def _by_slug(session):
    return {e.slug: e for e in list_editions(session)}


def test_an_edition_still_wanted_is_kept_past_the_bound(corpus_session):
    infos = _by_slug(corpus_session)
    english = sorted(
        s for s in infos if s.startswith("en-20") and "-" in s[3:] and s[3:7] >= "2012"
    )
    keep, others = infos[english[0]].id, [infos[s].id for s in english[1:4]]
    cache = ClauseCache(editions=2)
    cache.expect([keep, *others, keep])
    first = cache.clauses(corpus_session, keep)
    for e in others:
        cache.clauses(corpus_session, e)
    # Read again after three other editions with room for two: the same list, not a re-read.
    assert cache.clauses(corpus_session, keep) is first
    # No longer wanted: it goes like any other once the bound is passed.
    for e in others:
        cache.clauses(corpus_session, e)
    assert cache.clauses(corpus_session, keep) is not first


def test_cached_items_follow_the_clauses_they_were_made_from(corpus_session):
    info = _by_slug(corpus_session)["en-2026-01-16"]
    cache = ClauseCache()
    clauses = cache.clauses(corpus_session, info.id)
    items = cache.items(info.id, info.language, clauses)
    assert [x.key for x in items] == clauses
    assert cache.items(info.id, info.language, clauses) is items
    fewer = clauses[1:]
    assert [x.key for x in cache.items(info.id, info.language, fewer)] == fewer


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("en-2025-11-14", "en-2026-01-16"),  # whole editions: the aligner's steps as they are
        ("en-2026-01-16", "zh-Hans-2026-01-16"),  # glossary entries paired by kept terms
        ("en-2026-01-16", "en-page-en-zh-107.3"),  # a fragment: the rest unpaired
    ],
)
def test_an_alignment_with_a_shared_cache_is_the_one_without(corpus_session, old, new):
    infos = _by_slug(corpus_session)
    a, b = (edition_info(corpus_session, infos[s].id) for s in (old, new))
    cache = ClauseCache()
    cache.expect([a.id, b.id, a.id, b.id])
    fresh = compute_edition_alignment(corpus_session, a, b)
    for _ in range(2):  # the second time from the cached clauses and items
        cached = compute_edition_alignment(corpus_session, a, b, cache=cache)
        assert [
            (p.a and p.a.id, p.b and p.b.id, p.kind, p.score, p.evidence) for p in cached.pairs
        ] == [(p.a and p.a.id, p.b and p.b.id, p.kind, p.score, p.evidence) for p in fresh.pairs]
        assert cached.stats == fresh.stats


def test_descendants_hold_every_labelled_clause_under_each_ancestor(corpus_session):
    info = _by_slug(corpus_session)["en-2026-01-16"]
    cache = ClauseCache()
    items = cache.items(info.id, info.language, cache.clauses(corpus_session, info.id))
    under = _descendants(items)
    subrules = [k for k, x in enumerate(items) if x.label and x.label.startswith("107.3")]
    assert under["107.3"] == [k for k in subrules if items[k].label != "107.3"]
    assert set(under["107.3"]) < set(under["107"])
