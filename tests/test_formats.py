"""The format layer: every PDF, Word, RTF and .doc edition of the archive against the .txt of
its date; generated bad input; markup pages built from real corpus lines.

Comparison with the .txt: the same rule count, the same labels in the same order, the same
in-text date, at least 99% of rules with identical normalised text, and the glossary's terms. "Normalised" is
``normalize_text`` after ``fold_ascii_typography`` (text/notation.py), because the 2006-2012
text files spell typography in ASCII where the other formats print it ("--" or " - " for an em
dash, "(TM)" for a trademark sign, "<url>"): a difference of publication, not of wording.
The strict figure (``Clause.norm`` alone) is asserted too, with its real floor.
"""

from __future__ import annotations

import io
import os
import shutil
import zipfile
from pathlib import Path

import pytest

from mtgrules.errors import InputError
from mtgrules.sources.parse import parse_text
from mtgrules.sources.pipeline import detect_format, extract_text, parse_document, read_source
from mtgrules.text.labels import split_labelled_line
from mtgrules.text.normalize import normalize_text
from mtgrules.text.notation import fold_ascii_typography, fold_old_mana

from .conftest import EXTRA, ROOT, SEEDS
from .pdfgen import Layout, repeated, scanned, typeset

ARCHIVE = Path(os.environ.get("MTGRULES_ARCHIVE", ROOT.parent / "shared" / "cr-archive"))
REQUIRED = os.environ.get("MTGRULES_FORMATS_REQUIRED") == "1"

# file in the archive -> lowest share of rules whose Clause.norm equals the .txt's, as
# measured (benchmarks/bench_formats.py). Below 100% only where the .txt spells typography in
# ASCII; the folded comparison must reach 99% for every file.
ARCHIVE_FILES = {
    "pdf/2006-10-01.pdf": 0.99,
    "pdf/2009-10-01.pdf": 0.97,
    "pdf/2016-09-30.pdf": 1.0,
    "pdf/2022-06-10.pdf": 1.0,
    "pdf/2026-01-16.pdf": 1.0,
    "docx/2014-09-26.docx": 1.0,
    "docx/2022-06-10.docx": 1.0,
    "docx/2026-01-16.docx": 1.0,
    "rtf/2006-10-01.rtf": 0.99,
    "rtf/2012-07-01.rtf": 0.98,
    "doc/2009-07-11.doc": 0.97,
}

# Bytes that are not rules text -> a word of the one-line message.
NOT_RULES = [
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 64, "PNG image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 64, "JPEG image"),
    (b"GIF89a" + b"\x00" * 64, "GIF image"),
    (b"\x1f\x8b\x08\x00" + b"\x00" * 64, "gzip archive"),
    (b"SQLite format 3\x00" + b"\x00" * 84, "SQLite database"),
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 504, "no Word document in it"),
    (b"%PDF-1.7\n%garbage that is no PDF at all\n", "not a readable PDF"),
]

# Markers of each markup family that must not survive extraction.
MARKUP_LEFTOVERS = ("<", "**", "[[", "]]", "\\\\", "BOOKMARK", "'''", "{{", "&rsquo;", "&#")


def _lines(path: Path, *starts: str) -> list[str]:
    text = path.read_text(encoding="utf-8-sig")
    return [ln.strip() for ln in text.splitlines() if ln.strip().startswith(starts)]


EN_107_3 = _lines(EXTRA / "cr-en-2026-01-16.txt", "107.3. ", "107.3a ", "107.3b ", "107.3c ")
ZH_107_3 = _lines(EXTRA / "cr-zh-2026-01-16.txt", "107.3. ", "107.3a ", "107.3b ", "107.3c ")

