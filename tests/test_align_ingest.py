"""Alignments stored at ingest, labels inferred for unlabelled pages, and `align --check`.

Real stores in tmp_path (or the shared corpus store), real corpus files; the expected pairs
below are read off the corpus's edition list (dates, languages, source files), not off the
program's output.
"""

from __future__ import annotations

import json

import pytest

from mtgrules.align.check import WEAK_BELOW, check_links
from mtgrules.align.edition import compute_edition_alignment
from mtgrules.align.evaluate import score_cross_date
from mtgrules.align.model import EditionAlignment, Pair
from mtgrules.align.plan import ingest_and_align
from mtgrules.align.storage import edition_alignment_rows, save_edition_alignment
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import find_edition, list_editions, rule_clauses

from .conftest import EXTRA, run_cli

ENGLISH = [
    "2006-02-01", "2006-10-01", "2008-05-01", "2009-05-01", "2009-07-11", "2012-07-01",
    "2013-05-01", "2014-09-25", "2015-01-23", "2016-09-30", "2018-10-05", "2019-10-04",
    "2020-09-25", "2022-06-10", "2022-11-18", "2023-11-17", "2025-11-14", "2026-01-16",
]  # fmt: skip
# (English source or older edition, translation or newer edition, why) for the corpus.
CORPUS_PAIRS = {
    *(
        (f"en-{a}", f"en-{b}", "previous-edition")
        for a, b in zip(ENGLISH, ENGLISH[1:], strict=False)
    ),
    *(
        (f"en-{d}", f"zh-Hans-{d}", "same-date")
        for d in ("2022-06-10", "2023-11-17", "2025-11-14", "2026-01-16")
    ),
    # The French forum post quotes the English it translates; so does the bilingual page.
    ("en-forum-fr-107.3", "fr-forum-fr-107.3", "same-document"),
    ("en-page-en-zh-107.3", "zh-Hant-page-en-zh-107.3", "same-document"),
    # The Spanish page has no English beside it: it matches 2022-06-10 to 2026-01-16 equally
    # (test_align's dating; the archive's editions between read the same), the oldest is
    # taken (align/dating.py: every English change since is then reported).
    ("en-2022-06-10", "es-page-es-107.3", "best-fit"),
    # Each translation's own line of dated editions (the site's changelogs of zh-Hans).
    *(
        (f"zh-Hans-{a}", f"zh-Hans-{b}", "previous-edition")
        for a, b in (
            ("2022-06-10", "2023-11-17"),
            ("2023-11-17", "2025-11-14"),
            ("2025-11-14", "2026-01-16"),
        )
    ),
    # English copies with the official English of their date, else the newest.
    ("en-2006-10-01", "en-2006-10-01-glossary", "english-copy"),
    ("en-2026-01-16", "en-forum-fr-107.3", "english-copy"),
    ("en-2026-01-16", "en-page-en-zh-107.3", "english-copy"),
    # Nothing else: `update` reads a translation's English with the newest English through
    # the steps between them, or the copy's pair (composition.edition_map).
}

# One store, ingested step by step: (files added, pairs aligned by that ingest, pairs removed).
STEPS = [
    (
        ["cr-en-2022-11-18.txt", "cr-en-2025-11-14.txt", "cr-zh-2025-11-14.txt"],
        {
            ("en-2022-11-18", "en-2025-11-14", "previous-edition"),
            ("en-2025-11-14", "zh-Hans-2025-11-14", "same-date"),
        },
        0,
    ),
    # The same files again: nothing to align.
    (["cr-en-2022-11-18.txt", "cr-en-2025-11-14.txt", "cr-zh-2025-11-14.txt"], set(), 0),
    # An edition between two dates: its two pairs; the pair it splits is removed.
    (
        ["cr-en-2023-11-17.txt"],
        {
            ("en-2022-11-18", "en-2023-11-17", "previous-edition"),
            ("en-2023-11-17", "en-2025-11-14", "previous-edition"),
        },
        1,
    ),
    # A translation of a date the store has: its pair, and its place in its own line.
    (
        ["cr-zh-2023-11-17.txt"],
        {
            ("en-2023-11-17", "zh-Hans-2023-11-17", "same-date"),
            ("zh-Hans-2023-11-17", "zh-Hans-2025-11-14", "previous-edition"),
        },
        0,
    ),
]

# What the Spanish page's unlabelled subrules are, from its text (test_align's gold).
SPANISH = [f"107.3{ch}" for ch in "abcdefghijkmnp"]

# A Chinese edition read against an English one of another date: rules 719-721 were
# inserted in between, so the same label names other rules. (en-2026 label, zh-2023 label
# of the same rule, the rule) read off both texts.
ACROSS_RENUMBERING = [
    ("722", "719", "Controlling Another Player / 操控其他牌手"),
    ("723", "720", "Ending Turns and Phases / 结束回合和阶段"),
    ("726", "723", "Restarting the Game / 重新开始游戏"),
    ("729", "725", "Merging with Permanents / 与永久物结聚"),
]

