"""Real translations in every language (issue 16, item 1): each full translation is one
edition, dated from its own text, whatever its encoding, layout and language.

Material: the real files of ../shared/translations (their quirks in SOURCES.md there), the
bundled corpus, and excerpts of them transcoded in the test (never edited on disk). The
expected values come from SOURCES.md (dates, encodings, the Japanese glossary's 728
entries) or are counted here from the raw text with expressions written apart from the
parser (a label at the start of a line).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from mtgrules.errors import NotRulesError
from mtgrules.ingest import edition_content_hash, ingest_paths
from mtgrules.reports.checks import check_pair
from mtgrules.sources.dates import read_date_line
from mtgrules.sources.decode import decode_text
from mtgrules.sources.parse import parse_text
from mtgrules.sources.pipeline import parse_document
from mtgrules.store import open_store, session_scope
from mtgrules.store.queries import edition_slug, list_editions

from .conftest import EXTRA, SEEDS, TRANSLATIONS, run_cli

pytestmark = pytest.mark.skipif(
    not TRANSLATIONS.is_dir(), reason=f"{TRANSLATIONS} not present (the shared data)"
)

# A label at the start of a line, as a reader counts the numbered rules of a file.
_RULE_LINE = re.compile(r"(?m)^[0-9]{3}\.[0-9]{1,3}[a-z]?(?![0-9])")


@cache
def _parsed(name: str):
    path = TRANSLATIONS / name
    return parse_document(path, path.read_bytes())


def _raw_text(name: str, encoding: str) -> str:
    return (TRANSLATIONS / name).read_bytes().decode(encoding)


# --- one edition per full translation, dated from its own text ----------------------------

# file, encoding as SOURCES.md gives it, language, effective date, translated on, glossary
FULL = [
    ("ko-2016-09-30.kormtgcr.txt", "cp949", "ko", "2016-09-30", None, "omitted"),
    ("ko-2018-08-10.kormtgcr.txt", "utf-8-sig", "ko", "2018-08-10", None, "omitted"),
    ("ko-2019-10-04.kormtgcr.txt", "utf-8-sig", "ko", "2019-10-04", None, "omitted"),
    ("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", "ko", "2020-09-25", None, "omitted"),
    # effective date on the last line; "2026-01-16 に翻訳" on line 4
    ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", "ja", "2026-01-16", "2026-01-16", 728),
    ("zh-Hans-2026-02-27.helium.txt", "utf-8", "zh-Hans", "2026-02-27", None, None),
    ("en-2026-02-27.android.txt", "utf-8-sig", "en", "2026-02-27", None, None),
]


@pytest.mark.parametrize(
    ("name", "encoding", "language", "date", "translated", "glossary"),
    FULL,
    ids=[row[0] for row in FULL],
)
def test_a_full_translation_is_one_edition_dated_from_its_text(
    name, encoding, language, date, translated, glossary
) -> None:
    doc = _parsed(name)
    assert doc.decoded.encoding == encoding
    (edition,) = doc.editions
    assert edition.language == language
    assert edition.layout == "official"
    assert edition.date == dt.date.fromisoformat(date)
    assert edition.translated == (dt.date.fromisoformat(translated) if translated else None)
    # Every numbered line of the file is one rule of the edition: English keyword headings
    # ("701.22. Fateseal") and duplicated labels included.
    assert edition.rule_count == len(_RULE_LINE.findall(_raw_text(name, encoding)))
    entries = sum(1 for c in edition.clauses if c.kind == "glossary")
    if glossary == "omitted":
        assert edition.glossary_omitted and entries == 0
    else:
        assert not edition.glossary_omitted
        if glossary is not None:
            assert entries == glossary


def test_the_korean_docx_parses_to_the_same_edition_as_its_text() -> None:
    (txt,) = _parsed("ko-2018-08-10.kormtgcr.txt").editions
    (docx,) = _parsed("ko-2018-08-10.kormtgcr.docx").editions
    assert _parsed("ko-2018-08-10.kormtgcr.docx").decoded.format == "docx"
    assert edition_content_hash(docx) == edition_content_hash(txt)
    assert (docx.date, docx.glossary_omitted) == (txt.date, txt.glossary_omitted)


def test_english_left_in_a_translation_is_an_untranslated_clause_of_it() -> None:
    (edition,) = _parsed("ko-2020-09-25.kormtgcr.txt").editions
    rules = {c.label: c.raw for c in edition.clauses if c.kind == "rule"}
    assert rules["701.22"] == "Fateseal"  # the keyword heading, kept in English
    assert re.search("[가-힣]", rules["701.22a"])  # its subrule, translated
    examples = [c for c in edition.clauses if c.kind == "example"]
    assert examples and all(c.raw.startswith("Example:") for c in examples)


@pytest.mark.parametrize(
    ("name", "label", "times"),
    [
        ("ko-2020-09-25.kormtgcr.txt", "101.4d", 2),  # the second one is 101.4e
        ("ja-2026-01-16.mtgwiki-lines.txt", "505.4", 2),  # SOURCES.md: two different 505.4.
    ],
)
def test_a_duplicated_label_is_two_clauses_of_one_edition(name, label, times) -> None:
    (edition,) = _parsed(name).editions
    twins = [c for c in edition.clauses if c.kind == "rule" and c.label == label]
    assert len(twins) == times and len({c.raw for c in twins}) == times


@pytest.mark.parametrize(
    ("name", "encoding", "form"),
    [
        # glued to their text in any script: "302.4b생물의", "708.12裏向き" (13 in ja)
        ("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", r"[0-9]{3}\.[0-9]+[a-z]?(?=[가-힣])"),
        ("ko-2016-09-30.kormtgcr.txt", "cp949", r"[0-9]{3}\.[0-9]+[a-z]?(?=[가-힣])"),
        ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", r"[0-9]{3}\.[0-9]+[a-z]?(?=[^\x00-\x7f])"),
        # a rule's label without its final period ("606.5 忠誠度能力を...", 5 in ja)
        ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", r"[0-9]{3}\.[0-9]+(?= )"),
        # alone on its line, its text on the next ("500.10a")
        ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", r"[0-9]{3}\.[0-9]+[a-z]?(?=$)"),
    ],
)
def test_labels_in_every_form(name: str, encoding: str, form: str) -> None:
    raw = _raw_text(name, encoding).splitlines()
    expected = {n + 1: m[0] for n, ln in enumerate(raw) if (m := re.match(form, ln))}
    assert expected
    (edition,) = _parsed(name).editions
    rules = {c.line: c for c in edition.clauses if c.kind == "rule"}
    for line, label in expected.items():
        assert rules[line].label == label
        text = raw[line - 1][len(label) :].lstrip(". ") or raw[line]
        assert rules[line].raw.startswith(text.strip()[:20])


@pytest.mark.parametrize(
    ("name", "encoding", "form"),
    [
        ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", r"([0-9]{3})\. (.+)"),  # "720. 前兆カード"
        ("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", r"([0-9]{3}) \. (.+)"),  # "720 . 前兆カード"
        ("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", r"([0-9]{3})\. (.+)"),
    ],
)
def test_section_headings_in_every_form(name: str, encoding: str, form: str) -> None:
    """Each section heading is a heading of its own, never glued onto the rule before it
    (the contents, before rule 100.1, are not headings)."""
    raw = _raw_text(name, encoding).splitlines()
    start = next(n for n, ln in enumerate(raw) if re.match(r"100\.1\b", ln))
    expected = {
        n + 1: m.groups() for n, ln in enumerate(raw) if n > start and (m := re.fullmatch(form, ln))
    }
    assert expected
    (edition,) = _parsed(name).editions
    at_line = {c.line: c for c in edition.clauses}
    for line, (label, title) in expected.items():
        assert (at_line[line].kind, at_line[line].label) == ("heading", label)
        assert title.strip() in at_line[line].raw


def test_a_mediawiki_chapter_with_labels_as_headings() -> None:
    doc = _parsed("ja-2026-01-16-chapter1.mediawiki.txt")
    assert doc.decoded.format == "mediawiki"
    (chapter,) = doc.editions
    assert chapter.language == "ja"
    assert chapter.date == dt.date(2026, 1, 16)  # "（和訳 20260116.0 版）" on line 1
    (full,) = _parsed("ja-2026-01-16.mtgwiki-lines.txt").editions
    labels = [c.label for c in chapter.clauses if c.kind == "rule"]
    assert labels == [c.label for c in full.clauses if c.kind == "rule" and c.label < "2"]
    page = _raw_text("ja-2026-01-16-chapter1.mediawiki.txt", "utf-8").splitlines()
    for c in chapter.clauses:
        if c.kind == "rule":  # each points at its heading: ==100.1== or ===100.1a===
            assert re.fullmatch(rf"=+{re.escape(c.label)}=+", page[c.line - 1].strip())


# --- dates in any language, front and end matter -------------------------------------------

DATE_LINES = [  # the examples, and the English one
    ("이 규칙은 2021년 11월 19일부터 시행됩니다", "2021-11-19"),
    ("このルールは2026年1月16日から有効です", "2026-01-16"),
    ("此规则于2026年4月17日起生效", "2026-04-17"),
    ("Ces règles sont en vigueur à compter du 16 janvier 2026", "2026-01-16"),
    ("Estas reglas entran en vigor el 16 de enero de 2026", "2026-01-16"),
    ("Diese Regeln gelten ab dem 16. Januar 2026", "2026-01-16"),
    ("Queste regole sono in vigore dal 16 gennaio 2026", "2026-01-16"),
    ("Estas regras entram em vigor em 16 de janeiro de 2026", "2026-01-16"),
    ("Эти правила вступают в силу 16 января 2026 г.", "2026-01-16"),
    ("These rules are effective as of February 27, 2026.", "2026-02-27"),
]


@pytest.mark.parametrize(("line", "date"), DATE_LINES)
def test_a_date_line_in_any_language(line: str, date: str) -> None:
    found = read_date_line(line)
    assert found is not None and found.kind == "effective"
    assert found.date == dt.date.fromisoformat(date)


@pytest.mark.parametrize(
    ("line", "kind", "date"),
    [
        ("このルールは２０２６年１月１６日から有効です。", "effective", "2026-01-16"),  # full-width
        ("此規則於2026年4月17日起生效。", "effective", "2026-04-17"),  # Traditional
        ("Diese Regeln treten am 16. Januar 2026 in Kraft.", "effective", "2026-01-16"),
        ("… 翻訳チーム が 2026-01-16 に翻訳したものです。", "translated", "2026-01-16"),
        ("These rules are effective as of Febuary 27, 2026.", "effective", None),  # misspelt
        ("이 규칙은 2021년 13월 19일부터 시행됩니다.", "effective", None),  # no 13th month
        ("Ces règles sont en vigueur à compter du 31 avril 2026", "effective", None),
    ],
)
def test_date_lines_read_and_unreadable(line: str, kind: str, date: str | None) -> None:
    found = read_date_line(line)
    assert found is not None and found.kind == kind
    assert found.date == (dt.date.fromisoformat(date) if date else None)


@pytest.mark.parametrize(
    "line",
    [
        "702.19b Trample is a static ability that took effect as of the 2008 rules.",
        "Der Spieler wählt 2026 Karten.",
        "107.3 Dieser Wert gilt ab sofort.",
        "",
    ],
)
def test_lines_that_are_no_date_lines(line: str) -> None:
    assert read_date_line(line) is None


def _korean_with_date_line(date_line: str) -> list:
    """The Korean 2020 text with its date line (line 3) replaced, in memory."""
    lines = _raw_text("ko-2020-09-25.kormtgcr.txt", "utf-8-sig").splitlines()
    assert lines[2].startswith("이 규칙은 2020년")
    lines[2] = date_line
    return parse_text("\n".join(lines), "ko-synthetic.txt")


@pytest.mark.parametrize(("line", "date"), DATE_LINES)
def test_the_date_line_in_the_front_matter_in_any_language(line: str, date: str) -> None:
    (edition,) = _korean_with_date_line(line)
    assert edition.date == dt.date.fromisoformat(date)
    assert edition.date_unreadable is None


def test_a_date_printed_only_at_the_end() -> None:
    lines = _raw_text("ko-2020-09-25.kormtgcr.txt", "utf-8-sig").splitlines()
    date_line = lines.pop(2)
    (edition,) = parse_text("\n".join([*lines, date_line]), "ko-end.txt")
    assert edition.date == dt.date(2020, 9, 25)


def test_an_unreadable_date_line_leaves_the_edition_undated(tmp_path: Path) -> None:
    (edition,) = _korean_with_date_line("이 규칙은 2020년 13월 25일부터 시행됩니다.")
    assert edition.date is None
    assert edition.date_unreadable == "이 규칙은 2020년 13월 25일부터 시행됩니다."
    # through ingest: not taken from the file name either, and the summary says so
    lines = _raw_text("ko-2020-09-25.kormtgcr.txt", "utf-8-sig").splitlines()
    lines[2] = "이 규칙은 2020년 13월 25일부터 시행됩니다."
    path = tmp_path / "ko-2020-09-25.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    engine = open_store(str(tmp_path / "s.sqlite"))
    with session_scope(engine) as s:
        report = ingest_paths(s, [path])
    with session_scope(engine) as s:
        (info,) = list_editions(s)
    assert info.date is None and info.slug == "ko-2020-09-25"  # the file's name, once
    (outcome,) = report.files
    assert "cannot be read" in outcome.note and "undated" in outcome.note


# --- encodings: real text transcoded ------------------------------------------------------


def _excerpt(name: str, encoding: str, first: str, lines: int) -> str:
    text = _raw_text(name, encoding).splitlines()
    start = next(i for i, ln in enumerate(text) if ln.startswith(first))
    return "\n".join(text[start : start + lines]) + "\n"


ENCODED = [
    # (excerpt of a real file, codec to save it in, its language): files we have not seen
    (("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", "701.1.", 200), "cp949", "ko"),
    (("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", "116.1.", 120), "cp932", "ja"),
    (("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", "116.1.", 120), "euc_jp", "ja"),
    (("zh-Hans-2026-02-27.helium.txt", "utf-8", "107.1.", 120), "gb18030", "zh-Hans"),
]


@pytest.mark.parametrize(
    ("source", "codec", "language"), ENCODED, ids=[f"{r[0][0][:2]}-{r[1]}" for r in ENCODED]
)
def test_a_legacy_encoding_is_recognised_and_parses_the_same(source, codec, language) -> None:
    text = _excerpt(*source)
    data = text.encode(codec)  # these excerpts have a form in the legacy encoding
    assert decode_text(data, "excerpt") == (text, codec)
    editions = parse_document(Path(f"excerpt.{codec}.txt"), data).editions
    assert [e.language for e in editions] == [language]
    as_utf8 = parse_document(Path("excerpt.txt"), text.encode("utf-8")).editions
    assert [edition_content_hash(e) for e in editions] == [edition_content_hash(e) for e in as_utf8]


def test_big5_traditional_chinese_from_the_bilingual_page() -> None:
    page = (SEEDS / "002_459ebb4253cf071c.txt").read_text("utf-8")
    data = page.encode("cp950", "replace")
    decoded, encoding = decode_text(data, "page")
    assert (encoding, decoded) == ("cp950", data.decode("cp950"))
    languages = sorted(e.language for e in parse_text(decoded, "page"))
    assert languages == ["en", "zh-Hant"]  # still two interleaved editions


def test_the_2016_korean_file_is_cp949_as_published() -> None:
    data = (TRANSLATIONS / "ko-2016-09-30.kormtgcr.txt").read_bytes()
    with pytest.raises(UnicodeDecodeError):
        data.decode("euc_kr")  # SOURCES.md: strict EUC-KR fails at byte 108103
    assert decode_text(data, "ko-2016") == (data.decode("cp949"), "cp949")


@pytest.mark.parametrize(
    ("first", "lines", "language"),
    [("701.1.", 150, "ko"), ("702.1.", 400, "ko"), ("100.1.", 80, "ko")],
)
def test_a_korean_page_is_one_edition_without_asking_its_language(first, lines, language):
    # A few rules on a page (no contents, no date): Hangul says Korean, and the English
    # keyword headings among them stay in it.
    text = _excerpt("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", first, lines)
    editions = parse_text(text, "page")
    assert [e.language for e in editions] == [language]
    assert editions[0].layout == "scraped"
    assert editions[0].rule_count == len(_RULE_LINE.findall(text))


@pytest.mark.parametrize(("first", "lines"), [("500.1.", 300), ("700.1.", 400), ("100.1.", 60)])
def test_a_japanese_page_is_one_edition_without_asking_its_language(first, lines):
    text = _excerpt("ja-2026-01-16.mtgwiki-lines.txt", "utf-8", first, lines)
    editions = parse_text(text, "page")
    assert [e.language for e in editions] == ["ja"]
    assert editions[0].rule_count == len(_RULE_LINE.findall(text))


# --- the store: names, the omitted glossary, the translation date -------------------------


@pytest.mark.parametrize(
    ("language", "date", "name", "slug"),
    [
        ("ko", "2021-11-19", "ko-2021-11-19.kormtgcr.txt", "ko-2021-11-19"),
        ("ko", None, "ko-2021-11-19.kormtgcr.txt", "ko-2021-11-19.kormtgcr"),
        ("ja", None, "ja-page.txt", "ja-page"),
        ("zh-Hans", None, "zh-Hans-2024-07-30.txt", "zh-Hans-2024-07-30"),
        ("zh-Hans", None, "zh_page.txt", "zh-Hans-page"),
        ("en", None, "english-rules.txt", "en-english-rules"),
        ("fr", None, "forum-fr-107.3", "fr-forum-fr-107.3"),
    ],
)
def test_edition_names_never_say_the_language_twice(language, date, name, slug) -> None:
    assert edition_slug(language, date, name) == slug


def test_the_whole_translation_takes_the_plain_name_beside_a_chapter(tmp_path: Path) -> None:
    """One chapter of the Japanese translation ingested first, then the whole of it, both
    dated 2026-01-16: the whole is ja-2026-01-16 (it was ja-2026-01-16-2, and the chapter,
    a sixth of the rules, answered to the plain name in update, show and search)."""
    db = tmp_path / "ja.sqlite"
    for name in ("ja-2026-01-16-chapter1.mediawiki.txt", "ja-2026-01-16.mtgwiki-lines.txt"):
        assert run_cli("ingest", str(TRANSLATIONS / name), db=db).returncode == 0
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    by_slug = {e["slug"]: e for e in editions if e["language"] == "ja"}
    assert by_slug["ja-2026-01-16"]["rules"] > 3000
    (chapter,) = [e for slug, e in by_slug.items() if slug != "ja-2026-01-16"]
    assert chapter["slug"] == f"ja-2026-01-16-{chapter['id']}" and chapter["rules"] < 1000


def test_the_store_keeps_what_a_translation_says_of_itself(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    engine = open_store(str(db))
    files = [
        TRANSLATIONS / n for n in ("ko-2018-08-10.kormtgcr.txt", "ko-2018-08-10.kormtgcr.docx")
    ]
    with session_scope(engine) as s:
        report = ingest_paths(s, files)
    with session_scope(engine) as s:
        infos = list_editions(s)
    assert [f.status for f in report.files] == ["same-edition", "added"]
    (info,) = infos
    assert info.slug == "ko-2018-08-10" and sorted(info.sources) == sorted(f.name for f in files)
    with engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT glossary_omitted, translated_on FROM edition WHERE id = ?", (info.id,)
        ).one()
    assert bool(row[0]) is True and row[1] is None
    engine.dispose()


# --- a small file with no rules is refused (issue 19) --------------------------------------

README = """# Magic Rules Archive

