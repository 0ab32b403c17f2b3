"""Hostile files built from the real ones: each parses to what its real original gives, or is
refused with one line (exit code 2 from the CLI), never a crash and never junk clauses.

RTF: binary data (\\bin) in pictures and objects, Word's emoji (a surrogate pair in signed
16-bit \\u), a lone surrogate, \\u numbers past 16 bits; its special characters come out as
the characters they name. HTML: charsets that are no web encoding. DOCX: zip bombs, with an
honest directory and with one that lies. Word .doc: cut short. Markup: the patterns that
took quadratic time.
"""

from __future__ import annotations

import io
import os
import random
import re
import struct
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from mtgrules.errors import InputError, NotRulesError
from mtgrules.ingest import edition_content_hash
from mtgrules.sources import zipped
from mtgrules.sources.markup import markup_lines
from mtgrules.sources.pipeline import parse_document, prepare

from .conftest import SHARED, TRANSLATIONS, run_cli, table_counts

ARCHIVE = Path(os.environ.get("MTGRULES_ARCHIVE", SHARED / "cr-archive"))


def real(path: Path) -> bytes:
    if not path.is_file():
        pytest.skip(f"{path} is not on this machine (the shared archive)")
    return path.read_bytes()


def editions_of(data: bytes, name: str = "hostile") -> tuple[str, ...]:
    doc = parse_document(Path(name), prepare(data, name))
    return tuple(edition_content_hash(e) for e in doc.editions)


def clauses_of(data: bytes) -> list:
    doc = parse_document(Path("hostile"), prepare(data, "hostile"))
    return [c for e in doc.editions for c in e.clauses]


# --- RTF ---------------------------------------------------------------------------------

RTF_2006 = ARCHIVE / "rtf" / "2006-10-01.rtf"
RTF_2012 = ARCHIVE / "rtf" / "2012-07-01.rtf"
# Where to write into a real edition: the start of rule 100.1's text, which both RTF
# editions write as "100.1. These }{\\b Magic}..." (the label, then formatted runs).
AT = b"100.1. These"
TEXT = "These Magic rules apply to any Magic game"


def _insert(data: bytes, what: bytes) -> bytes:
    i = data.index(AT) + len(b"100.1. ")
    return data[:i] + what + data[i:]


def _blob(size: int, seed: int) -> bytes:
    """Random bytes, braces and backslashes included: what a picture's \\bin data holds."""
    rng = random.Random(seed)
    return bytes(rng.randrange(256) for _ in range(size))


BINARY_CASES = [
    (
        "an embedded object's data",
        lambda: b"{\\object{\\*\\objdata\\bin4096 " + _blob(4096, 1) + b"}}",
    ),
    (
        "a picture's data",
        lambda: b"{\\*\\shppict{\\pict\\pngblip\\bin3000 " + _blob(3000, 2) + b"}}",
    ),
    ("binary data in the text flow", lambda: b"\\bin2000 " + _blob(2000, 3)),
    ("several blocks", lambda: (b"{\\*\\objdata\\bin500 " + _blob(500, 4) + b"}") * 12),
]


@pytest.mark.parametrize("what, block", BINARY_CASES, ids=[c[0] for c in BINARY_CASES])
def test_rtf_binary_data_is_skipped_not_ingested(what: str, block) -> None:
    """Issue 17: \\bin blobs came out as 9-23 clauses of random bytes, no damage flagged."""
    data = real(RTF_2006)
    hostile = _insert(data, block())
    assert editions_of(hostile) == editions_of(data)
    notes = prepare(hostile, "hostile").notes
    assert any("binary data block" in n for n in notes), notes