# Links planted through align/storage between en-2026-01-16 and zh-Hans-2026-01-16 clauses
# (same date): (en label, zh label, stored score, flagged by --check?).
PLANTED = [
    ("724", "726", 0.3, True),  # The Monarch / 重新开始游戏: different rules, weak content
    ("724", "726", 0.9, False),  # the same claim made on strong content is the aligner's call
    ("724", "724", 0.3, False),  # same label: nothing renumbered
]


def _pairs(session) -> set[tuple[str, str, str]]:
    slug = {e.id: e.slug for e in list_editions(session)}
    return {
        (slug[r.a], slug[r.b], r.stats.get("why"))
        for r in edition_alignment_rows(session)
        if r.a in slug and r.b in slug
    }


def test_ingest_stores_each_translation_with_its_source_and_each_edition_with_the_last(
    corpus_engine,
):
    with session_scope(corpus_engine, write=False) as s:
        rows = edition_alignment_rows(s)
        assert _pairs(s) >= CORPUS_PAIRS
        assert all(r.current for r in rows if r.origin == "ingest")
        assert {p for p in _pairs(s) if p[2]} == CORPUS_PAIRS  # the plan's own, exactly


def test_ingest_aligns_only_new_or_changed_pairs(tmp_path):
    engine = open_store(str(tmp_path / "steps.sqlite"))
    try:
        for files, aligned, removed in STEPS:
            with session_scope(engine) as s:
                report = ingest_and_align(s, [EXTRA / f for f in files])
            run = report.alignments
            assert {(p.a, p.b, p.why) for p in run.aligned} == aligned, files
            assert run.removed == removed, files
            assert run.kept == run.planned - len(aligned)
        with session_scope(engine) as s:
            assert {p for p in _pairs(s)} == {
                ("en-2022-11-18", "en-2023-11-17", "previous-edition"),
                ("en-2023-11-17", "en-2025-11-14", "previous-edition"),
                ("en-2025-11-14", "zh-Hans-2025-11-14", "same-date"),
                ("en-2023-11-17", "zh-Hans-2023-11-17", "same-date"),
                ("zh-Hans-2023-11-17", "zh-Hans-2025-11-14", "previous-edition"),
            }
    finally:
        engine.dispose()


def test_ingest_json_reports_the_alignments_and_keeps_its_keys(tmp_path):
    db = tmp_path / "json.sqlite"
    files = [str(EXTRA / "cr-en-2025-11-14.txt"), str(EXTRA / "cr-zh-2025-11-14.txt")]
    first = json.loads(run_cli("ingest", "--json", *files, db=db).stdout)
    again = json.loads(run_cli("ingest", "--json", *files, db=db).stdout)
    assert {"revision", "editions_added", "clauses_added", "flags", "files"} <= first.keys()
    assert [(p["a"], p["b"]) for p in first["alignments"]["aligned"]] == [
        ("en-2025-11-14", "zh-Hans-2025-11-14")
    ]
    assert first["alignments"]["aligned"][0]["links"] > 4000
    assert again["revision"] is None and again["alignments"]["aligned"] == []
    # Where the time went: the phases in order, then their total.
    phases = first["seconds"]
    assert list(phases) == ["files", "sources", "alignments", "lineages", "total"]
    assert phases["alignments"] >= first["alignments"]["aligned"][0]["seconds"] > 0
    assert sum(v for k, v in phases.items() if k != "total") == pytest.approx(
        phases["total"], abs=0.01
    )


@pytest.mark.parametrize(
    "translation", ["zh-Hans-2022-06-10", "zh-Hans-2023-11-17", "fr-forum-fr-107.3"]
)
def test_update_reads_both_of_its_alignments_from_the_store(store_copy, translation):
    """update composes the translation's pair with its English and that English's pair with
    the newest English: both stored at ingest, so nothing is aligned in memory (the note
    that says so stays away), and the report is the one a read-only store gives."""
    proc = run_cli("update", translation, "--format", "json", db=store_copy)
    assert proc.returncode == 0, proc.stderr
    assert "aligned in memory" not in proc.stderr
    assert json.loads(proc.stdout)["reference"]["slug"] == "en-2026-01-16"


