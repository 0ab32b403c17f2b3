"""The translator's update report (mtgrules update) and its CAT-tool job (export xliff), on the
real bundled corpus: community Chinese editions brought up to the newest English.

Every expectation below was read off the corpus files by hand (corpus/corpus-extra):
- en-2025-11-14 -> en-2026-01-16: 701.68 "Blight" is new; 207.2c gained "vivid,"; 702.124k
  "Friends forever" was dropped, so 702.124m/n ("Choose a Background", "Doctor's companion")
  became 702.124k/m; the glossary gained "Blight" and lost "Friends Forever".
- zh-Hans-2022-06-10 labels its 701.42b (surveil: looking at additional cards) as a second
  701.42a; in 2026 surveil is 701.25, so the clause is 701.25b there.
The scores against an independent truth are benchmarks/eval_update.py's job.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mtgrules.reports.drift import edition_drift
from mtgrules.reports.update import update_report

from .conftest import (
    EXTRA,
    ON_PG,
    TRANSLATIONS,
    cli_importing,
    run_cli,
    table_counts,
    usual_session_url,
)

XLIFF_NS = "{urn:oasis:names:tc:xliff:document:1.2}"


@pytest.fixture(scope="module")
def report_2025(corpus_db):
    from mtgrules.store import open_store, session_scope

    engine = open_store(str(corpus_db))
    with session_scope(engine) as s:
        report = update_report(s, "zh-Hans-2025-11-14", to="en-2026-01-16")
    engine.dispose()
    return report


def _item(report, label=None, term=None, status=None):
    pool = [*report.clauses, *report.removed]
    found = [
        i
        for i in pool
        if (label is None or i.label == label)
        and (term is None or i.term == term)
        and (status is None or i.status == status)
    ]
    assert found, (label, term, status)
    return found[0]


# (label or glossary term, status, what must hold)
STATUSES_2025 = [
    ("701.68", "new", lambda i: i.translation is None and i.english == "Blight"),
    ("701.68a", "new", lambda i: "blight N" in i.english),
    ("207.2c", "changed", lambda i: any(op["b"].strip() == "vivid," for op in i.english_diff)),
    ("702.124k", "renumbered", lambda i: i.from_label == "702.124m" and i.translation),
    ("702.124m", "renumbered", lambda i: i.from_label == "702.124n"),
    ("100.1", "unchanged", lambda i: i.translation and i.english_before is None),
]


@pytest.mark.parametrize(
    ("label", "status", "check"), STATUSES_2025, ids=[s[0] for s in STATUSES_2025]
)
def test_statuses_of_clauses(report_2025, label, status, check):
    item = _item(report_2025, label=label)
    assert item.status == status
    assert check(item)


def test_source_is_the_english_of_the_same_date(report_2025):
    assert report_2025.source.edition.slug == "en-2025-11-14"
    assert report_2025.source.how == "same-date"


def test_removed_clause_carries_the_translation_to_delete(report_2025):
    removed = _item(report_2025, label="702.124k", status="removed")
    assert removed.english.startswith('"Friends forever" means')
    assert "友谊永恒" in (removed.translation or "")


def test_glossary_entries_are_named_by_their_terms(report_2025):
    new = _item(report_2025, term="Blight")
    assert new.status == "new" and new.kind == "glossary"
    gone = _item(report_2025, term="Friends Forever", status="removed")
    assert gone.translated_term == "友谊永恒"
    missing = report_2025.as_json()["missing"]
    assert {"kind": "glossary", "term": "Blight"}.items() <= next(
        m for m in missing if m["kind"] == "glossary"
    ).items()
    # Every glossary entry the report names carries its term.
    assert all(m["term"] for m in missing if m["kind"] == "glossary")


def test_json_keeps_the_drift_keys_and_adds_the_update_ones(report_2025):
    data = report_2025.as_json()
    for key in ("edition", "reference", "missing", "added", "renumbered", "checks", "summary"):
        assert key in data
    for key in ("source", "changed", "removed", "clauses", "defects"):
        assert key in data
    assert {"edition": data["edition"]["id"], "from": "702.124m", "to": "702.124k"} in data[
        "renumbered"
    ]
    changed = next(c for c in data["changed"] if c["label"] == "207.2c")
    assert changed["from_label"] == "207.2c" and changed["translation"] and changed["english_diff"]
    counts = data["summary"]
    assert counts["new"] >= 6 and counts["renumbered"] == 3 and counts["removed"] == 2


def test_a_duplicate_label_is_a_mislabel_not_a_renumbering(corpus_session):
    report = update_report(corpus_session, "zh-Hans-2022-06-10", to="en-2026-01-16")
    assert report.defects.duplicate_labels == ["701.42a"]
    assert {"label": "701.42a", "expected": "701.42b"}.items() <= report.defects.mislabels[
        0
    ].items()
    surveil = _item(report, label="701.25b")
    assert surveil.from_label == "701.42b" and surveil.translation_label == "701.42a"
    assert ("701.42b", "701.25b") in {(r.from_label, r.to_label) for r in report.renumbered}
    assert ("701.42a", "701.25b") not in {(r.from_label, r.to_label) for r in report.renumbered}


def test_drift_of_a_translation_reports_the_same_content(corpus_session):
    drift = edition_drift(corpus_session, "zh-Hans-2025-11-14", reference="en-2026-01-16")
    update = update_report(corpus_session, "zh-Hans-2025-11-14", to="en-2026-01-16")
    assert [m.label for m in drift.missing] == [m.label for m in update.missing]
    assert {(r.from_label, r.to_label) for r in drift.renumbered} == {
        (r.from_label, r.to_label) for r in update.renumbered
    }


def test_a_page_is_updated_on_the_rules_it_covers(corpus_session):
    """The French forum post quotes 107.3: it lacks 107.3's newer subrules, not all 4,000."""
    report = update_report(corpus_session, "fr-forum-fr-107.3", to="en-2026-01-16")
    assert report.source.how == "same-document"
    labels = {i.label for i in report.clauses if i.label}
    assert labels and all(lab.startswith("107.3") for lab in labels)
    assert "107.3n" in {m.label for m in report.missing}


