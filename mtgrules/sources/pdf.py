"""Step 3 of intake (extract) for PDF: the text layer, as paragraphs: page headers,
footers and numbers gone, wrapped lines and rules broken over pages joined.

pypdfium2 (PDFium) reads the text layer: 0.5 s for the 306-page 2026-01-16 edition where
pypdf takes 12 s; with the layout work below, 0.6 s (benchmarks/bench_formats.py). PDFium gives the page text with its own line breaks; for each line we ask
where it sits (baseline, left and right edge) and rebuild paragraphs from the layout, the way
a reader does:

- a line whose baseline is further below the previous one than the usual line pitch starts
  a new block (a blank line for the parser, which separates glossary entries);
- a line that ended although the next line's first word would have fitted ended its
  paragraph (a glossary term, the last line of a rule);
- a line indented differently from the continuation lines above it, or an "Example:",
  starts a new paragraph;
- anything else continues the paragraph, across a page break too.

Page headers and footers are learnt from the file, not from a list of strings: a line in
the first or last two lines of a page whose text (digits folded, so "Page 12" and "Page 13"
match, and so do the page numbers "12" and "13") comes back in the same place on at least 40%
of the pages is furniture.
"""

from __future__ import annotations

import ctypes
import re
import statistics
from collections import Counter, defaultdict
from dataclasses import dataclass

from ..errors import InputError
from ..text.labels import split_labelled_line
from .formats import PDF, Extracted, check_text_size

# A rules edition has about 300 pages; this only stops absurd files from running for minutes.
MAX_PAGES = 5000
# Below this many characters per page on average, the PDF is a scan (images of pages).
MIN_CHARS_PER_PAGE = 20

_FURNITURE_SHARE = 0.4  # share of pages a header or footer line appears on
_FURNITURE_DEPTH = 2  # lines from the top and from the bottom of a page that may be furniture
# Left edges closer than this are one indent (a quote mark's glyph sits ~2 pt right).
_INDENT_SLACK = 4.0

_EXAMPLE = re.compile(r"^(?:Examples?|Exemples?|Ejemplos?|Beispiele?|Esempi?|Exemplos?)\s*:|^例")
_LIGATURES = str.maketrans(
    {
        "\ufb00": "ff",
        "\ufb01": "fi",
        "\ufb02": "fl",
        "\ufb03": "ffi",
        "\ufb04": "ffl",
        "\ufb06": "st",
    }
)
# PDFium reports a hyphen that ends a line as U+FFFE (or U+0002): in the rules it is a real
# hyphen ("turn-" + "based" is "turn-based" in every other format). U+00AD is a soft hyphen
# proper, which is only printed because the word was split there: it goes.
_LINE_END_HYPHENS = str.maketrans({"\ufffe": "-", "\x02": "-"})
_SOFT_HYPHEN = "\xad"
_ODD_CHARS = re.compile("[\ufb00-\ufb06\ufffe\x02]")
# PDFium's text is in drawing order with "\r\n" where it saw a new line begin; but after a
# hyphen it took for a soft one (U+FFFE) it runs straight on into the next line, so a piece
# ends there too.
_PIECE = re.compile(r"[^\r\n\ufffe\x02]+[\ufffe\x02]?|[\ufffe\x02]")
# Front-matter page numbers (i, ii, xiv); lower case only: "X" alone is a glossary term.
_ROMAN = re.compile(r"^[ivxlcdm]{1,7}$")
_DIGITS = re.compile(r"\d+")


@dataclass
class _Line:
    """One line of a page's text layer, and where PDFium places it."""

    page: int
    base: float  # baseline, in PDF units from the bottom of the page
    left: float
    right: float
    text: str  # as PDFium gives it, trailing space kept (it tells a word ended there)


def extract_pdf(data: bytes, where: str) -> Extracted:
    pages = _read_pages(data, where)
    lines, removed = _drop_furniture(pages)
    text = _paragraphs(lines)
    notes = []
    if removed:
        notes.append(f"{removed} page header, footer or page-number lines removed")
    return Extracted(format=PDF, text=text, encoding="pdf text layer", notes=notes)