@pytest.mark.slow
def test_an_older_stores_update_pair_is_removed_and_update_reads_the_same(tmp_path):
    """Earlier ingests also stored a translation's English with the newest English, for
    `update` alone (plan.FOR_READERS). Nothing reads it: update follows the steps between
    the two. An ingest stores none, the next ingest of a store that has one removes it, and
    update's report is the same with it and without it, read from the store either way."""
    db = tmp_path / "update.sqlite"
    files = ["cr-en-2022-06-10.txt", "cr-zh-2022-06-10.txt", "cr-en-2022-11-18.txt"]
    files.append("cr-en-2023-11-17.txt")
    engine = open_store(str(db))
    try:
        with session_scope(engine) as s:
            ingest_and_align(s, [EXTRA / f for f in files])
            assert {p for p in _pairs(s) if p[2] == "update"} == set()
            infos = list_editions(s)
            old, new = (find_edition(infos, f"en-{d}") for d in ("2022-06-10", "2023-11-17"))
            planted = compute_edition_alignment(s, old, new)
            save_edition_alignment(s, planted, origin={"by": "ingest-for-readers", "why": "update"})
        with_pair = run_cli("update", "zh-Hans-2022-06-10", "--format", "json", db=db)
        with session_scope(engine) as s:
            run = ingest_and_align(s, [EXTRA / f for f in files]).alignments
            assert {p for p in _pairs(s) if p[2] == "update"} == set()
    finally:
        engine.dispose()
    assert (run.aligned, run.removed) == ([], 1)
    without = run_cli("update", "zh-Hans-2022-06-10", "--format", "json", db=db)
    assert with_pair.returncode == without.returncode == 0, without.stderr
    assert "aligned in memory" not in with_pair.stderr + without.stderr
    assert json.loads(with_pair.stdout)["reference"]["slug"] == "en-2023-11-17"
    assert with_pair.stdout == without.stdout