# Languages by identify_language: real clauses from the corpus (en, zh-Hans; fr and es from
# the seed pages, zh-Hant from the bilingual seed), and for the languages the corpus lacks
# (de, it, pt, ru, ja, ko) short rules-like sentences written for this test by its author.
LANGUAGE_CASES = [
    (EN_107_3[1], "en"),
    (ZH_107_3[1], "zh-Hans"),
    (
        "許多物件會使用字母X來代表一個尚待定值的數字。有些物件的異能會去定義X的值；其它的就由其操控者來選擇X的值。",
        "zh-Hant",
    ),
    ("Toutes les occurrences de X sur un objet ont la même valeur à un instant donné.", "fr"),
    (
        "Algunos objetos usan la letra X además de la letra X. Y sigue las mismas reglas que X.",
        "es",
    ),
    ("Jeder Spieler beginnt das Spiel mit zwanzig Lebenspunkten.", "de"),
    ("Ogni giocatore inizia la partita con venti punti vita.", "it"),
    ("Cada jogador começa a partida com vinte pontos de vida.", "pt"),
    ("Каждый игрок начинает партию с двадцатью очками жизни.", "ru"),
    ("各プレイヤーは二十点のライフでゲームを開始する。", "ja"),
    ("각 플레이어는 20점의 생명점으로 게임을 시작한다.", "ko"),
    ("Attach", None),  # a one-word heading says nothing about its language
    ("izzy806", None),  # a username
    ("12345 67", None),
]

OLD_MANA = [
    ("{oW}", "{W}"),
    ("{o1}", "{1}"),
    ("{oT}", "{T}"),
    ("{o10}", "{10}"),
    ("pay {oX}{oR}", "pay {X}{R}"),
    ("{of}", "{of}"),  # not a symbol code
    ("{W}", "{W}"),
]


def _archive(rel: str) -> Path:
    path = ARCHIVE / rel
    if not path.is_file():
        if REQUIRED:
            pytest.fail(f"{path} is missing and MTGRULES_FORMATS_REQUIRED=1")
        pytest.skip(f"{path} not present (the cr-archive is not bundled)")
    return path


def _clauses(editions, kind: str) -> list:
    return [c for e in editions for c in e.clauses if c.kind == kind]


def _rules(editions) -> list:
    return _clauses(editions, "rule")


def _folded(raw: str) -> str:
    return normalize_text(fold_ascii_typography(raw))


# --- the archive: every other format against the .txt of its date -----------------------


@pytest.mark.parametrize("rel, strict_floor", ARCHIVE_FILES.items(), ids=list(ARCHIVE_FILES))
def test_archive_format_matches_txt(rel: str, strict_floor: float) -> None:
    path = _archive(rel)
    if path.suffix == ".doc" and shutil.which("antiword") is None:
        if REQUIRED:
            pytest.fail("antiword is missing and MTGRULES_FORMATS_REQUIRED=1")
        pytest.skip("antiword is not installed (apt-get install antiword)")
    txt = _archive(f"txt/{path.stem}.txt")
    reference = parse_document(txt, txt.read_bytes()).editions
    extracted = extract_text(path.read_bytes(), str(path))
    assert extracted.format == path.suffix.lstrip(".")
    editions = parse_text(extracted.text, str(path))

    assert len(editions) == 1 and editions[0].language == "en"
    assert editions[0].date == reference[0].date
    ref, got = _rules(reference), _rules(editions)
    assert len(got) == len(ref)
    assert [c.label for c in got] == [c.label for c in ref]
    folded = sum(_folded(a.raw) == _folded(b.raw) for a, b in zip(ref, got, strict=True))
    strict = sum(a.norm == b.norm for a, b in zip(ref, got, strict=True))
    assert folded / len(ref) >= 0.99
    assert strict / len(ref) >= strict_floor

    # The glossary: every term of the .txt is there, and its entries read the same (the 2006
    # PDF splits a few multi-paragraph definitions; the 2022 PDF keeps "Affinity" apart
    # where the .txt lost the blank line before it).
    def glossary(eds) -> list[tuple[str, str]]:
        return [(_folded(c.term or ""), _folded(c.raw)) for c in _clauses(eds, "glossary")]

    ref_g, got_g = glossary(reference), glossary(editions)
    assert {t for t, _ in ref_g} <= {t for t, _ in got_g}
    assert len(set(ref_g) & set(got_g)) >= 0.98 * len(ref_g)