def _open(data: bytes, where: str):
    import pypdfium2 as pdfium  # heavy: a native library, loaded only for PDFs

    try:
        return pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        code = getattr(exc, "err_code", None)
        if code == 4:  # FPDF_ERR_PASSWORD
            raise InputError(
                f"{where}: the PDF is encrypted with a password; open it, save or print an "
                "unprotected copy, and give that."
            ) from None
        if code == 6:  # FPDF_ERR_SECURITY
            raise InputError(
                f"{where}: the PDF uses an unsupported security handler; save an unprotected copy."
            ) from None
        raise InputError(
            f"{where}: not a readable PDF ({exc}); the file may be cut short or damaged, "
            "download or export it again."
        ) from None


def _read_pages(data: bytes, where: str) -> list[list[_Line]]:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    pdf = _open(data, where)
    try:
        count = len(pdf)
        if count == 0:
            raise InputError(f"{where}: the PDF has no pages.")
        if count > MAX_PAGES:
            raise InputError(
                f"{where}: {count:,} pages, far more than any edition of the rules (about 300); "
                "is this the Comprehensive Rules?"
            )
        pages: list[list[_Line]] = []
        chars = 0
        for index in range(count):
            try:
                lines = _read_page(pdf, raw, index)
            except pdfium.PdfiumError:
                raise InputError(
                    f"{where}: page {index + 1} of the PDF cannot be read (the file is damaged); "
                    "download or export it again."
                ) from None
            chars += sum(len(ln.text) for ln in lines)
            check_text_size(chars, where)
            pages.append(lines)
    finally:
        pdf.close()
    if chars < MIN_CHARS_PER_PAGE * count:
        raise InputError(
            f"{where}: no text layer; run OCR first (for example ocrmypdf) and give the result "
            f"({chars} characters of text on {count} pages: the pages are pictures, a scan)."
        )
    return pages


def _read_page(pdf, raw, index: int) -> list[_Line]:
    page = pdf[index]
    try:
        textpage = page.get_textpage()
        try:
            return _page_lines(raw, textpage, index)
        finally:
            textpage.close()
    finally:
        page.close()


def _page_lines(raw, textpage, page: int) -> list[_Line]:
    n = raw.FPDFText_CountChars(textpage)
    if n <= 0:
        return []
    buf = (ctypes.c_ushort * (n + 1))()
    written = raw.FPDFText_GetText(textpage, 0, n, buf)
    text = bytes(memoryview(buf).cast("B")[: 2 * max(written - 1, 0)]).decode(
        "utf-16-le", "replace"
    )
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    ox, oy = ctypes.c_double(), ctypes.c_double()
    lines: list[_Line] = []
    # Each piece is placed from its first and last character.
    for m in _PIECE.finditer(text):
        piece = m.group()
        first = m.start() + len(piece) - len(piece.lstrip())
        last = m.end() - 1 - (len(piece) - len(piece.rstrip()))
        if last < first:
            continue
        c0 = raw.FPDFText_GetCharIndexFromTextIndex(textpage, first)
        c1 = raw.FPDFText_GetCharIndexFromTextIndex(textpage, last)
        if c0 < 0 or c1 < 0:
            continue
        raw.FPDFText_GetCharOrigin(textpage, c0, ox, oy)
        raw.FPDFText_GetCharBox(textpage, c0, left, right, bottom, top)
        x0 = left.value
        raw.FPDFText_GetCharBox(textpage, c1, left, right, bottom, top)
        text_ = piece.lstrip()
        if _ODD_CHARS.search(text_):  # str.translate is slow; most lines need nothing
            text_ = text_.translate(_LINE_END_HYPHENS).translate(_LIGATURES)
        lines.append(_Line(page, oy.value, x0, right.value, text_))
    return _reading_order(lines)


def _reading_order(lines: list[_Line]) -> list[_Line]:
    """Top to bottom; pieces drawn separately on one baseline become one line, left to right."""
    lines.sort(key=lambda ln: (-ln.base, ln.left))
    merged: list[_Line] = []
    for ln in lines:
        prev = merged[-1] if merged else None
        if prev is not None and abs(prev.base - ln.base) < 1.0:
            glue = "" if prev.text.endswith(" ") or ln.left - prev.right < 1.0 else " "
            if ln.left >= prev.left:
                prev.text += glue + ln.text
                prev.right = max(prev.right, ln.right)
            else:
                prev.text = ln.text + glue + prev.text
                prev.left = ln.left
            continue
        merged.append(ln)
    return merged


def _furniture_key(text: str) -> str:
    t = text.strip()
    if _ROMAN.match(t):
        return "#"
    return _DIGITS.sub("#", t.casefold())


