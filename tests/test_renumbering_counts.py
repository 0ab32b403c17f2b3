"""One renumbering map per pair of editions (issue 18): diff, align --editions, update, drift,
trace and the site count and name the same renumberings for the same pair, on the real
bundled corpus. Each row is a command a user runs and where its output says the count.

The pairs: en-2022-06-10 -> en-2026-01-16, the English a translator brings zh-Hans-2022-06-10
up to (update and drift compare the translation's English with the newer one); and the July
2009 renumbering, en-2009-05-01 -> en-2009-07-11, consecutive editions, so the site has a
changelog page for it and trace follows its clauses through it. The site's page says the
count diff gives (tests/test_site_corpus.py::test_the_2009_renumbering_is_listed_as_one, and
on the archive ::test_the_archive_2009_renumbering_is_a_renumbering).
"""

from __future__ import annotations

import json
import re

import pytest

from .conftest import run_cli

OLD, NEW, TRANSLATION = "en-2022-06-10", "en-2026-01-16", "zh-Hans-2022-06-10"

# (command, how its JSON says the number of renumbered clauses)
COMMANDS = [
    (["diff", OLD, NEW, "--format", "json"], lambda d: d["summary"]["renumbered"]),
    (["diff", OLD, NEW, "--format", "json"], lambda d: d["renumbering"]["renumbered"]),
    (["align", "--editions", OLD, NEW, "--json"], lambda d: d["renumbering"]["renumbered"]),
    (
        ["update", TRANSLATION, "--to", NEW, "--format", "json"],
        lambda d: d["renumbering"]["renumbered"],
    ),
    (
        ["update", TRANSLATION, "--to", NEW, "--format", "json"],
        lambda d: d["summary"]["renumbered_labels"],
    ),
    (
        ["drift", "--edition", TRANSLATION, "--reference", NEW, "--format", "json"],
        lambda d: d["summary"]["renumbered"],
    ),
    (
        ["drift", "--edition", TRANSLATION, "--reference", NEW, "--format", "json"],
        lambda d: len(d["renumbered"]),
    ),
]
# The commands whose text output has the historian's headline.
HEADLINES = [
    ["diff", OLD, NEW],
    ["align", "--editions", OLD, NEW],
    ["update", TRANSLATION, "--to", NEW],
]


@pytest.fixture(scope="module")
def outputs(corpus_db) -> dict[tuple[str, ...], str]:
    out = {}
    for args in [c for c, _ in COMMANDS] + HEADLINES:
        if tuple(args) not in out:
            proc = run_cli(*args, db=corpus_db, env={"COLUMNS": "200"})
            assert proc.returncode == 0, proc.stderr
            out[tuple(args)] = proc.stdout
    return out


def test_every_command_counts_the_same_renumbering(outputs) -> None:
    counts = {
        f"{' '.join(args)}: {k}": count(json.loads(outputs[tuple(args)]))
        for k, (args, count) in enumerate(COMMANDS)
    }
    assert len(set(counts.values())) == 1, counts
    assert next(iter(counts.values())) > 100  # 2022 -> 2026: whole sections moved


@pytest.mark.parametrize("args", HEADLINES, ids=[a[0] for a in HEADLINES])
def test_every_headline_says_that_count(outputs, args) -> None:
    count = json.loads(outputs[tuple(COMMANDS[0][0])])["summary"]["renumbered"]
    found = re.search(r"Renumbering: ([0-9,]+) clauses renumbered", outputs[tuple(args)])
    assert found and int(found[1].replace(",", "")) == count


def test_diff_and_align_name_the_same_moves(outputs) -> None:
    diff = json.loads(outputs[tuple(COMMANDS[0][0])])
    align = json.loads(outputs[tuple(COMMANDS[2][0])])
    moved = {(c["from"], c["to"]) for c in diff["renumbered"]}
    # Renumbered as every reader counts it (align.renumbering): both sides labelled, the
    # labels differ, whatever the pair's shape (a split counts each of its parts).
    paired = {
        (p["a"]["label"], p["b"]["label"])
        for p in align["pairs"]
        if p["a"]
        and p["b"]
        and p["a"]["label"]
        and p["b"]["label"]
        and p["a"]["label"] != p["b"]["label"]
    }
    assert moved and moved <= paired


# --- the July 2009 renumbering: diff and trace -------------------------

