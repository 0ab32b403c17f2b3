"""`mtgrules site`: the static website, on a small real store (rules 100-107 of the 2025-11-14
and 2026-01-16 English editions of the bundled corpus, one rule made hostile), plus the pieces
that every page shares. The whole-corpus site is in test_site_corpus.py (slow) and
test_site_browser.py (Chromium)."""

from __future__ import annotations

import json
import posixpath
import re
import sqlite3
import xml.etree.ElementTree as ET
from contextlib import closing
from pathlib import Path

import pytest
from lxml import html as lxml_html

from mtgrules.errors import InputError
from mtgrules.site.charts import CoverageBar, GrowthPoint, coverage_chart, growth_chart
from mtgrules.site.html import Linker, diff_html, linked
from mtgrules.site.output import MANIFEST, SiteFolder

from .conftest import EXTRA, run_cli
from .site_check import broken_links, pages, parse_errors

HOSTILE = '<script>document.title="pwned"</script><img src=x onerror="document.title=1">'

# (text, labels the resolver knows, links expected in order)
LINK_CASES = [
    ("The four-card limit (see rule 100.2a) applies.", {"100.2a"}, ["100.2a"]),
    ("See rule 702.19, “Trample.”", {"702.19"}, ["702.19"]),
    ("见规则601.2e。", {"601.2e"}, ["601.2e"]),
    ("see rule 999.9", set(), []),  # unknown: stays text
    ("See rule 601, “Casting Spells.”", set(), ["601"]),  # a section, after "rule"
    ("Each player starts with 100 cards.", set(), []),  # a number, not a section
    ("rules 100.2a and 100.3", {"100.2a", "100.3"}, ["100.2a", "100.3"]),
]


def _from_root(folder: str, href: str) -> str:
    """A relative link of a page in ``folder``, as a path from the site's root."""
    return posixpath.normpath(posixpath.join(folder, href))


def _resolve(known: set[str]):
    return lambda label: f"rules/{label}.html" if label in known else None


@pytest.mark.parametrize(("text", "known", "expected"), LINK_CASES)
def test_rule_references_become_links(text: str, known: set[str], expected: list[str]) -> None:
    out = linked(text, _resolve(known), lambda s: f"rules/index.html#s{s}")
    doc = lxml_html.fragment_fromstring(out, create_parent="p")
    assert [a.text for a in doc.iter("a")] == expected
    assert doc.text_content() == text  # the reader sees the text itself, whole


@pytest.mark.parametrize("text", [HOSTILE, "a < b & c > d \"quoted\" 'single'", "</p><p>"])
def test_rule_text_is_always_escaped(text: str) -> None:
    out = linked(text, _resolve(set()))
    assert "<" not in out and ">" not in out
    assert lxml_html.fragment_fromstring(out, create_parent="p").text_content() == text
    ops = [{"op": "replace", "a": text, "b": text + " 100.2a"}]
    diff = diff_html(ops, Linker(_resolve(set())), Linker(_resolve({"100.2a"})))
    doc = lxml_html.fragment_fromstring(diff, create_parent="p")
    assert [el.tag for el in doc] == ["del", "ins"]
    assert doc[0].text_content() == "removed: " + text  # a hidden word says what it is
    assert [a.text for a in doc.iter("a")] == ["100.2a"]


def test_growth_chart_marks_each_edition_with_shape_and_dash() -> None:
    points = [
        GrowthPoint("2003-03-15", 514, 300),
        GrowthPoint("2009-07-11", 1472, 408),
        GrowthPoint("2026-01-16", 3114, 725),
    ]
    svg_html = growth_chart(points)
    svg = ET.fromstring(svg_html[svg_html.index("<svg") : svg_html.index("</svg>") + 6])
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.get("role") == "img" and svg.find(f"{ns}title") is not None
    # Rules are round marks on a solid line, glossary entries square marks on a dashed one.
    assert len(svg.findall(f".//{ns}circle")) == 3 and len(svg.findall(f".//{ns}rect")) == 3
    desc = svg.find(f"{ns}desc").text
    assert "514 to 3,114" in desc and "300 to 725" in desc
    labels = [t.text for t in svg.iter(f"{ns}text")]
    assert "3,114 rules" in labels and "725 glossary entries" in labels
    assert "2003" in labels and "3,500" in labels  # years along x, round numbers along y


def test_coverage_chart_writes_each_share_as_text() -> None:
    bars = [
        CoverageBar("zh-Hans-2022-06-10", "en-2022-06-10", 2660, 2668),
        CoverageBar("fr-x", "y", 9, 9),
    ]
    out = coverage_chart(bars)
    assert "99.7% (2,660 of 2,668)" in out and "100.0% (9 of 9)" in out


# --- the output folder -------------------------------------------------------------------


def test_a_folder_that_is_not_a_site_is_refused_unless_forced(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InputError, match="not a site made by mtgrules.*--force"):
        SiteFolder.open(tmp_path)
    folder = SiteFolder.open(tmp_path, force=True)
    folder.put("index.html", "<p>x</p>")
    folder.close({})
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert json.loads((tmp_path / MANIFEST).read_text())["files"].keys() == {"index.html"}
    SiteFolder.open(tmp_path)  # now it is a site: no --force needed


