"""Ingest takes what users bring (issue 11): every format through the real CLI, folders with
other files in them, bilingual pages in every markup, any language, the same edition in
another format, old notation in diff, the whole English archive, bad input.

The pages are built from real corpus text: sections 105 and 107 of the 2026-01-16 English
and Chinese editions, line by line (the two files agree line for line there). The Korean and
Esperanto lines are translations of 107.3 written for these tests by their author (the corpus
holds neither language).
"""

from __future__ import annotations

import codecs
import datetime as dt
import html
import io
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from mtgrules.sources.parse import parse_text
from mtgrules.sources.pipeline import parse_document, prepare
from mtgrules.text.language import language_tag

from .conftest import CORPUS, EXTRA, ROOT, run_cli, table_counts
from .pdfgen import Layout, repeated, scanned, typeset
from .test_formats import _bomb, _docx, _indent, _prose, _rules_pages

ARCHIVE = Path(os.environ.get("MTGRULES_ARCHIVE", ROOT.parent / "shared" / "cr-archive"))
REQUIRED = os.environ.get("MTGRULES_FORMATS_REQUIRED") == "1"

# --- real text: sections 105 and 107, English and Chinese --------------------------------

_LABEL = re.compile(r"^(\d{3}\.\d{1,4}[a-z]?)")


def _section(path: Path, number: str) -> list[str]:
    """The lines of one section of the rules body (its heading first), blank lines dropped."""
    lines = [ln.strip() for ln in path.read_text(encoding="utf-8-sig").splitlines()]
    heading = re.compile(rf"^{number}\. \S")
    start = max(i for i, ln in enumerate(lines) if heading.match(ln))  # the body, not contents
    block = [lines[start]]
    for ln in lines[start + 1 :]:
        if re.match(r"^\d{3}\. \S", ln):
            break
        if ln:
            block.append(ln)
    return block


SECTIONS = ("105", "107")
EN = {n: _section(EXTRA / "cr-en-2026-01-16.txt", n) for n in SECTIONS}
ZH = {n: _section(EXTRA / "cr-zh-2026-01-16.txt", n) for n in SECTIONS}
EN_LABELS = [m[1] for n in SECTIONS for ln in EN[n][1:] if (m := _LABEL.match(ln))]


def _pairs():
    """(English heading, Chinese heading, [(English line, Chinese line)]) per section."""
    for n in SECTIONS:
        assert len(EN[n]) == len(ZH[n]), n  # the two files agree line for line here
        yield EN[n][0], ZH[n][0], list(zip(EN[n][1:], ZH[n][1:], strict=True))


def _split(line: str) -> tuple[str | None, str]:
    m = _LABEL.match(line)
    if m is None:
        return None, line
    return m[1], line[len(m[0]) :].lstrip(". ")


def dokuwiki_page(zh_labels: bool = True) -> str:
    """Issue 11's layout: bookmarked English line ending in \\\\, its Chinese line, bilingual
    section headings, links such as [[cr:6#cr601|601]]."""
    page = ["====== 万智牌完整规则 Comprehensive Rules ======", ""]
    for en_head, zh_head, pairs in _pairs():
        number, title = en_head.split(". ", 1)
        page += [f"===== {number}. {zh_head.split('. ', 1)[1]} {title} =====", ""]
        for en, zh in pairs:
            label, _ = _split(en)
            mark = f"<BOOKMARK:cr{label.replace('.', '-')}>" if label else ""
            page.append(f"{mark}{en.replace('rule 601', 'rule [[cr:6#cr601|601]]')}\\\\")
            if not zh_labels:
                zh = _split(zh)[1]
            page.append(zh.replace("规则601", "规则[[cr:6#cr601|601]]"))
        page.append("")
    return "\n".join(page) + "\n"


def mediawiki_page() -> str:
    page = ["__TOC__"]
    for en_head, zh_head, pairs in _pairs():
        page.append(f"== {en_head} / {zh_head.split('. ', 1)[1]} ==")
        for en, zh in pairs:
            for line in (en, zh):
                label, rest = _split(line)
                rest = rest.replace("rule 601", "rule [[Rule 601|601]]")
                page.append(f"'''{label}''' {rest}<br />" if label else f"''{rest}''<br />")
    return "\n".join(page) + "\n"


