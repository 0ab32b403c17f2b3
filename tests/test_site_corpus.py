"""The site of the whole bundled corpus (slow: it aligns every pair of editions it needs on a
fresh store): every page parses, no internal link is broken, the 2009 renumbering reads as a
renumbering, rule histories agree with `mtgrules trace` and with the texts read by hand, and
a rebuild after one new edition rewrites only what changed.

Run with: pytest -m slow tests/test_site_corpus.py
"""

from __future__ import annotations

import filecmp
import posixpath
import shutil
from pathlib import Path

import pytest
from lxml import html as lxml_html

from mtgrules.ingest import ingest_paths
from mtgrules.reports.diff import edition_diff
from mtgrules.reports.trace import trace_clause
from mtgrules.site.build import build_site
from mtgrules.store import open_store, session_scope
from mtgrules.text.labels import rule_of

from .conftest import CORPUS, EXTRA, ON_PG, ROOT
from .site_check import broken_links, pages, parse_errors

pytestmark = pytest.mark.slow

# The checkout sits beside shared/ (on a developer's machine and in CI alike).
ARCHIVE = ROOT.parent / "shared" / "cr-archive" / "txt"


def _doc(path: Path):
    return lxml_html.parse(str(path)).getroot()


def _rows(section) -> list[list[str]]:
    """The cells' text of the first table in an element (its history), row by row."""
    table = section.xpath(".//table")[0]
    return [[c.text_content().strip() for c in tr] for tr in table.xpath("./tbody/tr")]


def test_every_page_parses_and_every_internal_link_resolves(corpus_site) -> None:
    _, out = corpus_site
    all_pages = pages(out)
    assert len(all_pages) > 1100  # 28 editions, 1,157 rules, index, lists, search
    errors = {str(p.relative_to(out)): e for p in all_pages if (e := parse_errors(p))}
    assert errors == {}
    assert broken_links(out) == []


def test_the_2009_renumbering_is_listed_as_one(corpus_site) -> None:
    db, out = corpus_site
    engine = open_store(str(db))
    with session_scope(engine, write=False) as s:
        report = edition_diff(s, "en-2009-05-01", "en-2009-07-11")
    engine.dispose()
    moved = [c for c in report.changes if c.kind == "renumbered" and c.clause_kind == "rule"]
    removed = [c for c in report.changes if c.kind == "removed" and c.clause_kind == "rule"]
    assert len(moved) > 1000 and len(removed) * 5 < len(moved)
    doc = _doc(out / "editions" / "en-2009-07-11.html")
    heading = doc.get_element_by_id("renumbered").text_content()
    # As a historian says it, with the count diff gives for the pair.
    assert f"Renumbering: {report.summary['renumbered']:,} clauses renumbered" in heading
    assert "A renumbering." in doc.text_content()
    table = doc.xpath('//h3[@id="renumbered"]/following-sibling::table[1]')[0]
    pairs = {
        (tr[0].text_content().strip(), tr[1].text_content().strip()): tr[3].text_content()
        for tr in table.xpath("./tbody/tr")
    }
    # Read by hand in the two files: trample's 502.9f is 2009-07-11's 702.17e, word for word.
    assert pairs[("502.9f", "702.17e")].startswith("same wording: Multiple instances of trample")
    removed_heading = doc.get_element_by_id("removed").text_content()
    assert f"({report.summary['removed']:,})" in removed_heading


def test_rule_107_3_history_is_the_one_trace_gives(corpus_site) -> None:
    db, out = corpus_site
    doc = _doc(out / "rules" / "107.3.html")
    sections = {s.get("id"): s for s in doc.xpath('//section[@class="clause"]')}
    today = [k for k in sections if "~" not in k]
    assert len(today) == 15  # 107.3, 107.3a ... 107.3p, no 107.3l or 107.3o
    engine = open_store(str(db))
    with session_scope(engine) as s:
        traces = {k: trace_clause(s, k) for k in today}
    engine.dispose()
    for key in today:
        rows = _rows(sections[key])
        spans = traces[key].english
        assert len(rows) == len(spans), key
        for row, span in zip(rows, spans, strict=True):
            assert row[0] == span.from_date, key
            assert row[2] == (span.label or ""), key
            assert row[3].startswith(span.event or ""), key
    # The X rule: in the glossary before July 2009, 107.3f then, 107.3g since 2020.
    x = _rows(sections["107.3g"])
    assert x[0][2] == "glossary: X" and x[0][0] == "2006-02-01"
    assert ["2009-07-11", "2019-10-04", "107.3f", "became a numbered rule"] == x[-2][:4]
    assert ["2020-09-25", "today", "107.3g"] == x[-1][:3]


def test_702_19g_is_followed_through_the_renumbering_by_its_text(corpus_site) -> None:
    """Read by hand in the corpus files: "Multiple instances of trample on the same creature
    are redundant." is 502.9f until 2009-05-01, 702.17e in 2009-07-11, 702.18e in 2012 and
    2013, 702.19e from 2014, and 702.19g (with trample over planeswalkers) since 2022. The
    2009 702.19g is banding, another rule that once had the number."""
    _, out = corpus_site
    section = _doc(out / "rules" / "702.19.html").get_element_by_id("702.19g")
    rows = _rows(section)
    assert [r[2] for r in rows] == ["502.9f", "702.17e", "702.18e", "702.19e", "702.19g"]
    assert rows[0][0] == "2006-02-01" and rows[-1][:2] == ["2022-06-10", "today"]
    assert "Banding" not in section.text_content()


