"""The stored lineage of each step of the official English line (issue 18: one history read
by trace, drift and the site alike).

At ingest (align/plan.py), each edition step (an official English edition and the one
before it) stores the ancestors of the clauses its pairs leave new, as an alignment of
kind "lineage" (align/storage.py). Each row below names the step's two editions, the
ancestor and the clause it became, each read by hand in corpus/corpus-extra:

- 310.2c of 2009-05-01 ("A blocked creature will assign combat damage, divided as its
  controller chooses, to the creatures blocking it. If no creatures are currently blocking
  it ...") is 510.1c of 2009-07-11 ("A blocked creature assigns its combat damage to the
  creatures blocking it. If no creatures are currently blocking it ..."), which the
  renumbering's pairs leave new (it was rewritten and grew by eight sentences);
- the glossary entry "X" of 2009-05-01 holds, as its sentence 3 (counting from 0), "If a card
  in any zone other than the stack has {X} in its mana cost, the value of {X} is treated as
  0, even if the value of X is defined somewhere within its text.", word for word 107.3f of
  2009-07-11; its 2006-02-01 version says "If a card in any other zone has {X} in its mana
  cost, the amount is treated as 0.";
- 100.5 of 2019-10-04 ("There is no maximum deck size.") is 100.5 of 2020-09-25 ("If a deck
  must contain at least a certain number of cards, that number is referred to as a minimum
  deck size. There is no maximum deck size for non-Commander decks."), rewritten in place.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

from mtgrules.align.storage import LINEAGE, lineage_rows, load_step_lineage
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import list_editions

from .conftest import run_cli

STEPS = [
    # (older, newer, ancestor's edition, ancestor, sentence starts with, the clause it became)
    ("en-2009-05-01", "en-2009-07-11", "en-2009-05-01", "310.2c", None, "510.1c"),
    (
        "en-2009-05-01",
        "en-2009-07-11",
        "en-2009-05-01",
        "glossary: X",
        "If a card in any zone other than the stack has {X} in its mana cost",
        "107.3f",
    ),
    (
        "en-2009-05-01",
        "en-2009-07-11",
        "en-2006-02-01",
        "glossary: X",
        "If a card in any other zone has {X} in its mana cost, the amount is treated as 0.",
        "107.3f",
    ),
    ("en-2019-10-04", "en-2020-09-25", "en-2019-10-04", "100.5", None, "100.5"),
]


def _step(session, older: str, newer: str):
    by_slug = {e.slug: e for e in list_editions(session)}
    rows = lineage_rows(session)
    a, b = by_slug[older], by_slug[newer]
    assert (a.id, b.id) in rows.current, (older, newer)
    labels = {}
    for e in (a, b):
        for cid, label in session.execute(
            text("SELECT id, label FROM clause WHERE edition_id = :e"),
            {"e": e.id},
        ):
            labels[cid] = label
    return by_slug, labels, load_step_lineage(session, rows.current[(a.id, b.id)])


@pytest.mark.parametrize(("older", "newer", "edition", "ancestor", "sentence", "became"), STEPS)
def test_a_step_stores_the_ancestors_of_what_it_leaves_new(
    corpus_session, older, newer, edition, ancestor, sentence, became
) -> None:
    by_slug, labels, ancestors = _step(corpus_session, older, newer)
    wanted = by_slug[edition].id
    found = [
        x
        for x in ancestors
        if x.edition == wanted
        and labels.get(x.target) == became
        and (x.label if x.kind == "rule" else f"glossary: {x.term}") == ancestor
    ]
    assert found, (older, newer, ancestor, became)
    if sentence is None:
        assert all(x.sentence is None for x in found)
    else:
        assert any(x.sentence is not None and x.text.startswith(sentence) for x in found)


def test_every_step_of_the_line_has_its_lineage_and_a_reingest_keeps_it(store_copy) -> None:
    engine = open_store(str(store_copy))
    try:
        with session_scope(engine, write=False) as s:
            before = lineage_rows(s)
            line = [e for e in list_editions(s) if e.language == "en" and e.kind == "rules"]
        assert before.complete
        # 17 steps between the 18 dated official English editions of the corpus.
        assert len(before.current) == len([e for e in line if e.date]) - 1 == 17
        assert not before.others
        run_cli("ingest", db=store_copy)  # unchanged files: nothing aligned, nothing stored
        with session_scope(engine, write=False) as s:
            after = lineage_rows(s)
        assert after.current == before.current
    finally:
        engine.dispose()


def test_removing_an_edition_inside_the_line_renews_the_lineage_after_it(store_copy) -> None:
    engine = open_store(str(store_copy))
    try:
        with session_scope(engine, write=False) as s:
            before = lineage_rows(s).current
        run_cli("remove", "en-2013-05-01", db=store_copy)
        with session_scope(engine, write=False) as s:
            by_slug = {e.slug: e.id for e in list_editions(s)}
            after = lineage_rows(s)
            kinds = {k for (k,) in s.execute(text("SELECT DISTINCT kind FROM alignment"))}
        assert LINEAGE in kinds
        assert after.complete
        # Steps before the removed edition keep their lineage; the step over the gap and
        # every step after it (their glossary chains changed) were stored again.
        assert (
            after.current[(by_slug["en-2009-07-11"], by_slug["en-2012-07-01"])]
            == before[(by_slug["en-2009-07-11"], by_slug["en-2012-07-01"])]
        )
        gap = (by_slug["en-2012-07-01"], by_slug["en-2014-09-25"])
        assert gap in after.current and gap not in before
        later = (by_slug["en-2025-11-14"], by_slug["en-2026-01-16"])
        assert after.current[later] != before[later]
    finally:
        engine.dispose()