def markdown_page() -> str:
    page = ["# Comprehensive Rules · 完整规则", ""]
    for en_head, zh_head, pairs in _pairs():
        page += [f"## {en_head} {zh_head.split('. ', 1)[1]}", ""]
        for en, zh in pairs:
            for line in (en, zh):
                label, rest = _split(line)
                rest = rest.replace("rule 601", "rule [601](/cr/601)")
                if label:
                    page.append(f'<p class="clause" markdown="1">**{label}** {rest}</p>')
                else:
                    page.append(f"*{rest}*  ")
    return "\n".join(page) + "\n"


def html_page() -> str:
    page = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">']
    page += ["<title>CR</title><style>.zh {color: grey}</style></head><body>"]
    for en_head, zh_head, pairs in _pairs():
        page.append(f"<h2>{html.escape(en_head)} <span>{zh_head.split('. ', 1)[1]}</span></h2>")
        for en, zh in pairs:
            for line, cls in ((en, "en"), (zh, "zh")):
                label, rest = _split(line)
                body = html.escape(rest, quote=False).replace("\u2019", "&rsquo;")
                head = f'<a id="{label}"></a><b>{label}</b> ' if label else ""
                page.append(f'<p class="{cls}">{head}{body}</p>')
    page.append("<script>document.write('107.3z is not a rule')</script></body></html>")
    return "\n".join(page) + "\n"


MARKUP_PAGES = [
    (dokuwiki_page, "dokuwiki"),
    (mediawiki_page, "mediawiki"),
    (markdown_page, "markdown"),
    (html_page, "html"),
]


def _reference(lang: str) -> list:
    """The rules of sections 105 and 107 as the official parser reads the corpus file."""
    name = f"cr-{'en' if lang == 'en' else 'zh'}-2026-01-16.txt"
    path = EXTRA / name
    (edition,) = parse_document(path, path.read_bytes()).editions
    wanted = set(EN_LABELS)
    return [c for c in edition.clauses if c.kind == "rule" and c.label in wanted]


@pytest.mark.parametrize("make, fmt", MARKUP_PAGES, ids=[f for _, f in MARKUP_PAGES])
def test_bilingual_page_in_any_markup_gives_two_editions_with_their_own_labels(make, fmt):
    page = make()
    doc = parse_document(Path("page"), page.encode("utf-8"))
    assert doc.decoded.format == fmt
    assert [e.language for e in doc.editions] == ["en", "zh-Hans"]
    source_lines = page.splitlines()
    for edition in doc.editions:
        rules = [c for c in edition.clauses if c.kind == "rule"]
        reference = _reference(edition.language)
        # Every rule, none lost to commentary, no heading made a rule, each label its own.
        assert [c.label for c in rules] == EN_LABELS
        assert not any(c.label_inferred for c in rules)
        assert [c.norm for c in rules] == [c.norm for c in reference]
        assert not any(c.kind == "commentary" for c in edition.clauses)
        examples = [c for c in edition.clauses if c.kind == "example"]
        assert len(examples) == 5 and all(c.parent for c in examples)
        for c in rules:
            # Clause.line is the page's own line, markup and all.
            original = source_lines[c.line - 1]
            assert c.label in original and original != c.raw
            for leftover in ("<", "**", "[[", "\\\\", "'''", "&rsquo;"):
                assert leftover not in c.raw


def test_dokuwiki_translation_lines_without_labels_take_their_english_lines_label():
    doc = parse_document(Path("page"), dokuwiki_page(zh_labels=False).encode("utf-8"))
    en, zh = doc.editions
    zh_rules = [c for c in zh.clauses if c.kind == "rule"]
    assert [c.label for c in zh_rules] == EN_LABELS
    assert all(c.label_inferred for c in zh_rules)  # inferred, and said so
    assert not any(c.label_inferred for c in en.clauses)


def test_bilingual_dokuwiki_page_through_the_cli(tmp_path: Path):
    page = tmp_path / "cr-bilingual.txt"  # a wiki page saved as .txt: read by its content
    page.write_text(dokuwiki_page(), encoding="utf-8")
    db = tmp_path / "s.sqlite"
    result = run_cli("ingest", "--json", str(page), db=db)
    assert result.returncode == 0, result.stderr
    (file,) = json.loads(result.stdout)["files"]
    assert file["format"] == "dokuwiki" and file["editions"] == 2
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    assert sorted(e["language"] for e in editions) == ["en", "zh-Hans"]
    assert {e["rules"] for e in editions} == {len(EN_LABELS)}
    shown = json.loads(run_cli("show", "107.3a", "--json", db=db).stdout)
    texts = [c["text"] for e in shown["editions"] for c in e["clauses"]]
    assert any(t.startswith("If a spell or activated ability") for t in texts)
    assert not any("BOOKMARK" in t or "[[" in t for t in texts)