def test_translations_stand_side_by_side_with_inferred_numbers_marked(corpus_site) -> None:
    _, out = corpus_site
    doc = _doc(out / "rules" / "107.3.html")
    table = doc.xpath('//table[@class="side"]')[0]
    headers = [th.text_content() for th in table.xpath("./thead/tr/th")]
    spanish = next(k for k, h in enumerate(headers) if h.startswith("Spanish"))
    chinese = next(k for k, h in enumerate(headers) if h.startswith("Chinese (Simplified)"))
    cells = [tr.xpath("./td") for tr in table.xpath("./tbody/tr")]
    assert len(cells) == 15
    # The Spanish page numbers none of its subrules: the aligner infers each, and says so.
    inferred = [bool(row[spanish].xpath(".//abbr[@class='inferred']")) for row in cells]
    assert inferred[0] is False and all(inferred[1:])
    assert all("(inferred)" in row[spanish].text_content() for row in cells[1:])
    assert not any(row[chinese].xpath(".//abbr[@class='inferred']") for row in cells)
    assert all(row[chinese].xpath(".//*[@lang='zh-Hans']") for row in cells)


def test_a_new_edition_rewrites_only_the_pages_it_changes(tmp_path: Path) -> None:
    if ON_PG:
        pytest.skip("builds its own SQLite stores")
    new = EXTRA / "cr-en-2026-01-16.txt"
    everything = sorted(p for p in CORPUS.rglob("*.txt"))
    before = [p for p in everything if p.name not in (new.name, "cr-zh-2026-01-16.txt")]
    db = tmp_path / "store.sqlite"
    engine = open_store(str(db))
    site, fresh = tmp_path / "site", tmp_path / "fresh"
    try:
        with session_scope(engine) as s:
            ingest_paths(s, before)
        with session_scope(engine) as s:
            first = build_site(s, site)
        with session_scope(engine) as s:
            ingest_paths(s, [new])
        with session_scope(engine) as s:
            again = build_site(s, site)
            diff = edition_diff(s, "en-2025-11-14", "en-2026-01-16")
        with session_scope(engine) as s:
            build_site(s, fresh)
    finally:
        engine.dispose()
    # The result is exactly what a build from scratch writes...
    names = sorted(str(p.relative_to(fresh)) for p in fresh.rglob("*") if p.is_file())
    assert names == sorted(str(p.relative_to(site)) for p in site.rglob("*") if p.is_file())
    _, mismatch, errors = filecmp.cmpfiles(site, fresh, names, shallow=False)
    assert mismatch == [] and errors == []
    # ...and only a few pages were written to get there: the new edition, its neighbour,
    # the lists, and the rules that the new edition changed.
    written = set(again.written)
    assert {"editions/en-2026-01-16.html", "editions/en-2025-11-14.html", "index.html"} <= written
    assert len(written) < first.files // 20
    touched = {
        posixpath.join("rules", rule_of(label) + ".html")
        for c in diff.changes
        if c.clause_kind in ("rule", "example")
        for label in (c.to_label, c.from_label, c.parent)
        if label
    }
    # 107.3 also changes: the undated pages (the Spanish one) now follow the new English.
    touched.add("rules/107.3.html")
    rule_pages = {w for w in written if w.startswith("rules/") and w != "rules/index.html"}
    for page in sorted(rule_pages - touched):
        # Another rule's page changes only when it refers to a rule the edition changed
        # (the link now leads to that rule's new number, or exists at last), or when its
        # previous or next rule is a new (or a removed) one.
        doc = _doc(site / page)
        hrefs = doc.xpath('//a[@class="ref"]/@href | //nav[@aria-label="Rules"]//a/@href')
        targets = {posixpath.normpath(posixpath.join("rules", h.split("#")[0])) for h in hrefs}
        assert targets & touched, page


@pytest.mark.skipif(
    not ARCHIVE.is_dir(), reason="the English archive (shared/cr-archive) is absent"
)
def test_the_archive_2009_renumbering_is_a_renumbering(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    for name in ("2009-05-01.txt", "2009-07-11.txt"):
        shutil.copy(ARCHIVE / name, src / name)
    db = tmp_path / "archive.sqlite"
    engine = open_store(str(db))
    try:
        with session_scope(engine) as s:
            ingest_paths(s, [src])
        with session_scope(engine) as s:
            build_site(s, tmp_path / "site")
            report = edition_diff(s, "en-2009-05-01", "en-2009-07-11")
    finally:
        engine.dispose()
    moved = sum(1 for c in report.changes if c.kind == "renumbered" and c.clause_kind == "rule")
    removed = sum(1 for c in report.changes if c.kind == "removed" and c.clause_kind == "rule")
    assert moved > 1000 and removed * 5 < moved
    doc = _doc(tmp_path / "site" / "editions" / "en-2009-07-11.html")
    assert f"{report.summary['renumbered']:,} clauses renumbered" in (
        doc.get_element_by_id("renumbered").text_content()
    )
    section = _doc(tmp_path / "site" / "rules" / "702.17.html").get_element_by_id("702.17e")
    assert [r[2] for r in _rows(section)] == ["502.9f", "702.17e"]