def test_archive_text_files_are_detected_as_text() -> None:
    files = sorted((ARCHIVE / "txt").glob("*.txt")) + sorted(EXTRA.glob("*.txt"))
    files += sorted(SEEDS.glob("*.txt"))
    if not (ARCHIVE / "txt").is_dir() and REQUIRED:
        pytest.fail("the cr-archive is missing and MTGRULES_FORMATS_REQUIRED=1")
    kinds = {f.name: detect_format(f.read_bytes(), str(f)) for f in files}
    assert set(kinds.values()) == {"text"}


def test_old_mana_notation_folds_in_every_edition_that_uses_it() -> None:
    files = [p for p in sorted((ARCHIVE / "txt").glob("*.txt")) if b"{o" in p.read_bytes()]
    if not files:
        pytest.skip("the cr-archive is not present")
    assert {p.name[:4] for p in files} <= {"2003", "2004", "2006"}  # 2006-06-01 is a 2004 text
    for path in files:
        editions = parse_document(path, path.read_bytes()).editions
        clauses = [c for e in editions for c in e.clauses]
        assert any("{o" in c.raw for c in clauses), path.name  # the raw text keeps {oW}
        assert not any("{o" in c.norm for c in clauses), path.name


@pytest.mark.parametrize("old, new", OLD_MANA)
def test_fold_old_mana(old: str, new: str) -> None:
    assert fold_old_mana(old) == new


# Each of the plain-text spellings alone (the fold skips a pattern when a character it needs
# is absent), and texts that hold none of them.
ASCII_TYPOGRAPHY = [
    ("cards--even", "cards-even"),
    ("cards -- even", "cards-even"),
    ("cards\u2014even", "cards-even"),
    ("Artifact - Equipment", "Artifact-Equipment"),
    ("turn-based actions", "turn-based actions"),
    ("Magic: The Gathering(TM)", "Magic: The Gathering\u2122"),
    ("_Odyssey_(tm) block", "_Odyssey\u2122 block"),
    ("DuelsTM of the Planeswalkers", "Duels\u2122 of the Planeswalkers"),
    ("Wizards of the Coast(R)", "Wizards of the Coast\u00ae"),
    ("(C) 2006 Wizards", "\u00a9 2006 Wizards"),
    ("see <http://www.wizards.com/magic>", "see http://www.wizards.com/magic"),
    ("a player (reminder text) draws", "a player (reminder text) draws"),
    ("Many cards use the letter X.", "Many cards use the letter X."),
]


@pytest.mark.parametrize("text, folded", ASCII_TYPOGRAPHY)
def test_fold_ascii_typography(text: str, folded: str) -> None:
    assert fold_ascii_typography(text) == folded


# --- PDF layout: headers, footers, page numbers, wrapped rules ----------------------------


def _rules_pages() -> list[str]:
    """Rules 107 and 108 of the 2026 English edition, paragraph by paragraph, body only."""
    lines = [
        ln.strip() for ln in (EXTRA / "cr-en-2026-01-16.txt").read_text("utf-8-sig").splitlines()
    ]
    start = len(lines) - 1 - lines[::-1].index("107. Numbers and Symbols")
    end = len(lines) - 1 - lines[::-1].index("109. Objects")
    return [ln for ln in lines[start:end] if ln]


def _indent(text: str) -> float:
    labelled = split_labelled_line(text)
    if labelled is None:
        return 28.0 if text.startswith("Example") else 0.0
    return 14.0 if labelled[0][-1].isalpha() else 0.0


def test_pdf_headers_footers_and_page_numbers_go_and_wrapped_rules_join() -> None:
    paragraphs = _rules_pages()
    layout = Layout(header="Magic: The Gathering Comprehensive Rules", footer="Page {page}")
    data = typeset(paragraphs, layout, _indent)
    extracted = extract_text(data, "generated.pdf")
    assert extracted.format == "pdf"
    assert "header" in extracted.notes[0]
    text = extracted.text
    assert "Comprehensive Rules" not in text and "Page " not in text
    source = parse_text("\n".join(paragraphs), "source")[0]
    got = parse_text(text, "generated.pdf")
    assert len(got) == 1
    assert [(c.kind, c.label, c.norm) for c in got[0].clauses] == [
        (c.kind, c.label, c.norm) for c in source.clauses
    ]