# --- any language -------------------------------------------------------------------------

KOREAN_107_3 = [
    ("107.3", "많은 오브젝트는 정해져야 하는 숫자를 나타내기 위해 문자 X를 사용합니다. "
     "어떤 오브젝트는 X의 값을 정의하는 능력을 가지고 있고, 나머지는 조종자가 X의 값을 선택합니다."),
    ("107.3a", "주문이나 활성화 능력의 마나 비용, 대체 비용, 추가 비용 및/또는 활성화 비용에 {X}, "
     "[-X] 또는 X가 있고 X의 값이 그 주문이나 능력의 문구로 정의되지 않는다면, 조종자는 X의 값을 "
     "선택하고 공개합니다. (규칙 601, \"주문 발동하기\" 참조.)"),
    ("107.3b", "플레이어가 마나 비용에 {X}가 있는 주문을 발동하고 효과가 마나 비용을 지불하지 않고 "
     "발동하게 한다면, X의 유일한 적법한 선택은 0입니다."),
    ("107.3c", "주문이나 활성화 능력의 문구가 X의 값을 정의한다면, 그 주문이나 능력이 스택에 있는 "
     "동안 X의 값은 그 값입니다."),
]  # fmt: skip
ESPERANTO_107_3 = [
    "107.3. Multaj objektoj uzas la literon X kiel anstataŭanton por nombro, kiun oni ankoraŭ "
    "devas determini.",
    "107.3a Se sorĉo aŭ aktivigita kapablo havas mankoston kun {X}, kaj la valoro de X ne estas "
    "difinita de ĝia teksto, ĝia regilo elektas kaj anoncas la valoron de X.",
    "107.3b Se ludanto ĵetas sorĉon kun {X} en ĝia mankosto sen pagi ĝian mankoston, la sola "
    "laŭleĝa elekto por X estas 0.",
    "107.3c Se la teksto de sorĉo aŭ kapablo difinas la valoron de X, tiu estas la valoro de X "
    "dum la sorĉo aŭ kapablo estas sur la stako.",
]


def korean_markdown_page() -> str:
    """Issue 11's Korean page: each rule a <p class="clause" markdown="1"> with a bold label."""
    page = ["# 종합 규칙", "", "## 107. 숫자와 기호", ""]
    for label, text in KOREAN_107_3:
        page += [f'<p class="clause" markdown="1">**{label}** {text}</p>', ""]
    return "\n".join(page)


def test_korean_markdown_page_is_ingested_and_tagged_ko(tmp_path: Path):
    page = tmp_path / "ko-107.md"
    page.write_text(korean_markdown_page(), encoding="utf-8")
    db = tmp_path / "s.sqlite"
    result = run_cli("ingest", str(page), db=db)
    assert result.returncode == 0, result.stderr
    # Beside it, the English it follows, taken from the packed archive.
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    (edition,) = [e for e in editions if e["language"] != "en"]
    assert edition["language"] == "ko" and edition["rules"] == 4
    shown = json.loads(run_cli("show", "107.3a", "--lang", "ko", "--json", db=db).stdout)
    (clause,) = [c for e in shown["editions"] for c in e["clauses"]]
    assert clause["text"] == KOREAN_107_3[1][1]  # markup gone, text verbatim


def test_a_language_that_cannot_be_told_asks_for_lang_and_lang_names_it(tmp_path: Path):
    page = tmp_path / "eo-107.txt"
    page.write_text("\n".join(ESPERANTO_107_3) + "\n", encoding="utf-8")
    db = tmp_path / "s.sqlite"
    run_cli("ingest", str(CORPUS / "seeds" / "001_6b17ef9efd2fae21.txt"), db=db)
    before = table_counts(db)
    result = run_cli("ingest", str(page), db=db)
    assert result.returncode == 2 and "--lang" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert table_counts(db) == before  # never stored as English (or Spanish) by default
    result = run_cli("ingest", "--lang", "eo", str(page), db=db)
    assert result.returncode == 0, result.stderr
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    assert [e["rules"] for e in editions if e["language"] == "eo"] == [4]