def test_without_its_source_english_the_archive_gives_it(tmp_path):
    """zh-Hans-2023-11-17 in a store without en-2023-11-17: ingest takes that English from the
    archive packed inside mtgrules (and says so), and the report reads the translation
    against the English of its own date."""
    db = tmp_path / "nosource.sqlite"
    files = [
        EXTRA / f
        for f in (
            "cr-zh-2023-11-17.txt",
            "cr-en-2022-11-18.txt",
            "cr-en-2025-11-14.txt",
            "cr-en-2026-01-16.txt",
        )
    ]
    ingest = run_cli("ingest", *map(str, files), db=db)
    assert ingest.returncode == 0, ingest.stderr
    assert "2023-11-17.txt: taken from the packed English archive" in ingest.stdout
    proc = run_cli("update", "zh-Hans-2023-11-17", "--format", "json", db=db)
    assert proc.returncode == 0, proc.stderr
    source = json.loads(proc.stdout)["source"]
    assert (source["how"], source["slug"]) == ("same-date", "en-2023-11-17")
    assert source["source"] == "cr-archive/2023-11-17.txt"


@pytest.mark.skipif(
    not (TRANSLATIONS / "zh-Hans-2026-02-27.helium.txt").exists(),
    reason="needs ../shared/translations",
)
def test_without_its_english_anywhere_the_nearest_is_used_and_said(tmp_path):
    """zh-Hans-2026-02-27, newer than every English the store and the archive hold: the
    report says which English it used instead, and why."""
    db = tmp_path / "nosource.sqlite"
    files = [TRANSLATIONS / "zh-Hans-2026-02-27.helium.txt", EXTRA / "cr-en-2026-01-16.txt"]
    assert run_cli("ingest", *map(str, files), db=db).returncode == 0
    proc = run_cli("update", "zh-Hans-2026-02-27", "--format", "json", db=db)
    assert proc.returncode == 0, proc.stderr
    source = json.loads(proc.stdout)["source"]
    assert source["how"] == "best-fit"
    assert "no English edition of 2026-02-27" in source["why"]
    assert source["slug"] == "en-2026-01-16"