@pytest.mark.parametrize(
    "make, message",
    [
        (
            lambda: scanned(typeset(_rules_pages()[:30], Layout(), _indent)),
            "no text layer; run OCR first",
        ),
        (
            lambda: repeated(typeset(_prose(), Layout(footer="{page}")), 500),
            "not the Comprehensive Rules",
        ),
    ],
    ids=["scan", "500-page-not-rules"],
)
def test_pdf_bad_input(make, message: str) -> None:
    data = make()
    with pytest.raises(InputError) as err:
        extract_text(data, "bad.pdf")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def _prose() -> list[str]:
    """Real English prose that is not the rules: docstrings of standard library modules."""
    import argparse
    import csv
    import difflib
    import json
    import textwrap

    docs = [m.__doc__ or "" for m in (difflib, textwrap, json, csv, argparse)]
    return [" ".join(p.split()) for d in docs for p in d.split("\n\n") if p.strip()]


def test_encrypted_pdf_is_refused() -> None:
    pypdf = pytest.importorskip("pypdf")
    writer = pypdf.PdfWriter(clone_from=io.BytesIO(typeset(_rules_pages()[:10])))
    writer.encrypt(user_password="secret", owner_password="owner")
    buf = io.BytesIO()
    writer.write(buf)
    with pytest.raises(InputError, match="encrypted with a password"):
        extract_text(buf.getvalue(), "locked.pdf")


# --- DOCX: real paragraphs, corrupt files, zip bombs --------------------------------------


def _docx(paragraphs: list[str]) -> bytes:
    import docx

    document = docx.Document()
    for text in paragraphs:
        document.add_paragraph(text)
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def test_docx_paragraphs_come_out_as_lines(tmp_path: Path) -> None:
    path = tmp_path / "rules-107.bin"  # no telling extension: detection reads the content
    path.write_bytes(_docx(EN_107_3))
    decoded = read_source(path)
    assert decoded.format == "docx"
    assert [ln for ln in decoded.text.splitlines() if ln] == EN_107_3


def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


