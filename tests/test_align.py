"""The aligner on the bundled corpus: rule 107.3 against the hand-checked gold, whole
editions, dating, and the `align` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mtgrules.align import align_editions, align_rule
from mtgrules.align.evaluate import load_rule_gold, score_editions, score_rule
from mtgrules.align.reference import date_edition
from mtgrules.store import session_scope
from mtgrules.store.queries import find_edition, list_editions, rule_clauses

from .conftest import run_cli

GOLD = Path(__file__).parent / "gold"

# (edition slug, expected first date, expected last date) for "which edition is this?"
DATING = [
    ("en-forum-fr-107.3", "2009-07-11", "2009-07-11"),
    # Against the archive too: 2009-07-11 lacks "[-X]" in 107.3a and 107.3c, 2015-01-23
    # inserts a new 107.3g; the editions between read the same (checked on the raw files).
    ("en-page-en-zh-107.3", "2009-09-04", "2014-09-25"),
    ("es-page-es-107.3", "2022-06-10", "2026-01-16"),
    ("en-2006-10-01-glossary", "2006-10-01", "2006-10-01"),
]
# (old edition, old label, today's group key): renumbering across editions
RENUMBERED = [
    ("en-2009-07-11", "107.3h", "107.3p"),
    ("en-2009-07-11", "107.3g", "107.3i"),
    ("en-2009-07-11", "107.3e", "107.3f"),
    ("en-2018-10-05", "107.3k", "107.3p"),
    ("en-2020-09-25", "107.3n", "107.3p"),
]
SPANISH_LABELS = "107.3a 107.3b 107.3c 107.3d 107.3e 107.3f 107.3g 107.3h 107.3i 107.3j 107.3k 107.3m 107.3n 107.3p"


@pytest.fixture(scope="module")
def rule_107_3(corpus_db):
    from mtgrules.store import open_store

    engine = open_store(str(corpus_db))
    with session_scope(engine) as s:
        result = align_rule(s, "107.3", store=False)  # corpus_db is read-only
        infos = list_editions(s)
        score, errors = score_rule(s, result, load_rule_gold(GOLD / "align_107_3.tsv"))
        every = {c.id for e in result.editions for c in rule_clauses(s, e.id, "107.3")}
    engine.dispose()
    return result, infos, score, errors, every


def test_107_3_matches_the_gold_exactly(rule_107_3):
    _, _, score, errors, _ = rule_107_3
    assert errors == []
    assert score.f1 == 1.0


def test_every_clause_is_in_exactly_one_group(rule_107_3):
    result, _, _, _, every = rule_107_3
    seen = [m.clause_id for g in result.groups for m in g.members if m.sentence is None]
    rule_members = [c for c in seen if c in every]
    assert sorted(rule_members) == sorted(every)
    assert len(rule_members) == len(set(rule_members))


@pytest.mark.parametrize(("slug", "label", "key"), RENUMBERED)
def test_renumbered_clauses_join_their_group(rule_107_3, slug, label, key):
    result, infos, *_ = rule_107_3
    edition = find_edition(infos, slug).id
    (group,) = [
        g for g in result.groups for m in g.members if m.edition == edition and m.label == label
    ]
    assert group.key == key


def test_spanish_paragraphs_get_labels_from_the_english(rule_107_3):
    result, infos, *_ = rule_107_3
    es = find_edition(infos, "es-page-es-107.3").id
    members = sorted(
        (m for g in result.groups for m in g.members if m.edition == es and m.kind == "rule"),
        key=lambda m: m.clause_id,
    )
    inferred = [m for m in members if m.label_inferred]
    assert " ".join(m.label for m in inferred) == SPANISH_LABELS  # no l, no o
    assert all(0.5 < m.score <= 1.0 and m.evidence for m in inferred)


def test_glossary_sentences_link_to_todays_subrules(rule_107_3):
    result, infos, *_ = rule_107_3
    glossary = find_edition(infos, "en-2006-10-01-glossary").id
    keys = {m.text[:40]: g.key for g in result.groups for m in g.members if m.edition == glossary}
    assert keys["All Xs on an object have the same value."] == "107.3i"
    assert keys["If a card in any other zone has {X} in i"] == "107.3g"
    assert not any(t.startswith("See rule") for t in keys)


@pytest.mark.parametrize(("slug", "first", "last"), DATING)
def test_dating_answers_with_a_range(corpus_session, slug, first, last):
    info = find_edition(list_editions(corpus_session), slug)
    result = date_edition(corpus_session, info.id)
    assert result.range == [first, last]
    assert "no later edition" in result.summary or last == "2026-01-16"


def test_consecutive_editions_score_against_unchanged_text(copy_session):
    infos = list_editions(copy_session)
    a, b = find_edition(infos, "en-2018-10-05"), find_edition(infos, "en-2019-10-04")
    score = score_editions(copy_session, a.id, b.id, GOLD / "editions_sample.tsv")
    stored = align_editions(copy_session, a.id, b.id)  # read back from the store this time
    assert score.f1 >= 0.99
    assert stored.counts()["renumbered"] > 0 and stored.counts()["inserted"] > 0


def test_align_command_prints_the_issue_json(store_copy):
    proc = run_cli("align", "107.3", "--json", db=store_copy)
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert data["rule"] == "107.3"
    assert {"id", "language", "kind", "date", "source"} <= set(data["editions"][0])
    member = data["groups"][0]["members"][0]
    assert {"edition", "label", "label_inferred", "text", "score", "evidence"} <= set(member)


def test_align_command_needs_exactly_one_mode(store_copy):
    proc = run_cli("align", db=store_copy)
    assert proc.returncode == 2
    assert "give exactly one of" in proc.stderr


def test_rule_alignment_is_stored_and_read_back(store_copy):
    from mtgrules.store import open_store

    engine = open_store(str(store_copy))
    with session_scope(engine) as s:
        stored = align_rule(s, "107.3", store=True)  # the read, with what it aligned stored
        fresh = align_rule(s, "107.3", refresh=True, store=False)  # aligned afresh
    with session_scope(engine) as s:
        first = align_rule(s, "107.3")  # read from the stored edition pairs
        again = align_rule(s, "107.3")
    engine.dispose()
    # --store stores the alignment every reader reads, not another one.
    assert stored.as_json() == first.as_json() == again.as_json()
    # Both readings hold every clause of the rule, each in one group.
    for ra in (first, fresh):
        units = [(m.edition, m.clause_id, m.sentence) for g in ra.groups for m in g.members]
        assert len(units) == len(set(units))
    rule_units = {
        (m.edition, m.clause_id)
        for g in fresh.groups
        for m in g.members
        if m.label and m.label.startswith("107.3") and not m.label_inferred
    }
    assert len(rule_units) > 100
    assert rule_units <= {(m.edition, m.clause_id) for g in first.groups for m in g.members}


# Today's 107.3 and its subrules (cr-en-2026-01-16.txt: no 107.3l or 107.3o), which the
# Spanish page's 15 paragraphs translate in that order (corpus/seeds/001_*.txt, read by hand:
# its last, "Algunos objetos usan la letra Y...", is 107.3p "Some objects use the letter Y").
RULE_107_3 = ["107.3", *(f"107.3{x}" for x in "abcdefghijkmnp")]


def test_align_rule_store_keeps_what_the_edition_pairs_do_not_reach(store_copy):
    """The Spanish page's stored alignment made by an older aligner (another signature) is
    not current, so the stored edition pairs do not reach the page: reading 107.3 aligns it
    in memory. `align 107.3 --store` stores those links; from then on the read aligns
    nothing in memory and gives the same groups, which are the ones --store printed."""
    from sqlalchemy import text

    from mtgrules.align.storage import noting_unstored
    from mtgrules.store import open_store

    engine = open_store(str(store_copy))
    with session_scope(engine) as s:
        es = find_edition(list_editions(s), "es-page-es-107.3").id
        s.execute(
            text(
                "UPDATE alignment SET signature = 'mtgrules-align/0.9' WHERE kind = 'editions' "
                "AND (edition_a = :e OR edition_b = :e)"
            ),
            {"e": es},
        )
    with session_scope(engine, write=False) as s, noting_unstored() as before_notes:
        before = align_rule(s, "107.3")
    with session_scope(engine) as s:
        stored = align_rule(s, "107.3", store=True)
    with session_scope(engine, write=False) as s, noting_unstored() as after_notes:
        after = align_rule(s, "107.3")
    engine.dispose()
    assert [n.what for n in before_notes] == ["rule 107.3"]
    assert after_notes == []
    assert before.as_json() == stored.as_json() == after.as_json()
    spanish = [m for g in after.groups for m in g.members if m.edition == es and m.kind == "rule"]
    assert sorted(m.label for m in spanish) == sorted(RULE_107_3)
    # The page numbers only 107.3 itself; the aligner infers the rest, and says so.
    assert [m.label for m in spanish if not m.label_inferred] == ["107.3"]


def test_a_fragment_aligns_inside_the_rules_it_covers(copy_session):
    """The Spanish page against a whole English edition: its unlabelled paragraphs get the
    edition's labels (no l, no o); the rest of the edition has no counterpart."""
    infos = list_editions(copy_session)
    en = find_edition(infos, "en-2026-01-16").id
    es = find_edition(infos, "es-page-es-107.3").id
    result = align_editions(copy_session, en, es)
    inferred = [
        e["value"] for p in result.pairs for e in p.evidence if e["feature"] == "inferred-label"
    ]
    assert " ".join(inferred) == SPANISH_LABELS
    assert result.counts()["renumbered"] == 0
    data = result.as_json()
    assert data["a"]["id"] == en and data["b"]["id"] == es
    assert {"kind", "a", "b", "score", "evidence"} <= set(data["pairs"][0])


def test_terms_are_learned_from_aligned_pairs(copy_session):
    from mtgrules.align.learning import learn_terms
    from mtgrules.termbase import sync_termbase

    s = copy_session
    assert sync_termbase(s) > 0
    infos = list_editions(s)
    en = find_edition(infos, "en-2022-06-10").id
    zh = find_edition(infos, "zh-Hans-2022-06-10").id
    learned = {t.english: t.form for t in learn_terms(s, en, zh)}
    # game terms the shipped termbase lacks, found from the pairs alone
    assert learned.get("deathtouch") == "死触"
    assert learned.get("haste") == "敏捷"


@pytest.mark.parametrize(
    ("args", "expect"),
    [
        (
            ["align", "--date", "en-forum-fr-107.3"],
            "matches English 2009-07-11 and no later edition",
        ),
        (["align", "--editions", "en-2026-01-16", "es-page-es-107.3"], "match 15"),
        (["align", "--editions", "es-page-es-107.3"], "requires 2 arguments"),
        (["align", "--learn-terms"], "--learn-terms needs the English edition"),
    ],
)
def test_align_command_modes(store_copy, args, expect):
    proc = run_cli(*args, db=store_copy)
    assert expect in proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