@pytest.mark.skipif(
    not (TRANSLATIONS / "ko-2020-09-25.kormtgcr.txt").exists(),
    reason="needs ../shared/translations",
)
def test_an_omitted_glossary_is_one_line_not_an_entry_per_term(tmp_path):
    """The Korean 2020 prints its glossary heading and then "<생략>" (omitted): the report says
    so once, lists no glossary entry as new or missing, and still reports the rules. Read by
    hand in the raw file: "용어사전" is followed by "<생략>" and then the credits; en-2026-01-16
    has 725 glossary entries, en-2020-09-25 576, so a report per entry would list 150+."""
    db = tmp_path / "ko.sqlite"
    files = [
        TRANSLATIONS / "ko-2020-09-25.kormtgcr.txt",
        EXTRA / "cr-en-2020-09-25.txt",
        EXTRA / "cr-en-2026-01-16.txt",
    ]
    assert run_cli("ingest", *map(str, files), db=db).returncode == 0
    proc = run_cli("update", "ko-2020-09-25", "--format", "json", db=db)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["glossary_omitted"] is True
    assert report["source"]["slug"] == "en-2020-09-25"
    assert not [m for m in report["missing"] if m["kind"] == "glossary"]
    assert not [c for c in report["clauses"] if c["kind"] == "glossary"]
    # 123 (Stickers) came in 2024: new to the translator.
    assert {"123.1", "702.164"} <= {m["label"] for m in report["missing"] if m["kind"] == "rule"}
    for fmt, line in [
        ("text", "The glossary is not translated"),
        ("md", "The glossary is not translated"),
        ("html", "The glossary is not translated"),
    ]:
        out = run_cli("update", "ko-2020-09-25", "--format", fmt, db=db)
        assert out.returncode == 0, out.stderr
        assert out.stdout.count(line) == 1, fmt


# (arguments, exit code, what the one stderr line says)
BAD_INPUT = [
    (["update", "en-2026-01-16"], 2, "is English"),
    (["update", "zh-Hans-2023-11-17", "--to", "en-2022-06-10"], 2, "is older than en-2023-11-17"),
    (["update", "zh-Hans-2022-06-01"], 3, "did you mean zh-Hans-2022-06-10"),
    (["update", "zh-Hans-2022-06-10", "--to", "zh-Hans-2026-01-16"], 2, "give the English edition"),
    (["export", "xliff", "en-2026-01-16"], 2, "is English"),
]


@pytest.mark.parametrize(
    ("args", "code", "message"), BAD_INPUT, ids=[" ".join(a) for a, _, _ in BAD_INPUT]
)
def test_bad_input_is_one_line_and_changes_nothing(store_copy, args, code, message):
    before = table_counts(store_copy)
    proc = run_cli(*args, db=store_copy)
    assert proc.returncode == code
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mtgrules: error:") and message in lines[0]
    assert table_counts(store_copy) == before


@pytest.fixture(scope="module")
def report_2023(corpus_db):
    from mtgrules.store import open_store, session_scope

    engine = open_store(str(corpus_db))
    with session_scope(engine, write=False) as s:
        report = update_report(s, "zh-Hans-2023-11-17", to="en-2026-01-16")
    engine.dispose()
    return report


# Transform and Convert (read in cr-en-2023-11-17.txt and cr-en-2026-01-16.txt): in 2023
# Transform is 701.28a and Convert 701.50a; since 2025 they are 701.27a and 701.28a. Each
# keeps its own translation ("转化" is to transform, "转换" to convert), and 701.28a is never
# Transform changed into Convert.
TRANSFORM_CONVERT = [
    ("701.27a", "701.28a", "To transform a permanent", "转化"),
    ("701.28a", "701.50a", "To convert a permanent", "转换"),
]


