"""The site as a reader sees it: headless Chromium loads the index, an edition page, the 107.3
page and the search page of the bundled corpus's site from file://, with no network, checks
what it shows and saves screenshots (kept in CI under .ci-artifacts/browser).

Run with: pytest -m browser tests/test_site_browser.py (Debian's chromium package).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from lxml import html as lxml_html

from mtgrules.reports.diff import edition_diff
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import list_editions

from .test_reports_html import count_colour, dump_dom, screenshot
from .test_site import make_small_site

pytestmark = pytest.mark.browser

# Colours of site.css: the rules line and its marks, the coverage bars, inserted and
# deleted words.
RULES_RGB = (0x0B, 0x57, 0xA4)
BAR_RGB = (0x2F, 0x7D, 0x4F)
INS_RGB = (0xC8, 0xF7, 0xC5)
DEL_RGB = (0xFF, 0xD0, 0xD0)


def _dom(tmp_path: Path, page: Path, query: str = "") -> lxml_html.HtmlElement:
    url_page = page if not query else page.with_name(page.name)  # file URL + query below
    text = dump_dom(tmp_path, url_page) if not query else _dump_with_query(tmp_path, page, query)
    return lxml_html.fromstring(text)


def _dump_with_query(tmp_path: Path, page: Path, query: str) -> str:
    from .test_reports_html import _run_chromium

    return _run_chromium(tmp_path, "--dump-dom", page.as_uri() + query).stdout


def test_index_lists_every_edition_and_draws_both_charts(corpus_site, tmp_path: Path) -> None:
    db, out = corpus_site
    engine = open_store(str(db))
    with session_scope(engine, write=False) as s:
        infos = list_editions(s)
    engine.dispose()
    doc = _dom(tmp_path, out / "index.html")
    rows = doc.xpath('//table[@class="editions"]/tbody/tr')
    assert len(rows) == len(infos)
    assert {r.xpath("./th/a")[0].text for r in rows} == {e.slug for e in infos}
    charts = doc.xpath("//svg[@role='img']")
    assert len(charts) == 2
    growth = charts[0]
    english = [e for e in infos if e.language == "en" and e.kind == "rules" and e.date]
    assert len(growth.xpath(".//circle")) == len(english)
    assert f"{english[-1].rules:,} rules" in growth.text_content()
    shot = screenshot(tmp_path, out / "index.html", "site-index.png", "1400,1400")
    assert count_colour(shot, RULES_RGB) > 500  # the line and its marks are painted
    assert count_colour(shot, BAR_RGB) > 5000  # and the coverage bars


def test_edition_page_shows_the_2009_renumbering(corpus_site, tmp_path: Path) -> None:
    db, out = corpus_site
    engine = open_store(str(db))
    with session_scope(engine, write=False) as s:
        report = edition_diff(s, "en-2009-05-01", "en-2009-07-11")
    engine.dispose()
    page = out / "editions" / "en-2009-07-11.html"
    doc = _dom(tmp_path, page)
    assert doc.xpath("//h1")[0].text_content() == "English rules: 2009-07-11"
    heading = doc.get_element_by_id("renumbered").text_content()
    assert heading == f"Renumbering: {report.summary['renumbered']:,} clauses renumbered"
    pager = doc.xpath('//nav[@aria-label="Editions"]')[0].text_content()
    assert "2009-05-01" in pager and "2012-07-01" in pager
    screenshot(tmp_path, page, "site-edition.png", "1400,1400")
    # A smaller changelog, whole: its changed words struck through and underlined.
    newest = out / "editions" / "en-2026-01-16.html"
    tall = screenshot(tmp_path, newest, "site-edition-2026.png", "1400,3000")
    assert count_colour(tall, INS_RGB) > 1000 and count_colour(tall, DEL_RGB) > 1000


def test_rule_page_shows_history_and_translations(corpus_site, tmp_path: Path) -> None:
    _, out = corpus_site
    page = out / "rules" / "107.3.html"
    doc = _dom(tmp_path, page)
    assert doc.xpath("//h1")[0].text_content() == "Rule 107.3"
    sections = doc.xpath('//section[@class="clause"]')
    assert [s.get("id") for s in sections][:3] == ["107.3", "107.3a", "107.3b"]
    side = doc.xpath('//table[@class="side"]')[0]
    headers = [th.text_content() for th in side.xpath("./thead/tr/th")]
    assert headers[0] == "Today's English" and any(h.startswith("Spanish") for h in headers)
    g = doc.get_element_by_id("107.3g").text_content()
    assert "glossary: X" in g and "became a numbered rule" in g and "107.3f" in g
    shot = screenshot(tmp_path, page, "site-rule-107.3.png", "1400,1400")
    assert shot.exists()
    # Its history below, with the words that changed struck through and underlined.
    tall = screenshot(tmp_path, page, "site-rule-107.3-full.png", "1400,9000")
    assert count_colour(tall, INS_RGB) > 300 and count_colour(tall, DEL_RGB) > 300


def test_search_page_finds_rules_by_words_and_by_old_numbers(corpus_site, tmp_path: Path) -> None:
    _, out = corpus_site
    page = out / "search.html"
    for query, first in (("?q=trample", "702.19"), ("?q=502.9f", "702.19g")):
        doc = lxml_html.fromstring(_dump_with_query(tmp_path, page, query))
        results = doc.xpath('//ol[@id="results"]/li')
        assert results, query
        assert results[0].xpath("./a")[0].text == first, query
        status = doc.get_element_by_id("status").text_content()
        assert re.match(r"\d+ clauses? found", status), status
    shot = tmp_path / "site-search.png"
    from .test_reports_html import _run_chromium

    _run_chromium(
        tmp_path, f"--screenshot={shot}", "--window-size=1400,900", page.as_uri() + "?q=trample"
    )
    assert shot.stat().st_size > 1000


@pytest.mark.parametrize("query", ["?q=%", "?q=100%", "?q=%E0%A4%A", "?q=trample%"])
def test_a_malformed_query_in_the_address_is_searched_not_thrown(
    corpus_site, tmp_path: Path, query: str
) -> None:
    """decodeURIComponent throws URIError on a lone %: the page reads the query as typed
    and searches it (the status line is only written when the script ran to its end)."""
    _, out = corpus_site
    doc = lxml_html.fromstring(_dump_with_query(tmp_path, out / "search.html", query))
    status = doc.get_element_by_id("status").text_content()
    assert re.match(r"\d+ clauses? found", status), (query, status)


def test_hostile_rule_text_never_runs(tmp_path: Path) -> None:
    _, out = make_small_site(tmp_path / "small")
    for page in (out / "rules" / "107.3.html", out / "editions" / "en-2026-01-16.html"):
        dom = dump_dom(tmp_path, page)
        title = dom.split("<title>")[1].split("</title>")[0]
        assert "pwned" not in title and title.strip() != "1"
        assert "<img src=" not in dom and 'document.title="pwned"' not in dom.split("<body")[0]
        assert "&lt;script&gt;document.title" in dom