def test_only_changed_files_are_written_and_stale_ones_removed(tmp_path: Path) -> None:
    first = SiteFolder.open(tmp_path)
    for name in ("a.html", "b.html", "sub/c.html"):
        first.put(name, f"<p>{name}</p>")
    first.close({})
    (tmp_path / "user.txt").write_text("not ours", encoding="utf-8")
    second = SiteFolder.open(tmp_path)
    assert second.put("a.html", "<p>a.html</p>") is False  # same bytes: left alone
    assert second.put("b.html", "<p>changed</p>") is True
    counts = second.close({})
    assert counts.written == ["b.html"] and counts.unchanged == 1
    assert counts.removed == ["sub/c.html"] and not (tmp_path / "sub" / "c.html").exists()
    assert (tmp_path / "user.txt").exists()


def test_a_doctored_manifest_cannot_delete_files_outside_the_site(tmp_path: Path) -> None:
    site, outside = tmp_path / "site", tmp_path / "precious.txt"
    site.mkdir()
    outside.write_text("keep", encoding="utf-8")
    files = {"../precious.txt": "0" * 64, str(outside): "0" * 64}
    (site / MANIFEST).write_text(json.dumps({"generator": "mtgrules site", "files": files}))
    SiteFolder.open(site).close({})
    assert outside.read_text(encoding="utf-8") == "keep"


# --- a small real store ----------------------------------------------------------------------


def _excerpt(name: str, hostile: str | None = None) -> str:
    """Front matter, contents and rules 100-107 of a corpus file, as it is (its lines)."""
    lines = (EXTRA / name).read_bytes().decode("utf-8-sig").splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith("100.1."))
    end = next(i for i in range(first, len(lines)) if lines[i].startswith("108. "))
    body = lines[:end]
    if hostile:
        k = next(i for i, line in enumerate(body) if line.startswith("107.3g "))
        body[k] += " " + hostile
    return "\n".join(body) + "\n"