JULY_2009 = ("en-2009-05-01", "en-2009-07-11")
# Clauses of that step, read in both files, that trace must show renumbered as diff does.
# trace follows the line of the 2009-07-11 clause to its label today (702.15b of 2009 is
# Reach's; today's 702.15b is Lifelink's): the trace is asked for by that label.
TRACED = [
    ("502.8b", "702.25b"),
    ("502.17b", "702.28b"),
    ("505.6", "708.6a"),
    ("606.7a", "806.7a"),
    ("502.70a", "702.15a"),
    ("502.70b", "702.15b"),
    ("502.70", "702.15"),
]


@pytest.fixture(scope="module")
def diff_2009(corpus_db) -> dict:
    proc = run_cli("diff", *JULY_2009, "--format", "json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def _label_today(db, label: str, slug: str) -> str:
    """The label today of the line holding ``label`` in edition ``slug``."""
    from mtgrules.align import align_rule
    from mtgrules.store import open_store, session_scope
    from mtgrules.text.labels import rule_of

    engine = open_store(str(db))
    try:
        with session_scope(engine, write=False) as s:
            ra = align_rule(s, rule_of(label))
            edition = next(e.id for e in ra.editions if e.slug == slug)
            return next(
                g.key
                for g in ra.groups
                if any(m.edition == edition and m.label == label for m in g.members)
            )
    finally:
        engine.dispose()


@pytest.mark.parametrize(("old", "new"), TRACED)
def test_trace_follows_the_move_diff_names(corpus_db, diff_2009, old, new) -> None:
    assert {"from": old, "to": new} in [
        {"from": c["from"], "to": c["to"]} for c in diff_2009["renumbered"]
    ]
    today = _label_today(corpus_db, new, JULY_2009[1])
    proc = run_cli("trace", today, "--format", "json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    spans = json.loads(proc.stdout)["english"]
    step = [s for s in spans if s["from"] == "2009-07-11" and s["track"] == "rule"]
    # A span names every clause of the line in that edition. 708.6a's line is one of six
    # that end in today's 202.3d: in 2018-10-05 the split cards' rules were rewritten
    # (their halves' characteristics combined) and 708.2, 708.3, 708.5, 708.5a, 708.6 and
    # 708.6a of 2016-09-30 are gone, each with the converted mana cost of split cards that
    # 202.3d now states (read in the two files): the stored lineage of that step, as the
    # site shows it too. The move itself is still named clause by clause.
    assert step and new in step[0]["label"].split(" + ")
    assert old in (step[0]["previous_label"] or "").split(" + ")
    assert step[0]["event"].startswith("renumbered")
    # ...and back to where the clause was first written under its old number.
    before = [s for s in spans if s["track"] == "rule" and s["to"] == JULY_2009[0][3:]]
    assert before and old in before[0]["label"].split(" + ")


# --- editions further apart: diff composes the stored steps between them -------------------

# (older edition, newer edition, rule, label then, label now): each read by hand in the two
# files, the same text under both labels.
FAR_APART = [
    # "If a card in any zone other than the stack has an {X} in its mana cost..."
    ("en-2009-07-11", "en-2026-01-16", "107.3", "107.3f", "107.3g"),
    # Reach's b ("...except by creatures with flying and/or reach"), through July 2009
    ("en-2009-05-01", "en-2012-07-01", "702.16", "502.70b", "702.16b"),
    # "Each team's creatures attack the other team as a group." (Two-Headed Giant), reworded
    # in 2008 and moved twice
    ("en-2006-02-01", "en-2012-07-01", "810.7", "606.7a", "810.7a"),
    # "Some objects use the letter Y in addition to the letter X. Y follows the same rules as
    # X.", renumbered five times on the way (read in each file: 107.3h in 2009-07-11 to
    # 2014-09-25, 107.3i 2015, 107.3k 2018, 107.3m 2019, 107.3n 2020, 107.3p since 2022):
    # one move
    ("en-2009-07-11", "en-2026-01-16", "107.3", "107.3h", "107.3p"),
    # "If an effect instructs a player to choose a card name, the player may choose the name
    # of a front face of a meld card or the combined back face of a meld pair." (2022-06-10's
    # 713.11; 713.12 in 2022-11-18) is the second sentence of 712.19 since 2023-11-17, when
    # the meld rules joined the double-faced cards'; it was composed into 701.23j (searching
    # outside the game, new in 2023) through a mispaired step.
    ("en-2022-06-10", "en-2026-01-16", "712.19", "713.11", "712.19"),
]


@pytest.mark.parametrize(("old", "new", "rule", "then", "now"), FAR_APART)
def test_diff_of_editions_far_apart_names_the_move(corpus_db, old, new, rule, then, now) -> None:
    proc = run_cli("diff", old, new, "--rule", rule, "--format", "json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    # Every step between them is stored: nothing is aligned in memory.
    assert "aligned in memory" not in proc.stderr
    report = json.loads(proc.stdout)
    assert {"from": then, "to": now} in report["renumbered"]
    assert report["summary"]["renumbered"] == report["renumbering"]["renumbered"]
    assert then not in report["removed"] and now not in report["added"]


# A diff from the newer edition to the older reads the links stored the other way round
# (align/composition.py reversed_alignment): the same map, mirrored. Rows: a consecutive pair
# (the 2009 renumbering, one stored step) and a pair far apart (its stored steps composed).
BACKWARDS = [
    # Read by hand: cr-en-2009-05-01.txt line 1795 "502.9f Multiple instances of trample on
    # the same creature are redundant." is line 2392 of cr-en-2009-07-11.txt as 702.17e.
    ("en-2009-05-01", "en-2009-07-11", ("702.17e", "502.9f")),
    # Read by hand: cr-en-2022-06-10.txt line 3271 "701.28a To transform a permanent, turn it
    # over so that its other face is up..." is 701.27a in cr-en-2026-01-16.txt (line 3521;
    # "transforming double-faced cards" became "double-faced tokens and double-faced cards"),
    # and 2026's 701.28a is Convert, a rule 2022 lacks.
    (OLD, NEW, ("701.27a", "701.28a")),
]


@pytest.mark.parametrize(("older", "newer", "move"), BACKWARDS)
def test_a_diff_backwards_is_the_mirror_of_the_diff_forwards(corpus_db, older, newer, move):
    forward = run_cli("diff", older, newer, "--format", "json", db=corpus_db)
    backward = run_cli("diff", newer, older, "--format", "json", db=corpus_db)
    assert forward.returncode == backward.returncode == 0, backward.stderr
    assert "in memory" not in backward.stderr
    f, b = json.loads(forward.stdout), json.loads(backward.stdout)
    for kind in ("unchanged", "changed", "renumbered", "notation"):
        assert b["summary"][kind] == f["summary"][kind], kind
    assert (b["summary"]["added"], b["summary"]["removed"]) == (
        f["summary"]["removed"],
        f["summary"]["added"],
    )
    assert {(r["to"], r["from"]) for r in f["renumbered"]} == {
        (r["from"], r["to"]) for r in b["renumbered"]
    }
    assert {"from": move[0], "to": move[1]} in b["renumbered"]


# --- one map per pair: the stored steps, even where the pair is stored for update too ------

# (older, newer, then, now, editions the map is read through). The ingest
# also aligns en-2022-06-10 with en-2026-01-16 in one go (plan.FOR_UPDATE, for
# zh-Hans-2022-06-10's update); that second map disagreed with the steps trace and the site
# follow (it left "As a Saga enters the battlefield, its controller puts a lore counter on
# it." of 2022's 715.3a without a partner, where cr-en-2026-01-16.txt has it as 714.3a with
# read ahead added; 2026's 715.3a is an Adventure rule). Every reader now reads the steps.
ONE_MAP = [
    (
        "en-2022-06-10",
        "en-2026-01-16",
        "715.3a",
        "714.3a",
        ["en-2022-06-10", "en-2022-11-18", "en-2023-11-17", "en-2025-11-14", "en-2026-01-16"],
    ),
    # An English copy (the French forum's 107.3 in English, stored with en-2026-01-16, the
    # official English of no date it has) reaches an older edition through that link and
    # then the steps back: its 107.3a ("If a spell or activated ability has a mana cost...")
    # is 2009-07-11's 107.3a (both "...with an {X} or an X in it...", the forum without the
    # braces' X; 2026 says "{X}, [-X], or X"), not aligned afresh in memory.
    (
        "en-forum-fr-107.3",
        "en-2009-07-11",
        "107.3a",
        "107.3a",
        ["en-2026-01-16", "en-2012-07-01"],
    ),
]


@pytest.mark.parametrize(("older", "newer", "then", "now", "through"), ONE_MAP)
def test_a_pair_is_read_through_its_stored_links(corpus_db, older, newer, then, now, through):
    slugs = {
        e["id"]: e["slug"] for e in json.loads(run_cli("editions", "--json", db=corpus_db).stdout)
    }
    diff = run_cli("diff", older, newer, "--format", "json", db=corpus_db)
    align = run_cli("align", "--editions", older, newer, "--json", db=corpus_db)
    assert diff.returncode == align.returncode == 0, diff.stderr + align.stderr
    assert "in memory" not in diff.stderr + align.stderr
    d, a = json.loads(diff.stdout), json.loads(align.stdout)
    path = [slugs[i] for i in a["stats"]["composed"]]
    assert {path[0], path[-1]} == {older, newer} and set(through) <= set(path)
    assert a["renumbering"] == d["renumbering"]
    paired = {(p["a"]["label"], p["b"]["label"]) for p in a["pairs"] if p["a"] and p["b"]}
    assert (then, now) in paired
    if then != now:
        assert {"from": then, "to": now} in d["renumbered"]


def test_diff_across_languages_names_the_translation_as_drifts_edition(corpus_db) -> None:
    proc = run_cli("diff", "zh-Hans-2022-06-10", "en-2009-07-11", db=corpus_db)
    assert proc.returncode != 0 and "Traceback" not in proc.stderr
    assert "drift --edition zh-Hans-2022-06-10 --reference en-2009-07-11" in proc.stderr


# --- a clause new under its label, written from older text: diff says where from, as trace ---

# (older, newer, clause of newer, what diff names it written from in older). Read by hand in
# cr-en-2009-05-01.txt: the glossary entry "X" (line 4225) holds "Many cards use the letter X
# as a placeholder for a number that needs to be determined." (today's 107.3, "Many
# objects..."), "If you're playing a spell that has {X} in its mana cost ... the only legal
# choice for X is 0." (107.3b) and "If a card in any zone other than the stack has {X} in its
# mana cost, the value of {X} is treated as 0..." (107.3g); 104.3c (line 242, "The symbol {X}
# represents an unspecified amount of mana. When playing a spell or activated ability with
# {X} in its cost, its controller decides the value of that variable.") and the entries
# "Mana Symbol" and "X" are where 107.3a's announced value of X comes from. 107.3p ("Some
# objects use the letter Y in addition to the letter X.") was first written in 2009-07-11:
# the 2009-05-01 glossary says only "Y: See X.".
CAME_FROM = [
    ("en-2009-05-01", "en-2026-01-16", "107.3", ["glossary: X"]),
    (
        "en-2009-05-01",
        "en-2026-01-16",
        "107.3a",
        ["104.3c", "glossary: Mana Symbol", "glossary: X"],
    ),
    ("en-2009-05-01", "en-2026-01-16", "107.3b", ["glossary: X"]),
    ("en-2009-05-01", "en-2026-01-16", "107.3g", ["glossary: X"]),
    ("en-2009-05-01", "en-2026-01-16", "107.3p", []),
    # One stored step: the same lineage, read without composing.
    ("en-2009-05-01", "en-2009-07-11", "107.3", ["glossary: X"]),
]


def _names(sources) -> list[str]:
    from mtgrules.reports.common import clause_name

    return [clause_name(x["label"], x["kind"], term=x["term"]) for x in sources or []]


@pytest.mark.parametrize(("older", "newer", "label", "sources"), CAME_FROM)
def test_diff_says_where_a_new_clause_was_written_from(corpus_db, older, newer, label, sources):
    proc = run_cli("diff", older, newer, "--rule", "107.3", "--format", "json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    assert "in memory" not in proc.stderr
    report = json.loads(proc.stdout)
    change = next(c for c in report["changes"] if c["to"] == label)
    # Still added under its label (the counts are the map's), with its ancestors beside it.
    assert change["kind"] == "added" and label in report["added"]
    assert _names(change.get("came_from")) == sources
    text = run_cli("diff", older, newer, "--rule", "107.3", db=corpus_db).stdout
    if sources:
        assert f"{label}  added, from {older}'s {', '.join(sources)}" in text


@pytest.mark.parametrize(("older", "newer", "label", "sources"), CAME_FROM[:5])
def test_trace_shows_the_same_ancestors_in_the_older_edition(
    corpus_db, older, newer, label, sources
):
    proc = run_cli("trace", label, "--format", "json", db=corpus_db)
    assert proc.returncode == 0, proc.stderr
    date = older[3:]
    shown = {
        name
        for span in json.loads(proc.stdout)["english"]
        if span["label"] and span["from"] <= date <= span["to"]
        for name in span["label"].split(" + ")
    }
    assert shown == set(sources)