def _drop_furniture(pages: list[list[_Line]]) -> tuple[list[_Line], int]:
    """Remove running headers, footers and page numbers; return the other lines in order."""
    with_text = [p for p in pages if p]
    seen: dict[tuple[str, str], set[int]] = defaultdict(set)
    for lines in with_text:
        for band, candidates in (
            ("top", lines[:_FURNITURE_DEPTH]),
            ("bottom", lines[-_FURNITURE_DEPTH:]),
        ):
            for ln in candidates:
                seen[(band, _furniture_key(ln.text))].add(ln.page)
    threshold = max(3, _FURNITURE_SHARE * len(with_text))
    furniture = {key for key, on in seen.items() if len(on) >= threshold}
    kept: list[_Line] = []
    removed = 0
    for lines in with_text:
        top = set(map(id, lines[:_FURNITURE_DEPTH]))
        bottom = set(map(id, lines[-_FURNITURE_DEPTH:]))
        for ln in lines:
            key = _furniture_key(ln.text)
            if (id(ln) in top and ("top", key) in furniture) or (
                id(ln) in bottom and ("bottom", key) in furniture
            ):
                removed += 1
                continue
            kept.append(ln)
    return kept, removed


def _pitch(lines: list[_Line]) -> float:
    """The usual distance between the baselines of two lines of one paragraph."""
    steps = Counter(
        round((a.base - b.base) * 4) / 4
        for a, b in zip(lines, lines[1:], strict=False)
        if a.page == b.page and 0 < a.base - b.base < 200
    )
    if not steps:
        return 12.0
    total = sum(steps.values())
    # The smallest step that is common: within a paragraph, lines sit at the smallest pitch;
    # gaps between paragraphs and headings are larger.
    for step in sorted(steps):
        near = sum(n for s, n in steps.items() if abs(s - step) <= 0.5)
        if near >= 0.05 * total:
            return step
    return statistics.median(steps.elements())


def _is_wide(ch: str) -> bool:
    """Scripts written without spaces between words (Han, kana, CJK punctuation)."""
    o = ord(ch)
    return (
        0x2E80 <= o <= 0x303F
        or 0x3040 <= o <= 0x30FF
        or 0x3400 <= o <= 0x9FFF
        or 0xF900 <= o <= 0xFAFF
        or 0xFF00 <= o <= 0xFFEF
    )


def _join(head: str, tail: str) -> str:
    """Join a wrapped line onto its paragraph."""
    if head.endswith(_SOFT_HYPHEN):
        return head[:-1] + tail
    if head.endswith(" "):
        return head + tail
    if head.endswith(("-", "\u2010", "\u2011", "\u2013", "\u2014", "/")) and head[-2:-1].strip():
        # "state-" + "based" and "once—" + "the next": the line broke after the dash. After
        # "Artifact –" (a spaced dash) the space stays.
        return head + tail
    if head and tail and (_is_wide(head[-1]) or _is_wide(tail[0])):
        return head + tail
    return head + " " + tail


_TERMINAL = tuple(".!?;:)]\"'\u201d\u2019\u3002\uff01\uff1f\uff09\u300d")


def _heading_like(last: _Line, first: _Line) -> bool:
    return last is first and not last.text.rstrip().endswith(_TERMINAL)


def _starts_rule(text: str) -> bool:
    # "704.5n, then" or "903.10.)" inside a wrapped sentence are references, not labels: a
    # rule's text after its label begins with a capital letter or a non-Latin character.
    labelled = split_labelled_line(text.strip())
    if labelled is None:
        return False
    first = labelled[1][0]
    return first.isupper() or (first.isalpha() and not first.isascii())


def _first_word(text: str) -> str:
    text = text.strip()
    if text and _is_wide(text[0]):
        return text[0]
    return text.split(" ", 1)[0]


@dataclass
class _Layout:
    """The layout of the document's pages, learnt from its lines: what line and paragraph breaks are
    judged against."""

    pitch: float  # baseline to baseline within a paragraph
    right_margin: float
    page_top: float  # baseline of a page's first line when nothing pushes it down
    hanging: bool  # wrapped lines sit right of a paragraph's first line (the rules' layout)