def test_lang_overrides_detection(tmp_path: Path):
    path = tmp_path / "seed-es.txt"
    shutil.copy(CORPUS / "seeds" / "001_6b17ef9efd2fae21.txt", path)
    db = tmp_path / "s.sqlite"
    assert run_cli("ingest", "--lang", "es-MX", str(path), db=db).returncode == 0
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    (edition,) = [e for e in editions if e["language"] != "en"]  # beside its English
    assert edition["language"] == "es-MX"


@pytest.mark.parametrize(
    "given, tag",
    [("de", "de"), ("PT_br", "pt-BR"), ("zh-hant", "zh-Hant"), ("sr-Latn-RS", "sr-Latn-RS")],
)
def test_language_tag_is_checked_and_written_the_bcp47_way(given: str, tag: str):
    assert language_tag(given) == tag


@pytest.mark.parametrize(
    "bad, why",
    [
        ("english", "not a language tag"),
        ("e", "not a language tag"),
        ("en US", "not a language tag"),
        ("und", "not a language tag"),
        ("12", "not a language tag"),
        ("x-klingon", "not a language tag"),
        # The shape of a tag, naming nothing: stored under it, the edition could never be
        # paired with its English or found with --lang again.
        ("xx", "not a registered language"),
        ("zz-Hant", "not a registered language"),
        ("en-AB", "not a registered language"),
        ("fr-Abcd", "not a registered language"),
    ],
)
def test_bad_lang_is_one_clear_line(tmp_path: Path, bad: str, why: str):
    db = tmp_path / "s.sqlite"
    result = run_cli("ingest", "--lang", bad, str(EXTRA / "cr-en-2026-01-16.txt"), db=db)
    assert result.returncode == 2
    assert why in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not db.exists()  # refused before the store was opened


@pytest.mark.parametrize("given", ["fil", "yue", "gsw-CH", "sr-Cyrl", "es-419", "nb", "ko-KR"])
def test_registered_languages_beyond_the_usual_ones_are_taken(given: str):
    assert language_tag(given) == given


def test_lang_on_a_page_whose_two_languages_are_both_recognised_is_refused():
    with pytest.raises(Exception, match="without --lang"):
        parse_text(dokuwiki_page(), "page", language="ko")


# --- folders: rules files taken, other files skipped with a note --------------------------


def _folder_of_mixed_files(tmp: Path) -> Path:
    folder = tmp / "mixed"
    (folder / "sub").mkdir(parents=True)
    paragraphs = _rules_pages()
    (folder / "rules-107.pdf").write_bytes(typeset(paragraphs, Layout(footer="Page {page}")))
    (folder / "sub" / "rules-105-107").write_bytes(_docx(EN["105"] + EN["107"]))  # no suffix
    (folder / "README.md").write_text((ROOT / "README.md").read_text(encoding="utf-8"))
    shutil.copy(CORPUS / "manifest.toml", folder / "notes.toml")
    shutil.copy(CORPUS / "__init__.py", folder / "sub" / "__init__.py")
    (folder / "cover.png").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    return folder


def test_a_folder_takes_its_rules_files_and_skips_the_others_with_a_note(tmp_path: Path):
    folder = _folder_of_mixed_files(tmp_path)
    db = tmp_path / "s.sqlite"
    result = run_cli("ingest", "--json", str(folder), db=db)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    formats = {Path(f["path"]).name: f["format"] for f in report["files"]}
    assert formats == {"rules-107.pdf": "pdf", "rules-105-107": "docx"}
    skipped = {Path(s["path"]).name: s["reason"] for s in report["skipped"]}
    assert set(skipped) == {"README.md", "notes.toml", "__init__.py", "cover.png"}
    assert "PNG image" in skipped["cover.png"]
    assert "paragraphs" in skipped["README.md"]  # read, and found not to be rules
    text = run_cli("ingest", str(folder), db=tmp_path / "t.sqlite").stdout
    assert "skipped" in text and "README.md" in text


def test_a_named_file_that_is_not_rules_is_an_error(tmp_path: Path):
    db = tmp_path / "s.sqlite"
    for path in (ROOT / "README.md", CORPUS / "manifest.toml"):
        result = run_cli("ingest", str(path), db=db)
        assert result.returncode == 2, path
        assert len(result.stderr.strip().splitlines()) == 1 and path.name in result.stderr