def _bomb(size: int) -> bytes:
    """A DOCX-shaped zip whose document.xml is ``size`` bytes of zeros (written in chunks)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("[Content_Types].xml", b"<Types/>")
        with zf.open("word/document.xml", "w", force_zip64=True) as member:
            chunk = b"\x00" * 2**20
            for _ in range(size // 2**20):
                member.write(chunk)
    return buf.getvalue()


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: _docx(EN_107_3)[:3000], "damaged"),
        (
            lambda: _zip({"[Content_Types].xml": b"<Types/>", "word/document.xml": b"<w:document"}),
            "damaged Word document",
        ),
        (lambda: _bomb(300 * 2**20), "zip bomb"),  # 300 MiB of zeros: 0.3 MB on disk
        (lambda: _bomb(20 * 2**20), "zip bomb"),  # 1,000:1 on one member
        (lambda: _zip({"notes.txt": b"107.3a hello"}), "zip archive that is not a Word document"),
    ],
    ids=["truncated", "broken-xml", "bomb-total", "bomb-ratio", "plain-zip"],
)
def test_docx_bad_input(make, message: str, monkeypatch: pytest.MonkeyPatch) -> None:
    data = make()
    if "bomb" in message:
        # Refused from the central directory: reading any member's data would be a failure.
        def no_read(*args, **kwargs):
            raise AssertionError("a member of the zip bomb was read")

        monkeypatch.setattr(zipfile.ZipExtFile, "read", no_read)
    with pytest.raises(InputError) as err:
        extract_text(data, "bad.docx")
    assert message in str(err.value)
    assert "\n" not in str(err.value)


# --- RTF code pages and legacy .doc -------------------------------------------------------


@pytest.mark.parametrize(
    "header, codec",
    [
        (r"{\rtf1\mac\ansicpg10000\deff0{\fonttbl{\f0\fnil\fcharset0 Times;}}", "mac_roman"),
        (r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0\froman\fcharset0 Times;}}", "cp1252"),
        (r"{\rtf1\mac\deff0{\fonttbl{\f0\fnil\fcharset256 Times;}}", "mac_roman"),
    ],
    ids=["ansicpg10000", "ansicpg1252", "mac"],
)
def test_rtf_bytes_decode_in_the_files_code_page(header: str, codec: str) -> None:
    def escape(line: str) -> str:
        out = []
        for ch in line:
            if ord(ch) < 128:
                out.append("\\" + ch if ch in "\\{}" else ch)
            else:
                out.extend(f"\\'{b:02x}" for b in ch.encode(codec))
        return "".join(out)

    lines = [ln for ln in EN_107_3 if any(ord(ch) > 127 for ch in ln)]  # ’ and “ ”
    assert lines
    body = "\n".join(r"\f0 " + escape(ln) + r"\par" for ln in lines)
    extracted = extract_text(f"{header}\n{body}\n}}".encode("ascii"), "rules.rtf")
    assert extracted.format == "rtf"
    assert [ln.strip() for ln in extracted.text.splitlines() if ln.strip()] == lines


def test_doc_without_antiword_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty folder: no antiword on the PATH
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le") + b"\x00" * 512
    with pytest.raises(InputError, match="apt-get install antiword"):
        extract_text(data, "old.doc")


def test_doc_that_antiword_cannot_read_is_one_clear_line() -> None:
    if shutil.which("antiword") is None:
        if REQUIRED:
            pytest.fail("antiword is missing and MTGRULES_FORMATS_REQUIRED=1")
        pytest.skip("antiword is not installed")
    data = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + "WordDocument".encode("utf-16-le") + b"\x00" * 512
    with pytest.raises(InputError) as err:
        extract_text(data, "broken.doc")
    assert "antiword cannot read" in str(err.value) and "\n" not in str(err.value)


@pytest.mark.parametrize("data, message", NOT_RULES, ids=[m for _, m in NOT_RULES])
def test_files_that_are_not_rules_text_are_named(data: bytes, message: str) -> None:
    with pytest.raises(InputError) as err:
        extract_text(data, "input")
    assert message in str(err.value) and "\n" not in str(err.value)


# --- markup pages built from real lines ---------------------------------------------------


def _bookmark(line: str) -> str:
    label = line.split(" ", 1)[0].rstrip(".")
    return f"<BOOKMARK:cr{label.replace('.', '-')}>"


def _dokuwiki() -> str:
    """The bilingual DokuWiki layout of issue 11: bookmarked English line ending in \\\\, then
    its Chinese line; a bilingual heading; a link in the Chinese text."""
    page = ["===== 107. 数字与符号 Numbers and Symbols =====", ""]
    for en, zh in zip(EN_107_3, ZH_107_3, strict=True):
        page.append(f"{_bookmark(en)}{en}\\\\")
        page.append(zh.replace("规则601", "规则[[cr:6#cr601|601]]"))
    return "\n".join(page) + "\n"


def _markdown() -> str:
    page = ["# 107. Numbers and Symbols", ""]
    for en in EN_107_3:
        label, rest = en.split(" ", 1)
        rest = rest.replace("rule 601", "rule [601](/cr/601)")
        page += [f'<p class="clause" markdown="1">**{label}** {rest}</p>', ""]
    return "\n".join(page)


def _html() -> str:
    import html

    page = ["<!DOCTYPE html>", "<html><head><title>CR 107</title>", "<style>p {margin: 0}</style>"]
    page += ["</head><body>", "<h2>107. Numbers and Symbols</h2>"]
    for en in EN_107_3:
        label, rest = en.split(" ", 1)
        body = (
            html.escape(rest, quote=False).replace("\u2019", "&rsquo;").replace("\u201c", "&#8220;")
        )
        page.append(f'<p id="{label}"><b>{label}</b> {body}<br>')
        page.append("</p>")
    page.append("<script>var x = '107.3z not a rule';</script></body></html>")
    return "\n".join(page)


def _mediawiki() -> str:
    page = ["== 107. Numbers and Symbols ==", "__TOC__"]
    for en in EN_107_3:
        label, rest = en.split(" ", 1)
        rest = rest.replace("rule 601", "rule [[Rule 601|601]]")
        page.append(f"'''{label}''' {rest}{{{{cite|CR 2026}}}}<ref>Comprehensive Rules</ref>")
    return "\n".join(page)


MARKUP_PAGES = [
    (_dokuwiki, "dokuwiki", ["en", "zh-Hans"]),
    (_markdown, "markdown", ["en"]),
    (_html, "html", ["en"]),
    (_mediawiki, "mediawiki", ["en"]),
]


@pytest.mark.parametrize("make, fmt, languages", MARKUP_PAGES, ids=[f for _, f, _ in MARKUP_PAGES])
def test_markup_pages_give_the_rules_with_their_own_labels(
    make, fmt: str, languages: list[str]
) -> None:
    page = make()
    extracted = extract_text(page.encode("utf-8"), "page")
    assert extracted.format == fmt
    for leftover in MARKUP_LEFTOVERS:
        assert leftover not in extracted.text, leftover
    # The English lines come out exactly as the corpus has them, markup gone.
    assert [ln for ln in extracted.lines() if ln in EN_107_3] == EN_107_3
    editions = parse_text(extracted.text, "page")
    assert [e.language for e in editions] == languages
    reference = _rules(parse_text("\n".join(EN_107_3), "corpus"))
    for edition in editions:
        rules = [c for c in edition.clauses if c.kind == "rule"]
        assert [c.label for c in rules] == ["107.3", "107.3a", "107.3b", "107.3c"]
        assert not any(c.label_inferred for c in rules)  # each label from its own line
        if edition.language == "en":
            assert [c.norm for c in rules] == [c.norm for c in reference]
    # Each parse line points back to its source line, markup and all.
    first = _rules(editions)[0]
    parsed_line = extracted.lines()[first.line - 1]
    assert first.raw in parsed_line
    assert extracted.raw_line(first.line) != parsed_line and first.label in extracted.raw_line(
        first.line
    )


def test_dokuwiki_line_map_points_at_the_bookmarked_line() -> None:
    extracted = extract_text(_dokuwiki().encode("utf-8"), "page.txt")
    rules = _rules(parse_text(extracted.text, "page"))
    english = [c for c in rules if c.raw.isascii()]
    for clause in english:
        assert extracted.raw_line(clause.line).startswith(_bookmark(f"{clause.label} "))


# --- language identification --------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected", LANGUAGE_CASES, ids=[e or "none" for _, e in LANGUAGE_CASES]
)
def test_identify_language(text: str, expected: str | None) -> None:
    from mtgrules.text.identify import identify_language

    assert identify_language(text) == expected


# --- damaged files: one clear line, never a traceback -------------------------------------


def _damaged(data: bytes, rng) -> bytes:
    b = bytearray(data)
    how = rng.choice(("flip", "cut", "insert"))
    if how == "flip":
        for _ in range(rng.randint(1, 20)):
            b[rng.randrange(len(b))] = rng.randrange(256)
    elif how == "cut":
        b = b[: rng.randrange(1, len(b))]
    else:
        at = rng.randrange(len(b))
        b[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 50)))
    return bytes(b)


DAMAGED_SOURCES = {
    "pdf": lambda: typeset(EN_107_3),
    "docx": lambda: _docx(EN_107_3),
    "rtf": lambda: (
        r"{\rtf1\mac\ansicpg10000{\fonttbl{\f0 Times;}}\f0 " + r"\par ".join(EN_107_3) + "}"
    ).encode("utf-8"),
    "dokuwiki": lambda: _dokuwiki().encode("utf-8"),
    "html": lambda: _html().encode("utf-8"),
}


@pytest.mark.parametrize("family", DAMAGED_SOURCES)
def test_damaged_files_give_one_clear_line(family: str) -> None:
    import random

    rng = random.Random(family)  # the same 150 damaged files on every run
    data = DAMAGED_SOURCES[family]()
    for _ in range(150):
        damaged = _damaged(data, rng)
        try:
            parse_text(extract_text(damaged, "damaged").text, "damaged")
        except InputError as err:
            assert "\n" not in str(err)