def _layout(lines: list[_Line]) -> _Layout:
    pitch = _pitch(lines)
    rights: dict[int, float] = defaultdict(float)
    for ln in lines:
        rights[ln.page] = max(rights[ln.page], ln.right)
    firsts = [
        b.base for a, b in zip([None, *lines], lines, strict=False) if a is None or a.page != b.page
    ]
    # Second line minus first line of each paragraph start we can see on one page: positive
    # for hanging indents, negative for first-line indents.
    shifts = [
        b.left - a.left
        for a, b in zip(lines, lines[1:], strict=False)
        if a.page == b.page
        and abs((a.base - b.base) - pitch) < 0.5
        and abs(b.left - a.left) > _INDENT_SLACK
    ]
    return _Layout(
        pitch=pitch,
        # The median of each page's widest line, so that a page of short lines (the contents)
        # does not make every short line look full.
        right_margin=statistics.median(rights.values()),
        page_top=sorted(firsts)[int(0.9 * (len(firsts) - 1))],
        hanging=sum(1 for s in shifts if s > 0) > sum(1 for s in shifts if s < 0),
    )


def _paragraphs(lines: list[_Line]) -> str:
    if not lines:
        return ""
    layout = _layout(lines)
    out: list[str] = []  # finished paragraphs; "" is a blank line between blocks
    current = lines[0].text
    para_first = lines[0]  # first line of the current paragraph
    prev = lines[0]
    for i in range(1, len(lines)):
        ln = lines[i]
        text = ln.text
        brk = _break(prev, ln, lines[i + 1] if i + 1 < len(lines) else None, para_first, layout)
        if brk == "line" and ln.page != prev.page and not _heading_like(prev, para_first):
            # A page break hides the space between blocks; a paragraph that ended at the foot
            # of a page ends its block too (a glossary entry), unless it was a lone short line
            # (a term or heading whose body starts the next page).
            brk = "block"
        if brk is None:
            current = _join(current, text)
        else:
            out.append(current.rstrip())
            if brk == "block":
                out.append("")
            current = text
            para_first = ln
        prev = ln
    out.append(current.rstrip())
    return "\n".join(out) + "\n"


def _term_after_sentence(prev: _Line, ln: _Line, nxt: _Line | None, layout: _Layout) -> bool:
    """A short unpunctuated line at the top of a page, after a sentence ended at the foot of
    the last one, and followed closely by a line at its own indent: a glossary term or a
    heading with its body, not the tail of the paragraph before."""
    return (
        nxt is not None
        and nxt.page == ln.page
        and prev.text.rstrip().endswith(_TERMINAL)
        and not ln.text.rstrip().endswith(_TERMINAL)
        and _ended_short(ln, nxt, layout)
        and abs((ln.base - nxt.base) - layout.pitch) < 0.5 * layout.pitch
        and abs(nxt.left - ln.left) <= _INDENT_SLACK
    )


def _ended_short(line: _Line, after: _Line, layout: _Layout) -> bool:
    """True when the first word of ``after`` would have fitted at the end of ``line``."""
    text = line.text.rstrip()
    char_w = max(line.right - line.left, 1.0) / max(len(text), 1)
    room = layout.right_margin - line.right
    return room > (len(_first_word(after.text)) + 1) * char_w * 1.3 + char_w


def _break(
    prev: _Line, ln: _Line, nxt: _Line | None, para_first: _Line, layout: _Layout
) -> str | None:
    """None when ``ln`` continues the paragraph, "line" for a new paragraph, "block" for a new
    paragraph after vertical space."""
    new_page = ln.page != prev.page
    if not new_page:
        step = prev.base - ln.base
        if step > 1.4 * layout.pitch or step < -0.5 * layout.pitch:
            return "block"
    elif ln.base < layout.page_top - 0.5 * layout.pitch:
        # The first line of the page sits lower than a page's first line usually does: the
        # space before a paragraph survived the page break.
        return "block"
    if _EXAMPLE.match(ln.text):
        return "line"
    if (new_page or ln.left <= prev.left + _INDENT_SLACK) and _starts_rule(ln.text):
        return "line"  # a rule label, not indented like a wrapped line: the next rule
    if _ended_short(prev, ln, layout):
        return "line"  # the next word would have fitted: the line ended its paragraph
    if new_page:
        if _term_after_sentence(prev, ln, nxt, layout):
            return "line"
        if layout.hanging and ln.left < para_first.left - _INDENT_SLACK:
            return "line"  # left of the paragraph's first line: a heading or the next rule
    elif prev is not para_first and abs(ln.left - prev.left) > _INDENT_SLACK:
        return "line"  # indented unlike the continuation lines above it
    return None