# A whole ingest of the bundled corpus of its own (about a minute under a parallel run);
# CI's slow step runs it.
@pytest.mark.slow
def test_the_bundled_corpus_skips_its_own_non_rules_files(tmp_path: Path):
    result = run_cli("ingest", "--json", db=tmp_path / "s.sqlite")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert {Path(s["path"]).name for s in report["skipped"]} == {"__init__.py", "SOURCES.md"}
    txt = sorted(p.name for p in CORPUS.rglob("*.txt"))
    assert sorted(Path(f["path"]).name for f in report["files"]) == txt


def test_a_date_in_the_file_name_dates_an_edition_whose_text_has_none(tmp_path: Path):
    text = (EXTRA / "cr-en-2026-01-16.txt").read_text(encoding="utf-8-sig")
    assert "effective as of January 16, 2026" in text
    path = tmp_path / "2026-01-20.txt"
    path.write_text(text.replace("effective as of January 16, 2026", "in force"), "utf-8")
    db = tmp_path / "s.sqlite"
    assert run_cli("ingest", str(path), db=db).returncode == 0
    (edition,) = json.loads(run_cli("editions", "--json", db=db).stdout)
    assert edition["date"] == "2026-01-20"


# --- bad input through the CLI: one line, exit 2, store unchanged --------------------------


def _encrypted_pdf() -> bytes:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(typeset(_rules_pages()[:10])))
    writer.encrypt(user_password="secret", owner_password="owner")
    buf = io.BytesIO()
    writer.write(buf)
    return buf.getvalue()


BAD_FILES = [
    ("scan.pdf", lambda: scanned(typeset(_rules_pages()[:30], Layout(), _indent)), "run OCR"),
    ("locked.pdf", _encrypted_pdf, "encrypted"),
    ("corrupt.docx", lambda: _docx(EN["107"])[:3000], "damaged"),
    ("bomb.docx", lambda: _bomb(300 * 2**20), "zip bomb"),
    (
        "novel.pdf",
        lambda: repeated(typeset(_prose(), Layout(footer="{page}")), 500),
        "not the Comprehensive Rules",
    ),
]


@pytest.mark.parametrize("name, make, message", BAD_FILES, ids=[n for n, _, _ in BAD_FILES])
def test_bad_files_give_one_line_exit_2_and_leave_the_store_unchanged(
    tmp_path: Path, name: str, make, message: str
):
    db = tmp_path / "s.sqlite"
    assert (
        run_cli("ingest", str(CORPUS / "seeds" / "001_6b17ef9efd2fae21.txt"), db=db).returncode == 0
    )
    before = table_counts(db)
    path = tmp_path / name
    path.write_bytes(make())
    result = run_cli("ingest", str(path), db=db)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0] and name in lines[0], result.stderr
    assert "Traceback" not in result.stderr
    assert table_counts(db) == before


# --- old notation in diff -----------------------------------------------------------------


def test_old_mana_notation_is_shown_as_notation_not_as_a_rewording(tmp_path: Path):
    """Section 107 printed once in the 2003-2004 notation ({oW}) and once as today, the
    later page without its last rule (so that the two are two editions)."""
    rules = [ln for ln in EN["107"] if "{W}" in ln and _LABEL.match(ln)]
    old = {ln: re.sub(r"\{([WUBRGCX0-9])\}", r"{o\1}", ln) for ln in rules}
    assert rules and all(old[ln] != ln for ln in rules)
    page_old, page_new = tmp_path / "old.txt", tmp_path / "new.txt"
    page_old.write_text("\n".join(old.get(ln, ln) for ln in EN["107"]) + "\n", "utf-8")
    page_new.write_text("\n".join(EN["107"][:-1]) + "\n", "utf-8")
    db = tmp_path / "s.sqlite"
    assert run_cli("ingest", str(page_old), db=db).returncode == 0
    assert run_cli("ingest", str(page_new), db=db).returncode == 0
    ids = [str(e["id"]) for e in json.loads(run_cli("editions", "--json", db=db).stdout)]
    assert len(ids) == 2
    result = run_cli("diff", *ids, "--format", "json", db=db)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["summary"]["changed"] == 0 and report["summary"]["removed"] == 1
    assert report["summary"]["notation"] == len(rules)
    changes = [c for c in report["changes"] if c["kind"] == "notation"]
    assert all("{o" in c["a_text"] and "{o" not in c["b_text"] for c in changes)
    assert all(c["gist"].startswith("notation:") for c in changes)
    # Notation alone is no difference for --exit-code.
    scoped = run_cli("diff", *ids, "--rule", "107.4", "--exit-code", db=db)
    assert scoped.returncode == 0 and "in notation only" in scoped.stdout
    assert run_cli("diff", *ids, "--exit-code", db=db).returncode == 1  # the removed rule