@pytest.mark.parametrize(("label", "was", "english", "word"), TRANSFORM_CONVERT)
def test_transform_and_convert_keep_their_translations(report_2023, label, was, english, word):
    item = next(i for i in report_2023.clauses if i.label == label)
    assert item.from_label == was
    assert item.english.startswith(english)
    assert item.translation.startswith(word)


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_a_renumbering_renders_in_every_format(report_2023, fmt):
    """The headline of the renumbering between the translation's English and the newer one."""
    from mtgrules.reports import render_report

    out = render_report("update", report_2023, fmt)
    assert "Renumbering:" in out and "701.27a" in out


@pytest.mark.parametrize("fmt", ["text", "md", "html"])
def test_every_format_renders(report_2025, fmt):
    from mtgrules.reports import render_report

    out = render_report("update", report_2025, fmt)
    assert "701.68" in out and "207.2c" in out and "en-2025-11-14" in out
    if fmt == "html":
        assert out.startswith("<!DOCTYPE html>") and "<script" not in out


# --- the CAT-tool job -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def job(corpus_db, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("job") / "job.xlf"
    proc = run_cli(
        "export",
        "xliff",
        "zh-Hans-2025-11-14",
        "--to",
        "en-2026-01-16",
        "-o",
        str(out),
        db=corpus_db,
    )
    assert proc.returncode == 0, proc.stderr
    assert "units" in proc.stderr
    return out


def test_xliff_loads_in_translate_toolkit(job, report_2025):
    from translate.storage import xliff

    store = xliff.xlifffile.parsefile(str(job))
    assert (store.sourcelanguage, store.targetlanguage) == ("en", "zh-Hans")
    units = {
        u.getid().split("\x04")[-1].removeprefix("cr-en-2026-01-16"): u for u in store.getunits()
    }
    counts = report_2025.counts()
    assert len(units) == counts["new"] + counts["changed"]
    new = units["701.68a"]
    assert new.target == "" and new.get_state_n() == xliff.xliffunit.statemap["new"]
    review = units["207.2c"]
    assert (
        review.target
        and review.get_state_n() == xliff.xliffunit.statemap["needs-review-translation"]
    )
    assert "vivid" in review.getnotes()
    assert any(c[1] == "207.2c" for g in review.getcontextgroups("rule") for c in g)


def test_xliff_follows_the_1_2_structure(job):
    root = ET.parse(job).getroot()
    assert root.tag == f"{XLIFF_NS}xliff" and root.get("version") == "1.2"
    files = root.findall(f"{XLIFF_NS}file")
    assert len(files) == 1
    f = files[0]
    for attribute in ("original", "source-language", "datatype"):
        assert f.get(attribute)
    assert [c.tag for c in f] == [f"{XLIFF_NS}header", f"{XLIFF_NS}body"]
    allowed_states = {"new", "needs-translation", "needs-review-translation", "translated", "final"}
    ids = set()
    for unit in f.find(f"{XLIFF_NS}body"):
        assert unit.tag == f"{XLIFF_NS}trans-unit" and unit.get("id") not in ids
        ids.add(unit.get("id"))
        children = [c.tag.removeprefix(XLIFF_NS) for c in unit]
        # source first, then target, then notes and context groups in any order
        assert children[:2] == ["source", "target"]
        assert set(children[2:]) <= {"note", "context-group"}
        assert unit.find(f"{XLIFF_NS}target").get("state") in allowed_states


def test_unchanged_pairs_go_out_as_tmx(job, report_2025):
    tmx = ET.parse(job.with_suffix(".tmx")).getroot()
    units = tmx.findall("./body/tu")
    counts = report_2025.counts()
    assert len(units) == sum(
        1 for i in report_2025.clauses if i.status in ("unchanged", "renumbered") and i.translation
    )
    assert len(units) <= counts["unchanged"] + counts["renumbered"]
    langs = {
        tuv.get("{http://www.w3.org/XML/1998/namespace}lang") for tuv in units[0].findall("tuv")
    }
    assert langs == {"en", "zh-Hans"}


# --- the fast read path (store/sql.py): the same report without SQLAlchemy -----------------