def test_rtf_binary_data_that_runs_past_the_end_is_noted() -> None:
    data = real(RTF_2006)
    cut = data[: len(data) // 2] + b"{\\*\\objdata\\bin99999999 " + _blob(100, 5)
    decoded = prepare(cut, "cut.rtf")
    assert "the file ends inside binary data: it may be truncated" in decoded.notes
    assert "\x00" not in decoded.text and TEXT in decoded.text


def _rule_100_1(data: bytes):
    return next(c for c in clauses_of(data) if c.label == "100.1")


UNICODE_CASES = [
    # (what, inserted RTF, the characters it must give, damage flagged)
    (
        "an emoji as Word writes it (a surrogate pair in signed 16-bit)",
        b"\\u-10179?\\u-8704? ",
        "\U0001f600 ",
        False,
    ),
    ("a lone high surrogate", b"\\u-10179? ", "\ufffd ", True),
    ("a lone low surrogate", b"\\u-8704? ", "\ufffd ", True),
    ("a number past 16 bits", b"\\u99999999999? ", "\ufffd ", True),
    ("a number of ten thousand digits", b"\\u" + b"9" * 10_000 + b"? ", "\ufffd ", True),
    ("a number below -32768", b"\\u-99999? ", "\ufffd ", True),
    ("an ordinary character (U+2019)", b"\\u8217? ", "\u2019 ", False),
]


@pytest.mark.parametrize(
    "what, inserted, expected, damaged", UNICODE_CASES, ids=[c[0] for c in UNICODE_CASES]
)
def test_rtf_unicode_escapes_never_crash(what, inserted: bytes, expected: str, damaged: bool):
    """Issue 17: each of these crashed with exit code 70."""
    clause = _rule_100_1(_insert(real(RTF_2006), inserted))
    assert clause.raw.startswith(expected + "These Magic"), clause.raw[:40]
    assert ("replacement-char" in clause.flags) == damaged


# Issue 18: RTF's named special characters are the Unicode characters they name.
SPECIALS = [
    ("emdash", "\u2014"),
    ("endash", "\u2013"),
    ("lquote", "\u2018"),
    ("rquote", "\u2019"),
    ("ldblquote", "\u201c"),
    ("rdblquote", "\u201d"),
    ("bullet", "\u2022"),
]


@pytest.mark.parametrize("word, char", SPECIALS, ids=[w for w, _ in SPECIALS])
@pytest.mark.parametrize("path", [RTF_2006, RTF_2012], ids=["2006-10-01", "2012-07-01"])
def test_rtf_special_characters_are_their_unicode_characters(path: Path, word: str, char: str):
    """Every \\emdash (etc.) of the real file is one such character in the text, as is every
    \\u of the same code point; one more, written into rule 100.1, comes out in its raw text
    (\\bullet is in neither edition, so that one tests the mapping alone)."""
    data = real(path)
    source = data.decode("latin-1")
    named = len(re.findall(rf"\\{word}(?![a-z])", source))
    numeric = len(re.findall(rf"\\u{ord(char)}(?!\d)", source))
    text = prepare(data, path.name).text
    assert text.count(char) == named + numeric, (named, numeric)
    clause = _rule_100_1(_insert(data, f"\\{word} ".encode()))
    assert clause.raw.startswith(char), clause.raw[:20]


# --- HTML: declared charsets that are no web encoding -------------------------------------


def _page(charset: str, body_extra: str = "") -> bytes:
    from .test_formats import _html

    page = _html().replace("<head>", f'<head><meta charset="{charset}">', 1)
    return page.replace("</body>", f"<p>{body_extra}</p></body>", 1).encode("utf-8")


# Each would decode wrongly or crash: utf-7 gives lone surrogates for "+2D3-", unicode_escape
# turns "\ud800" into one, punycode and idna raise, rot13 and base64 are no text encodings,
# replacement and x-user-defined are what browsers refuse to decode with.
NON_TEXT_CHARSETS = [
    "utf-7", "unicode_escape", "raw_unicode_escape", "punycode", "idna", "rot13", "base64",
    "no-such-codec", "iso-2022-kr", "x-user-defined", "utf-16",
]  # fmt: skip


@pytest.mark.parametrize("charset", NON_TEXT_CHARSETS)
def test_html_declaring_a_non_text_codec_is_read_from_its_bytes(charset: str) -> None:
    """Issue 17: utf-7, unicode_escape, punycode or an unknown codec crashed (exit 70). The
    page is read as if it declared nothing: the same editions as the page saying utf-8."""
    extra = "+2D3- \\ud800 +AGE- caf\u00e9"
    hostile = _page(charset, extra)
    decoded = prepare(hostile, "page.html")
    assert extra in decoded.text
    assert decoded.encoding == "utf-8"
    assert editions_of(hostile) == editions_of(_page("utf-8", extra))


def test_html_declared_latin1_is_windows_1252_as_browsers_read_it() -> None:
    from .test_formats import _html

    page = _html().replace("<head>", '<head><meta charset="iso-8859-1">', 1)
    page = page.replace("</body>", "<p>it\u2019s</p></body>", 1)
    decoded = prepare(page.encode("cp1252"), "page.html")
    assert "it\u2019s" in decoded.text and decoded.encoding == "cp1252"


def test_ingesting_a_utf7_page_is_clean(store_copy, tmp_path: Path) -> None:
    path = tmp_path / "page.html"
    path.write_bytes(_page("utf-7", "+2D3-"))
    proc = run_cli("--db", str(store_copy), "ingest", str(path))
    assert proc.returncode == 0, proc.stderr


# --- DOCX: zip bombs built from the real files -------------------------------------------

DOCX_2014 = ARCHIVE / "docx" / "2014-09-26.docx"
DOCX_KO = TRANSLATIONS / "ko-2018-08-10.kormtgcr.docx"
MAIN = "word/document.xml"


def _deflated(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, (2024, 1, 1, 0, 0, 0))
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def _padded_docx(real_docx: bytes, padding: int) -> bytes:
    """The real DOCX with ``padding`` bytes of spaces inside its document.xml, before
    </w:body> (still a valid document): a member that inflates far beyond its packed size."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(real_docx)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            body = src.read(info)
            if info.filename != MAIN:
                dst.writestr(info, body, compress_type=zipfile.ZIP_DEFLATED)
                continue
            head, tail = body.rsplit(b"</w:body>", 1)
            with dst.open(_deflated(MAIN), "w", force_zip64=True) as m:
                m.write(head)
                chunk = b" " * 2**20
                for _ in range(padding // 2**20):
                    m.write(chunk)
                m.write(b"</w:body>" + tail)
    return out.getvalue()


def _lie(
    data: bytes, member: str, *, compress_size: int | None = None, file_size: int | None = None
) -> bytes:
    """The zip with the sizes of ``member`` rewritten in its central directory (what
    zipfile trusts) and its local header: a directory that lies."""
    buf = bytearray(data)
    name = member.encode()
    cd = buf.find(b"PK\x01\x02")
    while cd >= 0:
        name_len = struct.unpack_from("<H", buf, cd + 28)[0]
        if bytes(buf[cd + 46 : cd + 46 + name_len]) == name:
            local = struct.unpack_from("<I", buf, cd + 42)[0]
            for offset, value in ((20, compress_size), (24, file_size)):
                if value is not None:
                    struct.pack_into("<I", buf, cd + offset, value)
                    struct.pack_into("<I", buf, local + offset - 2, value)
            return bytes(buf)
        cd = buf.find(b"PK\x01\x02", cd + 46)
    raise AssertionError(f"{member} not in the zip")


def test_a_real_docx_passes_the_counting_reader() -> None:
    for path in (DOCX_2014, DOCX_KO):
        data = real(path)
        parts = zipped.unpack_members(data, path.name, lambda name: True)
        assert MAIN in parts and sum(map(len, parts.values())) < 20 * 2**20


def _padded_to(real_docx: bytes, size: int) -> bytes:
    """The real DOCX padded so that its document.xml unpacks to ``size`` bytes."""
    with zipfile.ZipFile(io.BytesIO(real_docx)) as zf:
        main = zf.getinfo(MAIN).file_size
    return _padded_docx(real_docx, size - main)


BOMBS = [
    # (what, how to build it from a real DOCX, the words of the refusal)
    (
        "a member past 64 MiB",
        lambda d: _padded_to(d, 70 * 2**20),
        "Refused without unpacking it",
    ),
    (
        "over 100:1 on the main part",
        lambda d: _padded_to(d, 60 * 2**20),
        "Refused without unpacking it",
    ),
    (
        "the directory claiming 2:1 for over 100:1",
        lambda d: _lie(_padded_to(d, 60 * 2**20), MAIN, compress_size=30 * 2**20),
        # Python's zipfile with the zip-bomb check of CPython 3.11.8 and 3.12.2 (and
        # Debian's 3.11.2, which carries it) sees the member overlapping the next first.
        ("damaged Word document (the file ends", "damaged Word document (Overlapped entries"),
    ),
    (
        "the directory claiming 1 MiB for 60 MiB",
        lambda d: _lie(_padded_to(d, 60 * 2**20), MAIN, file_size=2**20),
        "damaged Word document (Bad CRC-32",
    ),
]


@pytest.mark.parametrize("what, build, message", BOMBS, ids=[b[0] for b in BOMBS])
@pytest.mark.parametrize("path", [DOCX_2014, DOCX_KO], ids=["en-2014", "ko-2018"])
def test_docx_bombs_are_refused_in_one_line(path: Path, what: str, build, message) -> None:
    """Refused from the zip directory when it tells the truth; when it lies, Python's zipfile
    stops at the size it gives (a CRC error), at the file's end or at an overlap."""
    bomb = build(real(path))
    with pytest.raises(InputError) as err:
        prepare(bomb, "bomb.docx")
    line = str(err.value)
    words = (message,) if isinstance(message, str) else message
    assert any(w in line for w in words) and "\n" not in line, line


# The counting reader alone, whatever the directory says (it never looks at its sizes but
# the packed one): (what, build, the ratio limit in force, the words of the refusal). The
# member limit is tested with the ratio lifted, as spaces compress far past it.
COUNTED = [
    ("one member past 64 MiB", lambda d: _padded_to(d, 70 * 2**20), 10**9, "more than 64 MiB"),
    ("over 100:1", lambda d: _padded_to(d, 60 * 2**20), 100, "more than 100 times larger"),
]


@pytest.mark.parametrize("what, build, ratio, message", COUNTED, ids=[c[0] for c in COUNTED])
def test_the_counting_reader_stops_at_the_limits(
    what: str, build, ratio: int, message: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(zipped, "MAX_RATIO", ratio)
    bomb = build(real(DOCX_2014))
    with pytest.raises(InputError, match=message) as err:
        zipped.unpack_members(bomb, "bomb.docx", lambda name: True)
    assert "unpacking stopped there" in str(err.value)


def test_the_counting_reader_stops_at_256_mib_in_all(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five members of 60 MiB, each under the member limit, 300 MiB in all. (The ratio
    limit is lifted for this one: five copies of spaces compress far past it.)"""
    monkeypatch.setattr(zipped, "MAX_RATIO", 10**9)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(real(DOCX_2014))) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_DEFLATED)
        for n in range(5):
            with dst.open(_deflated(f"word/media/pad{n}.bin"), "w", force_zip64=True) as m:
                for _ in range(60):
                    m.write(b" " * 2**20)
    with pytest.raises(InputError, match="more than 256 MiB"):
        zipped.unpack_members(out.getvalue(), "bomb.docx", lambda name: True)


# Runs one ingest with its address space capped, and reports the peak memory it used.
_CAPPED = """
import resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
proc = subprocess.run([sys.executable, "-m", "mtgrules.cli", *sys.argv[1:]], preexec_fn=cap)
print("MAXRSS_KIB=%d" % resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(proc.returncode)
"""


def _ingest_capped(db: Path, path: Path) -> tuple[subprocess.CompletedProcess, float, float]:
    t0 = time.monotonic()
    proc = subprocess.run(
        [sys.executable, "-c", _CAPPED, "--db", str(db), "ingest", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=600,
    )
    rss = int(proc.stdout.rpartition("MAXRSS_KIB=")[2] or 0) / 1024
    return proc, rss, time.monotonic() - t0


@pytest.mark.sqlite_only
def test_a_lying_bomb_is_refused_with_little_memory(store_copy: Path, tmp_path: Path) -> None:
    path = tmp_path / "bomb.docx"
    path.write_bytes(_lie(_padded_to(real(DOCX_KO), 60 * 2**20), MAIN, compress_size=30 * 2**20))
    before = table_counts(store_copy)
    proc, rss, _seconds = _ingest_capped(store_copy, path)
    assert proc.returncode == 2, proc.stderr
    assert "damaged Word document" in proc.stderr.strip()
    assert rss < 500, rss
    assert table_counts(store_copy) == before


@pytest.mark.slow
@pytest.mark.sqlite_only
def test_the_issues_198_to_1_bomb_is_refused_quickly(store_copy: Path, tmp_path: Path) -> None:
    """Issue 17's bomb: a 1.35 MB DOCX inflating to 255 MiB at 198:1, just under the old
    200:1 limit, took 6 GB and 2.5 minutes and was ingested. Its document.xml here is the
    real English one with 255 MiB of text made to compress about 200:1."""
    rng = random.Random(17)
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(real(DOCX_2014))) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            if info.filename != MAIN:
                dst.writestr(info, src.read(info), compress_type=zipfile.ZIP_DEFLATED)
        body = src.read(MAIN)
        head, tail = body.rsplit(b"</w:body>", 1)
        with dst.open(_deflated(MAIN), "w", force_zip64=True) as m:
            m.write(head)
            for _ in range(255):
                # Mostly one letter, a random one every ~100 bytes: about 200:1 deflated.
                block = bytearray(b"a" * 2**20)
                for _ in range(2**20 // 100):
                    block[rng.randrange(2**20)] = rng.randrange(97, 123)
                m.write(b"<w:p><w:r><w:t>" + bytes(block) + b"</w:t></w:r></w:p>")
            m.write(b"</w:body>" + tail)
    path = tmp_path / "bomb.docx"
    path.write_bytes(out.getvalue())
    info = zipfile.ZipFile(path).getinfo(MAIN)
    print(
        f"\nbomb: {path.stat().st_size / 1e6:.2f} MB, {info.file_size / info.compress_size:.0f}:1"
    )
    proc, rss, seconds = _ingest_capped(store_copy, path)
    assert proc.returncode == 2, proc.stderr
    assert "zip bomb" in proc.stderr and seconds < 60 and rss < 500, (seconds, rss)


# --- Word .doc cut short -----------------------------------------------------------------

DOC_2009 = ARCHIVE / "doc" / "2009-07-11.doc"


@pytest.mark.parametrize("keep", [0.5, 0.9, 0.998, 600 / 949248, 100 / 949248])
def test_a_truncated_doc_is_called_cut_short(keep: float) -> None:
    """Issue 17: a truncated .doc was "an OLE2 file ... such as an Excel or PowerPoint file"."""
    data = real(DOC_2009)
    cut = data[: max(1, int(len(data) * keep))]
    with pytest.raises(InputError) as err:
        prepare(cut, "rules.doc")
    assert "cut short" in str(err.value) and "Excel" not in str(err.value)
    assert not isinstance(err.value, NotRulesError)  # a damaged file, not a wrong kind


def test_an_ole2_file_without_word_says_what_it_is() -> None:
    """The real .doc with its WordDocument stream renamed Workbook, as an Excel file has."""
    data = real(DOC_2009)
    word = "WordDocument".encode("utf-16-le")
    renamed = data.replace(word, "Workbook".encode("utf-16-le") + b"\x00" * 8)
    with pytest.raises(NotRulesError, match="an Excel workbook"):
        prepare(renamed, "sheet.xls")


# --- markup that took quadratic time -----------------------------------------------------

# Issue 17's figures: "**a " 25 s for 64 KB; "<a b='" 35 s for 120 KB; here each is read in a
# fraction of a second (benchmarks/bench_markup.py measures them up to 1 MB).
QUADRATIC_ONCE = [
    ("markdown", "**a "),
    ("dokuwiki", "//a "),
    ("markdown", "<!--"),
    ("mediawiki", "<ref>"),
    ("mediawiki", "<nowiki>"),
    ("markdown", "[a "),
    ("html", "<a b='"),
    ("html", "<!--"),
]


@pytest.mark.parametrize(
    "dialect, unit", QUADRATIC_ONCE, ids=[f"{d} {u}" for d, u in QUADRATIC_ONCE]
)
def test_markup_that_was_quadratic_reads_in_a_moment(dialect: str, unit: str) -> None:
    text = unit * (128 * 1024 // len(unit))
    # CPU time of this process, so that other work on the machine cannot fail it; a bound
    # a hundred times what it takes (benchmarks/bench_markup.py has the figures).
    t0 = time.process_time()
    markup_lines(text, dialect)
    assert time.process_time() - t0 < 5  # it took minutes before


def test_a_page_with_nul_placeholders_of_its_own_is_read(tmp_path: Path) -> None:
    """Markup set aside as "\\x00N\\x00" while a line is read: a page holding such a
    sequence itself (after the binary sniff's first 8 KB) must not crash the restore."""
    from .test_formats import _markdown

    page = _markdown() + "\n" + "x" * 9000 + "\n\x00999\x00 and \\* star\n"
    lines = markup_lines(page, "markdown")
    assert any("\x00999\x00" in t for _, t in lines)


def _with_line(page: str, line: str) -> bytes:
    return (page + "\n\n" + line + "\n").encode("utf-8")


def _dokuwiki_page() -> str:
    from .test_formats import _dokuwiki

    return _dokuwiki()


def _markdown_page() -> str:
    from .test_formats import _markdown

    return _markdown()


# Every intake case of issue 17 that crashed (exit 70), ate memory or time, or was ingested
# as junk, through the CLI on a store holding the corpus: (name, the file, its exit code, the
# words of its one line on stderr, or of the summary when ingested). Refused means exit 2,
# one line, the store unchanged; ingested means the summary says what was damaged or
# skipped. (Non-UTF-8 file names and one file holding an edition three times are in
# test_exit_codes.py.)
CLI_CASES = [
    ("emoji.rtf", lambda: _insert(real(RTF_2006), b"\\u-10179?\\u-8704?"), 0, "added"),
    ("surrogate.rtf", lambda: _insert(real(RTF_2006), b"\\u-10179? "), 0, "replacement-char"),
    ("huge-u.rtf", lambda: _insert(real(RTF_2006), b"\\u99999999999? "), 0, "replacement-char"),
    ("bin.rtf", lambda: _insert(real(RTF_2006), BINARY_CASES[0][1]()), 0, "binary data block"),
    ("utf-7.html", lambda: _page("utf-7", "+2D3-"), 0, "added"),
    ("unicode-escape.html", lambda: _page("unicode_escape", "\\ud800"), 0, "added"),
    ("punycode.html", lambda: _page("punycode"), 0, "added"),
    ("unknown-codec.html", lambda: _page("x-no-such-codec"), 0, "added"),
    ("cut.doc", lambda: real(DOC_2009)[:300_000], 2, "cut short"),
    ("bomb.docx", lambda: _padded_to(real(DOCX_2014), 60 * 2**20), 2, "zip bomb"),
    (
        "lying-bomb.docx",
        lambda: _lie(_padded_to(real(DOCX_2014), 60 * 2**20), MAIN, file_size=2**20),
        2,
        "damaged Word document",
    ),
    ("bold.md", lambda: ("**a " * 32_768).encode(), 2, "no recognisable rules"),
    ("attribute.html", lambda: ("<a b='" * 20_000).encode(), 2, "no recognisable rules"),
    ("italic.txt", lambda: _with_line(_dokuwiki_page(), "//a " * 32_768), 0, "added"),
    ("bold-page.md", lambda: _with_line(_markdown_page(), "**a " * 32_768), 0, "added"),
]


@pytest.mark.parametrize("name, build, code, words", CLI_CASES, ids=[c[0] for c in CLI_CASES])
def test_ingest_of_a_hostile_file(store_copy, tmp_path: Path, name, build, code, words) -> None:
    path = tmp_path / name
    path.write_bytes(build())
    before = table_counts(store_copy)
    proc = run_cli("--db", str(store_copy), "ingest", str(path))
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    assert "internal error" not in proc.stderr and "Traceback" not in proc.stderr
    if code == 0:
        assert words in proc.stdout + proc.stderr, proc.stdout
        return
    line = proc.stderr.strip()
    assert "\n" not in line and words in line and name in line, line
    assert table_counts(store_copy) == before