# --- the archive: other formats of a date whose .txt is in the store -----------------------


def _archive_or_skip() -> Path:
    if not (ARCHIVE / "txt").is_dir():
        if REQUIRED:
            pytest.fail(f"{ARCHIVE} is missing and MTGRULES_FORMATS_REQUIRED=1")
        pytest.skip("the cr-archive is not present")
    return ARCHIVE


OTHER_FORMATS = [
    "pdf/2006-10-01.pdf",
    "pdf/2009-10-01.pdf",
    "pdf/2016-09-30.pdf",
    "pdf/2022-06-10.pdf",
    "pdf/2026-01-16.pdf",
    "docx/2014-09-26.docx",
    "docx/2022-06-10.docx",
    "docx/2026-01-16.docx",
    "rtf/2006-10-01.rtf",
    "rtf/2012-07-01.rtf",
    "doc/2009-07-11.doc",
]


def test_other_formats_are_recognised_as_the_edition_of_their_txt(tmp_path: Path):
    from mtgrules.ingest import ingest_paths
    from mtgrules.reports.diff import edition_diff
    from mtgrules.store import open_store, session_scope
    from mtgrules.store.queries import find_edition_or_version, list_editions

    archive = _archive_or_skip()
    files = [archive / rel for rel in OTHER_FORMATS]
    if shutil.which("antiword") is None:
        if REQUIRED:
            pytest.fail("antiword is missing and MTGRULES_FORMATS_REQUIRED=1")
        files = [f for f in files if f.suffix != ".doc"]
    engine = open_store(str(tmp_path / "s.sqlite"))
    txts = sorted({archive / "txt" / f"{f.stem}.txt" for f in files})
    with session_scope(engine) as s:
        ingest_paths(s, txts)
        before = {e.id: e for e in list_editions(s)}
    with session_scope(engine) as s:
        report = ingest_paths(s, files)
    with session_scope(engine) as s:
        live = list_editions(s)
        # The same editions: never a second one of a date.
        assert sorted((e.date, e.language) for e in live) == sorted(
            (e.date, e.language) for e in before.values()
        )
        statuses = {}
        for f, outcome in zip(files, report.files, strict=True):
            assert outcome.format == f.suffix.lstrip(".")
            statuses[f.name] = outcome.status
            if outcome.status == "same-edition":
                assert any(f.name in e.sources for e in live)
                continue
            assert outcome.status == "new-version", (f.name, outcome)
            # A version whose text differs: diff shows how; the rules are the same ones.
            old_id, new_id = map(int, re.search(r"diff (\d+) (\d+)", outcome.note).groups())
            # (Two files of one date in one ingest: the second is a version of the first.)
            old, new = (find_edition_or_version(s, live, str(i)) for i in (old_id, new_id))
            assert (old.date, old.language, old.rules) == (new.date, new.language, new.rules)
            diff = edition_diff(s, str(old_id), str(new_id))
            rules = [c for c in diff.changes if c.clause_kind == "rule" and c.kind != "notation"]
            assert not [c for c in rules if c.kind in ("added", "removed", "renumbered")], f.name
            assert len(rules) <= 0.01 * old.rules, (f.name, len(rules))
    engine.dispose()
    # Which ones are the same text is measured, not assumed: at least the files whose text
    # hashes equal the .txt's (2016 and 2026 PDF, every DOCX) and the 2009 PDF (the same
    # once its typography is folded).
    same = {n for n, st in statuses.items() if st == "same-edition"}
    assert {"2016-09-30.pdf", "2026-01-16.pdf", "2014-09-26.docx", "2009-10-01.pdf"} <= same


# --- the whole archive: dates and rule counts against an independent scan -----------------

_SCAN_RULE = re.compile(r"^\s*(\d{3})\.(\d{1,4}[a-z]?)(?:\.\s*|\s+)\S")
_SCAN_BROKEN = re.compile(r"^\s*(\d{3})\.\s(\d{1,4}[a-z])\s+\S")  # "606. 8b Players..." (2006)
_SCAN_DATE = re.compile(r"(?:current|effective) as of (\w+) (\d{1,2}), (\d{4})")
_MONTHS = "january february march april may june july august september october november december"