def make_small_site(base: Path) -> tuple[Path, Path]:
    """A store with two real English editions (rules 100-107), the newer one carrying a
    rule with markup in it, and the site built from it by the command line."""
    src = base / "src"
    src.mkdir(parents=True)
    (src / "cr-en-2025-11-14.txt").write_text(_excerpt("cr-en-2025-11-14.txt"), encoding="utf-8")
    (src / "cr-en-2026-01-16.txt").write_text(
        _excerpt("cr-en-2026-01-16.txt", HOSTILE), encoding="utf-8"
    )
    db = base / "store.sqlite"
    result = run_cli("ingest", str(src), db=db)
    assert result.returncode == 0, result.stderr
    out = base / "site"
    result = run_cli("site", "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    assert "Wrote" in result.stdout and "rule pages" in result.stdout
    return db, out


@pytest.fixture(scope="module")
def small_site(tmp_path_factory) -> tuple[Path, Path]:
    return make_small_site(tmp_path_factory.mktemp("small-site"))


def test_small_site_has_every_page_and_no_broken_link(small_site) -> None:
    _, out = small_site
    assert (out / "index.html").is_file() and (out / "search.html").is_file()
    assert (out / "editions" / "en-2026-01-16.html").is_file()
    assert (out / "rules" / "107.3.html").is_file() and (out / "rules" / "index.html").is_file()
    assert broken_links(out) == []


def test_small_site_pages_parse_as_html(small_site) -> None:
    _, out = small_site
    errors = {str(p.relative_to(out)): parse_errors(p) for p in pages(out)}
    assert {k: v for k, v in errors.items() if v} == {}


def test_small_site_escapes_the_hostile_rule(small_site) -> None:
    _, out = small_site
    for page in pages(out):
        text = page.read_text(encoding="utf-8")
        assert "<script>document" not in text and "<img src=x" not in text, page
    rule = (out / "rules" / "107.3.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;" in rule
    edition = (out / "editions" / "en-2026-01-16.html").read_text(encoding="utf-8")
    # The markup was added in 2026: the changelog shows it as inserted words, escaped.
    assert '<ins><span class="vh">added: </span> &lt;script&gt;document' in edition
    data = (out / "assets" / "search-data.js").read_text(encoding="utf-8")
    assert "</" not in data  # nothing in the index can close the script that holds it


def test_small_site_links_rule_references_to_their_history(small_site) -> None:
    _, out = small_site
    doc = lxml_html.parse(str(out / "rules" / "100.4.html")).getroot()
    refs = {
        a.text: _from_root("rules", a.get("href")) for a in doc.iter("a") if a.get("class") == "ref"
    }
    # 100.4a reads "The four-card limit (see rule 100.2a) applies to..."
    assert refs["100.2a"] == "rules/100.2.html#100.2a"
    rule = lxml_html.parse(str(out / "rules" / "104.3.html")).getroot()
    hrefs = [_from_root("rules", a.get("href")) for a in rule.iter("a") if a.get("class") == "ref"]
    assert "rules/100.6.html#100.6" in hrefs  # 104.3k: "See rule 100.6."


def test_small_site_edition_page_links_neighbours(small_site) -> None:
    _, out = small_site
    doc = lxml_html.parse(str(out / "editions" / "en-2026-01-16.html")).getroot()
    pager = doc.xpath('//nav[@aria-label="Editions"]')[0]
    prev = pager.xpath('.//li[@class="prev"]/a/@href')
    assert [_from_root("editions", h) for h in prev] == ["editions/en-2025-11-14.html"]
    assert "No later edition" in pager.text_content()
    older = lxml_html.parse(str(out / "editions" / "en-2025-11-14.html")).getroot()
    nxt = older.xpath('//nav[@aria-label="Editions"]//li[@class="next"]/a/@href')
    assert [_from_root("editions", h) for h in nxt] == ["editions/en-2026-01-16.html"]
    # Tables have header cells for their columns.
    for table in doc.iter("table"):
        assert table.xpath("./thead/tr/th[@scope='col']")


def test_rebuilding_an_unchanged_store_writes_nothing(small_site) -> None:
    db, out = small_site
    before = {p: p.stat().st_mtime_ns for p in pages(out)}
    result = run_cli("site", "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    assert "is up to date" in result.stdout  # nothing computed, nothing written
    assert {p: p.stat().st_mtime_ns for p in pages(out)} == before


# --- a store of one edition ------------------------------------------------------------------

# A numbered rule (107.3, 702.19), as opposed to a section or a subrule: one page each.
_NUMBERED = re.compile(r"[0-9]{3}\.[0-9]{1,4}")
# (what is ingested, words of its rule 107.3a on that rule's page): a single English edition,
# and a single translation (ingest takes the English it was made from from the packed
# archive: the rule pages are those of that English, the translation beside it).
ONE_EDITION = [
    ("cr-en-2026-01-16.txt", "If a spell or activated ability has a mana cost"),
    ("cr-zh-2026-01-16.txt", "如果一个咒语或起动式异能所具有的法术力费用"),
]


@pytest.mark.parametrize(("name", "words"), ONE_EDITION, ids=[n for n, _ in ONE_EDITION])
def test_a_store_of_one_edition_gets_its_rule_pages(tmp_path: Path, name: str, words: str) -> None:
    db, out = tmp_path / "store.sqlite", tmp_path / "site"
    ingested = run_cli("ingest", str(EXTRA / name), db=db)
    assert ingested.returncode == 0, ingested.stderr
    result = run_cli("site", "-o", str(out), db=db)
    assert result.returncode == 0, result.stderr
    with closing(sqlite3.connect(db)) as conn:
        labels = conn.execute(
            "SELECT c.label FROM clause c JOIN edition e ON e.id = c.edition_id "
            "WHERE e.language = 'en' AND c.kind = 'rule' AND c.label IS NOT NULL"
        ).fetchall()
    numbered = {label for (label,) in labels if _NUMBERED.fullmatch(label)}
    written = {p.stem for p in (out / "rules").glob("*.html")} - {"index"}
    assert written == numbered and len(written) > 1000
    assert f"{len(numbered):,} rule pages" in result.stdout
    page = lxml_html.parse(str(out / "rules" / "107.3.html")).getroot()
    text = " ".join(page.text_content().split())
    assert "Many objects use the letter X as a placeholder" in text  # today's 107.3
    assert words in text and page.get_element_by_id("107.3a") is not None
    index = lxml_html.parse(str(out / "rules" / "index.html")).getroot()
    assert "107.3.html" in {a.get("href") for a in index.iter("a")}
    assert '"l":"107.3a"' in (out / "assets" / "search-data.js").read_text(encoding="utf-8")
    assert broken_links(out) == []


# --- bad input: one line, an exit code, no traceback ------------------------------------


def test_a_store_with_no_editions_gets_one_line(empty_db, tmp_path: Path) -> None:
    result = run_cli("site", "-o", str(tmp_path / "site"), db=empty_db)
    assert result.returncode == 3
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert "no editions" in result.stderr and "mtgrules ingest" in result.stderr
    assert not (tmp_path / "site").exists()


@pytest.mark.parametrize("case", ["not-a-site", "a-file"])
def test_a_bad_output_folder_is_refused(small_site, tmp_path: Path, case: str) -> None:
    db, _ = small_site
    if case == "not-a-site":
        target = tmp_path / "photos"
        target.mkdir()
        (target / "cat.jpg").write_bytes(b"\xff\xd8")
        expected = "--force"
    else:
        target = tmp_path / "file.html"
        target.write_text("x", encoding="utf-8")
        expected = "is a file"
    result = run_cli("site", "-o", str(target), db=db)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert expected in result.stderr
    if case == "not-a-site":
        assert sorted(p.name for p in target.iterdir()) == ["cat.jpg"]
        forced = run_cli("site", "-o", str(target), "--force", db=db)
        assert forced.returncode == 0, forced.stderr
        assert (target / "cat.jpg").read_bytes() == b"\xff\xd8" and (target / "index.html").exists()