def test_show_prints_the_spanish_labels_as_inferred(corpus_db):
    proc = run_cli("show", "107.3", "--lang", "es", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    labels = [ln.strip() for ln in proc.stdout.splitlines() if ln.startswith("  107.3")]
    assert labels == ["107.3", "107.3", *(f"{x}*" for x in SPANISH)]  # heading, rule, subrules
    assert "?" not in labels


def test_search_hits_in_spanish_carry_inferred_labels(corpus_db):
    proc = run_cli("search", "maná", "--lang", "es", "--json", db=corpus_db)
    hits = json.loads(proc.stdout)["hits"]
    assert hits and all(h["language"] == "es" for h in hits)
    rules = [h for h in hits if h["kind"] == "rule" and h.get("label_inferred")]
    assert {h["label"] for h in rules} <= set(SPANISH) and len(rules) >= 3
    text = run_cli("search", "maná", "--lang", "es", db=corpus_db).stdout
    assert f"1. {rules[0]['label']}*  es-page-es-107.3" in text


@pytest.mark.parametrize("label", ["107.3a", "107.3g", "107.3p"])
def test_a_rule_search_finds_the_spanish_clause_by_its_inferred_label(corpus_db, label):
    data = json.loads(run_cli("search", label, "--lang", "es", "--json", db=corpus_db).stdout)
    assert [(h["edition"], h["label"], h.get("label_inferred")) for h in data["hits"]] == [
        ("es-page-es-107.3", label, True)
    ]


def test_search_shows_spanish_beside_english_hits(corpus_db):
    """A fresh store (the fixture is a plain ingest) shows the Spanish clause beside an
    English hit, by the link stored at ingest, with its inferred label."""
    # The Spanish page translates 107.3: a query its rules answer.
    data = json.loads(run_cli("search", "value of X", "--json", db=corpus_db).stdout)
    beside = [a for h in data["hits"] for a in h["aligned"] if a["language"] == "es"]
    assert beside and all(a["via"] == "link" for a in beside)
    # Its subrules print no number: the aligner's, marked inferred (107.3 itself is printed).
    subrules = [a for a in beside if a["label"] != "107.3"]
    assert subrules and all(a.get("label_inferred") for a in subrules)


@pytest.mark.parametrize(("en_label", "zh_label", "rule"), ACROSS_RENUMBERING)
def test_a_translation_of_another_date_pairs_by_content_not_label(
    corpus_engine, en_label, zh_label, rule
):
    with session_scope(corpus_engine, write=False) as s:
        infos = list_editions(s)
        en = find_edition(infos, "en-2026-01-16")
        zh = find_edition(infos, "zh-Hans-2023-11-17")
        result = compute_edition_alignment(s, en, zh)
    paired = {
        p.a.label: p.b.label
        for p in result.pairs
        if p.a and p.b and p.a.kind == "heading" and p.b.kind == "heading"
    }
    assert paired.get(en_label) == zh_label, rule


def test_a_translation_of_another_date_against_composed_gold(corpus_engine):
    """Gold composed from the English of the translation's date (same labels) and unchanged
    English texts; main's aligner scored F1 0.926 here, pairing by label across dates."""
    with session_scope(corpus_engine, write=False) as s:
        infos = list_editions(s)
        ids = [find_edition(infos, k).id for k in ("en-2026-01-16", "zh-Hans-2023-11-17")]
        score = score_cross_date(s, *ids, via=find_edition(infos, "en-2023-11-17").id)
    assert score.precision >= 0.99 and score.f1 >= 0.98


def _plant(session, en_label: str, zh_label: str, score: float) -> None:
    infos = list_editions(session)
    en = find_edition(infos, "en-2026-01-16")
    zh = find_edition(infos, "zh-Hans-2026-01-16")
    (a,) = [c for c in rule_clauses(session, en.id, en_label) if c.label == en_label]
    (b,) = [c for c in rule_clauses(session, zh.id, zh_label) if c.label == zh_label]
    # zh -> en: a pair of editions the ingest stores the other way, so nothing is replaced.
    save_edition_alignment(session, EditionAlignment(zh, en, [Pair(b, a, score, [], "renumbered")]))


def test_check_passes_on_the_corpus(corpus_db):
    # Wide enough that the summary stays one line (the text is fitted to $COLUMNS).
    proc = run_cli("align", "--check", db=corpus_db, env={"COLUMNS": "400"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("0 suspicious of ")


@pytest.mark.parametrize(("en_label", "zh_label", "score", "flagged"), PLANTED)
def test_check_finds_a_planted_wrong_link(store_copy, en_label, zh_label, score, flagged):
    engine = open_store(str(store_copy))
    with session_scope(engine) as s:
        _plant(s, en_label, zh_label, score)
    with session_scope(engine, write=False) as s:
        result = check_links(s)
    engine.dispose()
    assert result.found == flagged
    proc = run_cli("align", "--check", "--json", db=store_copy)
    assert proc.returncode == (1 if flagged else 0)
    data = json.loads(proc.stdout)
    assert data["threshold"] == WEAK_BELOW
    if flagged:
        (item,) = data["suspicious"]
        assert (item["a"]["label"], item["b"]["label"]) == (zh_label, en_label)
        assert item["why"] == "same-date" and item["score"] == score
        # The evidence: zh 726 is paired with its own English (726, Restarting the Game) by
        # the ingest's alignment of the two editions.
        rival = next(r for r in item["rivals"] if r["label"] == zh_label)
        assert rival["edition"] == "en-2026-01-16" and rival["text"] == "Restarting the Game"
        assert rival["linked"] is not None
        text = run_cli(
            "align", "--check", db=store_copy, env={"COLUMNS": "400"}
        ).stdout.splitlines()
        assert len(text) == 2 and text[-1].startswith("1 suspicious of ")
        assert f"zh-Hans-2026-01-16 {zh_label} ↔ en-2026-01-16 {en_label}" in text[0]


KILLS = 8


@pytest.mark.slow
def test_a_killed_ingest_leaves_no_half_alignment(new_store, tmp_path):
    """SIGKILL an ingest of a translation (whose alignment with the English of its date is
    part of the ingest) at random moments: every alignment in the store keeps all its links,
    and the next ingest stores the pair."""
    import os
    import random
    import signal
    import subprocess
    import sys
    import time

    rng = random.Random(12)
    assert run_cli("ingest", str(EXTRA / "cr-en-2025-11-14.txt"), db=new_store).returncode == 0
    source = (EXTRA / "cr-zh-2025-11-14.txt").read_text(encoding="utf-8")
    path = tmp_path / "zh-variant.txt"

    def variant(i: int) -> None:  # a new version of the translation: its pair is aligned anew
        path.write_text(source.replace("\n100.1. ", f"\n100.1. (Round {i}.) ", 1), "utf-8")

    def whole() -> set:
        engine = open_store(str(new_store))
        with session_scope(engine, write=False) as s:
            rows = edition_alignment_rows(s)
            pairs = _pairs(s)
        engine.dispose()
        assert all(r.current for r in rows if r.origin == "ingest")  # every link there
        return pairs

    variant(0)
    t0 = time.monotonic()
    assert run_cli("ingest", str(path), db=new_store).returncode == 0
    total = time.monotonic() - t0
    env = {**os.environ, "MTGRULES_DB": str(new_store)}
    kills = 0
    for i in range(1, KILLS * 3):
        variant(i)
        proc = subprocess.Popen(
            [sys.executable, "-m", "mtgrules.cli", "ingest", str(path)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.3 * total, total))
        proc.send_signal(signal.SIGKILL)
        kills += proc.wait() == -signal.SIGKILL
        whole()
        if kills == KILLS:
            break
    assert kills == KILLS
    assert run_cli("ingest", str(path), db=new_store).returncode == 0
    assert ("en-2025-11-14", "zh-Hans-2025-11-14", "same-date") in whole()