def scan_edition(data: bytes) -> tuple[int, dt.date | None, bool]:
    """(rule lines, printed date, old mana notation?) of a plain-text edition, read without
    mtgrules: a rule is a line that starts with its label."""
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            text = data.decode(codec)
            break
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252")
    lines = re.split(r"\r\n|\r|\n", text)
    rules = sum(1 for ln in lines if _SCAN_RULE.match(ln) or _SCAN_BROKEN.match(ln))
    m = _SCAN_DATE.search("\n".join(lines[:40]))
    date = None
    if m:
        date = dt.date(int(m[3]), _MONTHS.split().index(m[1].lower()) + 1, int(m[2]))
    return rules, date, bool(re.search(r"\{o[A-Z0-9]", text))


def _archive_txt() -> list[Path]:
    return sorted((_archive_or_skip() / "txt").glob("*.txt"))


def _check_against_scan(path: Path, rules: int, date: str | None) -> None:
    scanned_rules, printed, old_notation = scan_edition(path.read_bytes())
    assert rules == scanned_rules, path.name
    assert date == printed.isoformat(), path.name  # the printed (effective) date
    published = dt.date.fromisoformat(path.stem)
    # Within days of publication, except a text older than its file (2006-06-01.txt is the
    # June 2004 text, with the 2003-2004 mana notation).
    assert abs((printed - published).days) <= 12 or (old_notation and printed < published)


def test_every_archive_edition_parses_to_the_scanned_rules_and_date():
    files = _archive_txt()
    assert len(files) == 110
    for path in files:
        (edition,) = parse_document(path, path.read_bytes()).editions
        assert edition.language == "en"
        _check_against_scan(path, edition.rule_count, edition.date and edition.date.isoformat())


@pytest.mark.slow
def test_ingesting_the_whole_archive_dates_every_edition(tmp_path: Path):
    files = _archive_txt()
    db = tmp_path / "archive.sqlite"
    result = run_cli("ingest", "--json", str(ARCHIVE / "txt"), db=db, timeout=600)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["editions_added"] == len(files)
    editions = json.loads(run_cli("editions", "--json", db=db).stdout)
    by_source = {e["source"]: e for e in editions}
    assert len(editions) == len(files)
    for path in files:
        e = by_source[path.name]
        _check_against_scan(path, e["rules"], e["date"])


def test_prepare_keeps_the_sha256_of_the_original_bytes():
    import hashlib

    data = dokuwiki_page().encode("utf-8")
    decoded = prepare(data, "page")
    assert decoded.sha256 == hashlib.sha256(data).hexdigest() and decoded.size == len(data)


def test_a_korean_page_aligns_by_labels_with_the_korean_termbase_column(tmp_path: Path):
    """Korean: spaCy has no blank Korean pipeline without mecab-ko (the aligner falls back to
    its multi-language tokenizer), and the shipped termbase now has a Korean column (issue 16
    item 4), so its game terms are evidence too: 107.3a's "주문" (spell, three times), "마나
    비용" (mana cost), "발동" (cast, in the title of rule 601 it cites)."""
    from mtgrules.align.features import tokenize
    from mtgrules.reports.drift import language_notes
    from mtgrules.termbase import find_terms

    found = find_terms(KOREAN_107_3[1][1], "ko")
    assert found["spell"] == 3 and {"mana cost", "activated ability", "cast"} <= set(found)
    assert "주문이나" in tokenize(KOREAN_107_3[1][1], "ko")
    page = tmp_path / "ko-107.md"
    page.write_text(korean_markdown_page(), encoding="utf-8")
    db = tmp_path / "s.sqlite"
    assert run_cli("ingest", str(page), str(EXTRA / "cr-en-2026-01-16.txt"), db=db).returncode == 0
    result = run_cli("drift", "107.3", "--format", "json", db=db)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    ko = next(e["id"] for e in report["editions"] if e["language"] == "ko")
    # Its four rules pair with the English ones by label, and it lacks the rest of 107.3.
    assert "107.3a" not in report["missing"][str(ko)]
    assert "107.3d" in report["missing"][str(ko)]
    assert not any(n.startswith("ko:") for n in report.get("notes") or [])
    # A language the termbase has no column for is still said to be aligned without terms.
    assert language_notes(["pl", "en"]) == [
        "pl: no termbase column; its clauses are aligned from labels, numbers, symbols and "
        "rule references alone."
    ]