@pytest.mark.skipif(ON_PG, reason="the fast path reads SQLite files")
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_update_reads_a_current_store_without_sqlalchemy_and_answers_the_same(store_copy, fmt):
    args = ("update", "zh-Hans-2022-06-10", "--format", fmt)
    fast, imported, _ = cli_importing(store_copy, *args)
    assert not imported
    usual, imported, _ = cli_importing(usual_session_url(store_copy), *args)
    assert imported
    assert fast == usual
    if fmt == "json":
        assert json.loads(fast)["summary"]["changed"] > 100


@pytest.mark.skipif(ON_PG, reason="the fast path reads SQLite files")
def test_export_xliff_reads_a_current_store_without_sqlalchemy(store_copy, tmp_path):
    fast, imported, _ = cli_importing(store_copy, "export", "xliff", "zh-Hans-2022-06-10")
    assert not imported
    usual, _, _ = cli_importing(
        usual_session_url(store_copy), "export", "xliff", "zh-Hans-2022-06-10"
    )
    # The same job but for the moment it was written (the file's date attribute).
    import re

    def undated(xliff: str) -> str:
        return re.sub(r'date="[^"]*"', 'date=""', xliff)

    assert undated(fast) == undated(usual) and "<trans-unit" in fast


@pytest.mark.skipif(ON_PG, reason="the fast path reads SQLite files")
def test_update_on_a_store_without_its_alignments_leaves_the_fast_path_for_the_aligner(
    store_copy,
):
    """The alignments update composes are not stored (a store made before they were, or by
    another aligner): the fast path declines, and the aligner computes them in memory on the
    usual session, with the same report as a store that never tried the fast path."""
    import sqlite3

    db = sqlite3.connect(store_copy)
    with db:
        db.execute("DELETE FROM link")
        db.execute("DELETE FROM alignment")
    db.close()
    args = ("update", "zh-Hans-2022-06-10", "--format", "json")
    fell_back, imported, notes = cli_importing(store_copy, *args)
    assert imported
    usual, _, _ = cli_importing(usual_session_url(store_copy), *args)
    assert json.loads(fell_back) == json.loads(usual)
    assert json.loads(fell_back)["summary"]["changed"] > 100


def test_a_clauses_flags_read_for_a_report_are_the_stored_list(corpus_db):
    """The damage flags a report's checks read (store.queries.edition_clauses) are the list
    stored, on every backend and on the fast path: SQLite gives JSON back as text, which was
    once read character by character (["[", "]"] for no flag at all)."""
    from mtgrules.store import open_store, session_scope
    from mtgrules.store.queries import edition_clauses
    from mtgrules.store.sql import LiteSession, fetch, json_list

    engine = open_store(str(corpus_db))
    with session_scope(engine, write=False) as s:
        rows = fetch(s, "SELECT id, edition_id, flags FROM clause WHERE kind = 'noise'")
        credit = next(r for r in rows if json_list(r.flags) == ["credits"])  # the page's credits
        views = edition_clauses(s, credit.edition_id)
    engine.dispose()
    by_id = {c.id: c for c in views}
    assert by_id[credit.id].flags == ["credits"]
    assert all(len(f) > 1 for c in views for f in c.flags)  # words, never characters
    if not ON_PG:
        import sqlite3

        lite = LiteSession(sqlite3.connect(corpus_db), "sqlite:///corpus")
        assert [c.flags for c in edition_clauses(lite, credit.edition_id)] == [
            c.flags for c in views
        ]


def test_update_after_its_english_was_removed_says_what_to_ingest(new_store) -> None:
    """Ingesting the Chinese brought its English from the packed archive; once that English
    is removed, update said "no dated English edition to update to; give one: --to E", a
    usage error, when no --to could help."""
    zh = EXTRA / "cr-zh-2026-01-16.txt"
    assert run_cli("ingest", str(zh), db=new_store).returncode == 0
    assert run_cli("remove", "en-2026-01-16", db=new_store).returncode == 0
    proc = run_cli("update", "zh-Hans-2026-01-16", db=new_store)
    assert proc.returncode == 3, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and "no dated English edition" in line and "ingest" in line, line