A collection of the Comprehensive Rules files kept for reference and comparison.

## Usage

Open any file in a text editor, or ingest the whole folder with a rules tool.
Files are named by the date their rules take effect, as published.
The older files were converted from PDF and keep their line breaks.

Contributions and corrections are welcome through pull requests.
"""


def test_a_small_readme_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "README.md"
    path.write_text(README, encoding="utf-8")
    assert len(README.splitlines()) == 11
    with pytest.raises(NotRulesError):
        parse_document(path, path.read_bytes())
    done = run_cli("ingest", str(path), db=tmp_path / "s.sqlite")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "README.md" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_glossary_page_is_still_a_glossary() -> None:
    path = SEEDS / "003_d4b01747a11831e4.txt"
    (edition,) = parse_document(path, path.read_bytes()).editions
    assert edition.kind == "glossary"
    assert Counter(c.kind for c in edition.clauses)["glossary"] == 5


# --- one file, one edition, unless it really holds two ------------------------------------


def _label_map(name: str, encoding: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for ln in _raw_text(name, encoding).splitlines():
        if (m := re.match(r"^([0-9]{3}\.[0-9]{1,3}[a-z]?)\.? ?(.+)$", ln.strip())) is not None:
            out.setdefault(m[1], m[2])
    return out


def test_a_full_text_interleaving_two_languages_is_two_editions() -> None:
    # The English and Chinese of 2026-02-27 interleaved as a bilingual page does it (each
    # English rule, then its translation), under a contents heading.
    en = _label_map("en-2026-02-27.android.txt", "utf-8-sig")
    zh = _label_map("zh-Hans-2026-02-27.helium.txt", "utf-8")
    labels = [label for label in en if label in zh][:200]
    lines = ["Comprehensive Rules", "", "Contents", "1. Game Concepts", ""]
    for label in labels:
        lines += [f"{label} {en[label]}", zh[label]]
    editions = parse_text("\n".join(lines), "bilingual")
    assert sorted(e.language for e in editions) == ["en", "zh-Hans"]
    for e in editions:
        assert 0.9 * len(labels) <= e.rule_count <= 1.1 * len(labels)


def test_a_page_quoting_two_editions_of_a_rule_in_one_language() -> None:
    # The same rules twice in a row (a page quoting the old and the new text) are two
    # editions; one label written twice inside them is not a third.
    text = _excerpt("ko-2020-09-25.kormtgcr.txt", "utf-8-sig", "107.1.", 60)
    twice = parse_text(text + "\n" + text, "page")
    assert [e.language for e in twice] == ["ko", "ko"]
    assert twice[0].rule_count == twice[1].rule_count == len(_RULE_LINE.findall(text))
    lines = text.splitlines()
    k = next(i for i, ln in enumerate(lines) if ln.startswith("107.2"))
    lines[k] = "107.1" + lines[k][len("107.2") :]  # a mislabel: 107.2 written as 107.1
    (once,) = parse_text("\n".join(lines), "page")
    assert [c.label for c in once.clauses if c.kind == "rule"].count("107.1") == 2


def _wiki_chapter_head(lines: int) -> list[str]:
    page = _raw_text("ja-2026-01-16-chapter1.mediawiki.txt", "utf-8").splitlines()
    start = next(i for i, ln in enumerate(page) if ln.strip() == "=100=")
    head = page[start : start + lines]
    while _HEADING.match(head[-1].strip()):  # end on a rule's text, not on its label
        head.pop()
    return head


_HEADING = re.compile(r"^(=+)([^=]+)\1$")
WIKIS = {"dokuwiki", "mediawiki"}


def _as_dokuwiki(line: str) -> str:
    m = _HEADING.match(line.strip())
    return f"{'=' * (7 - len(m[1]))} {m[2]} {'=' * (7 - len(m[1]))}" if m else line


def _as_markdown(line: str) -> str:
    m = _HEADING.match(line.strip())
    line = re.sub(r"\[\[([^|\]]+)\|([^\]]+)\]\]", r"[\2](\1)", line)  # wiki links
    return f"{'#' * len(m[1])} {m[2]}" if m else line


def _as_html(line: str) -> str:
    m = _HEADING.match(line.strip())
    return f"<h{len(m[1])}>{m[2]}</h{len(m[1])}>" if m else f"<p>{line}</p>"


@pytest.mark.parametrize(
    ("dialect", "convert"),
    [("dokuwiki", _as_dokuwiki), ("markdown", _as_markdown), ("html", _as_html)],
)
def test_labels_as_headings_in_every_markup(dialect: str, convert) -> None:
    # The MediaWiki chapter's first rules, their headings rewritten in another markup.
    head = _wiki_chapter_head(120)
    expected = [m[2] for ln in head if (m := _HEADING.match(ln.strip())) and "." in m[2]]
    assert len(expected) > 40
    body = [convert(ln) for ln in head]
    if dialect == "html":
        body = ["<!DOCTYPE html>", "<html><body>", *body, "</body></html>"]
    doc = parse_document(Path(f"page.{dialect}"), "\n".join(body).encode("utf-8"))
    # (headings and [[links]] alone do not tell DokuWiki from MediaWiki; both read alike)
    assert doc.decoded.format == dialect or {dialect, doc.decoded.format} == WIKIS
    (edition,) = doc.editions
    assert edition.language == "ja"
    assert [c.label for c in edition.clauses if c.kind == "rule"] == expected


# --- QA checks on whole translations against the English of their date --------------------

# A letter of the translation's own script, as a reader spots it: kana, kanji or Hangul.
_OWN_SCRIPT = re.compile("[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]")
# The Japanese gives a term's English wording after its own: 「望む数／any number」.
_QUOTES_ENGLISH = re.compile("／[A-Za-z\\[]")


@pytest.mark.parametrize(
    ("name", "language", "english", "quoting"),
    [
        ("ja-2026-01-16.mtgwiki-lines.txt", "ja", "cr-en-2026-01-16.txt", 800),  # 832 here
        ("ko-2016-09-30.kormtgcr.txt", "ko", "cr-en-2016-09-30.txt", 0),
        ("ko-2020-09-25.kormtgcr.txt", "ko", "cr-en-2020-09-25.txt", 0),
    ],
)
def test_untranslated_means_no_letter_of_the_translation_s_own_script(
    name, language, english, quoting
) -> None:
    (translation,) = _parsed(name).editions
    path = EXTRA / english
    (source,) = parse_document(path, path.read_bytes()).editions
    english_of = {c.label: c.raw for c in source.clauses if c.kind == "rule"}
    pairs = [
        (c.label, english_of[c.label], c.raw)
        for c in translation.clauses
        if c.kind == "rule" and c.label in english_of
    ]
    flagged = {
        label
        for label, en, tr in pairs
        if any(
            name == "untranslated"
            for _, name, _ in check_pair(en, tr, source_lang="en", target_lang=language)
        )
    }
    english_left = {label for label, _, tr in pairs if len(tr) > 20 and not _OWN_SCRIPT.search(tr)}
    assert flagged == english_left
    # Clauses that quote the English beside their own wording are many, and never flagged.
    quoted = {
        label for label, _, tr in pairs if _QUOTES_ENGLISH.search(tr) and _OWN_SCRIPT.search(tr)
    }
    assert len(quoted) >= quoting and not quoted & flagged
